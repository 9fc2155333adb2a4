/**
 * Frame buffers used again. A 1280×720 camera at 60 fps would otherwise allocate a fresh
 * 1.4 MB buffer sixty times a second, and the collector's work on them was a fifth of a camera
 * thread's time (CPU profile of `npm run bench:camera:hub`, 2026-12-05). Buffers come back when
 * nothing reads them any more; one the pool did not lend, or lends no more (`forget`), is
 * left to the collector, so giving back too much is harmless and giving back too early is the
 * only mistake to avoid.
 */
export class FramePool {
  private readonly free: ArrayBuffer[] = [];
  private readonly lent = new Set<ArrayBufferLike>();

  /** `bytes` per buffer; at most `keep` idle buffers are held. */
  constructor(
    readonly bytes: number,
    private readonly keep: number,
  ) {
    if (!(bytes > 0) || !Number.isInteger(bytes)) throw new Error(`frame pool: the buffer size must be a whole number of bytes > 0, not ${bytes}`);
  }

  /** A buffer of `bytes` (its old contents, when used again: the caller overwrites it). */
  take(): Uint8Array {
    const buffer = this.free.pop() ?? new ArrayBuffer(this.bytes);
    this.lent.add(buffer);
    return new Uint8Array(buffer);
  }

  /** Gives back the buffer under `view` (any view of it), once nothing reads it. */
  give(view: Uint8Array): void {
    const buffer = view.buffer;
    if (!this.lent.delete(buffer)) return;
    if (this.free.length < this.keep) this.free.push(buffer as ArrayBuffer);
  }

  /** The buffer under `view` may still be read by someone the pool cannot see: never lend it again. */
  forget(view: Uint8Array): void {
    this.lent.delete(view.buffer);
  }

  /** Buffers lent and not given back (for tests). */
  get outstanding(): number {
    return this.lent.size;
  }

  /** Idle buffers held. */
  get idle(): number {
    return this.free.length;
  }
}
