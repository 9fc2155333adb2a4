import { Transform, type TransformCallback } from 'node:stream';
import { crc16 } from './crc16.ts';
import { FRAME_OVERHEAD, MAX_PAYLOAD, SYNC0, SYNC1, type RawFrame } from './protocol.ts';

/** Everything the decoder threw away, cumulative since construction. */
export interface DecoderStats {
  /** Frames that passed the CRC. */
  frames: number;
  /** Bytes skipped while hunting for a sync pattern (garbage, or a frame's remains). */
  garbageBytes: number;
  /** Candidate frames whose CRC did not match. */
  badCrc: number;
  /** Candidate frames whose length byte exceeded MAX_PAYLOAD. */
  badLength: number;
  /** Bytes left in an incomplete frame when the stream ended or was reset. */
  truncatedBytes: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * Bytes in, RawFrame objects out, with no stream in between: the bridge feeds each chunk a
 * link reads and takes the frames it completed. Resynchronises after garbage by scanning for
 * SYNC0 SYNC1; after a bad CRC it skips one byte only, so a good frame that hid inside a
 * corrupted one is still found. A chunk is read where it lies (only an unfinished frame's
 * bytes are kept, copied): a stream's write and read per chunk and per frame, and a copy of
 * every chunk, cost 1.8 µs a frame, of about 25 on the hub thread in a flood (issue 18).
 */
export class FrameParser {
  private buf: Buffer = EMPTY;
  /** Refused candidates since the last good frame: each frame carries the count (RawFrame.corruptBefore). */
  private corruptSinceFrame = 0;
  readonly stats: DecoderStats = { frames: 0, garbageBytes: 0, badCrc: 0, badLength: 0, truncatedBytes: 0 };

  /**
   * The frames `chunk` completes, in order.
   * @param final at end of stream an incomplete candidate cannot complete: skip its
   *   sync byte and keep scanning the rest, so no good frame stays stuck behind it.
   */
  feed(chunk: Buffer, final = false): RawFrame[] {
    const buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const frames: RawFrame[] = [];
    let i = 0;
    for (;;) {
      // Hunt for SYNC0 SYNC1.
      let s = i;
      while (s < buf.length && !(buf[s] === SYNC0 && (s + 1 >= buf.length || buf[s + 1] === SYNC1))) s++;
      this.stats.garbageBytes += s - i;
      i = s;
      if (buf.length - i < 3) break;
      const len = buf[i + 2]!;
      if (len > MAX_PAYLOAD) {
        this.stats.badLength++;
        this.corruptSinceFrame++;
        this.stats.garbageBytes++;
        i++;
        continue;
      }
      const total = len + FRAME_OVERHEAD;
      if (buf.length - i < total) {
        if (!final) break;
        this.stats.garbageBytes++;
        i++;
        continue;
      }
      const crc = (buf[i + 5 + len]! << 8) | buf[i + 6 + len]!;
      if (crc16(buf, i + 2, i + 5 + len) !== crc) {
        this.stats.badCrc++;
        this.corruptSinceFrame++;
        this.stats.garbageBytes++;
        i++;
        continue;
      }
      // The payload is copied: the caller's chunk may be reused once this returns.
      frames.push({ type: buf[i + 3]!, seq: buf[i + 4]!, payload: Buffer.from(buf.subarray(i + 5, i + 5 + len)), corruptBefore: this.corruptSinceFrame });
      this.corruptSinceFrame = 0;
      this.stats.frames++;
      i += total;
    }
    if (final) {
      this.stats.truncatedBytes += buf.length - i;
      i = buf.length;
    }
    this.buf = i < buf.length ? Buffer.from(buf.subarray(i)) : EMPTY;
    return frames;
  }

  /** Drop a partial frame (e.g. the port was reopened); counted as truncated. */
  reset(): void {
    this.stats.truncatedBytes += this.buf.length;
    this.buf = EMPTY;
  }
}

/** The parser as a stream (node-serialport parser style): bytes in, RawFrame objects out. */
export class FrameDecoder extends Transform {
  private readonly parser = new FrameParser();

  constructor() {
    super({ readableObjectMode: true });
  }

  /** Everything the decoder threw away, cumulative since construction. */
  get stats(): DecoderStats {
    return this.parser.stats;
  }

  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    for (const frame of this.parser.feed(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk)) this.push(frame);
    done();
  }

  override _flush(done: TransformCallback): void {
    for (const frame of this.parser.feed(EMPTY, true)) this.push(frame);
    done();
  }

  /** Drop a partial frame (e.g. the port was reopened); counted as truncated. */
  reset(): void {
    this.parser.reset();
  }
}
