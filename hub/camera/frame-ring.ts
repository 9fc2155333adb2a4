/**
 * The last seconds of video for replay clips, bounded in memory: frames are kept at half
 * size (2×2 averaged, a quarter of the bytes), at most `maxFps` of them a second (a referee's
 * replay needs no more than 30: at 60 fps every other frame, half the camera thread's cost
 * here) and, when the budget demands it, only every k-th frame — so `seconds` of video always
 * fit in `maxBytes`.
 */
export interface RingOptions {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  maxBytes: number;
  /** Frames kept a second at most (default 30). */
  maxFps?: number;
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
    this.every = Math.max(1, Math.ceil(want / fit), Math.ceil(opts.fps / (opts.maxFps ?? 30)));
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
    // A slot's buffer is reused once the ring is full: no 0.3 MB allocation (and its collection) per frame.
    const slot = this.frames[this.next];
    const out = slot?.data ?? new Uint8Array(this.width * this.height * 1.5);
    halve(data, this.opts.width, this.opts.height, this.width, this.height, out);
    if (slot) slot.t = t;
    else this.frames[this.next] = { data: out, t };
    this.next = (this.next + 1) % this.capacity;
  }

  /** Copies of the frames kept, oldest first (the ring goes on overwriting its own). */
  snapshot(): RingFrame[] {
    const out: RingFrame[] = [];
    for (let k = 0; k < this.capacity; k++) {
      const f = this.frames[(this.next + k) % this.capacity];
      if (f) out.push({ data: f.data.slice(), t: f.t });
    }
    return out;
  }
}

/** yuv420p at half size into `out`: each output sample the mean of a 2×2 block, per plane. */
function halve(src: Uint8Array, w: number, h: number, ow: number, oh: number, out: Uint8Array): void {
  const cw = Math.ceil(w / 2);
  const ch = Math.ceil(h / 2);
  plane(src, 0, w, out, 0, ow, oh);
  plane(src, w * h, cw, out, ow * oh, ow / 2, oh / 2);
  plane(src, w * h + cw * ch, cw, out, ow * oh + (ow / 2) * (oh / 2), ow / 2, oh / 2);
}

function plane(src: Uint8Array, at: number, stride: number, out: Uint8Array, to: number, ow: number, oh: number): void {
  for (let y = 0; y < oh; y++) {
    let i0 = at + 2 * y * stride;
    let i1 = i0 + stride;
    let o = to + y * ow;
    const end = o + ow;
    for (; o < end; o++, i0 += 2, i1 += 2) out[o] = (src[i0]! + src[i0 + 1]! + src[i1]! + src[i1 + 1]! + 2) >> 2;
  }
}
