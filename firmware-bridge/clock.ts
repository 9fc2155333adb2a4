/**
 * Board microseconds -> hub time.
 *
 * The board clock is a free-running microsecond counter: 32 bits in event frames (wraps
 * every ~71.6 minutes), 48 bits in protocol-2 HELLO/HEARTBEAT. It runs off a crystal
 * (±50 ppm) or, on an Uno's ATmega328P, a ceramic resonator (±0.5 % = 5,000 ppm). Each
 * heartbeat gives a pair (boardUs, hubMs as seen on arrival). Arrival is late by the
 * frame's line time plus OS latency, which is never negative, so:
 *   - the rate (drift) is fitted through the least-delayed pair of each of STRETCHES equal
 *     stretches of the last 30 s of board time (the median of their pairwise slopes,
 *     Theil–Sen), clamped to ±6,000 ppm. A least-squares slope over every pair was tilted by
 *     a busy hub's queueing delay — delays that grow or shrink over the window read as drift
 *     (3–92 ms of error measured at 64 tables under load); the least-delayed pair of a stretch
 *     is near the true line whatever the load, and the median ignores a stretch with none;
 *   - the offset is the lower envelope (the least-delayed pair in the window).
 */

/** Stretches of the window whose least-delayed pairs fit the rate. */
const STRETCHES = 8;

const TWO32 = 2 ** 32;

/** Signed distance from a to b on the 32-bit circle. */
export function wrapDelta(a: number, b: number): number {
  const d = (b - a) >>> 0;
  return d >= 2 ** 31 ? d - TWO32 : d;
}

/** Unwraps 32-bit board time against a reference that only heartbeats move forward. */
export class BoardTimeUnwrapper {
  private refRaw: number | null = null;
  private refUs = 0;

  /** Raw 32-bit time of the last heartbeat-type stamp, null before the first. */
  get referenceRaw(): number | null {
    return this.refRaw;
  }

  /** Unwrapped time of a stamp near the reference (events may be a little older). */
  unwrap(raw: number): number {
    if (this.refRaw === null) return raw;
    return this.refUs + wrapDelta(this.refRaw, raw);
  }

  /**
   * Moves the reference to a heartbeat's time. Returns the unwrapped time, or null if
   * the board time went backwards (the board restarted).
   */
  advance(raw: number): number | null {
    if (this.refRaw === null) {
      this.refRaw = raw;
      this.refUs = raw;
      return raw;
    }
    const d = wrapDelta(this.refRaw, raw);
    if (d < 0) return null;
    this.refRaw = raw;
    this.refUs += d;
    return this.refUs;
  }

  /**
   * Moves the reference to a full (48-bit, protocol 2) board time. Returns it, or null if
   * it is behind the reference (the board restarted).
   */
  advanceAbsolute(t: number): number | null {
    if (this.refRaw !== null && t < this.refUs) return null;
    this.refRaw = t % TWO32;
    this.refUs = t;
    return t;
  }

  reset(): void {
    this.refRaw = null;
    this.refUs = 0;
  }
}

export interface ClockMapperOptions {
  /** Board time (ms) the pairs kept for the fit span. */
  windowMs?: number;
  /** At most this many pairs are kept, whatever their span. */
  maxPairs?: number;
  /** Largest drift believed, in parts per million. */
  maxDriftPpm?: number;
  /** Minimum span of board time (ms) before the slope is fitted at all. */
  minSpanMs?: number;
}

export class ClockMapper {
  private readonly pts: Array<{ x: number; y: number }> = [];
  private slope = 1;
  private offset = 0; // hub ms at board ms 0 relative to x0
  private x0 = 0;
  private readonly windowMs: number;
  private readonly maxPairs: number;
  private readonly maxDrift: number;
  private readonly minSpanMs: number;

  constructor(opts: ClockMapperOptions = {}) {
    this.windowMs = opts.windowMs ?? 30_000;
    this.maxPairs = opts.maxPairs ?? 600;
    this.maxDrift = (opts.maxDriftPpm ?? 6000) / 1e6;
    this.minSpanMs = opts.minSpanMs ?? 2000;
  }

  get ready(): boolean {
    return this.pts.length > 0;
  }

  /** Drift estimate in ppm (hub ms per board ms - 1). */
  get driftPpm(): number {
    return (this.slope - 1) * 1e6;
  }

  /**
   * @param boardUs unwrapped board time of the stamp
   * @param hubMs hub time when the frame was decoded, minus its known line time
   */
  add(boardUs: number, hubMs: number): void {
    if (this.pts.length === 0) this.x0 = boardUs / 1000;
    this.pts.push({ x: boardUs / 1000 - this.x0, y: hubMs });
    const x = this.pts[this.pts.length - 1]!.x;
    while (this.pts.length > this.maxPairs || (this.pts.length > 1 && x - this.pts[0]!.x > this.windowMs)) this.pts.shift();
    this.fit();
  }

  toHub(boardUs: number): number {
    return this.offset + this.slope * (boardUs / 1000 - this.x0);
  }

  reset(): void {
    this.pts.length = 0;
    this.slope = 1;
    this.offset = 0;
  }

  private fit(): void {
    const n = this.pts.length;
    const first = this.pts[0]!;
    const last = this.pts[n - 1]!;
    let slope = 1;
    if (n >= 3 && last.x - first.x >= this.minSpanMs) {
      const fitted = theilSen(leastDelayed(this.pts, first.x, last.x));
      if (fitted !== null) slope = Math.min(1 + this.maxDrift, Math.max(1 - this.maxDrift, fitted));
    }
    let off = Infinity;
    for (const p of this.pts) off = Math.min(off, p.y - slope * p.x);
    this.slope = slope;
    this.offset = off;
  }
}

/** Per stretch of [from, to], the pair with the least delay against the nominal rate (y − x). */
function leastDelayed(pts: readonly { x: number; y: number }[], from: number, to: number): { x: number; y: number }[] {
  const best: ({ x: number; y: number } | undefined)[] = new Array(STRETCHES);
  const width = (to - from) / STRETCHES;
  for (const p of pts) {
    const k = Math.min(STRETCHES - 1, Math.floor((p.x - from) / width));
    const b = best[k];
    if (b === undefined || p.y - p.x < b.y - b.x) best[k] = p;
  }
  return best.filter((p): p is { x: number; y: number } => p !== undefined);
}

/** The median of the slopes between every two points (null with fewer than two). */
function theilSen(pts: readonly { x: number; y: number }[]): number | null {
  const slopes: number[] = [];
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      const dx = pts[j]!.x - pts[i]!.x;
      if (dx > 0) slopes.push((pts[j]!.y - pts[i]!.y) / dx);
    }
  }
  if (slopes.length === 0) return null;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 === 1 ? slopes[mid]! : (slopes[mid - 1]! + slopes[mid]!) / 2;
}
