import type { Rail } from '../../../hub/rules/ids.ts';
import { advance, motionOf, type Ball, type Cloth, CLOTH, type Motion, energy } from './ball.ts';
import { derivative, evaluate, rootsIn } from './poly.ts';
import { RAIL_NORMAL, type TableGeometry } from './table.ts';
import { addScaled, dot, perp, scale, sub, unit, type Vec } from './vec.ts';

/**
 * The event-driven stepper. Between events every ball follows a quadratic path (ball.ts);
 * the next event is the earliest of: a ball's phase change (sliding → rolling → rest), a
 * ball reaching a cushion (a quadratic per axis), two balls touching (|Δp(t)| = 2R, a
 * quartic), a ball touching a skittle, a ball's centre entering a pocket. All balls are
 * advanced analytically to that time, the contact is resolved, and the search starts again.
 */
export type SimEvent =
  | { kind: 'ball'; balls: [string, string]; t: number; speed: number }
  | { kind: 'cushion'; rail: Rail; ball: string; t: number; speed: number }
  | { kind: 'skittle'; skittle: string; by: string; t: number; speed: number }
  | { kind: 'pocket'; ball: string; t: number }
  | { kind: 'off-table'; ball: string; t: number };

export interface SimOptions {
  random: () => number;
  cloth?: Cloth;
  /** Seconds of play at most. */
  maxTime?: number;
  maxEvents?: number;
  /** A skittle falls when hit at this speed (mm/s) or faster; slower, the ball bounces off it. */
  skittleFallSpeed?: number;
  /** Cushion hits faster than this (normal speed, mm/s) may make the ball jump off the table… */
  jumpSpeed?: number;
  /** …with this probability. */
  jumpChance?: number;
  /** Planning: stop as soon as this says the outcome is known. */
  stopWhen?: (events: readonly SimEvent[]) => boolean;
  /**
   * Called after every contact with the time (s) and every ball's state: with its event, or
   * with null for a bounce off a skittle that stays up (no event, but the path bends there:
   * the rendered video, which draws between these states, must show the bounce).
   */
  observe?: (t: number, balls: readonly Ball[], event: SimEvent | null) => void;
}

export interface SimResult {
  events: SimEvent[];
  balls: Ball[];
  /** Skittles still standing. */
  standing: string[];
  /** Seconds until every ball was at rest (or the simulation stopped). */
  duration: number;
}

type Contact =
  | { t: number; kind: 'cushion'; i: number; rail: Rail }
  | { t: number; kind: 'ball'; i: number; j: number }
  | { t: number; kind: 'skittle'; i: number; s: number }
  | { t: number; kind: 'pocket'; i: number };

/** First time in [0, hi] where the gap polynomial reaches zero while closing. */
function firstClosing(gap: readonly number[], hi: number): number | null {
  const d = derivative(gap);
  if (evaluate(gap, 0) <= 0 && evaluate(d, 0) < 0) return 0;
  for (const t of rootsIn(gap, 0, hi)) if (evaluate(d, t) < 0 && t >= 0) return t;
  return null;
}

/** |Δp(t)|² − r² as a quartic in t, for Δp(t) = c + b·t + a·t². */
function distanceGap(c: Vec, b: Vec, a: Vec, r: number): number[] {
  return [dot(c, c) - r * r, 2 * dot(c, b), dot(b, b) + 2 * dot(c, a), 2 * dot(b, a), dot(a, a)];
}

const reach = (m: Motion, h: number) => Math.hypot(m.v[0], m.v[1]) * h + 0.5 * Math.hypot(m.a[0], m.a[1]) * h * h;

export function simulate(table: TableGeometry, start: readonly Ball[], options: SimOptions): SimResult {
  const cloth = options.cloth ?? CLOTH;
  const maxTime = options.maxTime ?? 40;
  const maxEvents = options.maxEvents ?? 400;
  const fallSpeed = options.skittleFallSpeed ?? 150;
  const jumpSpeed = options.jumpSpeed ?? 3200;
  const jumpChance = options.jumpChance ?? 0.08;
  const R = table.ballRadius;
  let balls = start.map((b) => ({ ...b }));
  const standing = table.skittles.map((s) => ({ ...s, up: true }));
  const events: SimEvent[] = [];
  let now = 0;
  options.observe?.(0, balls, null);

  // A hard cap on steps as well as events: phase changes are steps without events.
  for (let step = 0; step < 20 * maxEvents && events.length < maxEvents && now < maxTime; step++) {
    const motions = balls.map((b) => motionOf(b, cloth));
    let horizon = Infinity;
    for (const m of motions) horizon = Math.min(horizon, m.until);
    if (horizon === Infinity) break; // everything at rest
    horizon = Math.min(horizon, maxTime - now);
    let best: Contact | null = null;
    const consider = (c: Contact) => {
      if (c.t <= horizon && (!best || c.t < best.t)) best = c;
    };
    for (let i = 0; i < balls.length; i++) {
      const m = motions[i]!;
      if (m.phase === 'rest' || balls[i]!.gone) continue;
      const lim = best ? Math.min(horizon, (best as Contact).t) : horizon;
      // Cushions, per axis.
      const axes: [Rail, number[]][] = [
        ['head', [m.p[0] - R, m.v[0], m.a[0] / 2]],
        ['foot', [table.length - R - m.p[0], -m.v[0], -m.a[0] / 2]],
        ['left', [m.p[1] - R, m.v[1], m.a[1] / 2]],
        ['right', [table.width - R - m.p[1], -m.v[1], -m.a[1] / 2]],
      ];
      for (const [rail, gap] of axes) {
        const t = firstClosing(gap, lim);
        if (t !== null) consider({ t, kind: 'cushion', i, rail });
      }
      const r = reach(m, best ? (best as Contact).t : horizon);
      for (const pocket of table.pockets) {
        if (Math.hypot(m.p[0] - pocket.at[0], m.p[1] - pocket.at[1]) - r > pocket.radius) continue;
        const t = firstClosing(distanceGap(sub(m.p, pocket.at), m.v, scale(m.a, 0.5), pocket.radius), best ? (best as Contact).t : horizon);
        if (t !== null) consider({ t, kind: 'pocket', i });
      }
      standing.forEach((s, k) => {
        if (!s.up) return;
        if (Math.hypot(m.p[0] - s.at[0], m.p[1] - s.at[1]) - r > R + s.radius) return;
        const t = firstClosing(distanceGap(sub(m.p, s.at), m.v, scale(m.a, 0.5), R + s.radius), best ? (best as Contact).t : horizon);
        if (t !== null) consider({ t, kind: 'skittle', i, s: k });
      });
      for (let j = 0; j < balls.length; j++) {
        if (j === i || balls[j]!.gone) continue;
        const n = motions[j]!;
        if (n.phase !== 'rest' && j < i) continue; // each moving pair once
        const h = best ? (best as Contact).t : horizon;
        if (Math.hypot(m.p[0] - n.p[0], m.p[1] - n.p[1]) - r - reach(n, h) > 2 * R) continue;
        const t = firstClosing(distanceGap(sub(m.p, n.p), sub(m.v, n.v), scale(sub(m.a, n.a), 0.5), 2 * R), h);
        if (t !== null) consider({ t, kind: 'ball', i, j });
      }
    }
    const contact = best as Contact | null;
    const dt = contact ? contact.t : horizon;
    balls = balls.map((b) => advance(b, dt, cloth));
    now += dt;
    if (!contact) continue;
    const before = events.length;
    resolve(contact);
    for (let k = before; k < events.length; k++) options.observe?.(now, balls, events[k]!);
    if (events.length === before) options.observe?.(now, balls, null);
    if (options.stopWhen?.(events)) break;
  }
  return { events, balls, standing: standing.filter((s) => s.up).map((s) => s.id), duration: now };

  function resolve(c: Contact): void {
    const b = balls[c.i]!;
    if (c.kind === 'cushion') {
      const n = RAIL_NORMAL[c.rail];
      const vn = dot(b.v, n);
      const speed = -vn;
      events.push({ kind: 'cushion', rail: c.rail, ball: b.id, t: now, speed });
      if (speed > jumpSpeed && options.random() < jumpChance) {
        events.push({ kind: 'off-table', ball: b.id, t: now });
        balls[c.i] = { ...b, gone: true, v: [0, 0], roll: [0, 0], side: 0 };
        return;
      }
      const tan = perp(n);
      let v = addScaled(b.v, n, -(1 + table.cushionRestitution) * vn);
      // Friction at the cushion drives the contact point's slip (vt − side) part-way to zero:
      // side spin bends the rebound a little and is partly used up.
      // The share of it grows with the side spin, so a ball without side spin rebounds at its angle of incidence (for e = 1).
      const vt = dot(v, tan);
      const slip = vt - b.side;
      const share = b.side === 0 ? 0 : Math.abs(b.side) / (Math.abs(b.side) + Math.abs(vt));
      const j = (-0.3 * share * slip) / 3.5;
      v = addScaled(v, tan, j);
      const side = b.side - 2.5 * j;
      // The cushion's nose is above the ball's centre: it takes most of the spin along the normal.
      const rn = dot(b.roll, n);
      const roll = addScaled(b.roll, n, -1.2 * rn);
      balls[c.i] = { ...b, v, roll, side };
      return;
    }
    if (c.kind === 'pocket') {
      events.push({ kind: 'pocket', ball: b.id, t: now });
      balls[c.i] = { ...b, gone: true, v: [0, 0], roll: [0, 0], side: 0 };
      return;
    }
    if (c.kind === 'skittle') {
      const s = standing[c.s]!;
      const n = unit(sub(s.at, b.p));
      const vn = dot(b.v, n);
      if (vn >= fallSpeed) {
        s.up = false;
        events.push({ kind: 'skittle', skittle: s.id, by: b.id, t: now, speed: vn });
        balls[c.i] = { ...b, v: addScaled(b.v, n, -0.4 * vn) };
      } else {
        // Too slow to fell it: the ball bounces off the skittle's base and the contact takes its spin
        // (otherwise top spin would drive it back into the skittle again and again).
        const v = addScaled(b.v, n, -1.5 * Math.max(0, vn));
        const keep = Math.min(Math.hypot(v[0], v[1]), Math.hypot(b.roll[0], b.roll[1]));
        balls[c.i] = { ...b, v, roll: scale(unit(v), keep) };
      }
      return;
    }
    const o = balls[c.j]!;
    const n = unit(sub(o.p, b.p));
    const vi = dot(b.v, n);
    const vj = dot(o.v, n);
    const e = table.ballRestitution;
    const ni = ((1 - e) * vi + (1 + e) * vj) / 2;
    const nj = ((1 + e) * vi + (1 - e) * vj) / 2;
    balls[c.i] = { ...b, v: addScaled(b.v, n, ni - vi) };
    balls[c.j] = { ...o, v: addScaled(o.v, n, nj - vj) };
    // The striking ball (the faster along the line of centres) is named first.
    const pair: [string, string] = Math.abs(vi) >= Math.abs(vj) ? [b.id, o.id] : [o.id, b.id];
    events.push({ kind: 'ball', balls: pair, t: now, speed: vi - vj });
  }
}

export function totalEnergy(balls: readonly Ball[]): number {
  return balls.reduce((sum, b) => sum + energy(b), 0);
}

