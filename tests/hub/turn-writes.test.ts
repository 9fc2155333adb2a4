import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writePerTurn } from '../../hub/mqtt/turn-writes.ts';

/** A socket stand-in that records each system call's worth of writes. */
function recordingStream() {
  const calls: string[][] = [];
  const stream = new Writable({
    writev(chunks, done) {
      calls.push(chunks.map((c) => String(c.chunk)));
      done();
    },
    write(chunk, _encoding, done) {
      calls.push([String(chunk)]);
      done();
    },
  });
  return { stream, calls };
}

/** How mqtt-packet writes one packet: corked until the next tick, in several pieces. */
function writePacket(stream: Writable, name: string): void {
  stream.cork();
  process.nextTick(() => stream.uncork());
  stream.write(`${name}:head`);
  stream.write(`${name}:body`);
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('writePerTurn: one write per turn of the event loop, nothing lost or reordered', () => {
  it('without it, each packet delivered in its own setImmediate is a write of its own', async () => {
    const { stream, calls } = recordingStream();
    for (const name of ['a', 'b', 'c']) setImmediate(() => writePacket(stream, name));
    await nextTurn();
    await nextTurn();
    expect(calls).toHaveLength(3);
  });

  it('with it, the packets of one turn go out in one write, in order', async () => {
    const { stream, calls } = recordingStream();
    writePerTurn(stream);
    for (const name of ['a', 'b', 'c']) setImmediate(() => writePacket(stream, name));
    await nextTurn();
    await nextTurn();
    expect(calls).toEqual([['a:head', 'a:body', 'b:head', 'b:body', 'c:head', 'c:body']]);
    // The next turn's packets: a write of their own, after the first.
    setImmediate(() => writePacket(stream, 'd'));
    await nextTurn();
    await nextTurn();
    expect(calls).toEqual([['a:head', 'a:body', 'b:head', 'b:body', 'c:head', 'c:body'], ['d:head', 'd:body']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('a packet written outside a delivery (a CONNACK from a callback) still goes out within a turn', async () => {
    const { stream, calls } = recordingStream();
    writePerTurn(stream);
    writePacket(stream, 'connack');
    await nextTurn();
    await nextTurn();
    expect(calls).toEqual([['connack:head', 'connack:body']]);
  });

  it('a turn that runs long holds the writes no longer than the next timers (before the next round of input)', async () => {
    const { stream, calls } = recordingStream();
    writePerTurn(stream);
    const seenByTimer = await new Promise<number>((resolve) => {
      setImmediate(() => {
        writePacket(stream, 'a');
        // A timer set after the writes: it runs in the next turn's timers phase, before its reads and immediates.
        setTimeout(() => resolve(calls.length), 0);
        const until = performance.now() + 3;
        while (performance.now() < until); // a long turn
      });
    });
    expect(seenByTimer).toBe(1);
    expect(calls).toEqual([['a:head', 'a:body']]);
  });

  it('a destroyed stream is not held', async () => {
    const { stream } = recordingStream();
    writePerTurn(stream);
    stream.destroy();
    stream.cork();
    expect(stream.writableCorked).toBe(1);
  });
});
