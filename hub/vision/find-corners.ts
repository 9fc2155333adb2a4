import { applyHomography, distort, homographyFrom, undistort, type Lens, type Vec2 } from './geometry.ts';
import { chromaSize, type Frame } from './frame.ts';

/**
 * "Find automatically" on the calibration page (issue 16): the playing surface's four
 * cushion-nose corners from one frame of an empty (or nearly empty) table. The cloth is the
 * big region of one colour around the image's centre; on a carom table the cushions wear the
 * same cloth, so that region ends at the wooden rail, `cushionMm` outside the noses. Its
 * four extreme points (along the diagonals) are the rail's inner corners; a homography from
 * them, with the lens's distortion undone, places the noses `cushionMm` inside. Colour is
 * compared as chromaticity (r, g over r + g + b), so the lamp's falloff and the cushions'
 * shade do not matter. Pure and browser-safe.
 */
export interface FindCornersOptions {
  table: { length: number; width: number };
  /** The lens's radial distortion (as the calibration's). */
  k1?: number;
  /** Cloth-covered cushion seen from above, nose to rail (mm). */
  cushionMm?: number;
  /** Corners saved before: the result keeps their orientation (which image corner is head-left). */
  near?: readonly Vec2[] | null;
}

export type FindCornersResult = { ok: true; corners: Vec2[] } | { ok: false; error: string };

export const DEFAULT_CUSHION_MM = 50;
/** Chromaticity distance (|Δr| + |Δg|) still counted as the cloth's colour. */
const TOLERANCE = 0.06;
/** Darker than this (r + g + b) has no trustworthy colour. */
const MIN_SUM = 30;
/** The cloth must cover at least this share of the image. */
const MIN_SHARE = 0.15;

export function findTableCorners(frame: Frame, opts: FindCornersOptions): FindCornersResult {
  const { width, height } = frame;
  const { cw, ch } = chromaSize(width, height);
  const n = cw * ch;
  // Chromaticity per chroma sample (Y averaged over its 2×2 block).
  const cr = new Float32Array(n);
  const cg = new Float32Array(n);
  const ok = new Uint8Array(n);
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const k = j * cw + i;
      const x = Math.min(2 * i, width - 1);
      const y = Math.min(2 * j, height - 1);
      const x1 = Math.min(x + 1, width - 1);
      const y1 = Math.min(y + 1, height - 1);
      const Y = (frame.y[y * width + x]! + frame.y[y * width + x1]! + frame.y[y1 * width + x]! + frame.y[y1 * width + x1]!) / 4;
      const U = frame.u[k]! - 128;
      const V = frame.v[k]! - 128;
      const r = Math.max(0, Y + 1.402 * V);
      const g = Math.max(0, Y - 0.344136 * U - 0.714136 * V);
      const b = Math.max(0, Y + 1.772 * U);
      const s = r + g + b;
      if (s < MIN_SUM) continue;
      ok[k] = 1;
      cr[k] = r / s;
      cg[k] = g / s;
    }
  }
  // The cloth's colour: the median over a box around the centre (a ball there does not move a median).
  const rs: number[] = [];
  const gs: number[] = [];
  for (let j = Math.floor(ch * 0.4); j < Math.ceil(ch * 0.6); j++) {
    for (let i = Math.floor(cw * 0.4); i < Math.ceil(cw * 0.6); i++) {
      const k = j * cw + i;
      if (ok[k]) (rs.push(cr[k]!), gs.push(cg[k]!));
    }
  }
  if (rs.length === 0) return { ok: false, error: 'the middle of the image is too dark to see the cloth' };
  const r0 = median(rs);
  const g0 = median(gs);
  const cloth = new Uint8Array(n);
  for (let k = 0; k < n; k++) if (ok[k] && Math.abs(cr[k]! - r0) + Math.abs(cg[k]! - g0) < TOLERANCE) cloth[k] = 1;
  // The region of the cloth's colour connected to the centre.
  const start = nearestSet(cloth, cw, ch, cw >> 1, ch >> 1);
  if (start < 0) return { ok: false, error: 'no cloth-coloured region in the middle of the image' };
  const seen = new Uint8Array(n);
  const stack = [start];
  seen[start] = 1;
  let count = 0;
  // Extremes along the diagonals: top-left (min x+y), top-right (max x−y), bottom-right (max x+y), bottom-left (max y−x).
  const best = [Infinity, -Infinity, -Infinity, -Infinity];
  const at: Vec2[] = [[0, 0], [0, 0], [0, 0], [0, 0]];
  while (stack.length > 0) {
    const k = stack.pop()!;
    count += 1;
    const i = k % cw;
    const j = (k - i) / cw;
    const x = 2 * i + 1;
    const y = 2 * j + 1;
    if (x + y < best[0]!) (best[0] = x + y, (at[0] = [x, y]));
    if (x - y > best[1]!) (best[1] = x - y, (at[1] = [x, y]));
    if (x + y > best[2]!) (best[2] = x + y, (at[2] = [x, y]));
    if (y - x > best[3]!) (best[3] = y - x, (at[3] = [x, y]));
    if (i > 0 && cloth[k - 1] && !seen[k - 1]) (seen[k - 1] = 1, stack.push(k - 1));
    if (i < cw - 1 && cloth[k + 1] && !seen[k + 1]) (seen[k + 1] = 1, stack.push(k + 1));
    if (j > 0 && cloth[k - cw] && !seen[k - cw]) (seen[k - cw] = 1, stack.push(k - cw));
    if (j < ch - 1 && cloth[k + cw] && !seen[k + cw]) (seen[k + cw] = 1, stack.push(k + cw));
  }
  if (count < MIN_SHARE * n) return { ok: false, error: `the cloth-coloured region covers only ${Math.round((100 * count) / n)} % of the image (is the table in view and lit?)` };
  const touchesEdge = at.some(([x, y]) => x <= 2 || y <= 2 || x >= width - 3 || y >= height - 3);
  if (touchesEdge) return { ok: false, error: 'the cloth reaches the edge of the image: the whole table with its rails must be in view' };
  const lens: Lens = { width, height, k1: opts.k1 ?? 0 };
  // The rails' inner edges as straight lines (lens distortion undone) through the region's
  // boundary, away from the corners; their crossings are the corners, even where a player's
  // arm or shadow hides one. Where an edge gives too few points, the extreme points stand.
  const extremes = (at as Vec2[]).map((p) => undistort(lens, p));
  const refined = edgeCorners(seen, cw, ch, at as Vec2[], lens) ?? extremes;
  const [tl, tr, br, bl] = refined as [Vec2, Vec2, Vec2, Vec2];
  const outer = orient([tl, tr, br, bl], opts.near ?? null);
  // The rails' inner corners → the noses, cushionMm inside, through the plane's homography.
  const c = opts.cushionMm ?? DEFAULT_CUSHION_MM;
  const { length: L, width: W } = opts.table;
  const h = homographyFrom([[-c, -c], [L + c, -c], [L + c, W + c], [-c, W + c]], outer);
  if (!h) return { ok: false, error: 'the cloth region is not a quadrilateral' };
  const corners = ([[0, 0], [L, 0], [L, W], [0, W]] as Vec2[]).map((p) => {
    const q = distort(lens, applyHomography(h, p));
    return [Math.round(q[0] * 10) / 10, Math.round(q[1] * 10) / 10] as Vec2;
  });
  return { ok: true, corners };
}

/**
 * Which image corner is head-left: the long edges run head → foot. With corners saved before,
 * the ordering nearest to them; else head-left is the image's bottom-left corner (head on the
 * image's left, the left rail at its bottom, as the simulator's camera sees the table).
 */
function orient(quad: [Vec2, Vec2, Vec2, Vec2], near: readonly Vec2[] | null): Vec2[] {
  const candidates: Vec2[][] = [];
  for (let r = 0; r < 4; r++) {
    const cw = [0, 1, 2, 3].map((k) => quad[(r + k) % 4]!);
    candidates.push(cw, [cw[0]!, cw[3]!, cw[2]!, cw[1]!]);
  }
  const len = (a: Vec2, b: Vec2) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const valid = candidates.filter((c) => len(c[0]!, c[1]!) + len(c[2]!, c[3]!) >= len(c[1]!, c[2]!) + len(c[3]!, c[0]!));
  const score = near && near.length === 4
    ? (c: Vec2[]) => c.reduce((s, p, k) => s + len(p, near[k]!), 0)
    : (c: Vec2[]) => c[0]![0] - c[0]![1]; // head-left: the bottom-left-most corner
  return valid.reduce((a, b) => (score(b) < score(a) ? b : a));
}

type Line = { p: Vec2; d: Vec2 };

/**
 * The four edges of the region (top, right, bottom, left in the image) fitted as lines in
 * undistorted pixels, and their crossings: top-left, top-right, bottom-right, bottom-left.
 */
function edgeCorners(region: Uint8Array, cw: number, ch: number, at: readonly Vec2[], lens: Lens): Vec2[] | null {
  const [tl, tr, br, bl] = at.map(([x, y]) => [(x - 1) / 2, (y - 1) / 2] as const) as [Vec2, Vec2, Vec2, Vec2];
  const inner = (a: number, b: number) => {
    const lo = Math.min(a, b);
    const span = Math.abs(b - a);
    return [Math.ceil(lo + 0.1 * span), Math.floor(lo + 0.9 * span)] as const;
  };
  const top: Vec2[] = [];
  const bottom: Vec2[] = [];
  const left: Vec2[] = [];
  const right: Vec2[] = [];
  const [t0, t1] = inner(tl[0], tr[0]);
  for (let i = t0; i <= t1; i++) for (let j = 0; j < ch; j++) if (region[j * cw + i]) (top.push(undistort(lens, [2 * i + 1, 2 * j])), (j = ch));
  const [b0, b1] = inner(bl[0], br[0]);
  for (let i = b0; i <= b1; i++) for (let j = ch - 1; j >= 0; j--) if (region[j * cw + i]) (bottom.push(undistort(lens, [2 * i + 1, 2 * j + 2])), (j = -1));
  const [l0, l1] = inner(tl[1], bl[1]);
  for (let j = l0; j <= l1; j++) for (let i = 0; i < cw; i++) if (region[j * cw + i]) (left.push(undistort(lens, [2 * i, 2 * j + 1])), (i = cw));
  const [r0, r1] = inner(tr[1], br[1]);
  for (let j = r0; j <= r1; j++) for (let i = cw - 1; i >= 0; i--) if (region[j * cw + i]) (right.push(undistort(lens, [2 * i + 2, 2 * j + 1])), (i = -1));
  const lines = [top, right, bottom, left].map(fitLine);
  if (lines.some((l) => l === null)) return null;
  const [T, R, B, Lf] = lines as [Line, Line, Line, Line];
  const corners = [cross(Lf, T), cross(T, R), cross(R, B), cross(B, Lf)];
  return corners.every((c) => c !== null) ? (corners as Vec2[]) : null;
}

/**
 * A line through the points that most of them agree with (RANSAC over pairs of evenly spaced
 * points, 1.5 px), then refitted to those: an arm, a cue or a shadow over the rail only ever
 * moves the region's edge inward, scattered, so the true edge is the straight majority even
 * where less than half of the edge is visible.
 */
function fitLine(points: Vec2[]): Line | null {
  if (points.length < 10) return null;
  const step = Math.max(1, Math.floor(points.length / 40));
  const sample = points.filter((_, k) => k % step === 0);
  let best: Vec2[] = [];
  for (let a = 0; a < sample.length; a++) {
    for (let b = a + 1; b < sample.length; b++) {
      const p = sample[a]!;
      const q = sample[b]!;
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len < 1e-9) continue;
      const d: Vec2 = [(q[0] - p[0]) / len, (q[1] - p[1]) / len];
      const inliers = points.filter(([x, y]) => Math.abs((x - p[0]) * d[1] - (y - p[1]) * d[0]) <= 1.5);
      if (inliers.length > best.length) best = inliers;
    }
  }
  if (best.length < 10) return null;
  return leastSquares(best);
}

/** The total-least-squares line through the points. */
function leastSquares(pts: readonly Vec2[]): Line {
  const n = pts.length;
  const mx = pts.reduce((a, p) => a + p[0], 0) / n;
  const my = pts.reduce((a, p) => a + p[1], 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const [x, y] of pts) (sxx += (x - mx) ** 2), (sxy += (x - mx) * (y - my)), (syy += (y - my) ** 2);
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { p: [mx, my], d: [Math.cos(angle), Math.sin(angle)] };
}

function cross(a: Line, b: Line): Vec2 | null {
  const den = a.d[0] * b.d[1] - a.d[1] * b.d[0];
  if (Math.abs(den) < 1e-6) return null;
  const t = ((b.p[0] - a.p[0]) * b.d[1] - (b.p[1] - a.p[1]) * b.d[0]) / den;
  return [a.p[0] + t * a.d[0], a.p[1] + t * a.d[1]];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** The nearest set cell to (i, j) within a small search box, or −1. */
function nearestSet(mask: Uint8Array, w: number, h: number, i0: number, j0: number): number {
  for (let d = 0; d < Math.min(w, h) / 4; d++) {
    for (let j = Math.max(0, j0 - d); j <= Math.min(h - 1, j0 + d); j++) {
      for (let i = Math.max(0, i0 - d); i <= Math.min(w - 1, i0 + d); i++) if (mask[j * w + i]) return j * w + i;
    }
  }
  return -1;
}
