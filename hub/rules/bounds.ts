import type { Rail } from './ids.ts';
import type { Point } from './events.ts';

/**
 * Physical bounds that rule readings out beyond "a ball at rest cannot hit anything"
 * (RULES §10: inferred by a stated rule). Each is conservative: it must never drop the
 * reading that happened, which the soundness test checks over the physics simulator's shots.
 */

/**
 * Fastest a ball can travel, mm/s. A very hard break on a carom table sends the cue ball at
 * about 10 m/s; the simulator's strokes stay under 5 m/s. Nothing on the table moves faster
 * than the cue ball did, since every collision and cushion loses energy.
 */
export const MAX_BALL_SPEED = 12_000;

/**
 * A ball that touched a rail reaches the opposite rail only after crossing the table: at
 * least (span − one ball diameter) / MAX_BALL_SPEED later (2780 mm lengthwise: 0.23 s;
 * 1360 mm across: 0.11 s). Adjacent rails meet in a corner, so they give no bound, and a
 * ball may return to the same rail quickly (a shallow angle with spin).
 */
export function minOppositeRailGap(rail: Rail, table: { length: number; width: number }, ballDiameter: number): number {
  const span = rail === 'head' || rail === 'foot' ? table.length : table.width;
  return ((span - ballDiameter) / MAX_BALL_SPEED) * 1000;
}

export const OPPOSITE: Readonly<Record<Rail, Rail>> = { head: 'foot', foot: 'head', left: 'right', right: 'left' };

/**
 * Two balls that just met separate: the struck ball leaves along the line of centres faster
 * than the striker follows it. Only spin can bring them together again with nothing touched in
 * between (the physics simulator shows a cue ball with follow catching a slow red three times in
 * 200 ms), and the cloth is all that turns spin into motion: it pushes each ball with at most
 * MAX_SLIDING_FRICTION·g. So Δt after a contact the two close on each other at no more than
 * 2·μg·Δt, plus what their separating relative velocity, bent by the same push, can point back
 * along the line of centres (at most (μg)²·Δt³ / 8R). A second click of the same pair with
 * nothing of theirs in between, read as faster than that, is some other pair. Not valid on
 * tables with skittles: a ball can bounce off a skittle without felling it, which no sensor
 * reports.
 */
export const SEPARATE_AFTER_CONTACT = true;

/** Sliding friction of ball on cloth, μ: about 0.2 on match cloth; an upper bound. */
export const MAX_SLIDING_FRICTION = 0.3;
const G = 9810;

/** The fastest (relative normal speed, mm/s) two balls that met `dtMs` ago can meet again with nothing touched in between. */
export function maxRecontactSpeed(dtMs: number, ballDiameter: number): number {
  const a = MAX_SLIDING_FRICTION * G;
  const t = (dtMs + 1) / 1000; // event times are whole ms
  return 2 * a * t + (a * a * t * t * t) / (4 * ballDiameter);
}

/**
 * A ball that struck a rail leaves it (its speed into the rail is then ≤ 0), and with nothing
 * touched in between only the cloth can turn it back into the same rail: it pushes with at most
 * MAX_SLIDING_FRICTION·g (follow bending the ball back after a cushion), so Δt after the first
 * hit the ball reaches that rail again at a normal speed of at most μg·Δt, whatever the
 * cushion's restitution. A second hit of the same rail read as faster than that is another
 * ball's (two balls at one rail a few ms apart, as three-cushion positions often leave them).
 * Touching anything else in between voids it: another ball, the adjacent rail of a corner
 * (its friction pushes along this rail's normal), or a skittle, which no sensor reports when it
 * stands — so on tables with skittles only while none can have been reached (skittleRoundTripMs).
 */
export function maxRailReturnSpeed(dtMs: number): number {
  return MAX_SLIDING_FRICTION * G * ((dtMs + 1) / 1000); // event times are whole ms
}

/** What the enumerator needs to apply the bounds: the table and whether the separation rule holds. */
export interface PhysicalBounds {
  table: { length: number; width: number };
  ballDiameter: number;
  /**
   * False on tables with skittles (see SEPARATE_AFTER_CONTACT): a ball can bounce off a standing
   * skittle unreported, which voids this bound and the same-rail return bound alike.
   */
  separateAfterContact: boolean;
  /**
   * On a skittle table without pockets (five skittles), where its skittles stand: the same-rail
   * return bound then holds while no skittle has fallen and the two hits are closer than a trip
   * to the nearest skittle and back (skittleRoundTripMs). Absent: the bound holds only with
   * separateAfterContact.
   */
  skittles?: SkittleObstacles;
}

/**
 * The skittles a ball may bounce off unreported, as discs: their spots, and a radius no part of
 * a standing skittle reaches past (its base's whole diameter, twice what the base covers).
 */
export interface SkittleObstacles {
  at: readonly Point[];
  radius: number;
}

/**
 * The soonest a ball that struck `rail` can touch a standing skittle and strike `rail` again:
 * wherever along the rail it hit, it must cross the gap between the rail's contact line and the
 * nearest skittle's reach twice, at no more than MAX_BALL_SPEED. A same-rail return sooner than
 * this touched no skittle, so only the cloth turned it (maxRailReturnSpeed). A fallen skittle may
 * roll anywhere: the enumerator stops using this at the shot's first skittle event.
 * Not for a pocket table (both seven-skittle games): a side pocket's two jaws belong to one
 * rail, and a ball rattling between them strikes that rail twice within milliseconds.
 */
export function skittleRoundTripMs(rail: Rail, bounds: PhysicalBounds): number {
  const { table, ballDiameter, skittles } = bounds;
  if (!skittles) return 0; // where they stand is not known: any return may have touched one
  if (skittles.at.length === 0) return Infinity;
  const r = ballDiameter / 2;
  const gap = Math.min(
    ...skittles.at.map(([x, y]) => {
      const fromRail = rail === 'head' ? x : rail === 'foot' ? table.length - x : rail === 'left' ? y : table.width - y;
      return fromRail - r - skittles.radius - r; // ball centre on the contact line to ball touching the disc
    }),
  );
  return Math.max(0, (2 * gap) / MAX_BALL_SPEED) * 1000;
}

/**
 * How a contact's sensor amplitude (the bridge's 8-bit peak, shot events' `amplitude`) relates
 * to its speed: a piezo's peak grows in proportion to the impact's normal speed (the relative
 * normal speed of two balls for the click channel, the ball's speed into the cushion for a rail
 * piezo), times how well the impact couples to the sensor (where on the table it happened: from
 * `couplingMin` at the far end to `couplingMax` next to it, with the sensor's own spread folded
 * in). Below the firmware's threshold a contact reads `floor` (anything from 0 up); at `ceiling`
 * the converter saturates (anything above). A table's calibration must establish these figures;
 * these are the hub's defaults, which the physics simulator's sensors follow.
 */
export const SENSOR_CALIBRATION = {
  /** Amplitude per mm/s of normal speed at full coupling. */
  perMmS: 0.06,
  couplingMin: 0.69,
  couplingMax: 1.08,
  floor: 12,
  ceiling: 255,
} as const;

/** The normal speeds (mm/s) an amplitude allows: [lo, hi] (lo 0 at the floor, hi ∞ at saturation). */
export function speedRange(amplitude: number | undefined): readonly [number, number] {
  if (amplitude === undefined) return [0, Infinity];
  const c = SENSOR_CALIBRATION;
  const lo = amplitude <= c.floor ? 0 : (amplitude - 0.5) / (c.perMmS * c.couplingMax);
  const hi = amplitude >= c.ceiling ? Infinity : (Math.max(amplitude, c.floor) + 0.5) / (c.perMmS * c.couplingMin);
  return [lo, hi];
}

/**
 * A ball's energy only grows when another ball strikes it. Write U for √(2E/m), E its kinetic
 * energy with spin: U ≥ its speed. Cloth friction, rolling resistance and cushions (restitution
 * below 1, and their friction against spin) only take energy away; a skittle only takes it too.
 * A contact at relative normal speed s gives each ball an impulse per unit mass of (1 + e)/2·s
 * ≤ s (e ≤ 1), plus a little tangential "throw" (ball-on-ball friction, under a tenth of the
 * normal impulse), and since 2E' ≤ (U + |Δv|)², U grows by at most IMPULSE_SHARE·s. So an object
 * ball that has been struck once, at a click read as s, moves at most IMPULSE_SHARE·s from then
 * on; and two balls meet at a relative normal speed of at most U₁ + U₂, and a ball reaches a rail
 * at a normal speed of at most U. Readings that need more are dropped.
 */
export const IMPULSE_SHARE = 1.05;
