import { SerialPortMock } from 'serialport';
import { describe, expect, it } from 'vitest';
import { settle, TrackedPortMock } from '../../hardware/avr-sim/serial-link.ts';
import { Bridge, type BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { FakeFirmataBoard } from '../../firmware-bridge/testing/fake-firmata.ts';
import { FirmataTransport, SoftDetector } from '../../firmware-bridge/transports/firmata.ts';

let n = 0;
const realWait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rig(johnnyFive: boolean, extra: { detectPins?: number[]; invertSwitches?: number; before?: (fake: FakeFirmataBoard) => void } = {}) {
  const path = `/dev/ttyFIRMATA${n++}`;
  SerialPortMock.binding.createPort(path, { record: true, vendorId: '1a86', productId: '7523' });
  let nowUs = 1_000_000;
  const transport = new FirmataTransport({
    SerialPort: TrackedPortMock, clockUs: () => nowUs, johnnyFive, threshold: 300, refractoryMs: 20, detectPins: extra.detectPins ?? [],
    usbIds: [{ vendorId: '1a86', productId: '7523' }], readyTimeoutMs: 3000,
  });
  const bridge = new Bridge({ transport, clock: () => nowUs / 1000, silenceMs: 0, baudRate: 57600, ...(extra.invertSwitches !== undefined ? { invertSwitches: extra.invertSwitches } : {}) });
  const events: BridgeEvent[] = [];
  bridge.on('event', (e: BridgeEvent) => events.push(e));
  const started = bridge.start();
  // Wait for the host to open the port and attach Firmata, then boot the fake.
  let fake: FakeFirmataBoard | null = null;
  for (let i = 0; i < 200 && !fake; i++) {
    await new Promise((r) => setTimeout(r, 2));
    const p = TrackedPortMock.latestOpen();
    if (p && p.listenerCount('data') > 0) fake = new FakeFirmataBoard(p);
  }
  if (!fake) throw new Error('host never opened the port');
  extra.before?.(fake);
  fake.boot();
  await started;
  await settle(5);
  return { bridge, events, fake, advance: (us: number) => (nowUs += us), now: () => nowUs };
}

describe.each([
  ['johnny-five Board over firmata-io', true],
  ['firmata-io directly', false],
])('StandardFirmata path: %s', (_name, johnnyFive) => {
  it('handshakes with a Firmata fake and turns analog/digital streams into events', async () => {
    const { bridge, events, fake, advance, now } = await rig(johnnyFive, { detectPins: [0, 1, 2, 3, 4, 5, 6] });
    expect(events.find((e) => e.type === 'board')).toMatchObject({ type: 'board', reason: 'hello', firmware: '0.2.5' });
    expect([...fake.reportedAnalog].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // A knock on A2: baseline, crossing, peak, decay (one sample per 2 ms).
    const tCross = now() + 4000; // the second sample (500) crosses 300
    for (const v of [10, 500, 800, 400, 100, 20]) {
      advance(2000);
      fake.analog(2, v);
      await settle(); // serial data reaches the host asynchronously
    }
    // Ball contact on A6, below then above threshold.
    advance(50_000);
    fake.analog(6, 250);
    await settle();
    advance(2000);
    const tClick = now();
    for (const v of [700, 650, 200, 30]) {
      fake.analog(6, v);
      await settle();
      advance(2000);
    }
    fake.digital(4, false); // skittle 2 down
    await realWait(40); // johnny-five's and our debounce run on the host's timers
    await settle(5);
    await bridge.stop();
    const hits = events.filter((e) => e.type === 'rail-hit');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ channel: 2, amplitude: 800 >> 2, boardUs: tCross });
    expect(events.filter((e) => e.type === 'click')).toMatchObject([{ amplitude: 700 >> 2, boardUs: tClick }]);
    expect(events.filter((e) => e.type === 'skittle')).toMatchObject([{ index: 2, state: 'down' }]);
  });

  it('switches bouncing for 5 ms give one skittle fall each; an inverted switch (set by the bridge) too', async () => {
    // Skittle 3's switch is inverted: its pin rests low while the skittle stands.
    const { bridge, events, fake } = await rig(johnnyFive, { invertSwitches: 1 << 3, before: (f) => f.digital(5, false) });
    await realWait(20);
    // The bridge pushed debounce and polarity after the HELLO; the Firmata layer applied and acknowledged them.
    expect(bridge.stats().settings).toMatchObject({ confirmed: 2, pending: 0 });
    await realWait(30);
    expect(events.filter((e) => e.type === "skittle"), JSON.stringify(events.filter((e) => e.type !== "heartbeat" && e.type !== "vibration"))).toHaveLength(0);
    // Skittles 0 and 1 fall with 5 ms of contact bounce; skittle 3 falls (its pin goes high), bouncing too.
    const bounce = async (pin: number, settle: boolean) => {
      for (let i = 0; i < 5; i++) {
        fake.digital(pin, i % 2 === 0 ? settle : !settle);
        await realWait(1);
      }
      fake.digital(pin, settle);
    };
    await Promise.all([bounce(2, false), bounce(3, false), bounce(5, true)]);
    await realWait(60);
    await bridge.stop();
    const falls = events.filter((e) => e.type === 'skittle');
    expect(falls.map((e) => e.type === 'skittle' && [e.index, e.state]).sort()).toEqual([
      [0, 'down'],
      [1, 'down'],
      [3, 'down'],
    ]);
  });
});

describe('software detector', () => {
  it('finds crossing, peak and honours the refractory period', () => {
    const d = new SoftDetector(100, 10_000, 2);
    const out = [50, 150, 300, 90, 200, 220, 40].map((v, i) => d.sample(v, i * 1000));
    expect(out.filter(Boolean)).toEqual([{ peak: 300, tUs: 1000 }]);
    expect(d.sample(500, 12_000)).toBeNull(); // re-armed after refractory: new crossing
  });
  it('rejects bad options naming them', () => {
    expect(() => new FirmataTransport({} as never)).toThrow(/"clockUs"/);
    expect(() => new FirmataTransport({ clockUs: () => 0, threshold: 5000 })).toThrow(/"threshold"/);
    expect(() => new FirmataTransport({ clockUs: () => 0, detectPins: [1, 99] })).toThrow(/"detectPins"/);
  });
});
