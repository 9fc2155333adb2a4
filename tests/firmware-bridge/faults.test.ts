import { SerialPortMock } from 'serialport';
import { describe, expect, it } from 'vitest';
import { piezoHit, TableSim } from '../../hardware/avr-sim/board.ts';
import { createSimRig, type SimRig } from '../../hardware/avr-sim/harness.ts';
import { settle, TrackedPortMock } from '../../hardware/avr-sim/serial-link.ts';
import { Bridge } from '../../firmware-bridge/bridge.ts';
import { encodeBoardMessage } from '../../firmware-bridge/messages.ts';
import { VirtualTransport } from '../../firmware-bridge/transports/virtual.ts';

/** Every rail hit must match a real impact (channel and time within 250 us). */
function expectNoInventedHits(rig: SimRig, impacts: Array<{ ch: number; t: number }>, sim = rig.sim): void {
  for (const h of rig.of('rail-hit')) {
    const match = impacts.find((i) => i.ch === h.channel && Math.abs(h.boardUs - sim.boardUsAt(i.t)) < 250);
    expect(match, `invented hit ${JSON.stringify(h)}`).toBeDefined();
  }
}

const realWait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bridge faults, with the real firmware behind a mock serial port', () => {
  it('survives garbage bytes and a truncated frame between real frames', async () => {
    const rig = await createSimRig();
    const impacts = [
      { ch: 1, t: 60_000 },
      { ch: 4, t: 140_000 },
    ];
    for (const i of impacts) rig.sim.setSignal(i.ch, piezoHit(i.t, 4));
    await rig.link.runUs(50_000);
    rig.link.deliver(Buffer.from('AT+GARBAGE\r\n\xa5\x5a\x06\x03', 'latin1'));
    rig.link.deliver(encodeBoardMessage({ kind: 'impact', seq: 9, channel: 2, amplitude: 9, boardUs: 1 }).subarray(0, 8));
    await rig.link.runUs(50_000);
    rig.link.deliver(Buffer.from([0xa5, 0xa5, 0x5a, 0xff, 0x00, 0x5a, 0xa5]));
    await rig.link.runUs(150_000);
    await rig.stop();
    expect(rig.of('rail-hit').map((h) => h.channel)).toEqual([1, 4]);
    expectNoInventedHits(rig, impacts);
    const st = rig.bridge.stats();
    expect(st.decoder.garbageBytes).toBeGreaterThan(10);
    expect(st.dropped.corrupt).toBeGreaterThan(0);
    expect(rig.of('dropped').filter((d) => d.source === 'corrupt').length).toBeGreaterThan(0);
  });

  it('flipped bits on the wire: nothing invented, every loss counted', async () => {
    const rig = await createSimRig();
    const impacts = [10_000, 40_000, 70_000, 100_000, 130_000, 160_000, 190_000, 220_000].map((t, k) => ({ ch: k % 6, t }));
    for (let ch = 0; ch < 6; ch++) {
      const mine = impacts.filter((i) => i.ch === ch).map((i) => piezoHit(i.t, 4));
      rig.sim.setSignal(ch, (t) => mine.reduce((v, f) => v + f(t), 0));
    }
    let n = 0;
    let flips = 0;
    rig.link.tamper = (bytes) => {
      const out = Buffer.from(bytes);
      for (let i = 0; i < out.length; i++) {
        if (++n % 37 === 0) {
          out[i]! ^= 1 << (n % 8);
          flips++;
        }
      }
      return out;
    };
    await rig.link.runUs(260_000);
    rig.link.tamper = null;
    await rig.link.runUs(120_000);
    await rig.stop();
    expect(flips).toBeGreaterThan(3);
    expectNoInventedHits(rig, impacts);
    const st = rig.bridge.stats();
    // Each corrupted frame is counted once: as corrupt when its remains arrived, else as a sequence gap.
    const lostFrames = st.dropped.corrupt + st.dropped['seq-gap'];
    expect(lostFrames).toBeGreaterThan(0);
    // Hits that got through are accurate; the others are accounted for as gaps.
    expect(rig.of('rail-hit').length + lostFrames).toBeGreaterThanOrEqual(impacts.length);
  });

  it('detects a board reset mid-stream (mid-frame), re-maps time, and keeps going', async () => {
    const rig = await createSimRig();
    rig.sim.setSignal(0, piezoHit(50_000, 4));
    await rig.link.runUs(120_000);
    // The board resets half-way through sending a frame.
    rig.link.deliver(encodeBoardMessage({ kind: 'heartbeat', seq: 77, boardUs: 5, eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 0, skittleMask: 0 }).subarray(0, 10));
    const second = new TableSim();
    rig.link.attach(second);
    second.setSignal(2, piezoHit(80_000, 4));
    await rig.link.runUs(300_000);
    await rig.stop();
    const boards = rig.of('board');
    expect(boards.map((b) => b.reason)).toEqual(['hello', 'reset']);
    expect(rig.bridge.stats().boardResets).toBe(1);
    const hits = rig.of('rail-hit');
    expect(hits.map((h) => h.channel)).toEqual([0, 2]);
    expect(hits[1]!.boardUs - second.boardUsAt(80_000)).toBeLessThan(250);
    expect(Math.abs(hits[1]!.hubTime - rig.link.hubMsAt(80_000))).toBeLessThan(1);
    expect(hits[1]!.hubTime).toBeGreaterThan(hits[0]!.hubTime);
  });

  it('a board reset whose hello is lost is seen from board time going backwards', async () => {
    const rig = await createSimRig();
    await rig.link.runUs(300_000);
    const second = new TableSim();
    rig.link.attach(second);
    await rig.link.runUs(2_000); // the hello goes out...
    rig.link.tamper = null;
    await rig.link.runUs(0);
    // ...and we drop everything the new board sent so far (the hello included).
    (rig.link as unknown as { pending: number[] }).pending = [];
    second.setSignal(3, piezoHit(100_000, 4));
    await rig.link.runUs(300_000);
    await rig.stop();
    const resets = rig.of('board').filter((b) => b.reason === 'reset');
    expect(resets.length).toBe(1);
    expect(resets[0]!.detail).toMatch(/backwards|far behind|hello/);
    const hit = rig.of('rail-hit')[0]!;
    expect(Math.abs(hit.hubTime - rig.link.hubMsAt(100_000))).toBeLessThan(2);
  });

  it('unplug and replug: link down with the reason, reconnect with backoff, board continues', async () => {
    const rig = await createSimRig();
    await rig.link.runUs(100_000);
    const port = TrackedPortMock.latestOpen()!;
    // The USB device disappears: the pending read fails and the device is gone from the list.
    SerialPortMock.binding.reset();
    (port.port as unknown as { pendingRead?: (e: Error) => void }).pendingRead?.(new Error('EIO: device unplugged'));
    await settle(5);
    expect(rig.of('link').at(-1)).toMatchObject({ state: 'down' });
    expect(rig.of('link').at(-1)!.reason).toMatch(/unplugged|disconnected/);
    await rig.link.runUs(300_000); // board keeps talking into the void
    expect(rig.link.lostBytes).toBeGreaterThan(0);
    await realWait(40); // a few failed reconnect attempts (device absent)
    expect(rig.bridge.stats().lastError).toMatch(/not exist|not found|unplugged/i);
    SerialPortMock.binding.createPort(rig.path, { record: true, vendorId: '2341', productId: '0043' });
    for (let i = 0; i < 50 && !rig.bridge.stats().linkUp; i++) await realWait(10);
    expect(rig.bridge.stats().linkUp).toBe(true);
    rig.link.hookOpenPort();
    rig.sim.setSignal(5, piezoHit(rig.sim.timeUs + 50_000, 4));
    const tHit = rig.sim.timeUs + 50_000;
    await rig.link.runUs(300_000);
    await rig.stop();
    const links = rig.of('link').map((l) => l.state);
    expect(links).toEqual(['up', 'down', 'up', 'down']);
    expect(rig.bridge.stats().connects).toBe(2);
    expect(rig.bridge.stats().dropped['seq-gap']).toBeGreaterThan(0); // frames lost while unplugged
    const hit = rig.of('rail-hit')[0]!;
    expect(hit.boardUs - rig.sim.boardUsAt(tHit)).toBeLessThan(250);
    expect(rig.of('board').filter((b) => b.reason === 'reset')).toHaveLength(0);
  });

  it('a flood of impacts: the board drops what the line cannot carry and says so', async () => {
    const rig = await createSimRig();
    await rig.link.runUs(2_000);
    for (let ch = 0; ch < 7; ch++) await rig.bridge.send({ kind: 'set-channel', channel: ch, threshold: 30, refractoryMs: 0 });
    await rig.link.runUs(5_000);
    const start = rig.sim.timeUs;
    // Every detector channel pulses: 1.3 ms up (the peak window), 0.3 ms down (re-arm).
    for (let ch = 0; ch < 7; ch++) rig.sim.setSignal(ch, (t) => (t > start && t < start + 150_000 && (t - start) % 1600 < 1300 ? 3 : 0), true);
    await rig.link.runUs(600_000);
    await rig.stop();
    const st = rig.bridge.stats();
    expect(st.dropped['board-queue']).toBeGreaterThan(100);
    expect(st.dropped.corrupt + st.dropped['seq-gap'] + st.dropped.invalid).toBe(0);
    expect(rig.of('heartbeat').length).toBeGreaterThanOrEqual(2); // status frames got through the flood
    expect(rig.of('board').map((b) => b.reason)).toEqual(['hello']); // the watchdog never bit
    const got = rig.of('rail-hit').length + rig.of('click').length;
    expect(got).toBeGreaterThan(100);
    for (const h of rig.of('rail-hit')) {
      expect(h.boardUs).toBeGreaterThanOrEqual(rig.sim.boardUsAt(start) - 1);
      expect(h.boardUs).toBeLessThan(rig.sim.boardUsAt(start + 150_000));
    }
  });
});

describe('Bridge options and lifecycle', () => {
  it('validates options at the boundary, naming the bad option', () => {
    const transport = new VirtualTransport();
    expect(() => new Bridge({} as never)).toThrow(/"transport"/);
    expect(() => new Bridge({ transport, clock: 5 as never })).toThrow(/"clock"/);
    expect(() => new Bridge({ transport, baudRate: -1 })).toThrow(/"baudRate"/);
    expect(() => new Bridge({ transport, reconnect: { initialMs: 100, maxMs: 10 } })).toThrow(/"reconnect.maxMs"/);
    expect(() => new Bridge({ transport, channels: [{ channel: 9, threshold: 1, refractoryMs: 1 }] })).toThrow(/"channels\[0\].channel"/);
    expect(() => new Bridge({ transport, channels: [{ channel: 1, threshold: 1.5, refractoryMs: 1 }] })).toThrow(/"channels\[0\].threshold"/);
  });

  it('has no side effects until start(), and stop() ends everything', async () => {
    const transport = new VirtualTransport();
    let t = 0;
    const bridge = new Bridge({ transport, clock: () => t, silenceMs: 0 });
    expect(transport.connects).toBe(0);
    await bridge.start();
    expect(transport.connects).toBe(1);
    t = 10;
    transport.toHub(encodeBoardMessage({ kind: 'hello', seq: 0, protocol: 1, firmware: '9.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: 100 }));
    transport.toHub(encodeBoardMessage({ kind: 'impact', seq: 1, channel: 6, amplitude: 77, boardUs: 5_100 }));
    const it = bridge[Symbol.asyncIterator]();
    const first = it.next(); // the generator subscribes on its first next()
    transport.toHub(encodeBoardMessage({ kind: 'skittle', seq: 3, index: 4, down: true, boardUs: 6_000 }));
    expect((await first).value).toMatchObject({ type: 'dropped', source: 'seq-gap', count: 1 });
    expect((await it.next()).value).toMatchObject({ type: 'skittle', index: 4, state: 'down', seq: 3, boardUs: 6_000 });
    await it.return?.(undefined);
    expect(bridge.stats().dropped['seq-gap']).toBe(1);
    await bridge.stop();
    await expect(bridge.send({ kind: 'get-version' })).rejects.toThrow(/not connected/);
  });

  it('reports a silent link down and back up when frames resume', async () => {
    const transport = new VirtualTransport();
    let t = 0;
    const bridge = new Bridge({ transport, clock: () => t, silenceMs: 40 });
    const links: string[] = [];
    bridge.on('link', (e: { state: string; reason: string }) => links.push(`${e.state}:${e.reason}`));
    await bridge.start();
    t = 100;
    await realWait(30);
    transport.toHub(encodeBoardMessage({ kind: 'vibration', seq: 0, level: 0, boardUs: 1 }));
    await bridge.stop();
    expect(links).toEqual(['up:connected virtual', 'down:silent: no valid frame', 'up:frames resumed', 'down:stopped']);
  });
});
