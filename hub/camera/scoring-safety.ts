import type { TableConfig } from '../config/schema.ts';

/**
 * `scoring: "camera"` lets the camera alone decide. On rendered held-out shots the camera
 * alone makes wrong decisions now and then (a contact it never saw cannot be a `null`;
 * docs/vision.md), which camera+sensors does not (docs/camera.md). A table that has a board
 * and still scores by the camera alone is most likely a configuration slip: say so once at
 * start-up, naming the table. The simulator's virtual board is not counted (a demo).
 */
export function cameraAloneWarning(table: TableConfig): string | null {
  if (table.scoring !== 'camera' || table.source.type === 'simulator') return null;
  return `table '${table.id}' has a board (${table.source.type}) but scores with the camera alone ("scoring": "camera"): the camera alone can decide a shot wrongly where camera+sensors asks; use "scoring": "camera+sensors" (docs/camera.md)`;
}
