import { frameBytes, frameFromI420, type Frame } from './frame.ts';

/**
 * YUV4MPEG2 (.y4m), 4:2:0 only: what ffmpeg writes with `-f yuv4mpegpipe -pix_fmt yuv420p`
 * and what Chromium's fake camera reads. An incremental reader (chunks in, frames out) so
 * a file, a pipe or a browser stream can feed it without holding the video in memory.
 */
export interface Y4mHeader {
  width: number;
  height: number;
  /** Frames per second as a fraction. */
  fpsNum: number;
  fpsDen: number;
  /** The colour space tag as written (420, 420jpeg, 420mpeg2, 420paldv). */
  colour: string;
}

const MAGIC = 'YUV4MPEG2';
const NL = 0x0a;
const MAX_LINE = 1024;

export class Y4mError extends Error {}

export function parseY4mHeader(line: string): Y4mHeader {
  const parts = line.split(' ');
  if (parts[0] !== MAGIC) throw new Y4mError('not a YUV4MPEG2 stream (no "YUV4MPEG2" signature)');
  let width = 0;
  let height = 0;
  let fpsNum = 0;
  let fpsDen = 0;
  let colour = '420jpeg';
  for (const p of parts.slice(1)) {
    const key = p[0];
    const value = p.slice(1);
    if (key === 'W') width = Number(value);
    else if (key === 'H') height = Number(value);
    else if (key === 'F') {
      const m = /^(\d+):(\d+)$/.exec(value);
      if (!m) throw new Y4mError(`bad frame rate "${value}"`);
      fpsNum = Number(m[1]);
      fpsDen = Number(m[2]);
    } else if (key === 'C') colour = value;
    else if (key === 'I' && value !== 'p' && value !== '?') throw new Y4mError(`interlaced video (I${value}) is not supported`);
  }
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 || width > 16384 || height > 16384) throw new Y4mError(`bad frame size ${width}x${height} (W and H must be 1–16384)`);
  if (!(fpsNum > 0 && fpsDen > 0)) throw new Y4mError('missing or zero frame rate (F)');
  if (!colour.startsWith('420')) throw new Y4mError(`colour space C${colour} is not 4:2:0, the only one supported`);
  return { width, height, fpsNum, fpsDen, colour };
}

export function y4mHeaderText(h: Y4mHeader): string {
  return `${MAGIC} W${h.width} H${h.height} F${h.fpsNum}:${h.fpsDen} Ip A1:1 C${h.colour}\n`;
}

const encoder = new TextEncoder();
const FRAME_TAG = encoder.encode('FRAME\n');

export function encodeY4mHeader(h: Y4mHeader): Uint8Array {
  return encoder.encode(y4mHeaderText(h));
}

/** One frame with its "FRAME" line. */
export function encodeY4mFrame(f: Frame): Uint8Array {
  const n = frameBytes(f.width, f.height);
  const out = new Uint8Array(FRAME_TAG.length + n);
  out.set(FRAME_TAG, 0);
  let o = FRAME_TAG.length;
  out.set(f.y.subarray(0, f.width * f.height), o);
  o += f.width * f.height;
  out.set(f.u, o);
  o += f.u.length;
  out.set(f.v, o);
  return out;
}

const decoder = new TextDecoder('latin1');

/** Incremental reader: `push` chunks, get whole frames; `end` says whether the stream ended cleanly. */
export class Y4mReader {
  header: Y4mHeader | null = null;
  private queue = new ByteQueue();
  private frameSize = 0;
  /** The current frame's FRAME line has been read; its data is awaited. */
  private inFrame = false;
  frames = 0;

  /** Bytes read and not yet part of a frame handed out (the chunks they lie in are still read from). */
  get buffered(): number {
    return this.queue.length;
  }

  push(chunk: Uint8Array): Frame[] {
    return this.pushRaw(chunk).map((data) => frameFromI420(this.header!.width, this.header!.height, data));
  }

  /**
   * As `push`, each frame its I420 bytes in one array: a view of the chunk it came in when it
   * lies inside one (no copy), else one copy. Chunks are not written to afterwards.
   */
  pushRaw(chunk: Uint8Array): Uint8Array[] {
    this.queue.push(chunk);
    const out: Uint8Array[] = [];
    for (;;) {
      if (this.inFrame) {
        if (this.queue.length < this.frameSize) break;
        out.push(this.queue.take(this.frameSize));
        this.frames += 1;
        this.inFrame = false;
        continue;
      }
      const nl = this.queue.indexOf(NL, MAX_LINE);
      if (nl < 0) {
        if (this.queue.length > MAX_LINE) throw new Y4mError(this.header ? `frame ${this.frames + 1}: no FRAME line` : 'header line too long or missing');
        break;
      }
      const line = decoder.decode(this.queue.take(nl + 1)).slice(0, -1);
      if (!this.header) {
        this.header = parseY4mHeader(line);
        this.frameSize = frameBytes(this.header.width, this.header.height);
        continue;
      }
      if (line !== 'FRAME' && !line.startsWith('FRAME ')) throw new Y4mError(`frame ${this.frames + 1}: expected "FRAME", found "${line.slice(0, 16)}"`);
      this.inFrame = true;
    }
    return out;
  }

  /** Throws when the stream stopped inside a frame or before any header. */
  end(): void {
    if (!this.header) throw new Y4mError('empty stream: no YUV4MPEG2 header');
    if (this.inFrame || this.queue.length > 0) throw new Y4mError(`truncated: the stream ends inside frame ${this.frames + 1}`);
  }
}

/** Chunks in arrival order, read from the front without copying more than is taken. */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  private head = 0;
  length = 0;

  push(c: Uint8Array): void {
    if (c.length === 0) return;
    this.chunks.push(c);
    this.length += c.length;
  }

  /** Offset of the first `byte` within the first `limit` bytes, or −1. */
  indexOf(byte: number, limit: number): number {
    let seen = 0;
    for (let k = 0; k < this.chunks.length && seen < limit; k++) {
      const c = this.chunks[k]!;
      const from = k === 0 ? this.head : 0;
      const i = c.indexOf(byte, from);
      if (i >= 0 && seen + i - from < limit) return seen + i - from;
      seen += c.length - from;
    }
    return -1;
  }

  /** The next n bytes: a view of the first chunk when they lie in it, else a copy. */
  take(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length - this.head >= n) return this.front(n);
    const out = new Uint8Array(n);
    for (let o = 0; o < n; ) {
      const part = this.front(Math.min(n - o, this.chunks[0]!.length - this.head));
      out.set(part, o);
      o += part.length;
    }
    return out;
  }

  /** The next m bytes of the first chunk (m at most what is left of it), as a view. */
  private front(m: number): Uint8Array {
    const c = this.chunks[0]!;
    const view = c.subarray(this.head, this.head + m);
    this.head += m;
    this.length -= m;
    if (this.head === c.length) {
      this.chunks.shift();
      this.head = 0;
    }
    return view;
  }
}
