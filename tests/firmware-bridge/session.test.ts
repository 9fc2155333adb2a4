import { describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../firmware-bridge/bridge-types.ts';
import { encodeBoardMessage } from '../../firmware-bridge/messages.ts';
import { BoardSession } from '../../firmware-bridge/session.ts';

/** A session with no port: frames in as buffers, events and written frames collected, time set by hand. */
function session(connected = true) {
  let now = 1_000;
  const events: BridgeEvent[] = [];
  const written: Buffer[] = [];
  const s = new BoardSession(
    { baudRate: 115200, channels: [{ channel: 1, threshold: 40, refractoryMs: 30 }], debounceMs: 10, invertSwitches: 0, settingsRetryMs: 500 },
    { now: () => now, emit: (e) => events.push(e), connected: () => connected, write: async (f) => void written.push(f) },
  );
  return { s, events, written, at: (ms: number) => (now = ms), types: () => events.map((e) => e.type) };
}

const hello = (seq: number, boardUs: number) => encodeBoardMessage({ kind: 'hello', seq, protocol: 1, firmware: '1.0.0', adcChannels: 6, skittles: 5, resetCause: 1, boardUs });
const hb = (seq: number, boardUs: number) => encodeBoardMessage({ kind: 'heartbeat', seq, boardUs, eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 100, skittleMask: 0 });
const impact = (seq: number, boardUs: number, channel = 2) => encodeBoardMessage({ kind: 'impact', seq, channel, amplitude: 80, boardUs });

describe('BoardSession (the bridge with no port)', () => {
  it('turns a hello, heartbeats and an impact into a link, board, heartbeat and rail-hit events, and pushes the settings after the hello', async () => {
    const t = session();
    t.s.connected('test port');
    t.s.data(Buffer.concat([hello(0, 1_000_000), hb(1, 1_250_000)]));
    t.at(1_300);
    t.s.data(impact(2, 1_290_000));
    await new Promise((r) => setImmediate(r)); // the settings push awaits each write
    expect(t.types()).toEqual(['link', 'board', 'heartbeat', 'rail-hit', 'board-settings']);
    const hit = t.events.find((e) => e.type === 'rail-hit');
    expect(hit).toMatchObject({ channel: 2, amplitude: 80, seq: 2, boardUs: 1_290_000 });
    // channel 1, debounce, switch polarity: three commands written, none acknowledged yet.
    expect(t.written).toHaveLength(3);
    expect(t.s.stats()).toMatchObject({ linkUp: true, connects: 1, frames: 3, events: 1, boardResets: 0, settings: { pending: 3, confirmed: 0 } });
  });

  it('counts a sequence gap and a corrupt frame as drops, never as events', () => {
    const t = session();
    t.s.connected('test port');
    const bad = hb(2, 1_500_000);
    bad[bad.length - 1]! ^= 0xff; // CRC broken
    t.s.data(Buffer.concat([hello(0, 1_000_000), hb(1, 1_250_000), bad, hb(5, 2_000_000)]));
    const dropped = t.events.filter((e) => e.type === 'dropped');
    expect(dropped.map((d) => d.type === 'dropped' && [d.source, d.count])).toEqual([
      ['corrupt', 1],
      ['seq-gap', 2],
    ]);
    expect(t.s.stats().dropped).toMatchObject({ corrupt: 1, 'seq-gap': 2 });
  });

  it('reports silence as the link going down and the next frame as it coming back', () => {
    const t = session();
    t.s.connected('test port');
    t.s.data(hello(0, 1_000_000));
    t.at(1_500);
    t.s.checkSilence(1000);
    expect(t.s.isLinkUp).toBe(true);
    t.at(2_100);
    t.s.checkSilence(1000);
    expect(t.s.isLinkUp).toBe(false);
    t.s.data(hb(1, 2_100_000));
    expect(t.events.filter((e) => e.type === 'link').map((e) => e.type === 'link' && e.reason)).toEqual(['connected test port', 'silent: no valid frame', 'frames resumed']);
  });

  it('refuses a command with no connection, and a bad one before anything is written', async () => {
    const off = session(false);
    await expect(off.s.send({ kind: 'get-version' })).rejects.toThrow('bridge is not connected');
    const on = session();
    await expect(on.s.send({ kind: 'set-debounce', ms: 0 })).rejects.toThrow(/ms must be an integer in 1..200/);
    expect(on.written).toHaveLength(0);
    expect(await on.s.send({ kind: 'get-version' })).toBe(0);
    expect(on.written).toHaveLength(1);
  });
});
