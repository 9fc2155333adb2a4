import type { SkittleId } from '../ids.ts';
import type { SkittleLayout } from '../catalogue.ts';
import type { Point, Positions } from '../events.ts';
import type { TableSize } from '../options.ts';
import { distance } from '../table.ts';

/**
 * Where skittles and balls stand on the two tables of the skittle games (SK5-2, SK5-12,
 * SK7P-1, SK7C-3). Coordinates in mm from the head-left corner of the playing surface,
 * x toward the foot rail, y toward the right rail (CONTRACT §1.2).
 */
export interface SkittleTable {
  size: TableSize;
  ball: number;
  /** Diameter of a skittle's base: a ball closer than ball/2 + base/2 to a spot occupies it. */
  skittleBase: number;
  /** Centre-to-centre distance from the king to each small skittle. */
  spacing: number;
}

/** A carom match table (RULES §0). SK5-2: the small skittles one ball diameter from the king (gap), 25 mm bases (assumed). */
export const CAROM_TABLE: SkittleTable = { size: { length: 2840, width: 1420 }, ball: 61.5, skittleBase: 25, spacing: 61.5 + 25 };

/** A 12-foot pyramid table, 3550 × 1775 mm playing surface, 68 mm balls. SK7P-1: a ball diameter + 2 mm gap. */
export const PYRAMID_TABLE: SkittleTable = { size: { length: 3550, width: 1775 }, ball: 68, skittleBase: 26, spacing: 68 + 2 + 26 };

export function withSize(base: SkittleTable, size: TableSize | undefined): SkittleTable {
  return size ? { ...base, size } : base;
}

export function centre(t: SkittleTable): Point {
  return [t.size.length / 2, t.size.width / 2];
}

/** The table's spots 1 (head), 2 (centre), 3 (foot) on the long axis (RULES §0). */
export function tableSpot(t: SkittleTable, spot: 1 | 2 | 3): Point {
  return [(spot * t.size.length) / 4, t.size.width / 2];
}

/** Unit directions from the king to each small skittle: head toward the head rail, left toward the left rail. */
export const DIRECTION: Record<'head' | 'foot' | 'left' | 'right', Point> = {
  head: [-1, 0],
  foot: [1, 0],
  left: [0, -1],
  right: [0, 1],
};

export const OPPOSITE = { head: 'foot', foot: 'head', left: 'right', right: 'left' } as const;

export function along(from: Point, dir: Point, mm: number): Point {
  return [from[0] + dir[0] * mm, from[1] + dir[1] * mm];
}

/**
 * SK7P-1: a medium skittle stands on the long axis so that a ball on spot 1 (3) aimed at
 * the side pocket passes it with 5 mm to spare. The path from the spot to the side pocket
 * runs at angle θ to the axis; the skittle is D = (ball/2 + base/2 + 5) / sin θ from the
 * spot, toward the centre.
 */
function pyramidSpotSkittle(t: SkittleTable, spot: 1 | 3): Point {
  const [sx, sy] = tableSpot(t, spot);
  const theta = Math.atan2(t.size.width / 2, t.size.length / 4);
  const d = (t.ball / 2 + t.skittleBase / 2 + 5) / Math.sin(theta);
  return [sx + (spot === 1 ? d : -d), sy];
}

export type { SkittleLayout } from '../catalogue.ts';

/** The home spot of every skittle of a game. SK7C-3: spot skittles stand on spots 1 and 3 themselves. */
export function skittleSpots(t: SkittleTable, layout: SkittleLayout): Partial<Record<SkittleId, Point>> {
  const c = centre(t);
  const spots: Partial<Record<SkittleId, Point>> = { king: c };
  for (const s of ['head', 'foot', 'left', 'right'] as const) spots[s] = along(c, DIRECTION[s], t.spacing);
  if (layout === 'pyramid-seven') {
    spots.spot1 = pyramidSpotSkittle(t, 1);
    spots.spot3 = pyramidSpotSkittle(t, 3);
  } else if (layout === 'carom-seven') {
    spots.spot1 = tableSpot(t, 1);
    spots.spot3 = tableSpot(t, 3);
  }
  return spots;
}

/** Where each ball starts (SK5-12, SK7P-11, SK7C-3). The cue ball is in hand: no spot. */
export function ballSpots(t: SkittleTable, layout: SkittleLayout): Record<'one' | 'two', Point> {
  if (layout === 'carom-seven') {
    // SK7C-3: beside the spot skittle on the long axis toward the short cushion, half a ball diameter away.
    const off = t.ball / 2 + t.skittleBase / 2 + t.ball / 2;
    const [x1, y] = tableSpot(t, 1);
    const [x3] = tableSpot(t, 3);
    return { two: [x1 - off, y], one: [x3 + off, y] };
  }
  // SK5-12: whites on spots 1 and 3. SK7P-11: the object ball near spot 3 (`one`), the other near spot 1.
  // Decision: `one` on the foot spot (3), `two` on the head spot (1).
  return { one: tableSpot(t, 3), two: tableSpot(t, 1) };
}

/** Is any ball lying on a skittle's place? */
export function isOccupied(t: SkittleTable, at: Point, balls: Positions): boolean {
  const reach = t.ball / 2 + t.skittleBase / 2;
  return Object.values(balls).some((p) => distance(p, at) < reach);
}

/** Is a ball's place free of other balls? */
export function ballPlaceFree(t: SkittleTable, at: Point, balls: Positions): boolean {
  return Object.values(balls).every((p) => distance(p, at) >= t.ball);
}

export const round = (p: Point): readonly [number, number] => [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
