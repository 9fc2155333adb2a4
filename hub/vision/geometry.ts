/**
 * Camera geometry for the overhead tracker: a homography from the four clicked table
 * corners, radial lens distortion (k1), and the camera's pose recovered from the
 * homography with a nominal field of view, so that a ball's centre (which sits one radius
 * above the cloth) is placed where it is and not shifted outward by parallax.
 *
 * Pixel conventions: (u, v) with v downward, origin at the image's top-left pixel corner.
 * Distortion acts on coordinates relative to the image centre, normalised by half the
 * image diagonal: r_d = r_u · (1 + k1 · r_u²). The renderer uses the very same functions.
 */
export type Vec2 = readonly [number, number];
export type Vec3 = readonly [number, number, number];
/** Row-major 3×3. */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

/** Solves A·x = b (n×n, row-major) by Gaussian elimination with partial pivoting; null when singular. */
export function solveLinear(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** The homography H (h33 = 1) with H·(from, 1) ∝ (to, 1) for four point pairs; null when degenerate. */
export function homographyFrom(from: readonly Vec2[], to: readonly Vec2[]): Mat3 | null {
  if (from.length !== 4 || to.length !== 4) return null;
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solveLinear(a, b);
  if (!h || h.some((x) => !Number.isFinite(x))) return null;
  return [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1];
}

export function applyHomography(h: Mat3, p: Vec2): Vec2 {
  const w = h[6] * p[0] + h[7] * p[1] + h[8];
  return [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w];
}

export function invert3(m: Mat3): Mat3 | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-15) return null;
  const s = 1 / det;
  return [A * s, -(b * i - c * h) * s, (b * f - c * e) * s, B * s, (a * i - c * g) * s, -(a * f - c * d) * s, C * s, -(a * h - b * g) * s, (a * e - b * d) * s];
}

/** Image-centred, diagonal-normalised radial distortion. */
export interface Lens {
  width: number;
  height: number;
  k1: number;
}

const halfDiagonal = (l: Lens) => Math.hypot(l.width, l.height) / 2;

/** Ideal (undistorted) pixel → the pixel the lens shows. */
export function distort(l: Lens, p: Vec2): Vec2 {
  if (l.k1 === 0) return p;
  const s = halfDiagonal(l);
  const cx = l.width / 2;
  const cy = l.height / 2;
  const x = (p[0] - cx) / s;
  const y = (p[1] - cy) / s;
  const f = 1 + l.k1 * (x * x + y * y);
  return [cx + x * f * s, cy + y * f * s];
}

/** The pixel the lens shows → the ideal pixel (Newton's method on the radius). */
export function undistort(l: Lens, p: Vec2): Vec2 {
  if (l.k1 === 0) return p;
  const s = halfDiagonal(l);
  const cx = l.width / 2;
  const cy = l.height / 2;
  const xd = (p[0] - cx) / s;
  const yd = (p[1] - cy) / s;
  const rd = Math.hypot(xd, yd);
  if (rd === 0) return p;
  // Newton on r·(1 + k1·r²) = r_d.
  let r = rd;
  for (let k = 0; k < 12; k++) {
    const f = r + l.k1 * r * r * r - rd;
    const d = 1 + 3 * l.k1 * r * r;
    if (d <= 1e-9) break;
    const step = f / d;
    r -= step;
    if (Math.abs(step) < 1e-12) break;
  }
  const x = (xd * r) / rd;
  const y = (yd * r) / rd;
  return [cx + x * s, cy + y * s];
}

/** A pinhole camera: world point (table mm, z up from the cloth toward the camera) → pixel. */
export interface Pose {
  /** Rotation world → camera, row-major. */
  r: Mat3;
  /** Translation world → camera. */
  t: Vec3;
  /** Focal length in pixels. */
  f: number;
}

export function cameraCentre(p: Pose): Vec3 {
  const { r, t } = p;
  return [-(r[0] * t[0] + r[3] * t[1] + r[6] * t[2]), -(r[1] * t[0] + r[4] * t[1] + r[7] * t[2]), -(r[2] * t[0] + r[5] * t[1] + r[8] * t[2])];
}

/** World point → ideal pixel, or null behind the camera. */
export function projectIdeal(p: Pose, l: Lens, w: Vec3): Vec2 | null {
  const { r, t, f } = p;
  const x = r[0] * w[0] + r[1] * w[1] + r[2] * w[2] + t[0];
  const y = r[3] * w[0] + r[4] * w[1] + r[5] * w[2] + t[1];
  const z = r[6] * w[0] + r[7] * w[1] + r[8] * w[2] + t[2];
  if (z <= 1e-9) return null;
  return [l.width / 2 + (f * x) / z, l.height / 2 + (f * y) / z];
}

export function project(p: Pose, l: Lens, w: Vec3): Vec2 | null {
  const ideal = projectIdeal(p, l, w);
  return ideal ? distort(l, ideal) : null;
}

/** The ray through an image pixel, in world coordinates (not normalised). */
export function rayThrough(p: Pose, l: Lens, pixel: Vec2): Vec3 {
  const [u, v] = undistort(l, pixel);
  const dx = (u - l.width / 2) / p.f;
  const dy = (v - l.height / 2) / p.f;
  const { r } = p;
  // Rᵀ · (dx, dy, 1)
  return [r[0] * dx + r[3] * dy + r[6], r[1] * dx + r[4] * dy + r[7], r[2] * dx + r[5] * dy + r[8]];
}

/** Where the ray through `pixel` meets the plane z = height, or null if it never does. */
export function pixelToPlane(p: Pose, l: Lens, pixel: Vec2, height: number): Vec2 | null {
  const c = cameraCentre(p);
  const d = rayThrough(p, l, pixel);
  if (Math.abs(d[2]) < 1e-12) return null;
  const s = (height - c[2]) / d[2];
  if (s <= 0) return null;
  return [c[0] + s * d[0], c[1] + s * d[1]];
}

const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);
const scale3 = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

/**
 * The camera's pose from the homography table plane (z = 0) → ideal pixels and a focal
 * length: H ∝ K·[r1 r2 t] (Zhang). The rotation is re-orthonormalised; the sign is chosen so
 * the table lies in front of the camera and the camera above the cloth (z > 0).
 */
export function poseFromHomography(h: Mat3, l: Lens, f: number): Pose | null {
  const cx = l.width / 2;
  const cy = l.height / 2;
  // K⁻¹·H with K = [[f,0,cx],[0,f,cy],[0,0,1]].
  const col = (j: number): Vec3 => [(h[j]! - cx * h[6 + j]!) / f, (h[3 + j]! - cy * h[6 + j]!) / f, h[6 + j]!];
  let c1 = col(0);
  let c2 = col(1);
  let c3 = col(2);
  const lambda = 2 / (norm(c1) + norm(c2));
  if (!Number.isFinite(lambda)) return null;
  const sign = c3[2] < 0 ? -lambda : lambda;
  c1 = scale3(c1, sign);
  c2 = scale3(c2, sign);
  c3 = scale3(c3, sign);
  const r1 = scale3(c1, 1 / norm(c1));
  let r2: Vec3 = [c2[0] - r1[0] * (r1[0] * c2[0] + r1[1] * c2[1] + r1[2] * c2[2]), c2[1] - r1[1] * (r1[0] * c2[0] + r1[1] * c2[1] + r1[2] * c2[2]), c2[2] - r1[2] * (r1[0] * c2[0] + r1[1] * c2[1] + r1[2] * c2[2])];
  r2 = scale3(r2, 1 / norm(r2));
  let r3 = cross(r1, r2);
  // Columns r1 r2 r3 form the world → camera rotation.
  let pose: Pose = { r: [r1[0], r2[0], r3[0], r1[1], r2[1], r3[1], r1[2], r2[2], r3[2]], t: c3, f };
  if (cameraCentre(pose)[2] < 0) {
    // The camera sits on the other side of the plane: flip the world z axis.
    r3 = scale3(r3, -1);
    pose = { r: [r1[0], r2[0], r3[0], r1[1], r2[1], r3[1], r1[2], r2[2], r3[2]], t: c3, f };
  }
  return pose;
}

/** Focal length in pixels for a horizontal field of view. */
export function focalFromFov(width: number, hfovDeg: number): number {
  return width / 2 / Math.tan((hfovDeg * Math.PI) / 360);
}
