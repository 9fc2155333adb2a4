/**
 * A minimal YUV4MPEG2 (`.y4m`) stream reader: 4:2:0 (`C420*` or no C tag) only, frame size
 * from the header. Kept alone in this file: issue 15's vision module has its own reader and
 * the two may become one.
 */
export interface Y4mHeader {
  width: number;
  height: number;
  fps: number;
}

export class Y4mReader {
  private buffer: Buffer = Buffer.alloc(0);
  header: Y4mHeader | null = null;
  private frameSize = 0;

  /** Feeds bytes; returns the whole frames they complete (each a copy of its planes). */
  push(chunk: Buffer): Uint8Array[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Uint8Array[] = [];
    if (!this.header) {
      const end = this.buffer.indexOf(0x0a);
      if (end < 0) {
        if (this.buffer.length > 1024) throw new Error('y4m: no header line in the first 1 KiB');
        return frames;
      }
      this.header = parseHeader(this.buffer.subarray(0, end).toString('latin1'));
      this.frameSize = this.header.width * this.header.height + 2 * Math.ceil(this.header.width / 2) * Math.ceil(this.header.height / 2);
      this.buffer = this.buffer.subarray(end + 1);
    }
    for (;;) {
      const end = this.buffer.indexOf(0x0a);
      if (end < 0) break;
      if (!this.buffer.subarray(0, 5).equals(FRAME)) throw new Error('y4m: a frame does not start with FRAME');
      if (this.buffer.length < end + 1 + this.frameSize) break;
      frames.push(new Uint8Array(this.buffer.subarray(end + 1, end + 1 + this.frameSize)));
      this.buffer = this.buffer.subarray(end + 1 + this.frameSize);
    }
    return frames;
  }
}

const FRAME = Buffer.from('FRAME');

export function parseHeader(line: string): Y4mHeader {
  const parts = line.split(' ');
  if (parts[0] !== 'YUV4MPEG2') throw new Error('y4m: not a YUV4MPEG2 stream');
  let width = 0;
  let height = 0;
  let fps = 0;
  for (const p of parts.slice(1)) {
    const tag = p[0];
    const value = p.slice(1);
    if (tag === 'W') width = Number(value);
    else if (tag === 'H') height = Number(value);
    else if (tag === 'F') {
      const [n, d] = value.split(':').map(Number);
      fps = n! / (d || 1);
    } else if (tag === 'C' && !value.startsWith('420')) throw new Error(`y4m: colour space C${value} is not 4:2:0`);
  }
  if (!(width > 0 && height > 0 && Number.isInteger(width) && Number.isInteger(height))) throw new Error('y4m: header without a valid W and H');
  if (!(fps > 0 && Number.isFinite(fps))) throw new Error('y4m: header without a valid frame rate F');
  return { width, height, fps };
}

/** Splits a raw yuv420p byte stream (ffmpeg `-f rawvideo`) into frames of a known size. */
export class RawFrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly frameSize: number) {
    if (!(frameSize > 0)) throw new Error('raw frames: the frame size must be > 0');
  }

  push(chunk: Buffer): Uint8Array[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: Uint8Array[] = [];
    while (this.pendingBytes >= this.frameSize) {
      const all = Buffer.concat(this.pending, this.pendingBytes);
      // One copy per frame into its own buffer, so it can be transferred or kept in the ring.
      const frame = new Uint8Array(this.frameSize);
      frame.set(all.subarray(0, this.frameSize));
      frames.push(frame);
      const rest = all.subarray(this.frameSize);
      this.pending = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
    }
    return frames;
  }
}
