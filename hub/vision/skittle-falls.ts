import type { TrackSample } from './contacts.ts';

/**
 * When a skittle fell, and which ball felled it. The tracker watches every spot in every
 * frame, so a fall is known to lie between the last frame the skittle was seen standing and
 * the first frame it was seen down (one frame apart unless a ball, an arm or the cue hid the
 * spot). The feller is the ball whose path came to the skittle's base inside that interval;
 * balls that passed the skittle before it fell, or came after, are not candidates — timing
 * a fall at the nearest pass of any ball put it on the wrong side of other events and made
 * a legal shot an illegal knock-down.
 */
export interface FallWindow {
  skittle: string;
  at: [number, number];
  /** Skittle base diameter, mm. */
  base: number;
  /** Last time (ms) the skittle was seen standing, and first time it was seen down. */
  upT: number;
  downT: number;
}

export interface FallEvent {
  skittle: string;
  by: string | null;
  t: number;
}

/** How close (mm, beyond radius + half the base) a centre must pass to have touched the skittle: centroid error and the frame's interpolation. */
const CONTACT_SLACK = 14;

export function fallEvents(input: { falls: readonly FallWindow[]; tracks: Map<string, TrackSample[]>; ballRadius: number; dt: number }): FallEvent[] {
  const { tracks, ballRadius: R, dt } = input;
  const out: FallEvent[] = [];
  for (const f of input.falls) {
    // The contact that felled it came a little before the first frame showing it down.
    const lo = f.upT - 0.5 * dt;
    const hi = f.downT;
    const touch = R + f.base / 2;
    const reach = touch + CONTACT_SLACK;
    const seen: { ball: string; t: number; d: number }[] = [];
    let hidden = false;
    for (const [ball, samples] of tracks) {
      let best: { d: number; t: number } | null = null;
      // When its centre first came to touching distance (the contact), if it did in the interval.
      let contact: number | null = null;
      for (let k = 1; k < samples.length; k++) {
        const s0 = samples[k - 1]!;
        const s1 = samples[k]!;
        if (s1.t < lo || s0.t > hi) continue;
        if (!s0.at || !s1.at) {
          // Out of sight while the skittle fell: a possible feller if it was near the skittle around the gap.
          if (nearAroundGap(samples, k, f.at, reach + 100)) hidden = true;
          continue;
        }
        const c = closestInSpan(s0, s1, f.at, lo, hi);
        if (!best || c.d < best.d) best = c;
        contact ??= entryInSpan(s0, s1, f.at, touch, lo, hi);
      }
      if (best && best.d < reach) seen.push({ ball, d: best.d, t: contact ?? best.t });
    }
    if (seen.length === 1 && !hidden) out.push({ skittle: f.skittle, by: seen[0]!.ball, t: seen[0]!.t });
    else {
      // No ball or several in reach, or one out of sight: the feller is unknown; the fall lies in the interval.
      const t = seen.length > 0 ? Math.min(...seen.map((s) => s.t)) : (Math.max(lo, f.upT) + hi) / 2;
      out.push({ skittle: f.skittle, by: null, t });
    }
  }
  return out;
}

/** Closest approach to p of the segment s0→s1 (linear in time), restricted to times in [lo, hi]. */
function closestInSpan(s0: TrackSample, s1: TrackSample, p: readonly [number, number], lo: number, hi: number): { d: number; t: number } {
  const a = s0.at!;
  const b = s1.at!;
  const span = s1.t - s0.t || 1;
  const f0 = Math.max(0, (lo - s0.t) / span);
  const f1 = Math.min(1, (hi - s0.t) / span);
  const vx = b[0] - a[0];
  const vy = b[1] - a[1];
  const l2 = vx * vx + vy * vy;
  let f = l2 > 0 ? ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / l2 : f0;
  f = Math.max(f0, Math.min(f1, f));
  return { d: Math.hypot(a[0] + f * vx - p[0], a[1] + f * vy - p[1]), t: s0.t + f * span };
}

/** When the segment s0→s1 first comes within r of p, inside [lo, hi]; null if it does not. */
function entryInSpan(s0: TrackSample, s1: TrackSample, p: readonly [number, number], r: number, lo: number, hi: number): number | null {
  const a = s0.at!;
  const b = s1.at!;
  const span = s1.t - s0.t || 1;
  const d = [a[0] - p[0], a[1] - p[1]];
  const v = [b[0] - a[0], b[1] - a[1]];
  const A = v[0]! * v[0]! + v[1]! * v[1]!;
  const B = 2 * (d[0]! * v[0]! + d[1]! * v[1]!);
  const C = d[0]! * d[0]! + d[1]! * d[1]! - r * r;
  let f: number;
  if (C <= 0) f = 0;
  else {
    const disc = B * B - 4 * A * C;
    if (A < 1e-9 || disc < 0) return null;
    f = (-B - Math.sqrt(disc)) / (2 * A);
    if (f < 0 || f > 1) return null;
  }
  const t = s0.t + f * span;
  return t >= lo && t <= hi ? t : C <= 0 && s0.t < lo && s1.t >= lo ? lo : null;
}

/** Was the ball near p on either side of the gap that contains sample k? */
function nearAroundGap(samples: readonly TrackSample[], k: number, p: readonly [number, number], reach: number): boolean {
  let i = k - 1;
  while (i >= 0 && !samples[i]!.at) i--;
  let j = k;
  while (j < samples.length && !samples[j]!.at) j++;
  const before = i >= 0 ? samples[i]!.at : null;
  const after = j < samples.length ? samples[j]!.at : null;
  if (!before || !after) return true;
  // Hidden between two sightings: it may have passed anywhere near the line joining them.
  const vx = after[0] - before[0];
  const vy = after[1] - before[1];
  const l2 = vx * vx + vy * vy;
  const f = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - before[0]) * vx + (p[1] - before[1]) * vy) / l2)) : 0;
  return Math.hypot(before[0] + f * vx - p[0], before[1] + f * vy - p[1]) < reach;
}

/**
 * One skittle watched frame by frame: standing (`true`), down (`false`), not sure (`null`:
 * seen standing again after a fall, between shots, once), or not seen yet. The readings are
 * not equally sure: "down" means the cloth shows at the spot, which nothing but a missing
 * skittle gives; "standing" means something is there, which a cue or an arm over the spot,
 * or a fallen neighbour lying across it, gives too. So a fall needs two down readings in a
 * row (frames where a ball covers the spot give none), and during a shot a fallen skittle
 * stays down whatever is read over its spot (skittles do not stand up again by themselves);
 * between shots, where they are set up again, two standing readings restore it.
 */
export class SkittleWatch {
  state: boolean | null | undefined = undefined;
  /** Last time seen standing (before a fall), and the first reading of the fall. */
  upT: number | null = null;
  downT: number | null = null;
  private pending: number | null = null;
  private run = 0;
  /** Times of the latest standing readings (the last few), whatever the state: is it seen standing at the end of a shot? */
  private readonly ups: number[] = [];

  /** Standing readings at or after `t`. */
  upsSince(t: number): number {
    return this.ups.filter((u) => u >= t).length;
  }

  observe(reading: 'up' | 'down', t: number, inShot: boolean): void {
    if (reading === 'up') {
      this.ups.push(t);
      if (this.ups.length > 16) this.ups.shift();
      this.run = 0;
      this.pending = null;
      if (this.state === false) {
        if (!inShot) this.state = null;
        return;
      }
      this.state = true;
      this.upT = t;
      return;
    }
    if (this.state === undefined) {
      this.state = false;
      return;
    }
    if (this.state !== true) return;
    this.run += 1;
    if (this.run === 1) this.pending = t;
    if (this.run >= 2) {
      this.state = false;
      this.downT = this.pending;
    }
  }

  /** Was it standing when the shot started (`strikeT`: when the tracker saw the first ball move, a few frames late)? */
  standingAt(strikeT: number, dt: number): boolean {
    if (this.state === true) return true;
    // Felled in the first frames of the shot, before the strike was recognised.
    return this.state === false && this.downT !== null && this.upT !== null && this.downT >= strikeT - 4 * dt;
  }
}
