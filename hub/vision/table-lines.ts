import type { Calibration } from './calibration.ts';
import type { Vec2 } from './geometry.ts';

/**
 * The table's markings in image pixels, through a calibration: what the referee sees drawn
 * over a live frame to check that the four corners fit (issue 16). Lines are sampled every
 * few centimetres, so the lens's distortion bends them as it bends the real cushions. Pure
 * and browser-safe.
 */
export type LineKind = 'cushion' | 'diamond' | 'spot' | 'zone';

export interface OverlayLine {
  kind: LineKind;
  /** Image pixels; a spot is a small closed ring. */
  points: Vec2[];
  closed: boolean;
}

/** Diamonds sit on the rail: ticks from this far outside the cushion nose to that far (mm). */
const DIAMOND_TICK: readonly [number, number] = [60, 120];
const SPOT_RADIUS_MM = 20;
const STEP_MM = 50;

/** What the game marks on the cloth, in table mm (hub/camera/game-markings.ts knows the games). */
export interface GameMarkings {
  spots: readonly Vec2[];
  /** Zone lines (balkline grids, the free game's corner triangles) as segments. */
  zones: readonly (readonly [Vec2, Vec2])[];
}

export function tableLines(cal: Calibration, markings: GameMarkings = { spots: [], zones: [] }): OverlayLine[] {
  const { length: L, width: W } = cal.table;
  const out: OverlayLine[] = [];
  const line = (kind: LineKind, a: Vec2, b: Vec2) => {
    const pts = segment(cal, a, b);
    if (pts.length >= 2) out.push({ kind, points: pts, closed: false });
  };
  // Cushion noses: the playing surface's edge, the one the corners were clicked on.
  line('cushion', [0, 0], [L, 0]);
  line('cushion', [L, 0], [L, W]);
  line('cushion', [L, W], [0, W]);
  line('cushion', [0, W], [0, 0]);
  // Diamonds at eighths of the length and quarters of the width, as short ticks out across the rail.
  const [d0, d1] = DIAMOND_TICK;
  for (let i = 1; i < 8; i++) {
    const x = (i * L) / 8;
    line('diamond', [x, -d0], [x, -d1]);
    line('diamond', [x, W + d0], [x, W + d1]);
  }
  for (let j = 1; j < 4; j++) {
    const y = (j * W) / 4;
    line('diamond', [-d0, y], [-d1, y]);
    line('diamond', [L + d0, y], [L + d1, y]);
  }
  for (const at of markings.spots) {
    const ring: Vec2[] = [];
    for (let k = 0; k < 12; k++) {
      const a = (k / 12) * 2 * Math.PI;
      const p = cal.toPixel(at[0] + SPOT_RADIUS_MM * Math.cos(a), at[1] + SPOT_RADIUS_MM * Math.sin(a), 0);
      if (p) ring.push(p);
    }
    if (ring.length === 12) out.push({ kind: 'spot', points: ring, closed: true });
  }
  for (const [a, b] of markings.zones) line('zone', a, b);
  return out;
}

/** A straight table line as image points every STEP_MM (the lens bends it). */
function segment(cal: Calibration, a: Vec2, b: Vec2): Vec2[] {
  const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / STEP_MM));
  const pts: Vec2[] = [];
  for (let k = 0; k <= n; k++) {
    const p = cal.toPixel(a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n, 0);
    if (p && p.every(Number.isFinite)) pts.push([Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10]);
  }
  return pts;
}
