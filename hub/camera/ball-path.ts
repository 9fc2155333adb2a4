import type { PathSample } from '../vision/tracker.ts';

/**
 * Where a ball can be at a moment, from the tracker's sightings of it (track fusion's geometry,
 * track-fusion.ts): its path as segments between sightings, each with a speed bound, and the
 * lower bounds of distances that rule a ball out of a contact. Pure.
 */

/** The largest speed of any ball, mm/ms (rules/bounds.ts MAX_BALL_SPEED, 12 m/s). */
export const MAX_SPEED = 12;

/** Frames a ball at rest may be out of sight (nothing sensed meanwhile) and still be taken as lying there throughout. */
const MISSED_FRAMES = 2;
/** How long a ball must be seen in one place to be taken as at rest, ms. */
export const REST_MS = 200;

export type Vec = readonly [number, number];

/** Where a ball can be at one moment: within `ra` of `a` and within `rb` of `b` (and within `rc` of `c`, where given). */
export interface Reach {
  a: Vec;
  ra: number;
  b: Vec;
  rb: number;
  c?: Vec;
  rc?: number;
}

/** A third bound on where a ball can be: within `r` of `at`. */
export interface Disc {
  at: Vec;
  r: number;
}

interface Segment {
  ta: number;
  tb: number;
  a: Vec;
  b: Vec;
  /** The ends' own position error, mm (clear or partial sighting). */
  na: number;
  nb: number;
  /** Speed bound, mm/ms. */
  v: number;
  /** Turns within it: `extra` on top of `v` while each lasts. */
  turns?: readonly Turn[];
}

/** How far the turns of a segment can have taken a ball on top of its speed bound over [t0, t1], mm (the whole is capped by the top speed). */
function extraOver(g: Segment, t0: number, t1: number): number {
  let d = 0;
  for (const turn of g.turns ?? []) d += Math.max(0, Math.min(t1, turn.to) - Math.max(t0, turn.from)) * Math.min(turn.extra, MAX_SPEED - g.v);
  return d;
}

/** A sighting's position error and step jitter, mm. */
export interface SightingError {
  noise: number;
  /** A clear sighting of a ball at rest. */
  rest: number;
  jitter: number;
  partialNoise: number;
  partialJitter: number;
}

/**
 * A click followed within a frame interval by another contact (camera clock, window [from, to]):
 * a ball struck there may have gone out and come back before the next frame (struck toward a
 * rail, rebounding, struck again), so the speeds seen on either side do not bound it; `extra`,
 * mm/ms, is what the clicks can have added to its speed (bounds.ts IMPULSE_SHARE).
 */
export interface Turn {
  from: number;
  to: number;
  extra: number;
  /** Its clicks: time (camera clock) and what each can add to a ball's speed, mm/ms. */
  clicks: readonly { t: number; extra: number; index: number }[];
}

/** A ball's path as segments between consecutive sightings (clear or partial, each with its own error), each with its speed bound. */
export class BallPath {
  private readonly segments: Segment[];

  /**
   * `clicks`: times (camera clock, ± `clickTolMs`) of the sensors' ball–ball contacts. Across
   * a hidden stretch with a click in it, the ball may have been struck and stopped again unseen:
   * no speed of its neighbours bounds it there.
   * `swappableFrom`: from then on the sightings may be another ball's (an identity doubt,
   * tracker.ts): a stretch out of sight after it, or across it, may join two balls' sightings, so
   * it bounds nothing — the ball is anywhere there (`at` gives null).
   */
  constructor(samples: readonly PathSample[], frameMs: number, error: SightingError, maxGapFrames: number, clicks: readonly number[] = [], clickTolMs = 0, turns: readonly Turn[] = [], swappableFrom?: number) {
    const seen = samples.filter((s): s is PathSample & { at: [number, number] } => s.at !== null);
    const noiseOf = (s: PathSample) => (sureSighting(s) ? error.noise : error.partialNoise);
    const jitterOf = (s: PathSample) => (sureSighting(s) ? error.jitter : error.partialJitter);
    const raw = seen.slice(1).map((s, k) => ({ ta: seen[k]!.t, tb: s.t, a: seen[k]!.at as Vec, b: s.at as Vec, na: noiseOf(seen[k]!), nb: noiseOf(s), ja: jitterOf(seen[k]!), jb: jitterOf(s) }));
    const hidden = (g: { ta: number; tb: number }) => g.tb - g.ta > 1.5 * frameMs;
    const swappable = (g: { ta: number; tb: number }) => swappableFrom !== undefined && g.tb >= swappableFrom && (g.ta < swappableFrom || hidden(g));
    const long = (g: { ta: number; tb: number }) => g.tb - g.ta > maxGapFrames * frameMs + 1 || swappable(g);
    // A chord's speed, with the jitter of both ends spread over the interval.
    const speed = (g: { ta: number; tb: number; a: Vec; b: Vec; ja: number; jb: number }) => (dist(g.a, g.b) + g.ja + g.jb) / Math.max(g.tb - g.ta, 1);
    const struck = (g: { ta: number; tb: number }) => clicks.some((c) => c >= g.ta - clickTolMs && c <= g.tb + clickTolMs);
    /**
     * At rest at sighting i: seen surely (sureSighting), frame after frame, in one place (within twice the
     * jitter) for REST_MS on that side. A ball at rest moves only when struck (a click), and one
     * slower than that (≤ 2·jitter per REST_MS) stops within a few mm.
     */
    const restAt = (i: number, dir: -1 | 1): boolean => {
      const here = seen[i]!;
      for (let j = i + dir; j >= 0 && j < seen.length; j += dir) {
        const s = seen[j]!;
        if (!sureSighting(s) || Math.abs(s.t - seen[j - dir]!.t) > 1.5 * frameMs || dist(s.at, here.at) > 2 * error.jitter) return false;
        if (Math.abs(s.t - here.t) >= REST_MS) return true;
      }
      return false;
    };
    this.segments = raw.map((g, k) => {
      const prev = raw[k - 1];
      const next = raw[k + 1];
      let v: number;
      // Hidden with a click in it: the ball may have been struck (and stopped or turned back) unseen.
      if (hidden(g) && struck(g)) v = MAX_SPEED;
      else if (long(g)) {
        // A long hidden stretch: anywhere its top speed allows, unless it lay at rest in one place on both sides and nothing struck anything meanwhile.
        v = restAt(k, -1) && restAt(k + 1, 1) && dist(g.a, g.b) <= 2 * error.jitter ? 0 : MAX_SPEED;
      } else if ((prev && long(prev)) || (next && long(next))) v = MAX_SPEED;
      else v = Math.min(MAX_SPEED, 1.5 * Math.max(speed(g), prev ? speed(prev) : 0, next ? speed(next) : 0));
      // Struck and turned back between two sightings: what the clicks may have given it on top, while they lasted.
      const own = turns.filter((turn) => turn.from <= g.tb && turn.to >= g.ta && v < MAX_SPEED);
      return { ta: g.ta, tb: g.tb, a: g.a, b: g.b, na: g.na, nb: g.nb, v, ...(own.length > 0 ? { turns: own } : {}) };
    }).filter((_, k) => !swappable(raw[k]!));
  }

  /** Where the ball can be at τ (camera clock), or null when the path's sightings do not cover τ. */
  at(tau: number): Reach | null {
    const segs = this.segments;
    let lo = 0;
    let hi = segs.length - 1;
    if (hi < 0 || tau < segs[0]!.ta || tau > segs[hi]!.tb) return null;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (segs[mid]!.tb < tau) lo = mid + 1;
      else hi = mid;
    }
    const g = segs[lo]!;
    // Between two segments: a stretch that bounds nothing (swappableFrom).
    if (tau < g.ta) return null;
    return { a: g.a, ra: g.v * (tau - g.ta) + g.na + extraOver(g, g.ta, tau), b: g.b, rb: g.v * (g.tb - tau) + g.nb + extraOver(g, tau, g.tb) };
  }

  /** Where the ball can be at τ judged from its sighting before τ alone (the one after is no bound on a ball struck and turned back in between). */
  fromBefore(tau: number): Reach | null {
    const r = this.at(tau);
    return r && { a: r.a, ra: r.ra, b: r.a, rb: r.ra };
  }

  /** The largest speed bound over [t0, t1] (for the sampling step's allowance). */
  speedOver(t0: number, t1: number): number {
    // The segments are in time order: from the first that ends at t0 or later (binary search;
    // track fusion asks this per ball, click and turn, and a shot of many clicks took seconds
    // scanning every segment each time) to the last that starts by t1.
    const segs = this.segments;
    const lo = leadingCount(segs, (g) => g.tb < t0);
    let v = 0;
    for (let k = lo; k < segs.length && segs[k]!.ta <= t1; k++) {
      const g = segs[k]!;
      v = Math.max(v, Math.min(MAX_SPEED, g.v + (g.turns ?? []).reduce((sum, turn) => sum + turn.extra, 0)));
    }
    return v;
  }
}

/** How many items at the head of `items` pass `test`, which holds for a prefix and then never again (binary search). */
export function leadingCount<T>(items: readonly T[], test: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (test(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const dist = (p: Vec, q: Vec) => Math.hypot(p[0] - q[0], p[1] - q[1]);

/**
 * A sighting whose centre is as sure as a clear one's: clear, or not clear only by the ball's own
 * colour just past its edge (Detection.edgeOnly), as a ball frozen to another or lying by its
 * own shadow shows. At rest before the stroke (held-out 21229–21232, 26,204 such sightings
 * against the physics' places): median 1.2 mm, p99.9 4.7 mm, at most 6.6 mm (clear ones: 0.7,
 * 4.0, 5.4 mm), within the resting place's allowance (`restNoiseMm`, 8).
 */
export const sureSighting = (s: PathSample): boolean => s.clear || s.edgeOnly === true;

/**
 * Where a ball lay at rest up to `before`: its last sighting then, if sure (clear, or only its own
 * colour past its edge: `sureSighting`), and seen frame after frame within twice the jitter of
 * that place for REST_MS (a partial sighting that close counts: a sleeve over its edge does not
 * put a moving ball's centre in one place frame after frame).
 * `lastSeen`: its last sighting of any kind. `quiet(from, to)`: nothing was sensed then; a ball
 * out of sight for up to MISSED_FRAMES frames with nothing sensed meanwhile (a cue over it), and
 * seen in that place again, lay there throughout (held-out seed 21212, balkline 60 fps s13 #8).
 */
export function restingPlace(samples: readonly PathSample[], before: number, frameMs: number, jitter: number, partialAfter = false, quiet: (from: number, to: number) => boolean = () => false): { at: Vec; t: number; lastSeen: number } | null {
  const gap = (a: PathSample, b: PathSample) => b.t - a.t > 1.5 * frameMs && (b.t - a.t > (MISSED_FRAMES + 1.5) * frameMs || !quiet(a.t, b.t));
  const seen = samples.filter((x): x is PathSample & { at: [number, number] } => x.at !== null && x.t <= before);
  // `partialAfter`: the place is the last clear sighting's, partial ones after it in that place too.
  let last = seen.length - 1;
  if (partialAfter) while (last >= 0 && !sureSighting(seen[last]!)) last--;
  const home = seen[last];
  if (!home || !sureSighting(home)) return null;
  for (let k = last + 1; k < seen.length; k++) if (gap(seen[k - 1]!, seen[k]!) || dist(seen[k]!.at, home.at) > 2 * jitter) return null;
  let restFrom = home.t;
  for (let k = last - 1; k >= 0 && home.t - restFrom < REST_MS; k--) {
    const x = seen[k]!;
    if (gap(x, seen[k + 1]!) || dist(x.at, home.at) > 2 * jitter) return null;
    restFrom = x.t;
  }
  return home.t - restFrom >= REST_MS ? { at: home.at, t: home.t, lastSeen: seen.at(-1)!.t } : null;
}

/** Distance from point p to the segment a–b. */
export function segmentDistance(p: Vec, a: Vec, b: Vec): number {
  const d: Vec = [b[0] - a[0], b[1] - a[1]];
  const l2 = d[0] * d[0] + d[1] * d[1];
  const s = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l2));
  return dist(p, [a[0] + s * d[0], a[1] + s * d[1]]);
}

/** Lower bound of the distance from a ball that can be anywhere in `r` to a set measured by `d` (1-Lipschitz). */
export const lowerTo = (r: Reach, d: (p: Vec) => number) => Math.max(d(r.a) - r.ra, d(r.b) - r.rb, r.c ? d(r.c) - r.rc! : -Infinity);

/** Lower bound of the distance between two balls at the same moment. */
export function lowerBetween(r: Reach, s: Reach): number {
  const both = Math.max(dist(r.a, s.a) - r.ra - s.ra, dist(r.a, s.b) - r.ra - s.rb, dist(r.b, s.a) - r.rb - s.ra, dist(r.b, s.b) - r.rb - s.rb);
  if (!r.c && !s.c) return both;
  const discs = (q: Reach): [Vec, number][] => [[q.a, q.ra], [q.b, q.rb], ...(q.c ? [[q.c, q.rc!] as [Vec, number]] : [])];
  let out = both;
  for (const [p, rp] of discs(r)) for (const [q, rq] of discs(s)) out = Math.max(out, dist(p, q) - rp - rq);
  return out;
}

/** `r` with `near` as its third bound. */
export const within = (r: Reach | null, near: Disc | undefined): Reach | null => (r && near ? { ...r, c: near.at, rc: near.r } : r);

