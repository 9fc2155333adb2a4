import type { Point } from './events.ts';
import type { TableSize } from './options.ts';

/**
 * Zones that limit caroms while both object balls lie in one of them: the corner
 * triangles of the free game (FG-3) and the balkline grids (BK-1..3). One geometry
 * engine, data per game.
 */
export type ZoneGeometry =
  | { kind: 'grid'; name: string; fromShortRails: number; fromLongRails: number | null; halveLengthwise: boolean; perZone: number }
  | { kind: 'corner-triangles'; name: string; leg: number; perZone: number };

/** BK-3 presets. 47/1, 47/2 and 71/2: lines at that distance from every cushion, 9 zones. 74/2 as the seed writes it: 6 zones. */
export const BALKLINE_PRESETS = {
  'balkline-47-1': { kind: 'grid', name: '47/1', fromShortRails: 470, fromLongRails: 470, halveLengthwise: false, perZone: 1 },
  'balkline-47-2': { kind: 'grid', name: '47/2', fromShortRails: 470, fromLongRails: 470, halveLengthwise: false, perZone: 2 },
  'balkline-71-2': { kind: 'grid', name: '71/2', fromShortRails: 710, fromLongRails: 710, halveLengthwise: false, perZone: 2 },
  'balkline-74-2': { kind: 'grid', name: '74/2', fromShortRails: 740, fromLongRails: null, halveLengthwise: true, perZone: 2 },
} as const satisfies Record<string, ZoneGeometry>;

/** FG-3 Decision: 30 cm legs along each cushion when the club sets nothing else. */
export const FREE_GAME_TRIANGLES: ZoneGeometry = { kind: 'corner-triangles', name: 'corner triangles', leg: 300, perZone: 1 };

/** The zone a resting ball lies in, or null where no limit applies. Positions are mm from the head-left corner. */
export function zoneOf(geometry: ZoneGeometry, table: TableSize, [x, y]: Point): string | null {
  if (geometry.kind === 'corner-triangles') {
    const fromHead = x;
    const fromFoot = table.length - x;
    const fromLeft = y;
    const fromRight = table.width - y;
    if (fromHead + fromLeft < geometry.leg) return 'head-left';
    if (fromHead + fromRight < geometry.leg) return 'head-right';
    if (fromFoot + fromLeft < geometry.leg) return 'foot-left';
    if (fromFoot + fromRight < geometry.leg) return 'foot-right';
    return null;
  }
  const column = x < geometry.fromShortRails ? 0 : x < table.length - geometry.fromShortRails ? 1 : 2;
  let row: number;
  if (geometry.halveLengthwise) row = y < table.width / 2 ? 0 : 1;
  else {
    const d = geometry.fromLongRails ?? 0;
    row = y < d ? 0 : y < table.width - d ? 1 : 2;
  }
  return `c${column}r${row}`;
}

/**
 * BK-1/BK-3 (RULES §11): a ball touching a line lies in every zone it touches ("in balk"), so a
 * resting ball may lie in up to four grid zones. Triangles (FG-3) go by the ball's centre.
 */
export function zonesOf(geometry: ZoneGeometry, table: TableSize, at: Point, radius: number): string[] {
  if (geometry.kind === 'corner-triangles') {
    const z = zoneOf(geometry, table, at);
    return z === null ? [] : [z];
  }
  const zones = new Set<string>();
  // The ball's edge toward each side and each diagonal (close enough for a line crossing).
  const d = radius * Math.SQRT1_2;
  const offsets: Point[] = [[0, 0], [radius, 0], [-radius, 0], [0, radius], [0, -radius], [d, d], [d, -d], [-d, d], [-d, -d]];
  for (const [dx, dy] of offsets) {
    const x = Math.min(table.length, Math.max(0, at[0] + dx));
    const y = Math.min(table.width, Math.max(0, at[1] + dy));
    zones.add(zoneOf(geometry, table, [x, y])!);
  }
  return [...zones].sort();
}
