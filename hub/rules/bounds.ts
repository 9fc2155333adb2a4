import type { Rail } from './ids.ts';

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
 * Two balls that just met cannot meet again before one of them touches something else (a
 * cushion, another ball). After the contact the struck ball leaves along the line of centres
 * faster than the striker follows it (restitution < 1 keeps the striker's share small, and
 * follow spin only brings the striker up to at most 5/7·v + 2/7·rω, below the struck ball's
 * share), while cloth friction never turns either ball back on its own. Not valid on tables
 * with skittles: a ball can bounce off a skittle without felling it, which no sensor reports.
 */
export const SEPARATE_AFTER_CONTACT = true;

/** What the enumerator needs to apply the bounds: the table and whether the separation rule holds. */
export interface PhysicalBounds {
  table: { length: number; width: number };
  ballDiameter: number;
  /** False on tables with skittles (see SEPARATE_AFTER_CONTACT). */
  separateAfterContact: boolean;
}
