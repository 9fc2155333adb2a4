/**
 * The last seconds of video for replay clips, bounded in memory: frames are kept at half
 * size (2×2 averaged, a quarter of the bytes) and, when the budget demands it, only every
 * k-th frame — so `seconds` of video always fit in `maxBytes`.
 */
export interface RingOptions {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  maxBytes: number;
}

export interface RingFrame {
  data: Uint8Array;
  t: number;
}

export class FrameRing {
  readonly width: number;
  readonly height: number;
  /** Frames per second kept. */
  readonly fps: number;
  private readonly every: number;
  private readonly capacity: number;
  private readonly frames: (RingFrame | null)[];
  private next = 0;
  private seen = 0;

  constructor(private readonly opts: RingOptions) {
    this.width = Math.max(2, Math.floor(opts.width / 4) * 2);
    this.height = Math.max(2, Math.floor(opts.height / 4) * 2);
    const bytes = this.width * this.height * 1.5;
    const want = Math.ceil(opts.seconds * opts.fps);
    const fit = Math.max(1, Math.floor(opts.maxBytes / bytes));
    this.every = Math.max(1, Math.ceil(want / fit));
    this.fps = opts.fps / this.every;
    this.capacity = Math.max(1, Math.ceil(want / this.every));
    this.frames = new Array(this.capacity).fill(null);
  }

  /** Bytes the ring holds at most. */
  get maxBytes(): number {
    return this.capacity * this.width * this.height * 1.5;
  }

  push(data: Uint8Array, t: number): void {
    if (this.seen++ % this.every !== 0) return;
    this.frames[this.next] = { data: halve(data, this.opts.width, this.opts.height, this.width, this.height), t };
    this.next = (this.next + 1) % this.capacity;
  }

  /** The frames kept, oldest first. */
  snapshot(): RingFrame[] {
    const out: RingFrame[] = [];
    for (let k = 0; k < this.capacity; k++) {
      const f = this.frames[(this.next + k) % this.capacity];
      if (f) out.push(f);
    }
    return out;
  }
}

/** yuv420p at half size: each output sample the mean of a 2×2 block, per plane. */
function halve(src: Uint8Array, w: number, h: number, ow: number, oh: number): Uint8Array {
  const out = new Uint8Array(ow * oh * 1.5);
  const cw = Math.ceil(w / 2);
  const ch = Math.ceil(h / 2);
  plane(src, 0, w, out, 0, ow, oh);
  plane(src, w * h, cw, out, ow * oh, ow / 2, oh / 2);
  plane(src, w * h + cw * ch, cw, out, ow * oh + (ow / 2) * (oh / 2), ow / 2, oh / 2);
  return out;
}

function plane(src: Uint8Array, at: number, stride: number, out: Uint8Array, to: number, ow: number, oh: number): void {
  for (let y = 0; y < oh; y++) {
    const r0 = at + 2 * y * stride;
    const r1 = r0 + stride;
    for (let x = 0; x < ow; x++) out[to + y * ow + x] = (src[r0 + 2 * x]! + src[r0 + 2 * x + 1]! + src[r1 + 2 * x]! + src[r1 + 2 * x + 1]! + 2) >> 2;
  }
}
