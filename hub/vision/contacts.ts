/**
 * Contacts from ball tracks. A contact shows in a track as a window where the path bends
 * (a second difference far above what friction and noise give) or where a ball at rest
 * starts to move. Each window is explained from geometry:
 *
 * - a cushion: along one axis the ball's incoming line reaches the rail's line (the ball
 *   centre one radius from the cushion nose) and the outgoing line leaves it again, at the
 *   same time within the window; each axis is checked on its own, so a corner's two rails
 *   come out in their order;
 * - another ball: the two pre-contact lines (a ball at rest: its place) come within two
 *   radii inside the window, and the other ball's path bends or starts there too.
 *
 * Times are interpolated inside the frame interval from those lines, so events are
 * ordered finer than the frame rate. When two events of one ball fall closer together
 * than the timing can tell apart, the one whose order matters is reported without its
 * ball (null) rather than guessed.
 */
export type Rail = 'head' | 'foot' | 'left' | 'right';

export interface TrackSample {
  /** ms */
  t: number;
  at: [number, number] | null;
  /** Not seen, and bare cloth where it last lay still: it has gone from there (tracker.ts, watchPlaces). */
  bare?: true;
}

/** A shot's frame interval (ms): the median gap between the first path's samples (33 without any). */
export function frameInterval(paths: Readonly<Record<string, readonly { t: number }[]>>): number {
  const first = Object.values(paths)[0] ?? [];
  const gaps = first.slice(1).map((s, k) => s.t - first[k]!.t).filter((g) => g > 0).sort((a, b) => a - b);
  return gaps.length ? gaps[gaps.length >> 1]! : 33;
}

export interface ContactEvent {
  kind: 'ball' | 'cushion';
  t: number;
  balls?: [string | null, string | null];
  rail?: Rail;
  ball?: string | null;
  /** Found, but the paths do not bear it out (pushedApart): it may not have happened. */
  maybe?: true;
}

export interface ContactInput {
  tracks: Map<string, TrackSample[]>;
  /** ms between frames */
  dt: number;
  ballRadius: number;
  table: { length: number; width: number };
  /** Size of an image pixel on the table, mm: centroids jitter by a fraction of it, so bends must be larger (default 2.5). */
  pixelMm?: number;
  /** Places where a contact is expected without an event (standing skittles): bends there are explained. */
  obstacles?: { at: [number, number]; radius: number }[];
}

export interface ContactResult {
  /** Contacts stated (ids may be null where the tracker is unsure which ball). */
  events: ContactEvent[];
  /** The ball the shot started with (its first departure), if seen. */
  striker: string | null;
  strikeT: number | null;
  /**
   * Bends nothing explains but a contact could: another ball was within reach (or out of
   * sight) then, or the ball was at a rail. The shot is uncertain there; `rail` names the
   * rail when no other ball could have been the cause.
   */
  unexplained: { ball: string; t: number; rail?: Rail }[];
  /**
   * Bends no contact can explain (no ball within reach, none hidden, no rail, no skittle):
   * a ball does not turn in open cloth, so these are measurement artifacts (an arm or cue
   * over the ball, a partly hidden centroid). Counted, never stated as contacts: a made-up
   * contact, even with an unknown partner, lets the engine infer a wrong fact from it.
   */
  artifacts: number;
}

interface Window {
  ball: string;
  /** Contact lies in [t0, t1] (ms). */
  t0: number;
  t1: number;
  /** Pre-contact point and velocity (mm, mm/ms) at time ta. */
  pre: { p: [number, number]; v: [number, number]; t: number };
  post: { p: [number, number]; v: [number, number]; t: number };
  /** A point a few frames after the window (where the ball went). */
  later: [number, number];
  departure: boolean;
  explained: boolean;
  /** A turn or a stop just after a departure (turnsAfterLeaving): never the departure itself. */
  afterLeaving?: true;
}

/** Where a ball's centre is when it touches each rail: the axis across it, that line (mm), and the side the table lies on. */
export function railLines(R: number, table: { length: number; width: number }): { rail: Rail; axis: 0 | 1; line: number; n: 1 | -1 }[] {
  return [
    { rail: 'head', axis: 0, line: R, n: 1 },
    { rail: 'foot', axis: 0, line: table.length - R, n: -1 },
    { rail: 'left', axis: 1, line: R, n: 1 },
    { rail: 'right', axis: 1, line: table.width - R, n: -1 },
  ];
}

const sub = (a: readonly number[], b: readonly number[]): [number, number] => [a[0]! - b[0]!, a[1]! - b[1]!];
// A root of squares, not Math.hypot (3–4× slower in V8): taken for every step of every ball.
const len = (a: readonly number[]) => Math.sqrt(a[0]! * a[0]! + a[1]! * a[1]!);

export function findContacts(input: ContactInput): ContactResult {
  const { dt, ballRadius: R } = input;
  const windows: Window[] = [];
  // Bends must beat the centroid jitter: a fraction of a pixel, 4 mm at the sizes measured.
  const floor = Math.max(4, 1.0 * (input.pixelMm ?? 2.5));
  for (const [ball, samples] of input.tracks) windows.push(...windowsOf(ball, samples, dt, floor));
  const events: ContactEvent[] = [];
  // The strike: the earliest departure, unless a moving (or unseen) ball was there to set it
  // moving — then the cue ball's own departure went unseen (under the cue) and this one is a
  // contact: taken for the strike, a slow kiss on a resting ball would vanish and the engine
  // would call a miss.
  const departures = windows.filter((w) => w.departure).sort((a, b) => a.t0 - b.t0);
  const first = departures[0] ?? null;
  const strike = first && !moverNear(first, input.tracks, R, dt) ? first : null;
  if (strike) strike.explained = true;

  // Cushions, axis by axis.
  const rails = railLines(R, input.table);
  const slack = 0.6 * dt;
  for (const w of windows) {
    if (w.departure) continue;
    for (const r of rails) {
      const s1 = -w.pre.v[r.axis] * r.n; // approach speed, mm/ms
      const s2 = w.post.v[r.axis] * r.n; // leaving speed
      const away = (w.later[r.axis] - w.pre.p[r.axis]) * r.n;
      if (s1 <= 0.02 || (s2 <= 0.005 && away <= 2)) continue;
      const d1 = (w.pre.p[r.axis] - r.line) * r.n;
      const d2 = (w.post.p[r.axis] - r.line) * r.n;
      if (d1 < -8 || d2 < -8) continue;
      // The incoming line reaches the rail inside the window; the ball leaves it again. (The
      // outgoing line is not run back: after a cushion the spin still bends and speeds it.)
      const tc1 = w.pre.t + Math.max(0, d1) / s1;
      if (tc1 < w.t0 - slack || tc1 > w.t1 + slack) continue;
      if (d2 > 8 + (w.post.t - w.t0) * Math.max(s2, s1)) continue;
      // And no sighting inside the window puts the ball farther from the rail than it could
      // travel to or from it by then (seed 13131, three-cushion: a ball bent by a kiss 150 mm
      // short of the rail, seen there a frame before the bounce its lines implied).
      if (farFromRail(input.tracks.get(w.ball) ?? [], w, r, tc1, Math.max(s1, s2), dt, R)) continue;
      // A ball in the way: the incoming line meets it before the rail, so the bend may be that
      // contact and the rail never reached (held-out 21224, five skittles 30 s0 #16: the cue ball
      // struck the two frozen on the right rail and came back; read as the cue ball's cushion,
      // with no contact, a legal shot became a miss). Both are then only possible: the cushion
      // maybe, the window left unexplained (a maybe contact with an unknown ball).
      if (ballInTheWay(w, tc1, input.tracks, R)) {
        events.push({ kind: 'cushion', rail: r.rail, ball: w.ball, t: tc1, maybe: true });
        continue;
      }
      events.push({ kind: 'cushion', rail: r.rail, ball: w.ball, t: tc1 });
      w.explained = true;
    }
  }

  // Slow touches: a ball that comes to within a few mm of a rail's line and turns back touched
  // it, even when its path bends too little to show as a window (no other ball fits between).
  for (const [ball, samples] of input.tracks) {
    for (const r of rails) {
      const d = samples.map((s) => (s.at ? (s.at[r.axis] - r.line) * r.n : null));
      for (let k = 2; k + 2 < d.length; k++) {
        const here = d[k];
        if (here == null || here > 6) continue; // most frames: away from this rail
        const a2 = d[k - 2];
        const a1 = d[k - 1];
        const b1 = d[k + 1];
        const b2 = d[k + 2];
        if (a2 == null || a1 == null || b1 == null || b2 == null) continue;
        if (here > a1 || here > b1 || a2 - here < 3 || b2 - here < 2) continue;
        const t = samples[k]!.t;
        if (events.some((e) => e.kind === 'cushion' && e.rail === r.rail && e.ball === ball && Math.abs(e.t - t) < 2.5 * dt)) continue;
        events.push({ kind: 'cushion', rail: r.rail, ball, t });
        for (const w of windows) if (w.ball === ball && w.t0 <= t + dt && w.t1 >= t - dt) w.explained = true;
      }
    }
  }

  // Ball–ball: pairs of windows close in time whose pre lines meet at two radii.
  const seen = new Set<string>();
  for (const a of windows) {
    for (const b of windows) {
      if (a.ball >= b.ball) continue;
      if (a.t1 + dt < b.t0 || b.t1 + dt < a.t0) continue;
      const hit = meeting(a, b, 2 * R, dt);
      if (!hit) continue;
      const key = `${a.ball}|${b.ball}|${Math.round(hit.t / dt)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      a.explained = true;
      b.explained = true;
      events.push({ kind: 'ball', balls: hit.firstA ? [a.ball, b.ball] : [b.ball, a.ball], t: hit.t, ...(pushedApart(a, b, hit.t) ? {} : { maybe: true as const }) });
    }
  }
  // A ball at rest that starts to move was struck by a moving ball. When exactly one ball was
  // moving within reach then (none out of sight), that is the contact, even if the striker's
  // own path bent too little to show (a slow or thin kiss).
  for (const w of windows) {
    if (w.explained || !w.departure || w === strike) continue;
    const hit = soleStriker(w, input.tracks, R, dt, floor);
    if (!hit) continue;
    w.explained = true;
    events.push({ kind: 'ball', balls: [hit.ball, w.ball], t: hit.t });
  }
  // A bend at a standing skittle's base is that skittle, not a missed event (a departure is not:
  // a skittle sets no ball moving).
  for (const w of windows) {
    if (w.explained || w.departure) continue;
    for (const o of input.obstacles ?? []) if (len(sub(w.pre.p, o.at)) < R + o.radius + 25 + len(w.pre.v) * dt || len(sub(w.post.p, o.at)) < R + o.radius + 25 + len(w.post.v) * dt) w.explained = true;
  }
  // Drop duplicates of one rail hit seen in two overlapping windows, and of one ball–ball
  // contact found twice (two balls that just met cannot meet again before one of them
  // touches something else: reporting it twice would let the engine infer a third ball).
  events.sort((x, y) => x.t - y.t);
  const out: ContactEvent[] = [];
  for (const e of events) {
    const dup = out.find(
      (o) =>
        (o.kind === 'cushion' && e.kind === 'cushion' && o.rail === e.rail && o.ball === e.ball && Math.abs(o.t - e.t) < 1.5 * dt) ||
        (o.kind === 'ball' && e.kind === 'ball' && samePair(o.balls!, e.balls!) && Math.abs(o.t - e.t) < 3 * dt),
    );
    if (!dup) out.push(e);
  }
  blurCloseCalls(out, dt);
  const unexplained: ContactResult['unexplained'] = [];
  let artifacts = 0;
  for (const w of windows) {
    if (w.explained) continue;
    const t = (w.t0 + w.t1) / 2;
    // A bend a few frames from a contact this ball is stated in, with no ball in reach but
    // that partner, is a second view of the same contact (a partly hidden or merged blob).
    // Stated as [ball, null] beside [ball, partner], the engine would infer the third ball:
    // two balls that just met cannot meet again with nothing between.
    const stated = out.filter((e) => e.kind === 'ball' && e.balls!.includes(w.ball) && Math.abs(e.t - t) <= Math.max(4 * dt, 150)).flatMap((e) => e.balls!.filter((b): b is string => b !== null && b !== w.ball));
    if (partnerPossible(w, input.tracks, R, dt, new Set(stated))) unexplained.push({ ball: w.ball, t });
    else if (stated.length > 0) artifacts += 1;
    else {
      const rail = railAt(w, rails, dt);
      if (rail) unexplained.push({ ball: w.ball, t, rail });
      else artifacts += 1;
    }
  }
  return { events: out, striker: strike?.ball ?? null, strikeT: strike ? (strike.t0 + strike.t1) / 2 : null, unexplained, artifacts };
}

const samePair = (a: readonly (string | null)[], b: readonly (string | null)[]) => (a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]);

/**
 * Could another ball have touched this one in its window? Yes when another ball was within
 * two radii and a margin of it (nearest samples, a frame's travel either way) or out of
 * sight then.
 */
function partnerPossible(w: Window, tracks: Map<string, TrackSample[]>, R: number, dt: number, except: ReadonlySet<string> = new Set()): boolean {
  const own = tracks.get(w.ball) ?? [];
  const lo = w.t0 - 2 * dt;
  const hi = w.t1 + 2 * dt;
  const mine = own.filter((s) => s.t >= lo && s.t <= hi && s.at).map((s) => s.at!);
  if (mine.length === 0) mine.push(w.pre.p, w.post.p);
  for (const [ball, samples] of tracks) {
    if (ball === w.ball || except.has(ball)) continue;
    const near = samples.filter((s) => s.t >= lo && s.t <= hi);
    if (near.some((s) => !s.at) || near.length === 0) {
      // Out of sight: a partner unless it lay still, out of reach, on both sides of the gap.
      const before = [...samples].reverse().find((s) => s.t < lo && s.at)?.at;
      const after = samples.find((s) => s.t > hi && s.at)?.at;
      const reach = 2 * R + 40 + len(w.pre.v) * dt * 4;
      const still = before && after && len(sub(before, after)) < 10;
      if (!still || mine.some((q) => len(sub(before, q)) < reach)) return true;
      continue;
    }
    for (let k = 0; k < near.length; k++) {
      const p = near[k]!.at!;
      const step = k > 0 ? len(sub(p, near[k - 1]!.at!)) : 0;
      const reach = 2 * R + 20 + step + len(w.pre.v) * dt;
      if (mine.some((q) => len(sub(p, q)) < reach)) return true;
    }
  }
  return false;
}

/**
 * Was another ball moving within reach of this departing ball when it left its place, or
 * out of sight then (and not lying still on both sides of the gap)? A ball at rest cannot
 * set another moving, so only these could have.
 */
function moverNear(w: Window, tracks: Map<string, TrackSample[]>, R: number, dt: number): boolean {
  const lo = w.t0 - 2 * dt;
  const hi = w.t1 + 2 * dt;
  const p = w.pre.p;
  for (const [ball, samples] of tracks) {
    if (ball === w.ball) continue;
    const near = samples.filter((s) => s.t >= lo && s.t <= hi);
    if (near.length === 0 || near.some((s) => !s.at)) {
      const before = [...samples].reverse().find((s) => s.t < lo && s.at)?.at;
      const after = samples.find((s) => s.t > hi && s.at)?.at;
      if (before) {
        if (!after || len(sub(before, after)) >= 10) return true;
        continue;
      }
      // Out of sight since before the shot: a ball resting under the player's arm, unless it
      // comes out moving or beside this one (the cue ball struck under the cue).
      const later = samples.filter((s) => s.t > hi && s.at).slice(0, 2).map((s) => s.at!);
      if (later.length === 0 || len(sub(later[0]!, p)) < 2 * R + 60 || (later.length === 2 && len(sub(later[1]!, later[0]!)) > 3)) return true;
      continue;
    }
    const seen = near.map((s) => s.at!);
    const moved = seen.some((q, k) => k > 0 && len(sub(q, seen[k - 1]!)) > 3);
    if (!moved) continue;
    for (let k = 0; k < seen.length; k++) {
      const step = k > 0 ? len(sub(seen[k]!, seen[k - 1]!)) : 0;
      if (len(sub(seen[k]!, p)) < 2 * R + 20 + step) return true;
    }
  }
  return false;
}

/**
 * The one ball that can have struck a departing ball: moving, its path within two radii (and
 * the measurement's slack) of the resting ball's place around the departure, with no other
 * ball moving in reach or out of sight. Null when there is none, or more than one.
 */
function soleStriker(w: Window, tracks: Map<string, TrackSample[]>, R: number, dt: number, floor: number): { ball: string; t: number } | null {
  const lo = w.t0 - 2 * dt;
  const hi = w.t1 + dt;
  const p = w.pre.p;
  const slack = 6 + floor;
  let found: { ball: string; t: number } | null = null;
  for (const [ball, samples] of tracks) {
    if (ball === w.ball) continue;
    const near = samples.filter((s) => s.t >= lo - dt && s.t <= hi + dt);
    if (near.length < 2 || near.some((s) => !s.at)) {
      // Out of sight then: it may have been the striker, unless it lay still far away on both sides.
      const before = [...samples].reverse().find((s) => s.t < lo && s.at)?.at;
      const after = samples.find((s) => s.t > hi && s.at)?.at;
      if (!before || !after || len(sub(before, after)) >= 10 || len(sub(before, p)) < 2 * R + 40) return null;
      continue;
    }
    let closest = { d: Infinity, t: 0 };
    let enter: number | null = null;
    for (let k = 1; k < near.length; k++) {
      const a = near[k - 1]!;
      const b = near[k]!;
      const v = sub(b.at!, a.at!);
      const l2 = v[0] * v[0] + v[1] * v[1];
      if (l2 < 4) continue; // not moving in this step
      const d0 = sub(a.at!, p);
      const f = Math.max(0, Math.min(1, -(d0[0] * v[0] + d0[1] * v[1]) / l2));
      const d = len([d0[0] + f * v[0], d0[1] + f * v[1]]);
      // When the centres came to two radii apart (the contact), if they did in this step.
      const B = 2 * (d0[0] * v[0] + d0[1] * v[1]);
      const C = d0[0] * d0[0] + d0[1] * d0[1] - 4 * R * R;
      const disc = B * B - 4 * l2 * C;
      const e = disc >= 0 ? (-B - Math.sqrt(disc)) / (2 * l2) : null;
      if (enter === null && e !== null && e >= 0 && e <= 1) enter = a.t + e * (b.t - a.t);
      if (d < closest.d) closest = { d, t: a.t + f * (b.t - a.t) };
    }
    if (closest.d > 2 * R + slack) continue;
    if (found) return null; // two balls could have struck it
    found = { ball, t: enter ?? closest.t };
  }
  return found;
}

/**
 * Was the ball seen, between the window's ends, farther from the rail than a bounce at `tc`
 * allows: more than a partial sighting's error (R + 4 mm) plus what it covers at 1.25 times
 * the faster of its speeds toward and away from the rail, over the time to `tc` and a third
 * of a frame more (the bounce's own timing)?
 */
function farFromRail(samples: readonly TrackSample[], w: Window, r: { axis: 0 | 1; line: number; n: 1 | -1 }, tc: number, speed: number, dt: number, R: number): boolean {
  for (const s of samples) {
    if (!s.at || s.t <= w.pre.t || s.t >= w.post.t) continue;
    const gap = (s.at[r.axis] - r.line) * r.n;
    if (gap > R + 4 + (Math.abs(s.t - tc) + dt / 3) * 1.25 * speed) return true;
  }
  return false;
}

/** mm beyond two radii at which a ball on the incoming line counts as in the way: a centroid's slack (doubts.ts TOUCH_SLACK). */
const IN_THE_WAY_MM = 8;

/**
 * Does another ball lie on this window's incoming line before the ball reaches the rail at `tc`:
 * does the line close in on it to touching distance? Its place at each moment from pre.t to tc
 * is interpolated between its sightings (a ball at rest stays put); a moment with no sighting
 * on either side says nothing.
 */
function ballInTheWay(w: Window, tc: number, tracks: Map<string, TrackSample[]>, R: number): boolean {
  const steps = 8;
  for (const [ball, samples] of tracks) {
    if (ball === w.ball) continue;
    let first: number | null = null;
    for (let k = 0; k <= steps; k++) {
      const t = w.pre.t + ((tc - w.pre.t) * k) / steps;
      const q = placeAt(samples, t);
      if (!q) continue;
      const d = len(sub(at(w.pre, t), q));
      first ??= d;
      // Closing in on it, not leaving a ball it has just touched.
      if (d < 2 * R + IN_THE_WAY_MM && d < first - 1) return true;
    }
  }
  return false;
}

/** A ball's place at `t`, interpolated between the sightings either side; null without one on each side. */
function placeAt(samples: readonly TrackSample[], t: number): [number, number] | null {
  let before: TrackSample | undefined;
  let after: TrackSample | undefined;
  for (const s of samples) {
    if (!s.at) continue;
    if (s.t <= t) before = s;
    else {
      after = s;
      break;
    }
  }
  if (!before?.at || !after?.at) return null;
  const f = after.t === before.t ? 0 : (t - before.t) / (after.t - before.t);
  return [before.at[0] + f * (after.at[0] - before.at[0]), before.at[1] + f * (after.at[1] - before.at[1])];
}

/** The rail a window's ball was at (centre within a frame's travel and a margin of the rail's line), if any. */
function railAt(w: Window, rails: { rail: Rail; axis: 0 | 1; line: number; n: 1 | -1 }[], dt: number): Rail | null {
  const reach = 15 + Math.max(len(w.pre.v), len(w.post.v)) * dt;
  for (const r of rails) {
    const d = Math.min((w.pre.p[r.axis] - r.line) * r.n, (w.post.p[r.axis] - r.line) * r.n);
    if (d < reach) return r.rail;
  }
  return null;
}

/**
 * Where timing cannot order a cushion and a ball contact of the same ball (closer than a
 * fraction of a frame), the cushion's ball becomes unknown: the engine asks instead of
 * counting a cushion on the wrong side of a contact.
 */
function blurCloseCalls(events: ContactEvent[], dt: number): void {
  const close = Math.max(4, 0.2 * dt);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind !== 'cushion' || !e.ball) continue;
    for (let j = 0; j < events.length; j++) {
      const o = events[j]!;
      if (o.kind !== 'ball' || Math.abs(o.t - e.t) > close) continue;
      if (o.balls!.includes(e.ball)) e.ball = null;
    }
  }
}

/** When two balls' lines come to `dist` apart within both windows; null if they never do. */
function meeting(a: Window, b: Window, dist: number, dt: number): { t: number; firstA: boolean } | null {
  const lo = Math.max(a.t0, b.t0) - 0.6 * dt;
  const hi = Math.min(a.t1, b.t1) + 0.6 * dt;
  if (hi < lo) return null;
  const tol = 12;
  const before = solve(a.pre, b.pre, dist, lo, hi, tol);
  const after = solveBack(a.post, b.post, dist, lo, hi, tol);
  const t = before ?? after;
  if (t === null) return null;
  // Striker first: the faster along the line of centres before the contact.
  const pa = at(a.pre, t);
  const pb = at(b.pre, t);
  const n = sub(pb, pa);
  const m = len(n) || 1;
  const va = (a.pre.v[0] * n[0] + a.pre.v[1] * n[1]) / m;
  const vb = (b.pre.v[0] * n[0] + b.pre.v[1] * n[1]) / m;
  return { t, firstA: Math.abs(va) >= Math.abs(vb) };
}

const at = (s: { p: [number, number]; v: [number, number]; t: number }, t: number): [number, number] => [s.p[0] + s.v[0] * (t - s.t), s.p[1] + s.v[1] * (t - s.t)];

/**
 * Do the two balls' paths bear out a contact found where their lines meet? Balls that touch
 * push each other apart along their line of centres (equal masses): each one's change of
 * velocity has a part away from the other, and one of them changes by more than a fit's
 * noise. Both bending toward each other, or neither bending by more than 0.15 mm/ms, is two
 * curving paths passing close — a swerve off a rail, a few mm from a touch — as well as a
 * contact (held-out 21218, carom s17 #3: the yellow and the red, each curving after its rail,
 * passed within a few mm; at 30 fps both bent toward each other, at 60 fps by 0.08 and 0.01
 * mm/ms; stated as a contact, the camera alone scored a carom that was none). Of 5,016 contacts
 * the camera found that were real (held-out 21217 and 21218), none bent by less than 0.17.
 */
function pushedApart(a: Window, b: Window, t: number): boolean {
  const n = sub(at(b.pre, t), at(a.pre, t));
  const m = len(n) || 1;
  const along = (v: readonly number[]) => (v[0]! * n[0] + v[1]! * n[1]) / m;
  const dva = sub(a.post.v, a.pre.v);
  const dvb = sub(b.post.v, b.pre.v);
  const towardB = along(dva); // a pushed away from b: negative
  const towardA = -along(dvb);
  if (towardB > TOWARD_NOISE && towardA > TOWARD_NOISE) return false;
  return Math.max(len(dva), len(dvb)) >= LEAST_KICK;
}

/** mm/ms: a change of velocity toward the other ball below this is a fit's noise (5 cm/s). */
const TOWARD_NOISE = 0.05;
/** mm/ms: the least change of velocity a contact gives one of its balls that a swerve or a fit's noise does not (15 cm/s). */
const LEAST_KICK = 0.15;

/** First time in [lo, hi] when |pa(t) − pb(t)| = d (closing), or the closest approach within tol. */
function solve(a: Window['pre'], b: Window['pre'], d: number, lo: number, hi: number, tol: number): number | null {
  const p0 = sub(at(a, lo), at(b, lo));
  const v = sub(a.v, b.v);
  const A = v[0] * v[0] + v[1] * v[1];
  const B = 2 * (p0[0] * v[0] + p0[1] * v[1]);
  const C = p0[0] * p0[0] + p0[1] * p0[1] - d * d;
  if (A < 1e-9) return Math.abs(len(p0) - d) < tol ? (lo + hi) / 2 : null;
  const disc = B * B - 4 * A * C;
  if (disc >= 0) {
    const s = (-B - Math.sqrt(disc)) / (2 * A);
    if (s >= -0.3 * (hi - lo) && s <= hi - lo) return lo + Math.max(0, s);
  }
  // Closest approach.
  const s = Math.min(hi - lo, Math.max(0, -B / (2 * A)));
  const q: [number, number] = [p0[0] + v[0] * s, p0[1] + v[1] * s];
  return Math.abs(len(q) - d) < tol ? lo + s : null;
}

/** The same with the post-contact lines, run backward (a ball at rest afterwards has none). */
function solveBack(a: Window['post'], b: Window['post'], d: number, lo: number, hi: number, tol: number): number | null {
  const p0 = sub(at(a, hi), at(b, hi));
  const v = sub(b.v, a.v); // backward in time
  const A = v[0] * v[0] + v[1] * v[1];
  const B = 2 * (p0[0] * v[0] + p0[1] * v[1]);
  const C = p0[0] * p0[0] + p0[1] * p0[1] - d * d;
  if (A < 1e-9) return null;
  const disc = B * B - 4 * A * C;
  if (disc < 0) return null;
  const s = (-B - Math.sqrt(disc)) / (2 * A);
  if (s < -0.3 * (hi - lo) || s > hi - lo + tol / Math.sqrt(A)) return null;
  return hi - Math.max(0, s);
}

/**
 * A track's contact windows: departures from rest, bends while moving, and gaps whose two
 * sides do not line up.
 */
export function windowsOf(ball: string, samples: readonly TrackSample[], dt: number, floor = 4): Window[] {
  const out: Window[] = [];
  const n = samples.length;
  const still = 0.06 * dt; // mm per frame below which a ball is still (≈ 60 mm/s)
  // Runs of consecutive observed samples.
  let k = 0;
  let prevRun: TrackSample[] | null = null;
  while (k < n) {
    if (!samples[k]!.at) {
      k++;
      continue;
    }
    const run: TrackSample[] = [];
    const startsAfterGap = k > 0;
    while (k < n && samples[k]!.at) run.push(samples[k++]!);
    // Frames beside an occlusion see the ball partly hidden: its centroid is off. Drop them.
    if (k < n && run.length >= 4) run.pop();
    if (startsAfterGap && run.length >= 4) run.shift();
    const p = run.map((s) => s.at!);
    const ts = run.map((s) => s.t);
    // Across a gap: compare the lines on either side.
    if (prevRun && prevRun.length >= 2 && run.length >= 2) {
      const a1 = prevRun[prevRun.length - 2]!;
      const a2 = prevRun[prevRun.length - 1]!;
      const b1 = run[0]!;
      const b2 = run[1]!;
      const va = scaleV(sub(a2.at!, a1.at!), 1 / (a2.t - a1.t));
      const vb = scaleV(sub(b2.at!, b1.at!), 1 / (b2.t - b1.t));
      const predicted: [number, number] = [a2.at![0] + va[0] * (b1.t - a2.t), a2.at![1] + va[1] * (b1.t - a2.t)];
      // A contact hidden in the gap changes the velocity, not only the place (a ball slowing down in the dark does not).
      const gapFrames = (b1.t - a2.t) / dt;
      const turned = len(sub(vb, va)) * dt > floor + 0.06 * len(va) * dt + 0.0025 * dt * dt * gapFrames;
      if (turned && len(sub(predicted, b1.at!)) > 8 + 0.15 * len(va) * (b1.t - a2.t)) {
        out.push({ ball, t0: a2.t, t1: b1.t, pre: { p: a2.at!, v: va, t: a2.t }, post: { p: b1.at!, v: vb, t: b1.t }, later: run[Math.min(run.length - 1, 3)]!.at!, departure: len(va) * dt < still, explained: false });
      }
    }
    prevRun = run;
    // Within the run: rest periods and departures from them.
    let anchor: { p: [number, number]; t: number } | null = null;
    // At rest = still for 170 ms: a ball still rolling would have left a 1.5 mm circle by then.
    const restSpan = Math.max(3, Math.ceil(170 / dt));
    for (let i = 2; i < run.length; i++) {
      if (!anchor) {
        if (i + 1 < restSpan) continue;
        const span = p.slice(i + 1 - restSpan, i + 1);
        const m: [number, number] = [span.reduce((a, q) => a + q[0], 0) / restSpan, span.reduce((a, q) => a + q[1], 0) / restSpan];
        if (span.every((q) => len(sub(q, m)) < 1.5)) anchor = { p: m, t: run[i]!.t };
        continue;
      }
      const off = len(sub(p[i]!, anchor.p));
      if (off < 4 || (i + 1 < run.length && len(sub(p[i + 1]!, anchor.p)) < 4)) continue;
      // Back in its place a few frames later: its centroid moved (something passed over it), not the ball.
      const later = p[Math.min(run.length - 1, i + 3)]!;
      if (len(sub(later, anchor.p)) < 3) continue;
      // Departure between i−1 and i: estimate when it left its place from the first moving samples.
      const j2 = Math.min(run.length - 1, i + 2);
      const v = j2 > i ? scaleV(sub(p[j2]!, p[i]!), 1 / (run[j2]!.t - run[i]!.t)) : ([0, 0] as [number, number]);
      const sp = len(v);
      const back = sp > 1e-6 ? off / sp : dt / 2;
      const tStart = Math.min(run[i]!.t, Math.max(run[i]!.t - back, anchor.t - dt));
      out.push({ ball, t0: tStart - 0.5 * dt, t1: tStart + 0.5 * dt, pre: { p: anchor.p, v: [0, 0], t: tStart - 0.5 * dt }, post: { p: p[i]!, v, t: run[i]!.t }, later, departure: true, explained: false });
      anchor = null;
    }
    // Bends: runs of large second differences.
    let j = 1;
    while (j < run.length - 1) {
      if (!bend(p, ts, j, dt, floor)) {
        j++;
        continue;
      }
      const a = j;
      while (j + 1 < run.length - 1 && bend(p, ts, j + 1, dt, floor)) j++;
      const b = j;
      j++;
      if (a < 1 || b + 1 >= run.length) continue;
      const va = scaleV(sub(p[a]!, p[a - 1]!), 1 / (run[a]!.t - run[a - 1]!.t));
      const vb = scaleV(sub(p[b + 1]!, p[b]!), 1 / (run[b + 1]!.t - run[b]!.t));
      if (len(va) * dt < still) continue; // a departure, handled above
      const t0 = a === b ? run[a]!.t - 0.5 * dt : run[a]!.t;
      const t1 = a === b ? run[a]!.t + 0.5 * dt : run[b]!.t;
      out.push({ ball, t0, t1, pre: { p: p[a]!, v: va, t: run[a]!.t }, post: { p: p[b]!, v: vb, t: run[b]!.t }, later: p[Math.min(run.length - 1, b + 3)]!, departure: false, explained: false });
    }
  }
  for (const d of out.filter((w) => w.departure)) turnsAfterLeaving(ball, d, samples, dt, floor, out);
  // A bend right at a departure is the departure itself (the first moving frame is a mix
  // of rest and motion): it may still show a cushion, but it needs no explanation.
  for (const w of out) {
    if (w.departure || w.afterLeaving) continue;
    if (out.some((d) => d.departure && w.t0 <= d.t1 + 1.5 * dt && w.t1 >= d.t0 - dt)) w.explained = true;
  }
  return out;
}

/** Least chord (mm) on either side, and least turn, for a ball's way off its rest place to count as bent. */
const KINK_CHORD_MM = 30;
const KINK_DEG = 20;

/**
 * A ball leaves rest in a straight line (the impulse is along the cue or the line of centres)
 * until it meets something, slowing by friction alone (at most FRICTION). The bend finder cannot
 * see that: the first moving sightings bend by the start itself (a frame of rest and motion
 * mixed), so their bends are taken for the departure. Their directions and speeds still tell:
 * at the first or second moving sighting, a turn of more than the sightings' error allows, or a
 * stop (it went on less far than the least speed it can have had there allows, friction and the
 * sightings' error taken off), is a contact there, never the departure. Held-out 21220, balkline 47/2 30 s0 #4: the white, under the cue
 * until it moved, struck the yellow before its second moving frame and turned; held-out 21222,
 * carom 60 s4 #15: the white struck the red lying 50 mm ahead and stopped dead. Either time the
 * contact went unseen and the camera alone called no point. A window the bend finder made there
 * is kept, unexplained; otherwise one is made.
 */
function turnsAfterLeaving(ball: string, d: Window, samples: readonly TrackSample[], dt: number, floor: number, out: Window[]): void {
  const k = samples.findIndex((s) => s.t === d.post.t && s.at !== null);
  if (k < 0) return;
  // It left after its last sighting at rest: from there the least time it took to its first moving sighting.
  const lastRest = samples.slice(0, k).findLast((s) => s.at !== null)?.t ?? (d.t0 + d.t1) / 2;
  const seen = [{ p: d.pre.p, t: (d.t0 + d.t1) / 2 }];
  for (const s of samples.slice(k)) {
    if (!s.at) break; // a gap: the sightings across it say nothing of a turn
    seen.push({ p: s.at, t: s.t });
    if (seen.length === 5) break;
  }
  for (let i = 1; i + 1 < seen.length && i <= 2; i++) {
    const [a, b, c] = [seen[i - 1]!, seen[i]!, seen[i + 1]!];
    const c1 = sub(b.p, a.p);
    const c2 = sub(c.p, b.p);
    if (len(c1) < KINK_CHORD_MM) continue;
    // The least speed it can have had on reaching b (from the chord before, less what friction
    // takes), and so the least way it must have gone on to c; the sightings' error either way.
    const from = i === 1 ? lastRest : a.t;
    const leastAtB = (len(c1) - (i === 1 ? 1 : 2) * floor) / Math.max(1, b.t - from) - FRICTION * (b.t - from);
    const onward = c.t - b.t;
    const stopped = leastAtB > 0 && len(c2) + 2 * floor < leastAtB * onward - 0.5 * FRICTION * onward * onward;
    const cos = len(c2) < KINK_CHORD_MM ? 1 : (c1[0] * c2[0] + c1[1] * c2[1]) / (len(c1) * len(c2));
    if (!stopped && cos > Math.cos((KINK_DEG * Math.PI) / 180)) continue;
    const made = out.find((w) => w.ball === ball && !w.departure && w.t0 <= b.t && w.t1 >= b.t);
    if (made) {
      made.afterLeaving = true;
      continue;
    }
    const later = seen[Math.min(seen.length - 1, i + 3)]!.p;
    const pre = { p: b.p, v: scaleV(c1, 1 / Math.max(1, b.t - a.t)), t: b.t };
    const post = { p: b.p, v: scaleV(c2, 1 / Math.max(1, c.t - b.t)), t: b.t };
    out.push({ ball, t0: b.t - 0.5 * dt, t1: b.t + 0.5 * dt, pre, post, later, departure: false, explained: false, afterLeaving: true });
  }
}
/** The most a ball slows by cloth friction alone, mm/ms per ms: sliding friction (μ ≈ 0.2) twice over. */
const FRICTION = 0.004;

const scaleV = (a: [number, number], s: number): [number, number] => [a[0] * s, a[1] * s];

/**
 * A bend at sample j: the change of velocity is more than friction and measurement noise give.
 * Velocities per ms on either side, scaled to a frame of `dt`, so a dropped frame (a live camera
 * skips some) is a longer step, not a bend.
 */
function bend(p: readonly [number, number][], ts: readonly number[], j: number, dt: number, floor: number): boolean {
  const before = (ts[j]! - ts[j - 1]!) / dt;
  const after = (ts[j + 1]! - ts[j]!) / dt;
  const a = [(p[j + 1]![0] - p[j]![0]) / after - (p[j]![0] - p[j - 1]![0]) / before, (p[j + 1]![1] - p[j]![1]) / after - (p[j]![1] - p[j - 1]![1]) / before];
  const v = len(sub(p[j + 1]!, p[j - 1]!)) / (before + after);
  // Sliding friction changes the velocity by μg·dt² ≈ 2.2 mm per frame² at 30 fps (more across a longer step).
  const friction = 0.0025 * dt * dt * Math.max(1, (before + after) / 2);
  return len(a) > floor + friction + 0.06 * v;
}
