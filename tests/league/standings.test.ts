import { describe, expect, it } from 'vitest';
import { handicapTarget, rollingAverage } from '../../hub/league/handicap.ts';
import { rankings, standings, type Played } from '../../hub/league/standings.ts';
import type { LeagueResult } from '../../hub/league/types.ts';

let n = 0;
/** A played game: home and away as [score, innings, highRun]. */
function game(home: string, away: string, h: [number, number, number], a: [number, number, number], winner?: 'home' | 'away' | 'draw'): Played {
  n += 1;
  const w = winner ?? (h[0] > a[0] ? 'home' : h[0] < a[0] ? 'away' : 'draw');
  const result: LeagueResult = {
    fixture: `f${n}`,
    version: 1,
    source: 'manual',
    home: { score: h[0], innings: h[1], highRun: h[2] },
    away: { score: a[0], innings: a[1], highRun: a[2] },
    winner: w,
    by: 't',
    reason: 't',
    at: '2026-01-01T00:00:00Z',
    table: null,
  };
  return { fixture: { id: `f${n}`, season: 's', round: 1, date: '2026-01-01', home, away }, result };
}
const season = (names: string[], points = { win: 2, draw: 1, loss: 0 }) => ({ players: names.map((name) => ({ name })), points });
const order = (rows: { player: string }[]) => rows.map((r) => r.player);

describe('standings', () => {
  it('counts played, won, drawn, lost, points, score, innings, average and high run', () => {
    const rows = standings(season(['A', 'B', 'C']), [game('A', 'B', [30, 20, 7], [20, 20, 5]), game('C', 'A', [25, 25, 4], [25, 25, 6])]);
    expect(rows[0]).toMatchObject({ rank: 1, player: 'A', played: 2, won: 1, drawn: 1, lost: 0, points: 3, score: 55, innings: 45, average: 1.222, highRun: 7 });
    expect(order(rows)).toEqual(['A', 'C', 'B']);
    expect(rows[2]).toMatchObject({ player: 'B', played: 1, lost: 1, points: 0 });
  });

  it('points schemes: 3-1-0 and 2-1-0 order differently', () => {
    // A: two wins, two losses. B: four draws... with 3 games each: A W W L, B D D D
    const games = [game('A', 'X', [10, 5, 1], [0, 5, 0]), game('A', 'Y', [10, 5, 1], [0, 5, 0]), game('A', 'Z', [0, 5, 0], [10, 5, 1]), game('B', 'X', [5, 5, 1], [5, 5, 1]), game('B', 'Y', [5, 5, 1], [5, 5, 1]), game('B', 'Z', [5, 5, 1], [5, 5, 1])];
    const names = ['A', 'B', 'X', 'Y', 'Z'];
    const threeOne = standings(season(names, { win: 3, draw: 1, loss: 0 }), games);
    expect(threeOne.find((r) => r.player === 'A')!.points).toBe(6);
    expect(threeOne.find((r) => r.player === 'B')!.points).toBe(3);
    const oneOne = standings(season(names, { win: 1, draw: 1, loss: 0 }), games);
    expect(oneOne.find((r) => r.player === 'B')!.points).toBe(3);
    expect(oneOne.find((r) => r.player === 'A')!.points).toBe(2);
    expect(order(oneOne).indexOf('B')).toBeLessThan(order(oneOne).indexOf('A'));
  });

  it('tie-break 1: head to head between players level on points', () => {
    // A and B both 2 points; B beat A, A has the better average.
    const rows = standings(season(['A', 'B', 'C']), [game('A', 'B', [10, 10, 3], [20, 10, 3]), game('A', 'C', [50, 5, 9], [0, 5, 0])]);
    expect(rows.slice(0, 2).every((r) => r.points === 2)).toBe(true);
    expect(rows.find((r) => r.player === 'A')!.average).toBeGreaterThan(rows.find((r) => r.player === 'B')!.average);
    expect(order(rows)).toEqual(['B', 'A', 'C']); // B first: B beat A
  });

  it('tie-break 2: the average when head to head is level', () => {
    // A and B drew each other; each beat C once; A has the better average.
    const rows = standings(season(['A', 'B', 'C']), [game('A', 'B', [20, 10, 3], [20, 10, 3]), game('A', 'C', [30, 10, 5], [10, 10, 2]), game('B', 'C', [20, 20, 5], [10, 20, 2])]);
    expect(rows[0]!.points).toBe(rows[1]!.points);
    expect(order(rows).slice(0, 2)).toEqual(['A', 'B']);
  });

  it('tie-break 3: the high run when head to head and average are level', () => {
    const rows = standings(season(['A', 'B']), [game('A', 'B', [20, 10, 3], [20, 10, 8])]);
    expect(rows[0]!.average).toBe(rows[1]!.average);
    expect(order(rows)).toEqual(['B', 'A']);
  });

  it('rankings by average and by high run', () => {
    const r = rankings([game('A', 'B', [30, 10, 4], [20, 10, 9])]);
    expect(order(r.byAverage)).toEqual(['A', 'B']);
    expect(order(r.byHighRun)).toEqual(['B', 'A']);
    expect(r.byAverage[0]).toMatchObject({ matches: 1, average: 3, highRun: 4 });
  });
});

describe('handicaps', () => {
  const f = { inningsPerMatch: 20, min: 10, max: 60, lastMatches: 2 };
  it('target = clamp(round(average × innings per match), min, max)', () => {
    expect(handicapTarget(1.234, f)).toBe(25);
    expect(handicapTarget(0.1, f)).toBe(10);
    expect(handicapTarget(9, f)).toBe(60);
    expect(handicapTarget(1.225, f)).toBe(25); // 24.5 rounds up
  });
  it('the rolling average uses only the last N matches', () => {
    const history = [game('A', 'B', [100, 10, 1], [0, 10, 0]), game('A', 'B', [10, 10, 1], [0, 10, 0]), game('B', 'A', [0, 10, 0], [30, 10, 1])].map((g) => ({ result: g.result, home: g.fixture.home, away: g.fixture.away }));
    expect(rollingAverage('A', history, 2)).toBe(2);
    expect(rollingAverage('A', history, 3)).toBe(140 / 30);
    expect(rollingAverage('Z', history, 3)).toBeNull();
  });
});

describe('team standings', () => {
  it('sum the players’ points; the team average breaks a tie', async () => {
    const { teamStandings } = await import('../../hub/league/standings.ts');
    const s = { players: [{ name: 'A', team: 'Reds' }, { name: 'B', team: 'Blues' }, { name: 'C', team: 'Reds' }, { name: 'D', team: 'Blues' }], points: { win: 2, draw: 1, loss: 0 } };
    const rows = standings(s, [game('A', 'B', [10, 10, 2], [5, 10, 1]), game('D', 'C', [30, 10, 6], [1, 10, 1])]);
    const teams = teamStandings(['Reds', 'Blues'], rows);
    expect(teams.map((t) => [t.team, t.points, t.players])).toEqual([
      ['Blues', 2, 2],
      ['Reds', 2, 2],
    ]);
    expect(teams[0]!.average).toBe(1.75);
  });
});
