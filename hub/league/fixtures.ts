/** Round robin by the circle method: one player fixed, the others rotate; a bye when the count is odd. */

export interface Pairing {
  home: string;
  away: string;
}
export interface Round {
  round: number;
  pairs: Pairing[];
  bye: string | null;
}

export function roundRobin(players: readonly string[], double = false): Round[] {
  // With an odd count the bye is the fixed point, so every player rotates (and alternates home and away).
  const ring: (string | null)[] = players.length % 2 === 1 ? [null, ...players] : [...players];
  const n = ring.length;
  const rounds: Round[] = [];
  if (n < 2) return rounds;
  for (let r = 0; r < n - 1; r++) {
    const pairs: Pairing[] = [];
    let bye: string | null = null;
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i]!;
      const b = ring[n - 1 - i]!;
      if (a === null || b === null) {
        bye = a ?? b;
        continue;
      }
      // Alternate home and away: the fixed player by round, the others by board and round.
      const swap = i === 0 ? r % 2 === 1 : i % 2 === 1;
      pairs.push(swap ? { home: b, away: a } : { home: a, away: b });
    }
    rounds.push({ round: r + 1, pairs, bye });
    // Rotate all but the first clockwise.
    ring.splice(1, 0, ring.pop()!);
  }
  if (!double) return rounds;
  const second = rounds.map((r) => ({ round: r.round + rounds.length, pairs: r.pairs.map((p) => ({ home: p.away, away: p.home })), bye: r.bye }));
  return [...rounds, ...second];
}
