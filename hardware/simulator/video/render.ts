import { cameraCentre, project, rayThrough, type Vec2, type Vec3 } from '../../../hub/vision/geometry.ts';
import type { Frame } from '../../../hub/vision/frame.ts';
import { chromaSize } from '../../../hub/vision/frame.ts';
import type { Camera } from './camera.ts';

/**
 * A per-pixel renderer of an overhead table camera. Precomputed once per video: every
 * pixel's viewing ray and where it meets the cloth, and the static background (cloth with
 * the lamps' light falloff, cushions, wooden rails with diamonds, the floor). Per frame:
 * soft shadows (the balls', the player's), skittles, shaded balls with a specular
 * highlight averaged over the exposure (motion blur), a cue stick, hands and arms as
 * tapered capsules, a chalk cube, then vignetting, sensor noise and conversion to 4:2:0.
 */
export type RGB = readonly [number, number, number];

export interface Style {
  cloth: RGB;
  rail: RGB;
  floor: RGB;
  /** Light falloff toward the table's ends and sides (0…0.5) and a linear tilt of the light. */
  falloff: number;
  tilt: Vec2;
  /** Darkening at the image corners (0…0.5). */
  vignette: number;
  /** Sensor noise, standard deviation in 8-bit levels. */
  noise: number;
  /** Exposure time, s (motion blur). */
  exposure: number;
  /** Direction toward the main lamp (unit, z up). */
  light: Vec3;
  /** Overall brightness gain. */
  gain: number;
}

export const BALL_RGB: Record<string, RGB> = {
  white: [236, 234, 222],
  yellow: [236, 188, 36],
  red: [196, 24, 30],
};

/** A tapered capsule between two 3-D points (cue stick, arm, hand). */
export interface Capsule {
  a: Vec3;
  b: Vec3;
  ra: number;
  rb: number;
  colour: RGB;
  /** Second colour from this fraction of the length on (the cue's butt). */
  split?: { at: number; colour: RGB };
}

export interface SoftShadow {
  centre: Vec2;
  radii: Vec2;
  angle: number;
  /** 0…1: share of light removed at its centre. */
  strength: number;
}

export interface SkittleDraw {
  at: Vec2;
  standing: boolean;
  /** For a fallen skittle: the direction it lies in. */
  dir?: Vec2;
  king?: boolean;
  base: number;
  height: number;
}

export interface FrameScene {
  /** Per ball: positions at each exposure sub-sample (one entry = no blur; none = not on the table, not drawn). */
  balls: { colour: RGB; path: Vec2[] }[];
  ballRadius: number;
  skittles: SkittleDraw[];
  capsules: Capsule[];
  shadows: SoftShadow[];
  chalk?: { at: Vec2; size: number; colour: RGB };
}

export class Renderer {
  readonly width: number;
  readonly height: number;
  private readonly dir: Float32Array;
  private readonly plane: Float32Array;
  private readonly bg: Float32Array;
  private readonly vig: Float32Array;
  private readonly buf: Float32Array;
  private readonly centre: Vec3;
  private readonly noiseTable: Float32Array;
  private noiseSeed = 1;
  /** The static background already through vignetting and colour conversion (before noise). */
  private readonly bgY: Float32Array;
  private readonly bgU: Float32Array;
  private readonly bgV: Float32Array;
  /** Per image row, the span [lo, hi] drawn over this frame (lo > hi: untouched), and last frame's. */
  private dirtyLo: Int32Array;
  private dirtyHi: Int32Array;
  private prevLo: Int32Array;
  private prevHi: Int32Array;

  constructor(readonly camera: Camera, readonly table: { length: number; width: number }, readonly style: Style, random: () => number) {
    const { width, height } = camera.lens;
    this.width = width;
    this.height = height;
    const n = width * height;
    this.dir = new Float32Array(3 * n);
    this.plane = new Float32Array(2 * n);
    this.bg = new Float32Array(3 * n);
    this.vig = new Float32Array(n);
    this.buf = new Float32Array(3 * n);
    this.centre = cameraCentre(camera.pose);
    const half = Math.hypot(width, height) / 2;
    for (let v = 0; v < height; v++) {
      for (let u = 0; u < width; u++) {
        const k = v * width + u;
        const d = rayThrough(camera.pose, camera.lens, [u + 0.5, v + 0.5]);
        const m = Math.hypot(d[0], d[1], d[2]);
        this.dir[3 * k] = d[0] / m;
        this.dir[3 * k + 1] = d[1] / m;
        this.dir[3 * k + 2] = d[2] / m;
        const s = -this.centre[2] / (d[2] / m);
        const X = this.centre[0] + (s * d[0]) / m;
        const Y = this.centre[1] + (s * d[1]) / m;
        this.plane[2 * k] = X;
        this.plane[2 * k + 1] = Y;
        const r = Math.hypot(u - width / 2, v - height / 2) / half;
        this.vig[k] = style.gain * (1 - style.vignette * r * r);
        const c = this.backgroundAt(X, Y);
        this.bg[3 * k] = c[0];
        this.bg[3 * k + 1] = c[1];
        this.bg[3 * k + 2] = c[2];
      }
    }
    const { cw, ch } = chromaSize(width, height);
    this.bgY = new Float32Array(n);
    this.bgU = new Float32Array(cw * ch);
    this.bgV = new Float32Array(cw * ch);
    for (let k = 0; k < n; k++) {
      const g = this.vig[k]!;
      this.bgY[k] = (0.299 * this.bg[3 * k]! + 0.587 * this.bg[3 * k + 1]! + 0.114 * this.bg[3 * k + 2]!) * g;
    }
    for (let j = 0; j < ch; j++) for (let i = 0; i < cw; i++) {
      const [u, v] = this.chromaAt(this.bg, i, j);
      this.bgU[j * cw + i] = u;
      this.bgV[j * cw + i] = v;
    }
    this.dirtyLo = new Int32Array(height).fill(width);
    this.dirtyHi = new Int32Array(height).fill(-1);
    // The first frame restores the whole buffer (it starts as zeros).
    this.prevLo = new Int32Array(height).fill(0);
    this.prevHi = new Int32Array(height).fill(width - 1);
    this.noiseTable = new Float32Array(1 << 16);
    for (let i = 0; i < this.noiseTable.length; i++) this.noiseTable[i] = gauss(random) * style.noise;
    this.noiseSeed = Math.floor(random() * 65536);
  }

  /** Light reaching the cloth at a table point (lamps over the middle, a slight tilt). */
  lightAt(X: number, Y: number): number {
    const { length: L, width: W } = this.table;
    const x = (X - L / 2) / (L / 2);
    const y = (Y - W / 2) / (W / 2);
    return 1 - this.style.falloff * (0.6 * x * x + 0.4 * y * y) + this.style.tilt[0] * x + this.style.tilt[1] * y;
  }

  private backgroundAt(X: number, Y: number): RGB {
    const { length: L, width: W } = this.table;
    const { cloth, rail, floor } = this.style;
    const light = this.lightAt(Math.min(L, Math.max(0, X)), Math.min(W, Math.max(0, Y)));
    const inside = X >= 0 && X <= L && Y >= 0 && Y <= W;
    if (inside) return scale(cloth, light);
    const out = Math.max(-X, X - L, -Y, Y - W);
    if (out < 50) return scale(cloth, light * (out < 6 ? 0.6 : 0.82)); // cushion: its nose in shade
    if (out < 170) {
      // Wooden rail with diamonds (mother-of-pearl dots) at eighths of the length.
      const along = X < 0 || X > L ? Y / (W / 4) : X / (L / 8);
      const nearDiamond = Math.abs(along - Math.round(along)) * (X < 0 || X > L ? W / 4 : L / 8) < 9 && Math.abs(out - 110) < 9;
      return nearDiamond ? scale([235, 235, 225], light) : scale(rail, light * 0.9);
    }
    return scale(floor, 0.6);
  }

  render(scene: FrameScene): Frame {
    const { width, height, buf, bg } = this;
    // Only what was drawn over last frame differs from the background: restore those spans.
    for (let v = 0; v < height; v++) {
      const lo = this.prevLo[v]!;
      const hi = this.prevHi[v]!;
      if (lo <= hi) buf.set(bg.subarray(3 * (v * width + lo), 3 * (v * width + hi + 1)), 3 * (v * width + lo));
    }
    this.dirtyLo.fill(width);
    this.dirtyHi.fill(-1);
    for (const s of scene.shadows) this.shadow(s);
    for (const b of scene.balls) if (b.path.length > 0) this.ballShadow(b.path[Math.floor(b.path.length / 2)]!, scene.ballRadius);
    if (scene.chalk) this.chalk(scene.chalk);
    for (const s of scene.skittles) this.skittle(s);
    for (const b of scene.balls) this.ball(b.colour, b.path, scene.ballRadius);
    for (const c of scene.capsules) this.capsule(c);
    return this.toFrame(width, height);
  }

  /** Image bounding box of table points (clipped), or null when off-screen. */
  private bbox(points: Vec3[], pad: number): [number, number, number, number] | null {
    let u0 = Infinity;
    let v0 = Infinity;
    let u1 = -Infinity;
    let v1 = -Infinity;
    for (const p of points) {
      const q = project(this.camera.pose, this.camera.lens, p);
      if (!q) continue;
      u0 = Math.min(u0, q[0]);
      v0 = Math.min(v0, q[1]);
      u1 = Math.max(u1, q[0]);
      v1 = Math.max(v1, q[1]);
    }
    if (!Number.isFinite(u0)) return null;
    const a = Math.max(0, Math.floor(u0 - pad));
    const b = Math.max(0, Math.floor(v0 - pad));
    const c = Math.min(this.width - 1, Math.ceil(u1 + pad));
    const d = Math.min(this.height - 1, Math.ceil(v1 + pad));
    if (a > c || b > d) return null;
    // Everything drawn goes through a box: those spans are what the frame changes.
    for (let v = b; v <= d; v++) {
      if (a < this.dirtyLo[v]!) this.dirtyLo[v] = a;
      if (c > this.dirtyHi[v]!) this.dirtyHi[v] = c;
    }
    return [a, b, c, d];
  }

  private pxPerMm(at: Vec3): number {
    const a = project(this.camera.pose, this.camera.lens, at);
    const b = project(this.camera.pose, this.camera.lens, [at[0] + 10, at[1], at[2]]);
    return a && b ? Math.hypot(b[0] - a[0], b[1] - a[1]) / 10 : 0.5;
  }

  private shadow(s: SoftShadow): void {
    const [rx, ry] = s.radii;
    const R = Math.max(rx, ry) * 1.5;
    const box = this.bbox([[s.centre[0] - R, s.centre[1] - R, 0], [s.centre[0] + R, s.centre[1] + R, 0], [s.centre[0] - R, s.centre[1] + R, 0], [s.centre[0] + R, s.centre[1] - R, 0]], 2);
    if (!box) return;
    const c = Math.cos(s.angle);
    const sn = Math.sin(s.angle);
    for (let v = box[1]; v <= box[3]; v++) {
      for (let u = box[0]; u <= box[2]; u++) {
        const k = v * this.width + u;
        const dx = this.plane[2 * k]! - s.centre[0];
        const dy = this.plane[2 * k + 1]! - s.centre[1];
        const a = (c * dx + sn * dy) / rx;
        const b = (-sn * dx + c * dy) / ry;
        const r = Math.sqrt(a * a + b * b);
        if (r >= 1.3) continue;
        const f = 1 - s.strength * (r < 0.8 ? 1 : 1 - smooth((r - 0.8) / 0.5));
        this.mul(k, f);
      }
    }
  }

  private ballShadow(p: Vec2, R: number): void {
    const L = this.style.light;
    // Offset away from the lamp by the ball's height.
    const cx = p[0] - (L[0] / L[2]) * R;
    const cy = p[1] - (L[1] / L[2]) * R;
    const box = this.bbox([[cx - 1.6 * R, cy - 1.6 * R, 0], [cx + 1.6 * R, cy + 1.6 * R, 0]], 2);
    if (!box) return;
    for (let v = box[1]; v <= box[3]; v++) {
      for (let u = box[0]; u <= box[2]; u++) {
        const k = v * this.width + u;
        const d = Math.hypot(this.plane[2 * k]! - cx, this.plane[2 * k + 1]! - cy) / R;
        if (d > 1.6) continue;
        this.mul(k, 1 - 0.55 * (d < 0.9 ? 1 : 1 - smooth((d - 0.9) / 0.7)));
      }
    }
  }

  private mul(k: number, f: number): void {
    this.buf[3 * k]! *= f;
    this.buf[3 * k + 1]! *= f;
    this.buf[3 * k + 2]! *= f;
  }

  private set(k: number, c: RGB): void {
    this.buf[3 * k] = c[0];
    this.buf[3 * k + 1] = c[1];
    this.buf[3 * k + 2] = c[2];
  }

  /** Where pixel k's ray meets the plane z = h. */
  private atHeight(k: number, h: number): Vec2 {
    const C = this.centre;
    const s = (h - C[2]) / this.dir[3 * k + 2]!;
    return [C[0] + s * this.dir[3 * k]!, C[1] + s * this.dir[3 * k + 1]!];
  }

  private chalk(c: { at: Vec2; size: number; colour: RGB }): void {
    const h = c.size / 2;
    const box = this.bbox([[c.at[0] - h, c.at[1] - h, c.size], [c.at[0] + h, c.at[1] + h, c.size], [c.at[0] - h, c.at[1] - h, 0], [c.at[0] + h, c.at[1] + h, 0]], 1);
    if (!box) return;
    const light = this.lightAt(c.at[0], c.at[1]);
    for (let v = box[1]; v <= box[3]; v++) {
      for (let u = box[0]; u <= box[2]; u++) {
        const k = v * this.width + u;
        const top = this.atHeight(k, c.size);
        if (Math.abs(top[0] - c.at[0]) <= h && Math.abs(top[1] - c.at[1]) <= h) this.set(k, scale(c.colour, light));
        else {
          // The sides seen at an angle, darker.
          const base = [this.plane[2 * k]!, this.plane[2 * k + 1]!];
          const mx = (top[0] + base[0]!) / 2;
          const my = (top[1] + base[1]!) / 2;
          if (Math.abs(mx - c.at[0]) <= h && Math.abs(my - c.at[1]) <= h) this.set(k, scale(c.colour, light * 0.6));
        }
      }
    }
  }

  private skittle(s: SkittleDraw): void {
    const light = this.lightAt(s.at[0], s.at[1]);
    const r = s.base / 2;
    if (s.standing) {
      const box = this.bbox([[s.at[0] - r, s.at[1] - r, s.height], [s.at[0] + r, s.at[1] + r, s.height], [s.at[0] - r, s.at[1] - r, 0], [s.at[0] + r, s.at[1] + r, 0]], 1);
      if (!box) return;
      for (let v = box[1]; v <= box[3]; v++) {
        for (let u = box[0]; u <= box[2]; u++) {
          const k = v * this.width + u;
          // A slim body: test a few heights; the head (top) is widest seen from above.
          for (let level = 0; level < 3; level++) {
            const z = level === 0 ? s.height : level === 1 ? s.height * 0.6 : s.height * 0.3;
            const rr = level === 0 ? r * 0.8 : level === 1 ? r * 0.6 : r;
            // Where pixel k's ray meets the plane at height z (atHeight, without allocating).
            const C = this.centre;
            const t = (z - C[2]) / this.dir[3 * k + 2]!;
            const d = Math.hypot(C[0] + t * this.dir[3 * k]! - s.at[0], C[1] + t * this.dir[3 * k + 1]! - s.at[1]);
            if (d <= rr) {
              const red = s.king ? d < rr * 0.5 : d > rr * 0.55 && d < rr * 0.75;
              this.set(k, scale(red ? BALL_RGB.red! : SKITTLE_RGB, light * (0.75 + 0.25 * (1 - d / rr))));
              break;
            }
          }
        }
      }
      return;
    }
    const d = s.dir ?? [1, 0];
    this.capsule({ a: [s.at[0] + d[0] * 20, s.at[1] + d[1] * 20, r * 0.8], b: [s.at[0] + d[0] * (20 + s.height), s.at[1] + d[1] * (20 + s.height), r * 0.8], ra: r * 0.7, rb: r * 0.8, colour: [238, 236, 228] });
  }

  private ball(colour: RGB, path: Vec2[], R: number): void {
    const pts: Vec3[] = [];
    for (const p of path) pts.push([p[0] - R, p[1] - R, R], [p[0] + R, p[1] + R, R], [p[0] - R, p[1] + R, R], [p[0] + R, p[1] - R, R], [p[0], p[1], 2 * R]);
    const box = this.bbox(pts, 2);
    if (!box) return;
    const C = this.centre;
    const Lt = this.style.light;
    const n = path.length;
    for (let v = box[1]; v <= box[3]; v++) {
      for (let u = box[0]; u <= box[2]; u++) {
        const k = v * this.width + u;
        const dx = this.dir[3 * k]!;
        const dy = this.dir[3 * k + 1]!;
        const dz = this.dir[3 * k + 2]!;
        let r = 0;
        let g = 0;
        let b = 0;
        let hits = 0;
        for (const p of path) {
          const ox = C[0] - p[0];
          const oy = C[1] - p[1];
          const oz = C[2] - R;
          const bb = ox * dx + oy * dy + oz * dz;
          const cc = ox * ox + oy * oy + oz * oz - R * R;
          const disc = bb * bb - cc;
          if (disc < 0) continue;
          const s = -bb - Math.sqrt(disc);
          const nx = (ox + s * dx) / R;
          const ny = (oy + s * dy) / R;
          const nz = (oz + s * dz) / R;
          const diffuse = 0.28 + 0.72 * Math.max(0, nx * Lt[0] + ny * Lt[1] + nz * Lt[2]);
          // Blinn-Phong highlight: half-vector between the lamp and the eye.
          let hx = Lt[0] - dx;
          let hy = Lt[1] - dy;
          let hz = Lt[2] - dz;
          const hm = Math.hypot(hx, hy, hz);
          hx /= hm;
          hy /= hm;
          hz /= hm;
          const spec = 230 * Math.pow(Math.max(0, nx * hx + ny * hy + nz * hz), 80);
          const light = this.lightAt(p[0], p[1]);
          r += (colour[0] * diffuse + spec) * light;
          g += (colour[1] * diffuse + spec) * light;
          b += (colour[2] * diffuse + spec) * light;
          hits += 1;
        }
        if (hits === 0) continue;
        const miss = n - hits;
        this.buf[3 * k] = (r + miss * this.buf[3 * k]!) / n;
        this.buf[3 * k + 1] = (g + miss * this.buf[3 * k + 1]!) / n;
        this.buf[3 * k + 2] = (b + miss * this.buf[3 * k + 2]!) / n;
      }
    }
  }

  private capsule(c: Capsule): void {
    const box = this.bbox([c.a, c.b], Math.max(c.ra, c.rb) * this.pxPerMm(c.a) * 1.5 + 2);
    if (!box) return;
    const C = this.centre;
    const ax = c.b[0] - c.a[0];
    const ay = c.b[1] - c.a[1];
    const az = c.b[2] - c.a[2];
    const len2 = ax * ax + ay * ay + az * az;
    const light = this.lightAt(Math.min(this.table.length, Math.max(0, c.a[0])), Math.min(this.table.width, Math.max(0, c.a[1])));
    for (let v = box[1]; v <= box[3]; v++) {
      for (let u = box[0]; u <= box[2]; u++) {
        const k = v * this.width + u;
        const dx = this.dir[3 * k]!;
        const dy = this.dir[3 * k + 1]!;
        const dz = this.dir[3 * k + 2]!;
        // Closest points between the ray C + s·d and the segment a + t·(b − a).
        const wx = C[0] - c.a[0];
        const wy = C[1] - c.a[1];
        const wz = C[2] - c.a[2];
        const bdot = dx * ax + dy * ay + dz * az;
        const d1 = dx * wx + dy * wy + dz * wz;
        const e = ax * wx + ay * wy + az * wz;
        const den = len2 - bdot * bdot;
        let t = den > 1e-9 ? (e - bdot * d1) / den : 0;
        t = Math.max(0, Math.min(1, t));
        const px = c.a[0] + t * ax;
        const py = c.a[1] + t * ay;
        const pz = c.a[2] + t * az;
        const s = dx * (px - C[0]) + dy * (py - C[1]) + dz * (pz - C[2]);
        const qx = C[0] + s * dx - px;
        const qy = C[1] + s * dy - py;
        const qz = C[2] + s * dz - pz;
        const dist = Math.hypot(qx, qy, qz);
        const rad = c.ra + (c.rb - c.ra) * t;
        if (dist > rad) continue;
        const col = c.split && t > c.split.at ? c.split.colour : c.colour;
        const f = (0.55 + 0.45 * Math.sqrt(Math.max(0, 1 - (dist / rad) ** 2))) * light;
        this.buf[3 * k] = col[0] * f;
        this.buf[3 * k + 1] = col[1] * f;
        this.buf[3 * k + 2] = col[2] * f;
      }
    }
  }

  /** 4:2:0 chroma (U, V before the 128 offset) of one 2×2 block of an RGB buffer, with vignetting. */
  private readonly uv: [number, number] = [0, 0];

  private chromaAt(src: Float32Array, i: number, j: number, out: [number, number] = [0, 0]): [number, number] {
    const { width, height } = this;
    let su = 0;
    let sv = 0;
    let n = 0;
    for (let dv = 0; dv < 2; dv++) {
      for (let du = 0; du < 2; du++) {
        const u = 2 * i + du;
        const v = 2 * j + dv;
        if (u >= width || v >= height) continue;
        const k = v * width + u;
        const g = this.vig[k]!;
        const r = src[3 * k]! * g;
        const gr = src[3 * k + 1]! * g;
        const b = src[3 * k + 2]! * g;
        su += -0.168736 * r - 0.331264 * gr + 0.5 * b;
        sv += 0.5 * r - 0.418688 * gr - 0.081312 * b;
        n += 1;
      }
    }
    out[0] = su / n;
    out[1] = sv / n;
    return out;
  }

  /**
   * Vignetting, sensor noise and 4:2:0. Pixels nothing was drawn over this frame come from
   * the background converted once; only the drawn spans are converted again.
   */
  private toFrame(width: number, height: number): Frame {
    const { cw, ch } = chromaSize(width, height);
    const y = new Uint8Array(width * height);
    const uu = new Uint8Array(cw * ch);
    const vv = new Uint8Array(cw * ch);
    const buf = this.buf;
    const noise = this.noiseTable;
    const { bgY, bgU, bgV, dirtyLo, dirtyHi } = this;
    let ni = (this.noiseSeed = (this.noiseSeed * 1103515245 + 12345) & 0xffff);
    for (let v = 0; v < height; v++) {
      const lo = dirtyLo[v]!;
      const hi = dirtyHi[v]!;
      const row = v * width;
      for (let u = 0; u < width; u++) {
        const k = row + u;
        ni = (ni + 40503) & 0xffff;
        let base: number;
        if (u >= lo && u <= hi) {
          const g = this.vig[k]!;
          base = (0.299 * buf[3 * k]! + 0.587 * buf[3 * k + 1]! + 0.114 * buf[3 * k + 2]!) * g;
        } else base = bgY[k]!;
        y[k] = clamp8(base + noise[ni]!);
      }
    }
    for (let j = 0; j < ch; j++) {
      const v0 = 2 * j;
      const v1 = Math.min(height - 1, v0 + 1);
      const lo = Math.min(dirtyLo[v0]!, dirtyLo[v1]!) >> 1;
      const hi = Math.max(dirtyHi[v0]!, dirtyHi[v1]!) >> 1;
      for (let i = 0; i < cw; i++) {
        const c = j * cw + i;
        let cu: number;
        let cv: number;
        if (i >= lo && i <= hi) {
          const uv = this.chromaAt(buf, i, j, this.uv);
          cu = uv[0];
          cv = uv[1];
        } else {
          cu = bgU[c]!;
          cv = bgV[c]!;
        }
        ni = (ni + 12289) & 0xffff;
        uu[c] = clamp8(128 + cu + 0.5 * noise[ni]!);
        vv[c] = clamp8(128 + cv + 0.5 * noise[(ni + 7) & 0xffff]!);
      }
    }
    // Next frame restores these spans.
    [this.prevLo, this.dirtyLo] = [this.dirtyLo, this.prevLo];
    [this.prevHi, this.dirtyHi] = [this.dirtyHi, this.prevHi];
    return { width, height, y, u: uu, v: vv };
  }
}

const SKITTLE_RGB: RGB = [238, 236, 228];
const scale = (c: RGB, f: number): RGB => [c[0] * f, c[1] * f, c[2] * f];
const clamp8 = (x: number) => (x < 0 ? 0 : x > 255 ? 255 : (x + 0.5) | 0);
const smooth = (x: number) => {
  const t = Math.max(0, Math.min(1, x));
  return t * t * (3 - 2 * t);
};

export function gauss(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
