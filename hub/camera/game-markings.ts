import { spotsOf } from '../rules/table.ts';
import type { TableSize } from '../rules/options.ts';
import { BALKLINE_PRESETS, FREE_GAME_TRIANGLES, type ZoneGeometry } from '../rules/zones.ts';
import type { GameMarkings } from '../vision/table-lines.ts';

/**
 * What a game marks on the cloth, for the calibration overlay: the three spots (RULES §0)
 * and the zone lines of the games that have them — the balkline grids (BK-3) and the free
 * game's corner triangles (FG-3) — from the rules engine's own geometry.
 */
export function zoneGeometryOf(variant: string | null | undefined): ZoneGeometry | null {
  if (!variant) return null;
  if (Object.hasOwn(BALKLINE_PRESETS, variant)) return BALKLINE_PRESETS[variant as keyof typeof BALKLINE_PRESETS];
  if (variant === 'free-game') return FREE_GAME_TRIANGLES;
  return null;
}

export function gameMarkings(variant: string | null | undefined, table: TableSize): GameMarkings {
  const { length: L, width: W } = table;
  const spots = Object.values(spotsOf(table));
  const zones: [readonly [number, number], readonly [number, number]][] = [];
  const g = zoneGeometryOf(variant);
  if (g?.kind === 'grid') {
    const s = g.fromShortRails;
    zones.push([[s, 0], [s, W]], [[L - s, 0], [L - s, W]]);
    if (g.halveLengthwise) zones.push([[0, W / 2], [L, W / 2]]);
    else if (g.fromLongRails !== null) zones.push([[0, g.fromLongRails], [L, g.fromLongRails]], [[0, W - g.fromLongRails], [L, W - g.fromLongRails]]);
  } else if (g?.kind === 'corner-triangles') {
    const leg = g.leg;
    zones.push([[leg, 0], [0, leg]], [[L - leg, 0], [L, leg]], [[L - leg, W], [L, W - leg]], [[leg, W], [0, W - leg]]);
  }
  return { spots, zones };
}
