import { add, addScaled, dot, length, scale, sub, unit, ZERO, type Vec } from './vec.ts';

/**
 * One ball's state and its motion between events. Units: mm, s, mm/s.
 *
 * Spin is kept as velocities at the ball's surface: `roll` is the velocity the in-plane
 * spin alone would give the ball if it were rolling (roll = v means rolling; roll > v along
 * v is top spin, roll against v is back spin/draw), `side` is R·ωz (side spin, English;
 * positive = counter-clockwise seen from above). The cloth contact point slips at u = v − roll.
 *
 * Phases: sliding (u ≠ 0: friction μs·g opposite to u; v changes by −μs·g·û, roll by
 * +5/2·μs·g·û, so u shrinks at 7/2·μs·g until the ball rolls), rolling (v decreases at μr·g
 * along v, roll follows v), at rest. In each phase the position is a quadratic in time.
 */
export interface Ball {
  id: string;
  p: Vec;
  v: Vec;
  roll: Vec;
  side: number;
  /** Set once the ball has left play (pocketed or off the table). */
  gone?: boolean;
}

export interface Cloth {
  /** Sliding friction coefficient. */
  slide: number;
  /** Rolling resistance coefficient. */
  rolling: number;
  /** Side-spin decay on the cloth, mm/s². */
  spinDecay: number;
  /** Gravity, mm/s². */
  g: number;
}

export const CLOTH: Cloth = { slide: 0.2, rolling: 0.012, spinDecay: 1200, g: 9810 };

/** Below this speed (mm/s) a ball counts as stopped, below this slip as rolling. */
export const EPS_SPEED = 1e-3;

export type Phase = 'rest' | 'sliding' | 'rolling';

export function phaseOf(b: Ball): Phase {
  if (b.gone) return 'rest';
  const slip = length(sub(b.v, b.roll));
  if (slip > EPS_SPEED) return 'sliding';
  return length(b.v) > EPS_SPEED ? 'rolling' : 'rest';
}

/** The motion in the current phase: p(t) = p + v·t + ½·a·t², valid for t ≤ until. */
export interface Motion {
  phase: Phase;
  p: Vec;
  v: Vec;
  a: Vec;
  /** Time the phase ends (Infinity at rest). */
  until: number;
}

export function motionOf(b: Ball, cloth: Cloth = CLOTH): Motion {
  const phase = phaseOf(b);
  if (phase === 'rest') return { phase, p: b.p, v: ZERO, a: ZERO, until: Infinity };
  if (phase === 'sliding') {
    const u = sub(b.v, b.roll);
    const dir = unit(u);
    const mu = cloth.slide * cloth.g;
    return { phase, p: b.p, v: b.v, a: scale(dir, -mu), until: (2 * length(u)) / (7 * mu) };
  }
  const mu = cloth.rolling * cloth.g;
  return { phase, p: b.p, v: b.v, a: scale(unit(b.v), -mu), until: length(b.v) / mu };
}

export function positionAt(m: Motion, t: number): Vec {
  return add(addScaled(m.p, m.v, t), scale(m.a, 0.5 * t * t));
}

/** Advances a ball by dt ≤ its phase's end, analytically; at the phase's end it is snapped to rolling / rest. */
export function advance(b: Ball, dt: number, cloth: Cloth = CLOTH): Ball {
  if (b.gone) return b;
  dt = Math.max(0, dt);
  const m = motionOf(b, cloth);
  const side = Math.sign(b.side) * Math.max(0, Math.abs(b.side) - cloth.spinDecay * dt);
  if (m.phase === 'rest') return { ...b, v: ZERO, roll: ZERO, side: 0 };
  const t = Math.min(dt, m.until);
  const p = positionAt(m, t);
  const v = addScaled(m.v, m.a, t);
  if (m.phase === 'sliding') {
    const roll = addScaled(b.roll, m.a, -2.5 * t);
    // At the end of sliding the contact point stops slipping: roll = v exactly.
    return t >= m.until - 1e-12 ? { ...b, p, v, roll: v, side } : { ...b, p, v, roll, side };
  }
  if (t >= m.until - 1e-12) return { ...b, p, v: ZERO, roll: ZERO, side: 0 };
  return { ...b, p, v, roll: v, side };
}

/** Kinetic energy per unit mass: translation ½v² + rotation (I = 2/5·m·R²) ⅕·(roll² + side²). */
export function energy(b: Ball): number {
  if (b.gone) return 0;
  return 0.5 * dot(b.v, b.v) + 0.2 * (dot(b.roll, b.roll) + b.side * b.side);
}
