import { focalFromFov, homographyFrom, pixelToPlane, poseFromHomography, project, undistort, type Lens, type Pose, type Vec2 } from './geometry.ts';

/**
 * A camera calibration: the image pixels of the playing surface's four corners (cushion
 * noses) in the order head-left, foot-left, foot-right, head-right, the table's size, the
 * lens's radial distortion and a nominal horizontal field of view (only used to place the
 * camera's height for the parallax of the balls' centres; 10 % off costs < 2 mm).
 */
export interface CalibrationInput {
  width: number;
  height: number;
  corners: readonly Vec2[];
  /** Playing surface, mm. */
  table: { length: number; width: number };
  k1?: number;
  fovDeg?: number;
}

export interface Calibration {
  readonly lens: Lens;
  readonly pose: Pose;
  readonly table: { length: number; width: number };
  /** Table point at height z (mm above the cloth) → distorted pixel. */
  toPixel(x: number, y: number, z: number): Vec2 | null;
  /** Distorted pixel → table point at height z. */
  toTable(pixel: Vec2, z: number): Vec2 | null;
}

export type CalibrationResult = { ok: true; value: Calibration } | { ok: false; error: string };

export const DEFAULT_FOV_DEG = 70;

export function calibrate(input: CalibrationInput): CalibrationResult {
  const { width, height, corners, table } = input;
  if (!(width > 0 && height > 0)) return { ok: false, error: 'image size must be positive' };
  if (corners.length !== 4) return { ok: false, error: `need 4 corners, got ${corners.length}` };
  for (const [i, c] of corners.entries()) {
    if (!c.every(Number.isFinite)) return { ok: false, error: `corner ${i + 1} is not a number pair` };
    if (c[0] < -width || c[0] > 2 * width || c[1] < -height || c[1] > 2 * height) return { ok: false, error: `corner ${i + 1} (${c[0]},${c[1]}) is far outside the ${width}x${height} image` };
  }
  if (!convexInOrder(corners)) return { ok: false, error: 'corners must form a convex quadrilateral in the order head-left, foot-left, foot-right, head-right' };
  const lens: Lens = { width, height, k1: input.k1 ?? 0 };
  const ideal = corners.map((c) => undistort(lens, c));
  const world: Vec2[] = [[0, 0], [table.length, 0], [table.length, table.width], [0, table.width]];
  const h = homographyFrom(world, ideal);
  if (!h) return { ok: false, error: 'corners are degenerate (three in a line?)' };
  const pose = poseFromHomography(h, lens, focalFromFov(width, input.fovDeg ?? DEFAULT_FOV_DEG));
  if (!pose) return { ok: false, error: 'cannot place the camera from these corners' };
  return {
    ok: true,
    value: {
      lens,
      pose,
      table,
      toPixel: (x, y, z) => project(pose, lens, [x, y, z]),
      toTable: (pixel, z) => pixelToPlane(pose, lens, pixel, z),
    },
  };
}

/** The four points turn the same way at every corner (a convex quadrilateral, either orientation). */
function convexInOrder(c: readonly Vec2[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = c[i]!;
    const b = c[(i + 1) % 4]!;
    const d = c[(i + 2) % 4]!;
    const z = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
    if (Math.abs(z) < 1e-6) return false;
    if (sign === 0) sign = Math.sign(z);
    else if (Math.sign(z) !== sign) return false;
  }
  return true;
}

/** Parses "x,y x,y x,y x,y". */
export function parseCorners(text: string): { ok: true; value: Vec2[] } | { ok: false; error: string } {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 4) return { ok: false, error: `--corners needs 4 points "x,y x,y x,y x,y", got ${parts.length}` };
  const out: Vec2[] = [];
  for (const p of parts) {
    const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(p);
    if (!m) return { ok: false, error: `--corners: "${p}" is not "x,y"` };
    out.push([Number(m[1]), Number(m[2])]);
  }
  return { ok: true, value: out };
}
