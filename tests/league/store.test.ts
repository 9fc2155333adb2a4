import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeagueService, type LeagueState } from '../../hub/league/service.ts';
import { LeagueStore } from '../../hub/league/store.ts';
import { seasonSchema } from '../../hub/league/types.ts';
import { ok } from '../../hub/rules/result.ts';

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), 'league-')), 'hub.sqlite');
  const store = new LeagueStore(file);
  const published: LeagueState[] = [];
  let t = Date.parse('2026-03-02T19:00:00Z');
  const league = new LeagueService({ store, iso: () => new Date((t += 1000)).toISOString(), publish: (s) => published.push(s), startMatch: () => ok(undefined) });
  return { file, store, league, published };
}
const season = seasonSchema.parse({ id: 's1', name: 'Spring', discipline: 'three-cushion', target: 20, players: [{ name: 'Ana' }, { name: 'Ben' }, { name: 'Cid' }, { name: 'Dee' }] });

describe('LeagueStore and the audit trail', () => {
  it('migrates its own schema version in the hub file, alongside other tables', () => {
    const { file, store } = setup();
    expect(store.schemaVersion).toBe(1);
    store.close();
    const again = new LeagueStore(file); // idempotent on reopen
    expect(again.schemaVersion).toBe(1);
    again.close();
    const db = new Database(file, { readonly: true });
    expect((db.prepare('SELECT version FROM league_schema_version').all() as unknown[]).length).toBe(1);
    db.close();
  });

  it('a correction is a new version with who, why and when; the earlier one stays', () => {
    const { league, store, published } = setup();
    expect(league.setup(season).ok).toBe(true);
    const fixtures = league.generateFixtures({ season: 's1', startDate: '2026-03-02', daysBetweenRounds: 7, double: false });
    expect(fixtures.ok && fixtures.value.length).toBe(6);
    const f = store.fixtures()[0]!;
    const first = league.manualResult({ fixture: f.id, home: { score: 20, innings: 10, highRun: 5 }, away: { score: 12, innings: 10, highRun: 4 }, winner: 'home', by: 'Ann (captain)', reason: 'table 2 sensors were off' });
    expect(first.ok).toBe(true);
    const second = league.manualResult({ fixture: f.id, home: { score: 18, innings: 10, highRun: 5 }, away: { score: 20, innings: 10, highRun: 4 }, winner: 'away', by: 'referee', reason: 'score sheet misread' });
    expect(second.ok && second.value.version).toBe(2);
    const trail = league.history(f.id);
    expect(trail.map((r) => [r.version, r.by, r.reason, r.winner])).toEqual([
      [1, 'Ann (captain)', 'table 2 sensors were off', 'home'],
      [2, 'referee', 'score sheet misread', 'away'],
    ]);
    expect(trail.every((r) => /^2026-03-02T19:/.test(r.at))).toBe(true);
    const rows = league.standings('s1');
    expect(rows.ok && rows.value.find((r) => r.player === f.away)).toMatchObject({ won: 1, points: 2 });
    expect(published.at(-1)!.seq).toBe(4);
    expect(published.at(-1)!.todayFixtures.length).toBe(2); // round 1 is today
  });

  it('bad results and commands change nothing', () => {
    const { league, store, published } = setup();
    league.setup(season);
    league.generateFixtures({ season: 's1', startDate: '2026-03-02', daysBetweenRounds: 7, double: false });
    const before = published.length;
    const f = store.fixtures()[0]!;
    expect(league.manualResult({ fixture: 'nope', home: { score: 1, innings: 1, highRun: 1 }, away: { score: 0, innings: 1, highRun: 0 }, winner: 'home', by: 'x', reason: 'y' })).toMatchObject({ ok: false, error: "fixture: no fixture 'nope'" });
    expect(league.manualResult({ fixture: f.id, home: { score: 1, innings: 1, highRun: 1 }, away: { score: 3, innings: 1, highRun: 3 }, winner: 'home', by: 'x', reason: 'y' }).ok).toBe(false);
    expect(league.generateFixtures({ season: 's1', startDate: '2026-03-02', daysBetweenRounds: 7, double: false })).toMatchObject({ ok: false });
    expect(league.setup(season)).toMatchObject({ ok: false });
    expect(store.allResults()).toEqual([]);
    expect(published.length).toBe(before);
  });

  it('exports standings and results as CSV', () => {
    const { league, store } = setup();
    league.setup(season);
    league.generateFixtures({ season: 's1', startDate: '2026-03-02', daysBetweenRounds: 7, double: false });
    const f = store.fixtures()[0]!;
    league.manualResult({ fixture: f.id, home: { score: 20, innings: 10, highRun: 5 }, away: { score: 12, innings: 10, highRun: 4 }, winner: 'home', by: 'x', reason: 'entered, "late"' });
    const standingsCsv = league.exportCsv('standings');
    expect(standingsCsv.ok && standingsCsv.value.split('\n')[0]).toBe('season,rank,player,team,played,won,drawn,lost,points,score,innings,average,high_run');
    expect(standingsCsv.ok && standingsCsv.value.split('\n')[1]).toBe(`s1,1,${f.home},,1,1,0,0,2,20,10,2.000,5`);
    const results = league.exportCsv('results');
    expect(results.ok && results.value).toContain('"entered, ""late"""');
  });
});
