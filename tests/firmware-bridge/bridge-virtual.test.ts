import { describe, expect, it, vi } from 'vitest';
import { Bridge, type BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { encodeFrame } from '../../firmware-bridge/frame.ts';
import { encodeBoardMessage, type BoardMessage } from '../../firmware-bridge/messages.ts';
import { VirtualTransport } from '../../firmware-bridge/transports/virtual.ts';

type NoSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;

/** A scripted board on the virtual transport, with the hub clock under test control. */
async function scripted() {
  const transport = new VirtualTransport();
  let hubMs = 5_000_000;
  const bridge = new Bridge({ transport, clock: () => hubMs, silenceMs: 0, baudRate: 115200 });
  const events: BridgeEvent[] = [];
  bridge.on('event', (e: BridgeEvent) => events.push(e));
  await bridge.start();
  let seq = 0;
  const send = (m: NoSeq<BoardMessage>) => {
    transport.toHub(encodeBoardMessage({ ...m, seq } as BoardMessage));
    seq = (seq + 1) & 0xff;
  };
  const hb = (boardUs: number, eventsDropped = 0) =>
    send({ kind: 'heartbeat', boardUs, eventsDropped, txDropped: 0, rxErrors: 0, loopMaxUs: 100, skittleMask: 0 });
  return { bridge, events, send, hb, transport, setHub: (ms: number) => (hubMs = ms), of: <T extends BridgeEvent['type']>(t: T) => events.filter((e): e is Extract<BridgeEvent, { type: T }> => e.type === t) };
}

describe('Bridge over a scripted board', () => {
  it('carries board time through the 32-bit wrap without calling it a reset', async () => {
    const s = await scripted();
    const start = 2 ** 32 - 600_000; // 0.6 s before the wrap
    // The hub joins a board that has been up for 71 minutes.
    for (let k = 0; k < 8; k++) {
      const boardUs = (start + k * 250_000) >>> 0;
      s.setHub(2000 + k * 250);
      s.hb(boardUs);
      if (k === 3) s.send({ kind: 'impact', channel: 1, amplitude: 50, boardUs: (boardUs - 5_000) >>> 0 });
    }
    await s.bridge.stop();
    const hbs = s.of('heartbeat');
    expect(s.bridge.stats().boardResets).toBe(0);
    expect(hbs.map((h) => h.boardUs - hbs[0]!.boardUs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((k) => k * 250_000));
    expect(hbs.at(-1)!.boardUs).toBeGreaterThan(2 ** 32);
    const hit = s.of('rail-hit')[0]!;
    expect(hit.boardUs).toBe(start + 750_000 - 5_000);
    expect(hit.boardUs).toBeGreaterThan(2 ** 32); // stamped after the wrap, unwrapped
    // Heartbeats "arrived" exactly at their board time; the bridge takes off their own
    // line time (20 bytes at 115200 baud = 1.736 ms).
    expect(hit.hubTime).toBeCloseTo(2000 + 750 - 5 - 1.736, 2);
  });

  it('turns board drop counters into dropped events (wrapping at 2^16) and rejects invalid frames', async () => {
    const s = await scripted();
    s.send({ kind: 'hello', protocol: 1, firmware: '1.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: 20 });
    s.hb(250_000, 65_530);
    s.hb(500_000, 4); // wrapped: 10 more lost
    s.transport.toHub(encodeFrame(0x03, 3, Buffer.from([1, 2, 3]))); // CRC fine, wrong length
    s.transport.toHub(encodeFrame(0x7e, 4, Buffer.alloc(0))); // unknown type
    await s.bridge.stop();
    const drops = s.of('dropped');
    expect(drops.filter((d) => d.source === 'board-queue').map((d) => d.count)).toEqual([65_530, 10]);
    const invalid = drops.filter((d) => d.source === 'invalid');
    expect(invalid.map((d) => d.detail)).toEqual([
      'frame type 0x3 seq 3: payload is 3 bytes, expected 6',
      'frame type 0x7e seq 4: unknown board message type',
    ]);
    expect(s.bridge.stats().dropped['seq-gap']).toBe(0);
  });

  it('ignores (and counts) everything from a board speaking another protocol version', async () => {
    const s = await scripted();
    s.send({ kind: 'hello', protocol: 3, firmware: '3.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: 20 });
    s.send({ kind: 'impact', channel: 1, amplitude: 50, boardUs: 1000 });
    s.hb(250_000);
    await s.bridge.stop();
    expect(s.of('board')[0]).toMatchObject({ compatible: false, protocol: 3, firmware: '3.0.0' });
    expect(s.of('rail-hit')).toHaveLength(0);
    expect(s.of('heartbeat')).toHaveLength(0);
    expect(s.bridge.stats().dropped.invalid).toBe(2);
    expect(s.of('dropped')[0]!.detail).toBe('board speaks protocol 3, this bridge 1 and 2');
  });

  it('joining a running board mid-stream does not blame it for drops before we connected', async () => {
    const s = await scripted();
    s.hb(90_000_000, 1234); // no hello: counters are history
    s.hb(90_250_000, 1236);
    await s.bridge.stop();
    expect(s.of('dropped').map((d) => [d.source, d.count])).toEqual([['board-queue', 2]]);
  });
});

describe('reconnect backoff', () => {
  it('retries a missing board with exponential backoff up to the cap, then resets it on success', async () => {
    vi.useFakeTimers();
    try {
      const transport = new VirtualTransport();
      transport.present = false;
      const attempts: number[] = [];
      const connect = transport.connect.bind(transport);
      transport.connect = () => {
        attempts.push(Date.now());
        return connect();
      };
      const t0 = Date.now();
      const bridge = new Bridge({ transport, clock: () => 0, silenceMs: 0, reconnect: { initialMs: 100, maxMs: 800, factor: 2 } });
      await bridge.start();
      await vi.advanceTimersByTimeAsync(3_200);
      expect(attempts.map((t) => t - t0)).toEqual([0, 100, 300, 700, 1500, 2300, 3100]);
      expect(bridge.stats().lastError).toBe('virtual board not present');
      transport.present = true;
      await vi.advanceTimersByTimeAsync(800);
      expect(bridge.stats().linkUp).toBe(true);
      transport.unplug();
      transport.replug();
      await vi.advanceTimersByTimeAsync(100); // back to the initial delay after a good connect
      expect(bridge.stats().connects).toBe(2);
      await bridge.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('protocol 2 sessions over a scripted board', () => {
  it('a first contact with a running board is a hello, not a reset; another boot id later is a reset', async () => {
    const { VirtualTransport } = await import('../../firmware-bridge/transports/virtual.ts');
    const { encodeBoardMessage } = await import('../../firmware-bridge/messages.ts');
    const { Bridge } = await import('../../firmware-bridge/bridge.ts');
    const transport = new VirtualTransport();
    let t = 0;
    const bridge = new Bridge({ transport, clock: () => t, silenceMs: 0 });
    const boards: Array<{ reason: string; detail: string }> = [];
    bridge.on('board', (e: { reason: string; detail: string }) => boards.push(e));
    await bridge.start();
    const hb = (seq: number, boardUs: number, bootId: number, usHigh = 1) =>
      transport.toHub(encodeBoardMessage({ kind: 'heartbeat', seq, boardUs, eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 0, skittleMask: 0, v2: { bootId, usHigh } }));
    // Up for more than 71.6 min (bits 32..47 = 1): we join mid-stream and ask who it is.
    hb(40, 5_000_000, 12);
    t = 250;
    transport.toHub(encodeBoardMessage({ kind: 'hello', seq: 41, protocol: 2, firmware: '2.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: 5_100_000, v2: { usHigh: 1, bootId: 12, atBoot: false, causeFromBootloader: false } }));
    hb(42, 5_250_000, 12);
    expect(bridge.stats().bootId).toBe(12);
    // A heartbeat of another boot (its HELLO lost): a reset, whatever the clock says.
    t = 500;
    hb(3, 5_500_000, 13);
    await bridge.stop();
    expect(boards.map((b) => [b.reason, b.detail])).toEqual([
      ['hello', 'hello on request'],
      ['reset', 'boot id changed'],
    ]);
    expect(bridge.stats().boardResets).toBe(1);
  });
});
