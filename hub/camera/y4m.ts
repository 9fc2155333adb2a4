import { Y4mReader as VisionY4mReader } from '../vision/y4m.ts';

/**
 * The camera thread's YUV4MPEG2 (`.y4m`) reader: the vision module's (hub/vision/y4m.ts),
 * frames as their I420 bytes. 4:2:0 only, frame size from the header.
 */
export interface Y4mHeader {
  width: number;
  height: number;
  fps: number;
}

export class Y4mReader {
  private readonly reader = new VisionY4mReader();

  get header(): Y4mHeader | null {
    const h = this.reader.header;
    return h && { width: h.width, height: h.height, fps: h.fpsNum / h.fpsDen };
  }

  /**
   * Feeds bytes; returns the whole frames they complete. A frame that lies inside one chunk is
   * a view of it, else one copy (at 720p the copy through a concatenated buffer was the camera
   * thread's largest cost, more than the detector's).
   */
  push(chunk: Uint8Array): Uint8Array[] {
    try {
      return this.reader.pushRaw(chunk);
    } catch (e) {
      throw new Error(`y4m: ${(e as Error).message}`);
    }
  }

  /** Bytes held for the next frame: while any are, the chunks they lie in are still read from. */
  get buffered(): number {
    return this.reader.buffered;
  }
}

/** Splits a raw yuv420p byte stream (ffmpeg `-f rawvideo`) into frames of a known size. */
export class RawFrameSplitter {
  /** The frame being filled, and how many of its bytes have come. */
  private frame: Uint8Array;
  private filled = 0;

  /** `allocate`: a buffer of `frameSize` bytes for each frame (a FramePool's, say); fresh ones by default. */
  constructor(
    private readonly frameSize: number,
    private readonly allocate: () => Uint8Array = () => new Uint8Array(frameSize),
  ) {
    if (!(frameSize > 0)) throw new Error('raw frames: the frame size must be > 0');
    this.frame = this.take();
  }

  private take(): Uint8Array {
    const frame = this.allocate();
    if (frame.length !== this.frameSize) throw new Error(`raw frames: a buffer of ${frame.length} bytes for frames of ${this.frameSize}`);
    return frame;
  }

  /** Each frame is copied once, straight from the chunks into its own buffer (no concatenation of what waits). */
  push(chunk: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(this.frameSize - this.filled, chunk.length - at);
      this.frame.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.frameSize) {
        frames.push(this.frame);
        this.frame = this.take();
        this.filled = 0;
      }
    }
    return frames;
  }
}
