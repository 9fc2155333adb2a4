import { afterEach, describe, expect, it } from 'vitest';
import { request, startTestHub, subscriber, VENUE_PASSWORD, type TestHub } from '../hub/support.ts';

let t: TestHub | null = null;
afterEach(async () => {
  await t?.hub.stop();
  t = null;
});

const season = {
  id: 's1',
  name: 'Winter carom',
  discipline: 'carom',
  target: 5,
  points: { win: 2, draw: 1, loss: 0 },
  handicap: { inningsPerMatch: 4, min: 1, max: 10, lastMatches: 5 },
  players: [
    { name: 'Ana', averages: { carom: 0.5 } },
    { name: 'Ben', averages: { carom: 0.25 } },
    { name: 'Cid' },
  ],
};
const scoring = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };
const scoringYellow = { events: [{ kind: 'ball', balls: ['yellow', 'red'] }, { kind: 'ball', balls: ['yellow', 'white'] }] };

describe('house league end to end: a table plays a fixture and the standings change', () => {
  it('setup → fixtures → start on a table → shots → the result and standings in billiards/league/state', async () => {
    t = await startTestHub();
    const sub = await subscriber(t.hub.mqttUrl, ['billiards/league/state', 'billiards/tables/t1/state']);
    const pw = {};

    // A password in the request is refused outright: the broker login is the authority (docs/security.md).
    const denied = await request(sub.client, 'billiards', 'league/setup', { password: 'wrong', season });
    expect(denied).toMatchObject({ status: 'error', error: expect.stringMatching(/^password: requests no longer carry a password/) });
    const bad = await request(sub.client, 'billiards', 'league/setup', { ...pw, season: { ...season, players: [{ name: 'Ana' }, { name: 'Ana' }] } });
    expect(bad.status).toBe('error');
    expect(bad.error).toContain('season.players[1].name');

    expect((await request(sub.client, 'billiards', 'league/setup', { ...pw, season })).status).toBe('ok');
    const gen = await request(sub.client, 'billiards', 'league/generate-fixtures', { ...pw, season: 's1', startDate: '1970-01-01', daysBetweenRounds: 7 });
    expect(gen.status).toBe('ok');
    expect(gen.data).toHaveLength(3); // three players: one game per round, one bye
    const fixture = gen.data[0];

    const started = await request(sub.client, 'billiards', 'league/start-fixture', { ...pw, table: 't1', fixture: fixture.id });
    expect(started.status).toBe('ok');
    const targets = started.data.setup.options.targets;
    expect(Object.keys(targets).sort()).toEqual([fixture.home, fixture.away].sort());
    let state = await sub.next('billiards/tables/t1/state', (s) => s.variant === 'carom' && s.match?.players?.[0] === fixture.home);
    expect(state.players.map((p: { target: number }) => p.target)).toEqual([targets[fixture.home], targets[fixture.away]]);
    let league = await sub.next('billiards/league/state', (s) => s.live.length === 1);
    expect(league.live[0]).toMatchObject({ table: 't1', fixture: fixture.id });

    // The first player scores every shot until the match ends (the second misses).
    for (let i = 0; i < 40 && state.status !== 'finished' && state.status !== 'drawn'; i++) {
      const first = state.turn === fixture.home;
      const r = await request(sub.client, 'billiards', 'match/shot', { ...pw, table: 't1', shot: first ? scoring : { events: [] } });
      expect(r.status, r.error).toBe('ok');
      state = r.data;
    }
    expect(state.status).toBe('finished');
    expect(state.winner).toBe(fixture.home);

    league = await sub.next('billiards/league/state', (s) => s.recentResults.length === 1);
    expect(league.live).toEqual([]);
    const rows = league.seasons[0].standings;
    expect(rows[0]).toMatchObject({ rank: 1, player: fixture.home, played: 1, won: 1, points: 2, score: targets[fixture.home] });
    expect(rows.find((r: { player: string }) => r.player === fixture.away)).toMatchObject({ played: 1, lost: 1, points: 0 });
    expect(league.recentResults[0]).toMatchObject({ fixture: fixture.id, source: 'table', winner: 'home', table: 't1' });
    expect(league.seq).toBeGreaterThan(3);

    // A correction with a reason supersedes the table's result and keeps it in the trail.
    const fix = await request(sub.client, 'billiards', 'league/result', {
      ...pw,
      fixture: fixture.id,
      home: { score: 1, innings: 2, highRun: 1 },
      away: { score: 1, innings: 2, highRun: 1 },
      winner: 'draw',
      by: 'referee',
      reason: 'the match was replayed by agreement',
    });
    expect(fix.status, fix.error).toBe('ok');
    expect(fix.data.version).toBe(2);
    league = await sub.next('billiards/league/state', (s) => s.recentResults[0]?.version === 2);
    expect(league.seasons[0].standings.filter((r: { drawn: number }) => r.drawn === 1)).toHaveLength(2);
    const csv = await request(sub.client, 'billiards', 'league/export', { what: 'results' });
    expect(csv.data.content.trim().split('\n')).toHaveLength(3);
    expect(csv.data.content).toContain('the match was replayed by agreement');
    const noReason = await request(sub.client, 'billiards', 'league/result', { ...pw, fixture: fixture.id, home: { score: 1, innings: 1, highRun: 1 }, away: { score: 0, innings: 1, highRun: 0 }, winner: 'home', by: 'x', reason: ' ' });
    expect(noReason.error).toContain('reason');
    await sub.client.endAsync();
  });

  it('the link to a fixture survives a hub restart, and a match replaced on the table abandons it', async () => {
    t = await startTestHub();
    const dataDir = t.dataDir;
    let sub = await subscriber(t.hub.mqttUrl, ['billiards/league/state']);
    const pw = {};
    await request(sub.client, 'billiards', 'league/setup', { ...pw, season: { ...season, handicap: null, target: 2 } });
    const gen = await request(sub.client, 'billiards', 'league/generate-fixtures', { ...pw, season: 's1', startDate: '1970-01-01' });
    const [f1, f2] = gen.data;
    expect((await request(sub.client, 'billiards', 'league/start-fixture', { ...pw, table: 't1', fixture: f1.id })).status).toBe('ok');
    expect((await request(sub.client, 'billiards', 'match/shot', { ...pw, table: 't1', shot: scoring })).data.players[0].score).toBe(1);
    await sub.client.endAsync();
    await t.hub.stop();

    t = await startTestHub({ dataDir });
    sub = await subscriber(t.hub.mqttUrl, ['billiards/league/state']);
    expect((await sub.next('billiards/league/state')).live).toEqual([expect.objectContaining({ table: 't1', fixture: f1.id })]);
    const last = await request(sub.client, 'billiards', 'match/shot', { ...pw, table: 't1', shot: scoring });
    expect(last.data.status).toBe('finished');
    const league = await sub.next('billiards/league/state', (s) => s.recentResults.length === 1);
    expect(league.recentResults[0]).toMatchObject({ fixture: f1.id, home: { score: 2 }, winner: 'home' });

    // A fixture started, then another match started on the table by hand: no result for the fixture.
    expect((await request(sub.client, 'billiards', 'league/start-fixture', { ...pw, table: 't1', fixture: f2.id })).status).toBe('ok');
    expect((await request(sub.client, 'billiards', 'match/start', { ...pw, table: 't1', variant: 'carom', players: ['X', 'Y'], target: 1 })).status).toBe('ok');
    const after = await sub.next('billiards/league/state', (s) => s.live.length === 0 && s.recentResults.length === 1 && s.seq > league.seq);
    expect(after.seasons[0].fixtures.find((f: { id: string }) => f.id === f2.id).status).toBe('scheduled');
    expect((await request(sub.client, 'billiards', 'league/start-fixture', { ...pw, table: 't1', fixture: f1.id })).error).toContain('already has a result');
    expect((await request(sub.client, 'billiards', 'league/start-fixture', { ...pw, table: 'nope', fixture: f2.id })).error).toBe("table: no table 'nope' on this hub");
    await sub.client.endAsync();
  });
});
