import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SEASON_ID, DemoLeague } from '../../hub/league/demo-league.ts';
import { startTestHub, testConfig, type TestHub } from './support.ts';

const running: TestHub[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.hub.stop();
});

describe('the demo plays a house league on its simulated tables', () => {
  it('sets the season up once, starts a fixture on a free table, and the next one when the simulator restarts the table', async () => {
    let demo: DemoLeague | null = null;
    const t = await startTestHub({ config: testConfig() });
    running.push(t);
    const hub = t.hub;
    demo = new DemoLeague(hub.league!, ['t1'], () => new Date(t.clock.t).toISOString().slice(0, 10));
    // The hub calls the director after the league reads each state (HubOptions.onTableState); wired by hand here.
    const table = hub.tables.get('t1')!;
    const hook = (hub as unknown as { options: { onTableState?: (s: unknown) => void } }).options;
    hook.onTableState = (s) => demo!.onTableState(s as never);

    demo.ensureSeason();
    demo.ensureSeason(); // once only
    let league = hub.league!.state();
    const season = league.seasons.find((s) => s.id === DEMO_SEASON_ID)!;
    expect(season.standings).toHaveLength(4);
    expect(league.todayFixtures.length).toBe(season.fixtureCount);
    expect(season.fixtureCount).toBe(12); // four players, home and away

    // The table's default match has no shot yet: the first fixture takes the table.
    demo.onTableState(table.state());
    league = hub.league!.state();
    expect(league.live).toHaveLength(1);
    const first = league.live[0]!;
    expect(table.state().match?.players).toEqual([first.home, first.away]);

    // The match ends (a forfeit here); the league records it; the simulator then restarts the table.
    expect(table.input({ kind: 'referee', referee: { action: 'forfeit', player: first.away } }).ok).toBe(true);
    league = hub.league!.state();
    expect(league.seasons[0]!.playedCount).toBe(1);
    expect(league.live).toHaveLength(0);
    expect(table.restartMatch().ok).toBe(true);
    league = hub.league!.state();
    expect(league.live).toHaveLength(1);
    expect(league.live[0]!.fixture).not.toBe(first.fixture);
    expect(table.state().match?.players).toEqual([league.live[0]!.home, league.live[0]!.away]);
  });
});
