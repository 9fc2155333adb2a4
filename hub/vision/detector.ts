import type { Calibration } from './calibration.ts';
import { chromaSize, type Frame } from './frame.ts';

/**
 * The ball detector. It never looks at the whole image: a lookup table, built once per
 * calibration, samples the image on a grid laid over the playing surface at the height of
 * the balls' centres (one radius above the cloth), so perspective, lens distortion and the
 * parallax of the ball centres are undone once and every later step works in table mm.
 *
 * Each grid cell is classified by colour, normalised by brightness so that lighting
 * gradients, vignetting and a player's shadow change little: cloth (the table's own
 * chroma, measured every frame), white, yellow, red, or other. A ball is a place where a
 * class fills a disc of the ball's size and does not fill the ring around it (a hand, an
 * arm, a sleeve or a cue stick fills the ring or not the disc; a chalk cube or a skittle is
 * too small). Positions are refined by the centroid of the non-cloth cells inside the
 * ball's outline.
 */
export type BallColour = 'white' | 'yellow' | 'red';
export const COLOURS: readonly BallColour[] = ['white', 'yellow', 'red'];

export interface Detection {
  colour: BallColour;
  /** Table mm of the ball's centre. */
  at: [number, number];
  /** 0…1: how well the blob looks like a ball. */
  confidence: number;
  /** Nothing but cloth just around the ball (no cue, hand or arm over its edge): its centre can be trusted to the millimetre. */
  clear: boolean;
  /**
   * Not clear, but only just past its edge (the inner ring) and nothing farther out: the ball's
   * own colour bled past its outline (chroma at half resolution, blur), not a thing over it —
   * whatever lies over a ball's edge reaches out past 1.5 radii (a cue, a finger, a chalk cube).
   */
  edgeOnly?: true;
}

/**
 * Grid cell in mm: a ball is about 8 cells across, enough to find it; its position comes
 * from the full-resolution image (refineInImage), so a coarser grid costs no accuracy.
 */
export const DEFAULT_CELL = 8;

export interface DetectorOptions {
  ballRadius: number;
  /** Grid cell size in mm (default DEFAULT_CELL). */
  cell?: number;
}

const CLASS_NONE = 0;
const CLASS_CLOTH = 1;
const CLASS_WHITE = 2;
const CLASS_YELLOW = 3;
const CLASS_RED = 4;
const CLASS_OF: Record<BallColour, number> = { white: CLASS_WHITE, yellow: CLASS_YELLOW, red: CLASS_RED };

/** Minimum share of the inner square a ball's class fills, maximum share of the ring around it. */
const INNER_FILL = 0.68;
const RING_FILL = 0.3;
/** Maximum share of the class just outside the ball's outline (a touching ball of the same colour covers about a quarter). */
const HALO_FILL = 0.4;

export class Detector {
  readonly nx: number;
  readonly ny: number;
  readonly cell: number;
  private readonly lumaIndex: Int32Array;
  private readonly chromaIndex: Int32Array;
  /** Per cell: its class. */
  readonly cls: Uint8Array;
  private integral: Int32Array;
  private readonly blockY: Float32Array;
  private readonly bx: number;
  private readonly by: number;
  /** Per cell: the brightness block it belongs to. */
  private readonly blockOf: Int32Array;
  /** Per frame, reused: cloth chroma histograms, cloth brightness per block, white candidates. */
  private readonly hu = new Int32Array(256);
  private readonly hv = new Int32Array(256);
  private readonly blockSum: Int32Array;
  private readonly blockNum: Int32Array;
  private readonly whiteCells: Int32Array;
  /** Per ball class this frame: its cells in grid order (the first classCount[c] of classCells[c]). */
  private readonly classCount = new Int32Array(5);
  private readonly classCells: Int32Array[];
  /** blobs' scratch: each cell's tile, each tile's group, the groups' integral images. */
  private readonly cellTile: Int32Array;
  private tileGroup = new Int32Array(0);
  private readonly integralAt: number[] = [];
  /** Image samples of objectShare's discs, by point (they are fixed: skittle spots). */
  private readonly discSamples = new WeakMap<readonly [number, number], { x: number; y: number; z: number; r: number; w: number; h: number; samples: Int32Array }[]>();
  private static readonly BLOCK_SHIFT = 4;
  private static readonly BLOCK = 1 << Detector.BLOCK_SHIFT;
  /** Cloth chroma reference (normalised by brightness). */
  cloth = { cu: 0, cv: 0 };
  private readonly width: number;
  private readonly height: number;

  constructor(readonly calibration: Calibration, readonly options: DetectorOptions) {
    const { length, width } = calibration.table;
    this.cell = options.cell ?? DEFAULT_CELL;
    this.nx = Math.ceil(length / this.cell);
    this.ny = Math.ceil(width / this.cell);
    const n = this.nx * this.ny;
    this.lumaIndex = new Int32Array(n);
    this.chromaIndex = new Int32Array(n);
    this.width = calibration.lens.width;
    this.height = calibration.lens.height;
    const { cw } = chromaSize(this.width, this.height);
    for (let j = 0; j < this.ny; j++) {
      for (let i = 0; i < this.nx; i++) {
        const px = calibration.toPixel((i + 0.5) * this.cell, (j + 0.5) * this.cell, options.ballRadius);
        const k = j * this.nx + i;
        if (!px || px[0] < 0 || px[1] < 0 || px[0] >= this.width || px[1] >= this.height) {
          this.lumaIndex[k] = -1;
          this.chromaIndex[k] = -1;
          continue;
        }
        const u = Math.floor(px[0]);
        const v = Math.floor(px[1]);
        this.lumaIndex[k] = v * this.width + u;
        this.chromaIndex[k] = (v >> 1) * cw + (u >> 1);
      }
    }
    this.cls = new Uint8Array(n);
    this.integral = new Int32Array((this.nx + 1) * (this.ny + 1));
    this.bx = Math.ceil(this.nx / Detector.BLOCK);
    this.by = Math.ceil(this.ny / Detector.BLOCK);
    this.blockY = new Float32Array(this.bx * this.by);
    this.blockSum = new Int32Array(this.bx * this.by);
    this.blockNum = new Int32Array(this.bx * this.by);
    this.blockOf = new Int32Array(n);
    for (let j = 0; j < this.ny; j++) for (let i = 0; i < this.nx; i++) this.blockOf[j * this.nx + i] = ((j / Detector.BLOCK) | 0) * this.bx + ((i / Detector.BLOCK) | 0);
    this.whiteCells = new Int32Array(n);
    this.classCells = [CLASS_NONE, CLASS_CLOTH, CLASS_WHITE, CLASS_YELLOW, CLASS_RED].map((c) => new Int32Array(c >= CLASS_WHITE ? n : 0));
    this.cellTile = new Int32Array(n);
  }

  /** Table mm of a cell's centre. */
  cellCentre(i: number, j: number): [number, number] {
    return [(i + 0.5) * this.cell, (j + 0.5) * this.cell];
  }

  detect(frame: Frame, colours: readonly BallColour[] = COLOURS): Detection[] {
    if (frame.width !== this.width || frame.height !== this.height) throw new Error(`frame is ${frame.width}x${frame.height}, calibration is for ${this.width}x${this.height}`);
    this.classify(frame);
    const out: Detection[] = [];
    for (const colour of colours) out.push(...this.blobs(colour));
    for (const d of out) d.at = this.refineInImage(frame, d.at);
    for (const d of out) {
      const around = this.surround(frame, d.at, out);
      d.clear = around === 'clear';
      if (around === 'edge') d.edgeOnly = true;
    }
    return out;
  }

  /**
   * Samples the frame at every cell (through the lookup table) and classifies the cell, in
   * one pass; counts each class and the box its cells lie in (blobs looks only there).
   */
  private classify(frame: Frame): void {
    const { cls, nx, ny, lumaIndex, chromaIndex, blockOf, hu, hv, classCount, classCells, whiteCells } = this;
    const fy = frame.y;
    const fu = frame.u;
    const fv = frame.v;
    const n = cls.length;
    // The cloth's chroma: the median over a sparse sample (the cloth covers most of the table).
    hu.fill(0);
    hv.fill(0);
    let count = 0;
    for (let k = 0; k < n; k += 7) {
      const l = lumaIndex[k]!;
      if (l < 0) continue; // off the image: too dark to count
      const y = fy[l]!;
      if (y < 24) continue;
      const c = chromaIndex[k]!;
      hu[CHROMA_BIN[(y << 8) | fu[c]!]!]! += 1;
      hv[CHROMA_BIN[(y << 8) | fv[c]!]!]! += 1;
      count += 1;
    }
    this.cloth = { cu: (median(hu, count) - 128) / 64, cv: (median(hv, count) - 128) / 64 };
    const { cu: ccu, cv: ccv } = this.cloth;
    classCount.fill(0);
    // Pass 1: chroma classes; cloth brightness per block (integer sums: a block's at most
    // 256 cells × 255 is exact in any float, so the means are those of a float sum).
    const sum = this.blockSum;
    const num = this.blockNum;
    sum.fill(0);
    num.fill(0);
    const bx = this.bx;
    let whites = 0;
    const B = Detector.BLOCK;
    for (let j = 0; j < ny; j++) {
      const rowBlock = (j >> Detector.BLOCK_SHIFT) * bx;
      const row = j * nx;
      // Block by block along the row, the cloth's brightness summed in locals.
      for (let i0 = 0, b = rowBlock; i0 < nx; i0 += B, b++) {
        let bs = 0;
        let bn = 0;
        const end = Math.min(nx, i0 + B);
        for (let i = i0; i < end; i++) {
          const k = row + i;
          const l = lumaIndex[k]!;
          const y = l < 0 ? 0 : fy[l]!;
          if (y < 20) {
            cls[k] = CLASS_NONE;
            continue;
          }
          const ck = chromaIndex[k]!;
          const cu = (fu[ck]! - 128) / y;
          const cv = (fv[ck]! - 128) / y;
          const du = cu - ccu;
          const dv = cv - ccv;
          if (du * du + dv * dv < 0.2 * 0.2) {
            cls[k] = CLASS_CLOTH;
            bs += y;
            bn += 1;
            continue;
          }
          let c: number;
          if (cv > 0.55 && cu < 0.2) c = CLASS_RED;
          else if (cu < -0.3 && cv < 0.32 && cv > -0.25) c = CLASS_YELLOW;
          else if (cu * cu + cv * cv < 0.13 * 0.13) {
            // brightness checked below
            cls[k] = CLASS_WHITE;
            whiteCells[whites++] = k;
            continue;
          } else {
            cls[k] = CLASS_NONE;
            continue;
          }
          cls[k] = c;
          classCells[c]![classCount[c]!++] = k;
        }
        sum[b]! += bs;
        num[b]! += bn;
      }
    }
    let all = 0;
    let allN = 0;
    for (let b = 0; b < sum.length; b++) {
      all += sum[b]!;
      allN += num[b]!;
    }
    const fallback = allN ? all / allN : 80;
    for (let b = 0; b < sum.length; b++) this.blockY[b] = num[b]! > 20 ? sum[b]! / num[b]! : fallback;
    // Pass 2: white must be clearly brighter than the cloth around it (grey shadows, dark sleeves are not).
    const W = CLASS_WHITE;
    for (let w = 0; w < whites; w++) {
      const k = whiteCells[w]!;
      if (fy[lumaIndex[k]!]! < 1.45 * this.blockY[blockOf[k]!]!) {
        cls[k] = CLASS_NONE;
        continue;
      }
      classCells[W]![classCount[W]!++] = k;
    }
  }

  /** Balls of one colour: discs filled by the class with an empty ring around them. */
  private blobs(colour: BallColour): Detection[] {
    const target = CLASS_OF[colour];
    const { nx, ny, cls } = this;
    // Too few cells of this colour for even one ball: nothing to look for.
    const ballCells = (Math.PI * (this.options.ballRadius / this.cell) ** 2) / 2;
    const count = this.classCount[target]!;
    if (count < ballCells) return [];
    const cells = this.classCells[target]!;
    const R = this.options.ballRadius / this.cell;
    const inner = Math.max(1, Math.round(1.35 * R)); // square well inside the ball
    const mid = Math.ceil(2.3 * R);
    const outer = Math.ceil(4 * R);
    const innerArea = inner * inner;
    const ringArea = outer * outer - mid * mid;
    const h = inner >> 1;
    const hm = mid >> 1;
    const ho = outer >> 1;
    // The class's cells, grouped by tiles wider than the boxes below reach: all the cells
    // any box around a cell can hold lie in its own or a touching tile, so in its group. One
    // integral image per group, over the group's bounding box, gives every box sum exactly
    // as one over the whole grid would, without touching the rest of the grid.
    const reach = Math.max(h, inner - h - 1, hm, mid - hm - 1, ho, outer - ho - 1);
    const T = reach + 1;
    const tnx = Math.ceil(nx / T);
    const tny = Math.ceil(ny / T);
    if (this.tileGroup.length < tnx * tny) this.tileGroup = new Int32Array(tnx * tny).fill(-1);
    const tiles = this.tileGroup;
    const cellTile = this.cellTile;
    for (let c = 0; c < count; c++) {
      const k = cells[c]!;
      const i = k % nx;
      const j = (k - i) / nx;
      const t = ((j / T) | 0) * tnx + ((i / T) | 0);
      cellTile[c] = t;
      tiles[t] = -2;
    }
    let groups = 0;
    const stack: number[] = [];
    for (let c = 0; c < count; c++) {
      const t0 = cellTile[c]!;
      if (tiles[t0] !== -2) continue;
      tiles[t0] = groups;
      stack.push(t0);
      while (stack.length) {
        const t = stack.pop()!;
        const tx = t % tnx;
        const ty = (t - tx) / tnx;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const x = tx + dx;
            const y = ty + dy;
            if (x < 0 || y < 0 || x >= tnx || y >= tny) continue;
            const q = y * tnx + x;
            if (tiles[q] !== -2) continue;
            tiles[q] = groups;
            stack.push(q);
          }
        }
      }
      groups += 1;
    }
    // Each group's box: cells [gx0, gx1) × [gy0, gy1).
    const gbox = new Int32Array(4 * groups);
    for (let g = 0; g < groups; g++) {
      gbox[4 * g] = nx;
      gbox[4 * g + 2] = ny;
    }
    for (let c = 0; c < count; c++) {
      const k = cells[c]!;
      const i = k % nx;
      const j = (k - i) / nx;
      const g = tiles[cellTile[c]!]!;
      if (i < gbox[4 * g]!) gbox[4 * g] = i;
      if (i >= gbox[4 * g + 1]!) gbox[4 * g + 1] = i + 1;
      if (j < gbox[4 * g + 2]!) gbox[4 * g + 2] = j;
      if (j >= gbox[4 * g + 3]!) gbox[4 * g + 3] = j + 1;
    }
    const offsets = this.integralAt;
    offsets.length = 0;
    let size = 0;
    for (let g = 0; g < groups; g++) {
      offsets.push(size);
      size += (gbox[4 * g + 1]! - gbox[4 * g]! + 1) * (gbox[4 * g + 3]! - gbox[4 * g + 2]! + 1);
    }
    if (this.integral.length < size) this.integral = new Int32Array(size);
    const I = this.integral;
    for (let g = 0; g < groups; g++) {
      const a0 = gbox[4 * g]!;
      const a1 = gbox[4 * g + 1]!;
      const b0 = gbox[4 * g + 2]!;
      const b1 = gbox[4 * g + 3]!;
      const W = a1 - a0 + 1;
      const o = offsets[g]!;
      for (let i = 0; i < W; i++) I[o + i] = 0;
      for (let j = b0; j < b1; j++) {
        let row = 0;
        const r = o + (j - b0 + 1) * W;
        I[r] = 0;
        for (let i = a0; i < a1; i++) {
          if (cls[j * nx + i] === target) row += 1;
          I[r + i - a0 + 1] = I[r - W + i - a0 + 1]! + row;
        }
      }
    }
    const candidates: { i: number; j: number; score: number; fill: number; ring: number }[] = [];
    // The group being looked at: its box and integral image.
    let a0 = 0;
    let a1 = 0;
    let b0 = 0;
    let b1 = 0;
    let W = 0;
    let o = 0;
    const box = (i0: number, j0: number, i1: number, j1: number) => {
      // Sum over cells [i0, i1) × [j0, j1), clipped to the group's box.
      i0 = Math.max(a0, i0) - a0;
      j0 = Math.max(b0, j0) - b0;
      i1 = Math.min(a1, i1) - a0;
      j1 = Math.min(b1, j1) - b0;
      if (i1 <= i0 || j1 <= j0) return 0;
      return I[o + j1 * W + i1]! - I[o + j0 * W + i1]! - I[o + j1 * W + i0]! + I[o + j0 * W + i0]!;
    };
    // In grid order, as a scan of the whole grid would find them (ties in score keep it).
    for (let c = 0; c < count; c++) {
      const k = cells[c]!;
      const i = k % nx;
      const j = (k - i) / nx;
      const g = tiles[cellTile[c]!]!;
      a0 = gbox[4 * g]!;
      a1 = gbox[4 * g + 1]!;
      b0 = gbox[4 * g + 2]!;
      b1 = gbox[4 * g + 3]!;
      W = a1 - a0 + 1;
      o = offsets[g]!;
      const fill = box(i - h, j - h, i - h + inner, j - h + inner) / innerArea;
      if (fill < INNER_FILL) continue;
      const ring = (box(i - ho, j - ho, i - ho + outer, j - ho + outer) - box(i - hm, j - hm, i - hm + mid, j - hm + mid)) / ringArea;
      if (ring > RING_FILL) continue;
      candidates.push({ i, j, score: fill - 0.5 * ring, fill, ring });
    }
    for (let c = 0; c < count; c++) tiles[cellTile[c]!] = -1;
    candidates.sort((a, b) => b.score - a.score);
    const kept: typeof candidates = [];
    const sep = 1.6 * R;
    for (const c of candidates) if (kept.every((k) => (k.i - c.i) ** 2 + (k.j - c.j) ** 2 >= sep * sep)) kept.push(c);
    const out: Detection[] = [];
    for (const c of kept) {
      const at = this.refine(c.i, c.j);
      // Just outside a ball's outline the class must mostly stop: a sleeve's end, a hand or
      // a fat blob is round too, but wider than a ball.
      const halo = this.haloShare(at, target);
      if (halo > HALO_FILL) continue;
      out.push({ colour, at, clear: true, confidence: Math.max(0, Math.min(1, ((c.fill - INNER_FILL) / (1 - INNER_FILL)) * 0.5 + 0.5 - c.ring - halo)) });
    }
    return out;
  }

  /**
   * Is the ring from 1.2 to 1.6 radii around a ball (in the image) cloth, apart from other
   * balls? Something over the ball's edge (a cue, fingers) pulls its centroid. 'edge': not, but
   * only on the inner ring (at 1.25 radii, within a chroma sample of the outline at 640×360).
   */
  private surround(frame: Frame, at: [number, number], balls: readonly Detection[]): 'clear' | 'edge' | 'covered' {
    const cal = this.calibration;
    const R = this.options.ballRadius;
    const { cw } = chromaSize(frame.width, frame.height);
    const { cu: ccu, cv: ccv } = this.cloth;
    /** A ring point: 0 no evidence (off the table, on another ball, too dark), 1 cloth, 2 something else. */
    const sample = (a: number, f: number): 0 | 1 | 2 => {
      const x = at[0] + Math.cos(a) * f * R;
      const y = at[1] + Math.sin(a) * f * R;
      if (x < 0 || y < 0 || x > cal.table.length || y > cal.table.width) return 0;
      for (const b of balls) if (b.at !== at && Math.hypot(b.at[0] - x, b.at[1] - y) < 1.25 * R) return 0;
      const px = cal.toPixel(x, y, R);
      if (!px) return 0;
      const u = Math.floor(px[0]);
      const v = Math.floor(px[1]);
      if (u < 0 || v < 0 || u >= frame.width || v >= frame.height) return 0;
      const yy = frame.y[v * frame.width + u]!;
      // Too dark to tell colours apart (a vignetted corner): no evidence either way.
      if (yy < 35) return 0;
      const c = (v >> 1) * cw + (u >> 1);
      const du = (frame.u[c]! - 128) / yy - ccu;
      const dv = (frame.v[c]! - 128) / yy - ccv;
      return du * du + dv * dv > 0.3 * 0.3 ? 2 : 1;
    };
    let n = 0;
    let other = 0;
    // Edge only while every hit is on the inner ring with cloth seen beyond it (a rail, a dark
    // sleeve or another ball there could hide what reaches out).
    let edgeOnly = true;
    for (let k = 0; k < 32; k++) {
      const a = (k / 32) * 2 * Math.PI;
      const inner = sample(a, 1.25);
      const outer = sample(a, 1.5);
      n += (inner === 0 ? 0 : 1) + (outer === 0 ? 0 : 1);
      other += (inner === 2 ? 1 : 0) + (outer === 2 ? 1 : 0);
      if (outer === 2 || (inner === 2 && outer !== 1)) edgeOnly = false;
    }
    return n === 0 || other / n < 0.08 ? 'clear' : edgeOnly ? 'edge' : 'covered';
  }

  /** Share of cells of a class in the ring from 1.2 to 1.6 radii around a point. */
  private haloShare(at: [number, number], target: number): number {
    const { nx, ny, cls, cell } = this;
    const R = this.options.ballRadius;
    const r0 = 1.2 * R;
    const r1 = 1.6 * R;
    let n = 0;
    let hit = 0;
    for (let j = Math.max(0, Math.floor((at[1] - r1) / cell)); j <= Math.min(ny - 1, Math.floor((at[1] + r1) / cell)); j++) {
      for (let i = Math.max(0, Math.floor((at[0] - r1) / cell)); i <= Math.min(nx - 1, Math.floor((at[0] + r1) / cell)); i++) {
        const d = Math.hypot((i + 0.5) * cell - at[0], (j + 0.5) * cell - at[1]);
        if (d < r0 || d > r1) continue;
        n += 1;
        if (cls[j * nx + i] === target) hit += 1;
      }
    }
    return n ? hit / n : 0;
  }

  /** Centroid of the non-cloth cells within the ball's outline, twice. */
  private refine(ci: number, cj: number): [number, number] {
    const { nx, ny, cls } = this;
    const R = this.options.ballRadius / this.cell;
    let x = ci + 0.5;
    let y = cj + 0.5;
    for (let pass = 0; pass < 3; pass++) {
      const r = pass === 0 ? 1.2 * R : 1.05 * R;
      let sx = 0;
      let sy = 0;
      let n = 0;
      for (let j = Math.max(0, Math.floor(y - r)); j <= Math.min(ny - 1, Math.ceil(y + r)); j++) {
        for (let i = Math.max(0, Math.floor(x - r)); i <= Math.min(nx - 1, Math.ceil(x + r)); i++) {
          const dx = i + 0.5 - x;
          const dy = j + 0.5 - y;
          if (dx * dx + dy * dy > r * r) continue;
          const c = cls[j * nx + i]!;
          if (c === CLASS_CLOTH) continue;
          sx += i + 0.5;
          sy += j + 0.5;
          n += 1;
        }
      }
      if (n === 0) break;
      x = sx / n;
      y = sy / n;
    }
    return [x * this.cell, y * this.cell];
  }

  /**
   * The centroid of the ball's outline in the full-resolution image (soft weights: how far
   * each pixel's colour is from the cloth's), mapped back to the table at the balls' height.
   * The grid finds the ball; the image places it to a fraction of a pixel.
   */
  private refineInImage(frame: Frame, at: [number, number]): [number, number] {
    const cal = this.calibration;
    const R = this.options.ballRadius;
    const c = cal.toPixel(at[0], at[1], R);
    const e = cal.toPixel(at[0] + R, at[1], R);
    const f = cal.toPixel(at[0], at[1] + R, R);
    if (!c || !e || !f) return at;
    const rpx = Math.max(Math.hypot(e[0] - c[0], e[1] - c[1]), Math.hypot(f[0] - c[0], f[1] - c[1]));
    const { cw, ch } = chromaSize(frame.width, frame.height);
    const { cu: ccu, cv: ccv } = this.cloth;
    let u0 = c[0];
    let v0 = c[1];
    // A wide first look, then the ball's outline until the centre stops moving.
    for (let pass = 0; pass < 8; pass++) {
      const r = rpx * (pass === 0 ? 1.3 : 1.1);
      const from = [u0, v0];
      let su = 0;
      let sv = 0;
      let sw = 0;
      for (let v = Math.max(0, Math.floor(v0 - r)); v <= Math.min(frame.height - 1, Math.ceil(v0 + r)); v++) {
        for (let u = Math.max(0, Math.floor(u0 - r)); u <= Math.min(frame.width - 1, Math.ceil(u0 + r)); u++) {
          const du = u + 0.5 - u0;
          const dv = v + 0.5 - v0;
          if (du * du + dv * dv > r * r) continue;
          const y = frame.y[v * frame.width + u]!;
          // Chroma interpolated to the pixel's centre (4:2:0 samples sit between pixel pairs):
          // nearest-sample chroma would pull a moving ball's centroid to a 2-pixel grid.
          const cx = Math.min(cw - 1.001, Math.max(0, (u + 0.5) / 2 - 0.5));
          const cy = Math.min(ch - 1.001, Math.max(0, (v + 0.5) / 2 - 0.5));
          const ix = cx | 0;
          const iy = cy | 0;
          const fx = cx - ix;
          const fy = cy - iy;
          const k = iy * cw + ix;
          const U = (frame.u[k]! * (1 - fx) + frame.u[k + 1]! * fx) * (1 - fy) + (frame.u[k + cw]! * (1 - fx) + frame.u[k + cw + 1]! * fx) * fy;
          const V = (frame.v[k]! * (1 - fx) + frame.v[k + 1]! * fx) * (1 - fy) + (frame.v[k + cw]! * (1 - fx) + frame.v[k + cw + 1]! * fx) * fy;
          const yy = Math.max(y, 20);
          const a = (U - 128) / yy - ccu;
          const b = (V - 128) / yy - ccv;
          const d = Math.sqrt(a * a + b * b);
          const w = d <= 0.12 ? 0 : d >= 0.3 ? 1 : (d - 0.12) / 0.18;
          su += w * (u + 0.5);
          sv += w * (v + 0.5);
          sw += w;
        }
      }
      if (sw < 1) return at;
      u0 = su / sw;
      v0 = sv / sw;
      if (pass > 0 && Math.hypot(u0 - from[0]!, v0 - from[1]!) < 0.03) break;
    }
    const back = cal.toTable([u0, v0], R);
    return back ? [back[0], back[1]] : at;
  }

  /**
   * Share of pixels that are not cloth (brighter than the cloth around, or another colour)
   * in a small disc around a table point at a given height, sampled in the image directly
   * (skittles stand above the balls' plane): a standing skittle fills it, its empty spot not.
   */
  objectShare(frame: Frame, at: readonly [number, number], z: number, radiusMm: number): number {
    const samples = this.discOf(frame, at, z, radiusMm);
    const i = Math.min(this.nx - 1, Math.max(0, Math.floor(at[0] / this.cell)));
    const j = Math.min(this.ny - 1, Math.max(0, Math.floor(at[1] / this.cell)));
    const cloth = this.blockY[((j / Detector.BLOCK) | 0) * this.bx + ((i / Detector.BLOCK) | 0)]!;
    let white = 0;
    const n = samples.length >> 1;
    for (let s = 0; s < samples.length; s += 2) {
      const y = frame.y[samples[s]!]!;
      const c = samples[s + 1]!;
      const cu = (frame.u[c]! - 128) / Math.max(y, 20);
      const cv = (frame.v[c]! - 128) / Math.max(y, 20);
      const du = cu - this.cloth.cu;
      const dv = cv - this.cloth.cv;
      if (y > 1.45 * cloth || du * du + dv * dv > 0.25 * 0.25) white += 1;
    }
    return n ? white / n : 0;
  }

  /**
   * Share of pixels in a disc on the cloth (z = 0) that look like bare cloth: the cloth's
   * chroma, and neither brighter than the cloth around (a ball, a white sleeve) nor much
   * darker (a dark sleeve or glove, whose chroma can pass for a dark cloth's). A place a ball
   * lay at reads near 1 once the ball has gone, and low under a ball, a hand or an arm.
   */
  clothShare(frame: Frame, at: readonly [number, number], radiusMm: number): number {
    const samples = this.discOf(frame, at, 0, radiusMm);
    const i = Math.min(this.nx - 1, Math.max(0, Math.floor(at[0] / this.cell)));
    const j = Math.min(this.ny - 1, Math.max(0, Math.floor(at[1] / this.cell)));
    const cloth = this.blockY[((j / Detector.BLOCK) | 0) * this.bx + ((i / Detector.BLOCK) | 0)]!;
    let bare = 0;
    let su = 0;
    let sv = 0;
    const n = samples.length >> 1;
    for (let s = 0; s < samples.length; s += 2) {
      const y = frame.y[samples[s]!]!;
      if (y > 1.45 * cloth || y < 0.7 * cloth || y < 20) continue;
      const c = samples[s + 1]!;
      const du = (frame.u[c]! - 128) / y - this.cloth.cu;
      const dv = (frame.v[c]! - 128) / y - this.cloth.cv;
      if (du * du + dv * dv >= 0.2 * 0.2) continue;
      bare += 1;
      su += du;
      sv += dv;
    }
    if (!bare) return 0;
    // Their mean chroma on the cloth's, closer than one pixel's noise allows: a blue sleeve over
    // a grey-blue cloth passes pixel by pixel, not on average.
    const mu = su / bare;
    const mv = sv / bare;
    return mu * mu + mv * mv < 0.08 * 0.08 ? bare / n : 0;
  }

  /**
   * The image samples (luma index, chroma index pairs) of objectShare's disc: a grid of
   * points over it, each projected once (the discs are skittle spots, the same every frame).
   */
  private discOf(frame: Frame, at: readonly [number, number], z: number, radiusMm: number): Int32Array {
    // Keyed by the point's array (the tracker passes the same one every frame) and the numbers.
    let known = this.discSamples.get(at);
    if (!known) this.discSamples.set(at, (known = []));
    for (const d of known) if (d.x === at[0] && d.y === at[1] && d.z === z && d.r === radiusMm && d.w === frame.width && d.h === frame.height) return d.samples;
    const cal = this.calibration;
    const { cw } = chromaSize(frame.width, frame.height);
    const out: number[] = [];
    const steps = 4;
    for (let a = -steps; a <= steps; a++) {
      for (let b = -steps; b <= steps; b++) {
        const dx = (a / steps) * radiusMm;
        const dy = (b / steps) * radiusMm;
        if (dx * dx + dy * dy > radiusMm * radiusMm) continue;
        const px = cal.toPixel(at[0] + dx, at[1] + dy, z);
        if (!px) continue;
        const u = Math.floor(px[0]);
        const v = Math.floor(px[1]);
        if (u < 0 || v < 0 || u >= frame.width || v >= frame.height) continue;
        out.push(v * frame.width + u, (v >> 1) * cw + (u >> 1));
      }
    }
    // Bounded: a caller moving the point in place must not grow the list without end.
    if (known.length >= 8) known.length = 0;
    const samples = Int32Array.from(out);
    known.push({ x: at[0], y: at[1], z, r: radiusMm, w: frame.width, h: frame.height, samples });
    return samples;
  }
}

const clampByte = (x: number) => (x < 0 ? 0 : x > 255 ? 255 : x | 0);

/** The cloth histogram's bin of chroma byte c at brightness y (index y·256 + c): the division done once, here. */
const CHROMA_BIN = (() => {
  const t = new Uint8Array(256 * 256);
  for (let y = 1; y < 256; y++) for (let c = 0; c < 256; c++) t[(y << 8) | c] = clampByte(128 + (64 * (c - 128)) / y);
  return t;
})();

function median(h: Int32Array, count: number): number {
  let acc = 0;
  for (let i = 0; i < 256; i++) {
    acc += h[i]!;
    if (acc * 2 >= count) return i + 0.5;
  }
  return 128;
}
