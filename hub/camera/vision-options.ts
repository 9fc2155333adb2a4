import type { BallSet } from '../vision/tracker.ts';
import { SKITTLE_LAYOUTS, type SkittleLayout } from '../rules/catalogue.ts';

// A module of its own so that the hub's thread, which checks these settings, does not load
// the tracker and detector (vision-processor.ts, which each camera's thread loads).

/** What a table's camera may say about its detector (config `camera`), checked here because a worker receives plain data. */
export interface VisionOptions {
  balls: BallSet;
  /** Which skittles stand where (the game's; skittle-setup.ts), for `balls: 'skittles'`. */
  layout?: SkittleLayout;
  table: { length: number; width: number };
  k1: number;
  fovDeg?: number;
}

export function visionOptions(raw: unknown): VisionOptions {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const balls = o.balls ?? 'carom';
  if (balls !== 'carom' && balls !== 'skittles') throw new Error(`camera: balls '${String(balls)}' is not carom or skittles`);
  const table = (o.table ?? { length: 2840, width: 1420 }) as { length: unknown; width: unknown };
  if (!(typeof table.length === 'number' && typeof table.width === 'number' && table.length > 0 && table.width > 0)) throw new Error('camera: table must be {length, width} in mm');
  const k1 = o.k1 ?? 0;
  if (typeof k1 !== 'number' || !Number.isFinite(k1)) throw new Error('camera: k1 must be a number');
  const fovDeg = o.fovDeg;
  if (fovDeg !== undefined && (typeof fovDeg !== 'number' || !(fovDeg > 0 && fovDeg < 180))) throw new Error('camera: fovDeg must be between 0 and 180');
  const layout = o.layout;
  if (layout !== undefined && !(SKITTLE_LAYOUTS as readonly unknown[]).includes(layout)) throw new Error(`camera: layout '${String(layout)}' is not one of ${SKITTLE_LAYOUTS.join(', ')}`);
  return { balls, ...(layout !== undefined ? { layout: layout as SkittleLayout } : {}), table: { length: table.length, width: table.width }, k1, ...(fovDeg !== undefined ? { fovDeg } : {}) };
}

