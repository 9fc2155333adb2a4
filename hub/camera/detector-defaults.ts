import { gameEntry, playsSkittles } from '../rules/catalogue.ts';
import { MATCH_TABLE, tableSchema, type TableSize } from '../rules/options.ts';
import { CAROM_TABLE, PYRAMID_TABLE } from '../rules/skittles/geometry.ts';
import type { VisionOptions } from './vision-options.ts';

/**
 * What a table's game says about its camera's detector, for the settings the camera's config
 * leaves out: the balls (carom or skittles), which skittles stand where, and the playing
 * surface (a skittle game's own table; a carom game's `options.table` or the match table,
 * RULES §0). A table configured for five skittles with no detector settings ran the carom
 * detector on a 2840 × 1420 table; one for the seven-skittle carom game watched its spot
 * skittles 73 mm from where they stand. Nothing for an unknown game (the detector's own
 * defaults stand, and the config check reports the game).
 */
export function detectorDefaults(match: { variant: string; options?: Record<string, unknown> | undefined } | undefined): Partial<VisionOptions> {
  const entry = match ? gameEntry(match.variant) : undefined;
  if (!entry) return {};
  if (playsSkittles(entry.family) && entry.layout) {
    const table: TableSize = entry.layout === 'carom-five' ? CAROM_TABLE.size : PYRAMID_TABLE.size;
    return { balls: 'skittles', layout: entry.layout, table: { length: table.length, width: table.width } };
  }
  const own = tableSchema.safeParse(match?.options?.table);
  const table = own.success ? own.data : MATCH_TABLE;
  return { balls: 'carom', table: { length: table.length, width: table.width } };
}
