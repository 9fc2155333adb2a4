/**
 * Seeded randomness for draws that must be reproducible (AR-3): the same seed gives the
 * same competition on every machine. mulberry32: small, fast, good enough for a draw.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws `count` distinct items in a seeded random order (a partial Fisher–Yates shuffle). */
export function drawSeeded<T>(items: readonly T[], count: number, seed: number): T[] {
  const pool = [...items];
  const random = seededRandom(seed);
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}
