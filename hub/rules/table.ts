import type { Point, Positions } from './events.ts';
import type { TableSize } from './options.ts';

/** Ball diameter in mm (carom 61.5; pyramid 68): two balls closer than this touch. */
export const CAROM_BALL_MM = 61.5;

/** The three spots on the long axis (RULES §0): head, centre and foot, at ¼, ½ and ¾ of the length. */
export function spotsOf(table: TableSize): Record<'head' | 'center' | 'foot', Point> {
  const y = table.width / 2;
  return { head: [table.length / 4, y], center: [table.length / 2, y], foot: [(3 * table.length) / 4, y] };
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** Is any known ball (other than those excluded) lying on the point? */
export function occupied(point: Point, positions: Positions, exclude: readonly string[] = [], diameter = CAROM_BALL_MM): boolean {
  return Object.entries(positions).some(([ball, at]) => !exclude.includes(ball) && distance(at, point) < diameter);
}
