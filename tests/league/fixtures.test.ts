import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundRobin } from '../../hub/league/fixtures.ts';

const playerLists = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 20 });
const key = (a: string, b: string) => JSON.stringify([a, b].sort());

describe('round robin (circle method)', () => {
  it('every pair meets exactly once; n-1 rounds (n even) or n rounds (n odd)', () => {
    fc.assert(
      fc.property(playerLists, (players) => {
        const rounds = roundRobin(players);
        const n = players.length;
        expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
        const met = new Map<string, number>();
        for (const r of rounds) for (const p of r.pairs) met.set(key(p.home, p.away), (met.get(key(p.home, p.away)) ?? 0) + 1);
        expect(met.size).toBe((n * (n - 1)) / 2);
        expect([...met.values()].every((c) => c === 1)).toBe(true);
      }),
    );
  });

  it('each player plays at most once per round; with an odd count exactly one bye per round, each player once', () => {
    fc.assert(
      fc.property(playerLists, (players) => {
        const rounds = roundRobin(players);
        const byes: string[] = [];
        for (const r of rounds) {
          const playing = r.pairs.flatMap((p) => [p.home, p.away]);
          expect(new Set(playing).size).toBe(playing.length);
          if (players.length % 2 === 1) {
            expect(r.bye).not.toBeNull();
            expect(playing).not.toContain(r.bye);
            byes.push(r.bye!);
            expect(playing.length).toBe(players.length - 1);
          } else expect(r.bye).toBeNull();
        }
        if (players.length % 2 === 1) expect(byes.sort()).toEqual([...players].sort());
      }),
    );
  });

  it('home and away are balanced: each player’s counts differ by at most one', () => {
    fc.assert(
      fc.property(playerLists, (players) => {
        const home = new Map<string, number>();
        const away = new Map<string, number>();
        for (const r of roundRobin(players)) for (const p of r.pairs) (home.set(p.home, (home.get(p.home) ?? 0) + 1), away.set(p.away, (away.get(p.away) ?? 0) + 1));
        for (const p of players) expect(Math.abs((home.get(p) ?? 0) - (away.get(p) ?? 0))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('a double round robin plays every pair twice, once at each home', () => {
    fc.assert(
      fc.property(playerLists, (players) => {
        const rounds = roundRobin(players, true);
        const ordered = new Set<string>();
        for (const r of rounds) for (const p of r.pairs) ordered.add(JSON.stringify([p.home, p.away]));
        expect(ordered.size).toBe(players.length * (players.length - 1));
      }),
    );
  });
});
