import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundRobin } from '../../hub/league/fixtures.ts';
import { standings, type Played } from '../../hub/league/standings.ts';

const side = fc.record({ score: fc.integer({ min: 0, max: 50 }), innings: fc.integer({ min: 1, max: 50 }), highRun: fc.integer({ min: 0, max: 20 }) });

describe('standings (properties)', () => {
  it('points add up, every game is counted twice, ranks are 1..n in non-increasing points', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.record({ win: fc.integer({ min: 0, max: 5 }), draw: fc.integer({ min: 0, max: 5 }), loss: fc.integer({ min: 0, max: 5 }) }),
        fc.array(fc.tuple(side, side, fc.constantFrom('home' as const, 'away' as const, 'draw' as const)), { maxLength: 40 }),
        (n, points, outcomes) => {
          const players = Array.from({ length: n }, (_, i) => `P${i}`);
          const pairs = roundRobin(players).flatMap((r) => r.pairs);
          const games: Played[] = pairs.slice(0, outcomes.length).map((p, i) => {
            const [home, away, winner] = outcomes[i]!;
            return { fixture: { id: `f${i}`, season: 's', round: 1, date: '2026-01-01', ...p }, result: { fixture: `f${i}`, version: 1, source: 'manual', home, away, winner, by: 'x', reason: 'x', at: '', table: null } };
          });
          const rows = standings({ players: players.map((name) => ({ name })), points }, games);
          const expected = games.reduce((a, g) => a + (g.result.winner === 'draw' ? 2 * points.draw : points.win + points.loss), 0);
          expect(rows.reduce((a, r) => a + r.points, 0)).toBe(expected);
          expect(rows.reduce((a, r) => a + r.played, 0)).toBe(2 * games.length);
          expect(rows.map((r) => r.rank)).toEqual(players.map((_, i) => i + 1));
          for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.points).toBeGreaterThanOrEqual(rows[i]!.points);
          for (const r of rows) expect(r.won + r.drawn + r.lost).toBe(r.played);
        },
      ),
    );
  });
});
