import { focalFromFov, project, type Lens, type Mat3, type Pose, type Vec2, type Vec3 } from '../../../hub/vision/geometry.ts';

/**
 * The rendered camera: a pinhole above the table, looking roughly at its centre, a little
 * off-centre and tilted, with barrel distortion — what a USB camera on a ceiling bracket
 * gives. It uses the tracker's own projection and distortion functions, so "what the
 * camera sees" and "what the tracker assumes" share one definition of the lens model.
 */
export interface CameraSpec {
  width: number;
  height: number;
  hfovDeg: number;
  k1: number;
  /** Camera centre, table mm (z above the cloth). */
  centre: Vec3;
  /** The point it looks at (on the cloth). */
  target: Vec3;
  /** Roll about the viewing direction, degrees. */
  rollDeg: number;
}

export interface Camera {
  spec: CameraSpec;
  lens: Lens;
  pose: Pose;
  /** The four playing-surface corners in the image, order head-left, foot-left, foot-right, head-right. */
  corners: Vec2[];
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: Vec3): Vec3 => {
  const n = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
};

export function makeCamera(spec: CameraSpec, table: { length: number; width: number }): Camera {
  const forward = unit(sub(spec.target, spec.centre));
  let x = unit(cross(forward, [0, 1, 0]));
  let y = cross(forward, x);
  const a = (spec.rollDeg * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  [x, y] = [
    [c * x[0] + s * y[0], c * x[1] + s * y[1], c * x[2] + s * y[2]],
    [-s * x[0] + c * y[0], -s * x[1] + c * y[1], -s * x[2] + c * y[2]],
  ];
  const r: Mat3 = [x[0], x[1], x[2], y[0], y[1], y[2], forward[0], forward[1], forward[2]];
  const C = spec.centre;
  const t: Vec3 = [-(r[0] * C[0] + r[1] * C[1] + r[2] * C[2]), -(r[3] * C[0] + r[4] * C[1] + r[5] * C[2]), -(r[6] * C[0] + r[7] * C[1] + r[8] * C[2])];
  const pose: Pose = { r, t, f: focalFromFov(spec.width, spec.hfovDeg) };
  const lens: Lens = { width: spec.width, height: spec.height, k1: spec.k1 };
  const corners: Vec2[] = [
    [0, 0],
    [table.length, 0],
    [table.length, table.width],
    [0, table.width],
  ].map(([X, Y]) => project(pose, lens, [X!, Y!, 0])!);
  return { spec, lens, pose, corners };
}

/** A camera for a table from seeded draws: height chosen so the table and its rails fill most of the frame. */
export function randomCamera(width: number, height: number, table: { length: number; width: number }, random: () => number): Camera {
  const hfovDeg = 62 + random() * 16;
  const k1 = -0.02 - random() * 0.1;
  const tan = Math.tan((hfovDeg * Math.PI) / 360);
  const frameW = table.length + 2 * 170;
  const frameH = table.width + 2 * 170;
  const fill = 0.9 + random() * 0.06;
  const h = Math.max(frameW / 2 / (tan * fill), frameH / 2 / ((tan * height) / width) / fill);
  const centre: Vec3 = [table.length / 2 + (random() - 0.5) * 300, table.width / 2 + (random() - 0.5) * 200, h];
  const target: Vec3 = [table.length / 2 + (random() - 0.5) * 60, table.width / 2 + (random() - 0.5) * 40, 0];
  return makeCamera({ width, height, hfovDeg, k1, centre, target, rollDeg: (random() - 0.5) * 3 }, table);
}
