import type { Vec2 } from './geometry.ts';
import { chromaSize } from './frame.ts';

/**
 * Everything outside the table is none of the detector's business (issue 16): players
 * walking past, a scoreboard, a lamp's reflection on the floor. The mask is the calibrated
 * quadrilateral grown by a margin (the cushions, the rail, and the bow the lens gives the
 * cushion lines between the corners), as one inside span per image row; outside it the frame
 * is blanked to black before the detector and the motion meter see it. Pure.
 */
export interface TableMask {
  width: number;
  height: number;
  /** Per row: the first inside pixel and one past the last (from === to: the whole row is outside). */
  from: Int32Array;
  to: Int32Array;
}

/** Default margin: 4 % of the image's width. */
export const MASK_MARGIN = 0.04;

export function tableMask(width: number, height: number, corners: readonly Vec2[], margin = Math.round(MASK_MARGIN * width)): TableMask {
  const poly = grow(corners, margin);
  const from = new Int32Array(height);
  const to = new Int32Array(height);
  for (let y = 0; y < height; y++) {
    const yc = y + 0.5;
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < poly.length; k++) {
      const a = poly[k]!;
      const b = poly[(k + 1) % poly.length]!;
      if ((a[1] <= yc && b[1] > yc) || (b[1] <= yc && a[1] > yc)) {
        const x = a[0] + ((yc - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
    }
    if (lo > hi) continue;
    from[y] = Math.max(0, Math.min(width, Math.floor(lo)));
    to[y] = Math.max(from[y]!, Math.min(width, Math.ceil(hi)));
  }
  return { width, height, from, to };
}

/** Is the pixel inside the mask? */
export function insideMask(mask: TableMask, x: number, y: number): boolean {
  const row = Math.floor(y);
  return row >= 0 && row < mask.height && x >= mask.from[row]! && x < mask.to[row]!;
}

/** Blanks an I420 frame outside the mask, in place: luma 0, chroma neutral. */
export function applyMask(mask: TableMask, data: Uint8Array): void {
  const { width: w, height: h, from, to } = mask;
  const { cw, ch } = chromaSize(w, h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    data.fill(0, row, row + from[y]!);
    data.fill(0, row + to[y]!, row + w);
  }
  const u = w * h;
  const v = u + cw * ch;
  for (let j = 0; j < ch; j++) {
    // A chroma sample is kept when either of its two rows keeps it.
    const y0 = 2 * j;
    const y1 = Math.min(h - 1, y0 + 1);
    const a = Math.floor(Math.min(from[y0]!, from[y1]!) / 2);
    const b = Math.ceil(Math.max(to[y0]!, to[y1]!) / 2);
    const lo = a < b ? a : cw;
    const hi = a < b ? b : cw;
    data.fill(128, u + j * cw, u + j * cw + lo);
    data.fill(128, u + j * cw + hi, u + (j + 1) * cw);
    data.fill(128, v + j * cw, v + j * cw + lo);
    data.fill(128, v + j * cw + hi, v + (j + 1) * cw);
  }
}

/** The convex quadrilateral with each edge moved `margin` pixels outward. */
function grow(c: readonly Vec2[], margin: number): Vec2[] {
  const n = c.length;
  // Outward: away from the centroid.
  const cx = c.reduce((t, p) => t + p[0], 0) / n;
  const cy = c.reduce((t, p) => t + p[1], 0) / n;
  const lines = c.map((a, k) => {
    const b = c[(k + 1) % n]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    let nx = (b[1] - a[1]) / len;
    let ny = -(b[0] - a[0]) / len;
    if (nx * (a[0] - cx) + ny * (a[1] - cy) < 0) (nx = -nx), (ny = -ny);
    return { p: [a[0] + nx * margin, a[1] + ny * margin] as Vec2, d: [b[0] - a[0], b[1] - a[1]] as Vec2 };
  });
  return lines.map((l, k) => {
    const prev = lines[(k + n - 1) % n]!;
    // Intersection of the previous edge's line with this one's: the grown corner k.
    const den = prev.d[0] * l.d[1] - prev.d[1] * l.d[0];
    if (Math.abs(den) < 1e-9) return l.p;
    const t = ((l.p[0] - prev.p[0]) * l.d[1] - (l.p[1] - prev.p[1]) * l.d[0]) / den;
    return [prev.p[0] + t * prev.d[0], prev.p[1] + t * prev.d[1]] as Vec2;
  });
}
