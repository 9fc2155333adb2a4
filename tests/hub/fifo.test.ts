import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Fifo } from '../../hub/mqtt/fifo.ts';
import { createMqEmitter, hasRingQueues } from '../../hub/mqtt/mq-emitter.ts';
import { startEmbeddedBroker } from '../../hub/mqtt/broker.ts';

/** A run of pushes (a value) and shifts (null). */
const operations = fc.array(fc.oneof(fc.integer(), fc.constant(null)), { maxLength: 2000 });

describe('the ring queue under the broker and the in-process client', () => {
  it('is first in, first out, like an array used as a queue, for any run of pushes and shifts', () => {
    fc.assert(
      fc.property(operations, fc.integer({ min: 1, max: 64 }), (ops, capacity) => {
        const fifo = new Fifo<number>(capacity);
        const model: number[] = [];
        for (const op of ops) {
          if (op === null) expect(fifo.shift()).toBe(model.shift());
          else expect(fifo.push(op)).toBe(model.push(op));
          expect(fifo.length).toBe(model.length);
          expect(fifo.peek()).toBe(model[0]);
        }
        expect(fifo.drain()).toEqual(model);
        expect(fifo.length).toBe(0);
      }),
    );
  });

  it('costs O(1) amortised per message: entries copied stay under a constant times those pushed, at any backlog', () => {
    fc.assert(
      fc.property(operations, (ops) => {
        const fifo = new Fifo<number>();
        let pushed = 0;
        for (const op of ops) if (op === null) fifo.shift();
        else (fifo.push(op), (pushed += 1));
        // Doubling copies at most n to reach n; halving at a quarter copies at most what was pushed since.
        expect(fifo.moves).toBeLessThanOrEqual(3 * pushed);
      }),
    );
    // A flood: 200k queued, then drained (Array.shift would copy ~n²/2 entries here).
    const fifo = new Fifo<number>();
    const n = 200_000;
    for (let i = 0; i < n; i += 1) fifo.push(i);
    let inOrder = 0;
    for (let i = 0; i < n; i += 1) if (fifo.shift() === i) inOrder += 1;
    expect(inOrder).toBe(n);
    expect(fifo.moves).toBeLessThanOrEqual(3 * n);
  });

  it('gives the memory back after a flood (shrinks to a small ring once drained)', () => {
    const fifo = new Fifo<number>();
    for (let i = 0; i < 100_000; i += 1) fifo.push(i);
    while (fifo.length > 0) fifo.shift();
    expect((fifo as unknown as { slots: unknown[] }).slots.length).toBeLessThanOrEqual(1024);
  });
});

describe("the broker's message bus (mqemitter with ring queues)", () => {
  it('has the O(1) queues in place (fails if an mqemitter upgrade keeps its queue otherwise)', () => {
    expect(hasRingQueues(createMqEmitter(100))).toBe(true);
  });

  it('delivers in order past its concurrency limit, with the backlog on the ring queue', async () => {
    const mq = createMqEmitter(4);
    const got: number[] = [];
    const held: (() => void)[] = [];
    mq.on('t/+', (message, done) => {
      got.push((message as { n: number }).n);
      held.push(done); // held: the rest queue up behind the limit
    });
    await new Promise((r) => setImmediate(r));
    for (let n = 0; n < 1000; n += 1) mq.emit({ topic: 't/x', n } as { topic: string });
    expect(mq.length).toBe(996);
    while (held.length > 0) held.shift()!();
    expect(got).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    expect(mq.length).toBe(0);
  });

  it('is the embedded broker\'s bus', async () => {
    const broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0, wsPort: null, baseTopic: 'billiards', users: [], allowAnonymousRead: true });
    try {
      const client = broker.client();
      const aedes = (client as unknown as { broker: { mq: Parameters<typeof hasRingQueues>[0] } }).broker;
      expect(hasRingQueues(aedes.mq)).toBe(true);
    } finally {
      await broker.close();
    }
  });
});
