import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16 } from '../../firmware-bridge/crc16.ts';
import { FrameDecoder, FrameParser } from '../../firmware-bridge/decoder.ts';
import { encodeFrame } from '../../firmware-bridge/frame.ts';
import { decodeMessage, encodeBoardMessage, encodeCommand, ProtocolError, type BoardMessage } from '../../firmware-bridge/messages.ts';
import type { RawFrame } from '../../firmware-bridge/protocol.ts';

const byte = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });

const messageArb: fc.Arbitrary<BoardMessage> = fc.oneof(
  fc.record({ kind: fc.constant('impact' as const), seq: byte, channel: fc.integer({ min: 0, max: 6 }), amplitude: byte, boardUs: u32 }),
  fc.record({ kind: fc.constant('skittle' as const), seq: byte, index: fc.integer({ min: 0, max: 6 }), down: fc.boolean(), boardUs: u32 }),
  fc.record({ kind: fc.constant('vibration' as const), seq: byte, level: byte, boardUs: u32 }),
  fc.record({
    kind: fc.constant('heartbeat' as const), seq: byte, boardUs: u32, eventsDropped: u16, txDropped: u16, rxErrors: u16, loopMaxUs: u16,
    skittleMask: fc.integer({ min: 0, max: 0x7f }),
  }),
  fc.record({
    kind: fc.constant('hello' as const), seq: byte, protocol: byte,
    firmware: fc.tuple(byte, byte, byte).map((v) => v.join('.')), adcChannels: byte, skittles: byte, resetCause: byte, boardUs: u32,
  }),
  fc.record({ kind: fc.constant('ack' as const), seq: byte, command: byte, commandSeq: byte, status: fc.integer({ min: 0, max: 3 }) }),
);

function decodeAll(chunks: Buffer[]): { frames: RawFrame[]; dec: FrameDecoder } {
  const dec = new FrameDecoder();
  const frames: RawFrame[] = [];
  dec.on('data', (f: RawFrame) => frames.push(f));
  for (const c of chunks) dec.write(c);
  dec.end();
  return { frames, dec };
}

function messagesOf(frames: RawFrame[]): BoardMessage[] {
  const out: BoardMessage[] = [];
  for (const f of frames) {
    try {
      out.push(decodeMessage(f));
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
    }
  }
  return out;
}

/** Splits a buffer at arbitrary points, as a serial port delivers it. */
const splitArb = (buf: Buffer) =>
  fc.array(fc.integer({ min: 0, max: buf.length }), { maxLength: 6 }).map((cuts) => {
    const pts = [...new Set([0, ...cuts, buf.length])].sort((a, b) => a - b);
    return pts.slice(1).map((p, i) => buf.subarray(pts[i]!, p));
  });

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the catalogue check value', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x29b1);
  });
});

describe('frame decoder (property tests)', () => {
  it('encode -> decode round-trips any message sequence, however the bytes are chunked', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 20 }).chain((msgs) => {
        const wire = Buffer.concat(msgs.map(encodeBoardMessage));
        return fc.tuple(fc.constant(msgs), splitArb(wire));
      }), ([msgs, chunks]) => {
        const { frames, dec } = decodeAll(chunks);
        expect(messagesOf(frames)).toEqual(msgs);
        expect(dec.stats.badCrc + dec.stats.garbageBytes + dec.stats.truncatedBytes).toBe(0);
      }),
    );
  });

  it('the parser the bridge feeds gives the stream decoder\'s frames and counts, and keeps nothing of a chunk it was handed (a reused read buffer)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(messageArb, fc.uint8Array({ maxLength: 12 })), { maxLength: 12 }).chain((pairs) => {
        const wire = Buffer.concat(pairs.flatMap(([m, g]) => [encodeBoardMessage(m), Buffer.from(g)]));
        return splitArb(wire);
      }), (chunks) => {
        const expected = decodeAll(chunks.map((c) => Buffer.from(c)));
        const parser = new FrameParser();
        const frames: RawFrame[] = [];
        for (const chunk of chunks) {
          const reused = Buffer.from(chunk); // as a link's read buffer: overwritten once the call returns
          frames.push(...parser.feed(reused));
          reused.fill(0x55);
        }
        frames.push(...parser.feed(Buffer.alloc(0), true));
        expect(frames).toEqual(expected.frames);
        expect(parser.stats).toEqual(expected.dec.stats);
      }),
    );
  });

  it('garbage interleaved between frames never yields an invented message and loses none', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(messageArb, fc.uint8Array({ maxLength: 40 })), { maxLength: 12 }), fc.uint8Array({ maxLength: 40 }), (pairs, lead) => {
        const msgs = pairs.map(([m]) => m);
        const wire = Buffer.concat([Buffer.from(lead), ...pairs.flatMap(([m, g]) => [encodeBoardMessage(m), Buffer.from(g)])]);
        const got = messagesOf(decodeAll([wire]).frames);
        // Every decoded message is one that was sent, in order (subsequence)...
        let j = 0;
        for (const m of got) {
          while (j < msgs.length && JSON.stringify(msgs[j]) !== JSON.stringify(m)) j++;
          expect(j, `invented message ${JSON.stringify(m)}`).toBeLessThan(msgs.length);
          j++;
        }
        // ...and with the decoder rescanning after every bad candidate, none is lost.
        expect(got).toEqual(msgs);
      }),
      { numRuns: 300 },
    );
  });

  it('a single flipped bit anywhere never produces a wrong message; at most the hit frame is lost', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 8 }).chain((msgs) => {
          const wire = Buffer.concat(msgs.map(encodeBoardMessage));
          return fc.tuple(fc.constant(msgs), fc.constant(wire), fc.integer({ min: 0, max: wire.length * 8 - 1 }));
        }),
        ([msgs, wire, bit]) => {
          const bad = Buffer.from(wire);
          bad[bit >> 3]! ^= 1 << (bit & 7);
          const got = messagesOf(decodeAll([bad]).frames);
          const sent = msgs.map((m) => JSON.stringify(m));
          for (const m of got) expect(sent).toContain(JSON.stringify(m));
          expect(got.length).toBeGreaterThanOrEqual(msgs.length - 1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('truncated frames are counted, not delivered', () => {
    const f = encodeBoardMessage({ kind: 'impact', seq: 1, channel: 2, amplitude: 99, boardUs: 1234 });
    const { frames, dec } = decodeAll([f.subarray(0, 9)]);
    expect(frames).toHaveLength(0);
    expect(dec.stats.truncatedBytes + dec.stats.garbageBytes).toBe(9);
  });

  it('an oversized length byte is rejected at once and the next frame still decodes', () => {
    const good = encodeBoardMessage({ kind: 'vibration', seq: 3, level: 7, boardUs: 42 });
    const { frames, dec } = decodeAll([Buffer.from([0xa5, 0x5a, 200, 1, 2]), good]);
    expect(messagesOf(frames)).toEqual([{ kind: 'vibration', seq: 3, level: 7, boardUs: 42 }]);
    expect(dec.stats.badLength).toBe(1);
  });
});

describe('typed message decoding', () => {
  it('rejects CRC-valid frames with wrong length or values, with a clear error', () => {
    expect(() => decodeMessage({ type: 0x03, seq: 5, payload: Buffer.alloc(5) })).toThrow(/type 0x3 seq 5: payload is 5 bytes, expected 6/);
    expect(() => decodeMessage({ type: 0x03, seq: 5, payload: Buffer.from([7, 1, 0, 0, 0, 0]) })).toThrow(/impact channel 7 out of 0..6/);
    expect(() => decodeMessage({ type: 0x04, seq: 5, payload: Buffer.from([1, 2, 0, 0, 0, 0]) })).toThrow(/skittle state 2/);
    expect(() => decodeMessage({ type: 0x42, seq: 5, payload: Buffer.alloc(0) })).toThrow(/unknown board message type/);
    expect(() => decodeMessage({ type: 0x81, seq: 5, payload: Buffer.alloc(4) })).toThrow(/unknown board message type/);
  });
  it('command encoder validates arguments before anything reaches the wire', () => {
    expect(() => encodeCommand({ kind: 'set-channel', channel: 7, threshold: 1, refractoryMs: 1 }, 0)).toThrow(/channel must be an integer in 0..6/);
    expect(() => encodeCommand({ kind: 'set-channel', channel: 1, threshold: 256, refractoryMs: 1 }, 0)).toThrow(/threshold/);
    expect(() => encodeCommand({ kind: 'set-debounce', ms: 0 }, 0)).toThrow(/ms must be/);
    expect(() => encodeCommand({ kind: 'nope' } as never, 0)).toThrow(/unknown command "nope"/);
    expect(encodeCommand({ kind: 'get-version' }, 3)).toEqual(encodeFrame(0x82, 3));
    expect(() => encodeFrame(1, 256)).toThrow(/seq 256/);
  });
});
