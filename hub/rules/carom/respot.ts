import type { BallId } from '../ids.ts';
import type { Point, Positions } from '../events.ts';
import type { Instruction } from '../outcome.ts';
import type { TableSize } from '../options.ts';
import { occupied, spotsOf } from '../table.ts';

type Spot = 'head' | 'center' | 'foot';

/**
 * G-11: where balls that left the table go. The cue ball and a white object ball prefer
 * the head spot, then foot, then centre; the red prefers foot, head, centre. The cue ball
 * is spotted first; when the cue ball (still on the table) sits on an object ball's spot,
 * the other object ball goes first. All three off: the break position (G-4).
 *
 * `rest` is where the balls that stayed came to rest, when known. Without it the
 * instruction names the order of preference for the referee to apply.
 */
export function respotCarom(
  off: readonly BallId[],
  cueBall: BallId,
  rest: Positions | null,
  table: TableSize,
): { instructions: Instruction[]; positions: Positions | null } {
  if (off.length === 0) return { instructions: [], positions: rest };
  const spots = spotsOf(table);
  const prefs = (ball: BallId): Spot[] => (ball === 'red' ? ['foot', 'head', 'center'] : ['head', 'foot', 'center']);

  if (off.length >= 3) {
    return {
      instructions: [{ item: 'all balls', to: 'the break position', rule: 'G-4' }],
      positions: null,
    };
  }

  // Order: cue ball first; among object balls, one whose first-choice spot is blocked by the cue ball waits.
  const objects = off.filter((b) => b !== cueBall);
  const cueAt = rest?.[cueBall];
  if (cueAt && objects.length === 2) {
    objects.sort((a, b) => Number(onSpot(cueAt, spots[prefs(a)[0]!])) - Number(onSpot(cueAt, spots[prefs(b)[0]!])));
  }
  const order = off.includes(cueBall) ? [cueBall, ...objects] : objects;

  const known: Record<string, Point> | null = rest ? { ...rest } : null;
  const instructions: Instruction[] = [];
  for (const ball of order) {
    const choices = prefs(ball);
    if (!known) {
      instructions.push({ item: ball, to: choices.map((s) => `${s} spot`).join(', else '), rule: 'G-11' });
      continue;
    }
    const free = choices.find((s) => !occupied(spots[s], known, [ball])) ?? 'center';
    known[ball] = spots[free];
    instructions.push({ item: ball, to: `${free} spot`, at: spots[free], rule: 'G-11' });
  }
  return { instructions, positions: known };
}

function onSpot(at: Point, spot: Point): boolean {
  return occupied(spot, { x: at });
}
