/**
 * A video frame in planar YUV 4:2:0 (I420, full-range BT.601 as our renderer writes it and
 * as cameras and ffmpeg's yuv420p deliver it): Y at full resolution, U and V at half
 * resolution in both directions (rounded up).
 */
export interface Frame {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

export const chromaSize = (width: number, height: number) => ({ cw: (width + 1) >> 1, ch: (height + 1) >> 1 });

export function frameBytes(width: number, height: number): number {
  const { cw, ch } = chromaSize(width, height);
  return width * height + 2 * cw * ch;
}

/** Views a contiguous I420 buffer as a frame (no copy). */
export function frameFromI420(width: number, height: number, data: Uint8Array): Frame {
  const { cw, ch } = chromaSize(width, height);
  const n = width * height;
  if (data.length < n + 2 * cw * ch) throw new Error(`frame needs ${n + 2 * cw * ch} bytes, got ${data.length}`);
  return { width, height, y: data.subarray(0, n), u: data.subarray(n, n + cw * ch), v: data.subarray(n + cw * ch, n + 2 * cw * ch) };
}

const clamp8 = (x: number) => (x < 0 ? 0 : x > 255 ? 255 : Math.round(x));

/** Interleaved RGB (or RGBA with stride 4, as a canvas gives) → I420, chroma averaged over 2×2. */
export function frameFromRgb(width: number, height: number, rgb: Uint8Array | Uint8ClampedArray, stride: 3 | 4 = 3): Frame {
  const { cw, ch } = chromaSize(width, height);
  const y = new Uint8Array(width * height);
  const u = new Uint8Array(cw * ch);
  const v = new Uint8Array(cw * ch);
  const su = new Float32Array(cw * ch);
  const sv = new Float32Array(cw * ch);
  const sn = new Uint8Array(cw * ch);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const o = (j * width + i) * stride;
      const r = rgb[o]!;
      const g = rgb[o + 1]!;
      const b = rgb[o + 2]!;
      y[j * width + i] = clamp8(0.299 * r + 0.587 * g + 0.114 * b);
      const c = (j >> 1) * cw + (i >> 1);
      su[c]! += -0.168736 * r - 0.331264 * g + 0.5 * b;
      sv[c]! += 0.5 * r - 0.418688 * g - 0.081312 * b;
      sn[c]! += 1;
    }
  }
  for (let c = 0; c < cw * ch; c++) {
    u[c] = clamp8(128 + su[c]! / sn[c]!);
    v[c] = clamp8(128 + sv[c]! / sn[c]!);
  }
  return { width, height, y, u, v };
}

/** I420 → interleaved RGB (for drawing overlays and writing pictures). */
export function frameToRgb(f: Frame): Uint8Array {
  const { cw } = chromaSize(f.width, f.height);
  const out = new Uint8Array(f.width * f.height * 3);
  for (let j = 0; j < f.height; j++) {
    for (let i = 0; i < f.width; i++) {
      const Y = f.y[j * f.width + i]!;
      const c = (j >> 1) * cw + (i >> 1);
      const U = f.u[c]! - 128;
      const V = f.v[c]! - 128;
      const o = (j * f.width + i) * 3;
      out[o] = clamp8(Y + 1.402 * V);
      out[o + 1] = clamp8(Y - 0.344136 * U - 0.714136 * V);
      out[o + 2] = clamp8(Y + 1.772 * U);
    }
  }
  return out;
}
