/**
 * A first-in first-out queue on a ring buffer: push and shift are O(1) amortised at any
 * length. Array.prototype.shift is not: past some thousands of entries V8 copies the array
 * on every call, so draining a backlog gets quadratically slower just when the hub is
 * furthest behind (issue 18: 36 % of a flood's CPU went there).
 *
 * `push`, `shift` and `length` have Array's meaning, so it stands in for an array used as a
 * queue (mqemitter's, see mq-emitter.ts).
 */
export class Fifo<T> {
  private slots: (T | undefined)[];
  private head = 0;
  private size = 0;
  /** Entries copied while growing or shrinking, in all: what an amortised-O(1) check counts. */
  moves = 0;

  constructor(capacity = 16) {
    this.slots = new Array<T | undefined>(powerOfTwoAtLeast(Math.max(2, capacity)));
  }

  get length(): number {
    return this.size;
  }

  push(item: T): number {
    if (this.size === this.slots.length) this.grow();
    this.slots[(this.head + this.size) & (this.slots.length - 1)] = item;
    this.size += 1;
    return this.size;
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined; // no reference kept: the message can be collected
    this.head = (this.head + 1) & (this.slots.length - 1);
    this.size -= 1;
    // After a flood, give the memory back: halve when a quarter full (still O(1) amortised).
    if (this.slots.length > MIN_SHRINK && this.size < this.slots.length / 4) this.resize(this.slots.length / 2);
    return item;
  }

  peek(): T | undefined {
    return this.size === 0 ? undefined : this.slots[this.head];
  }

  /** Empties the queue, returning what was in it, oldest first. */
  drain(): T[] {
    const out: T[] = [];
    while (this.size > 0) out.push(this.shift() as T);
    return out;
  }

  private grow(): void {
    this.resize(this.slots.length * 2);
  }

  /** A new ring of `capacity` slots, unrolled so the oldest entry is at 0 again. */
  private resize(capacity: number): void {
    const old = this.slots;
    const next = new Array<T | undefined>(capacity);
    for (let i = 0; i < this.size; i += 1) next[i] = old[(this.head + i) & (old.length - 1)];
    this.moves += this.size;
    this.slots = next;
    this.head = 0;
  }
}

/** Rings this small are never shrunk: not worth the copies. */
const MIN_SHRINK = 1024;

function powerOfTwoAtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
