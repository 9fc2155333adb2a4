/**
 * Wires a simulated board to the bridge through serialport 13's mock binding, the way
 * a USB serial adapter would: board TX bytes appear on the hub's port, the hub's writes
 * reach the board's RX pin. The simulation is advanced in small slices; after each
 * slice with output the event loop is allowed to run so the bridge sees the bytes at
 * (almost) the simulated moment they arrived.
 */
import { SerialPortMock } from 'serialport';
import type { TableSim } from './board.ts';

/** SerialPortMock that remembers its instances so a test can reach the binding. */
export class TrackedPortMock extends SerialPortMock {
  static readonly instances: TrackedPortMock[] = [];
  constructor(opts: ConstructorParameters<typeof SerialPortMock>[0]) {
    super(opts);
    TrackedPortMock.instances.push(this);
  }
  static latestOpen(): TrackedPortMock | undefined {
    return [...TrackedPortMock.instances].reverse().find((p) => p.isOpen);
  }
}

export const settle = async (rounds = 3): Promise<void> => {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
};

export class SimSerialLink {
  private pending: number[] = [];
  private hooked = new WeakSet<object>();
  /** Bytes the board sent while no port was open (lost, like on a real unplugged cable). */
  lostBytes = 0;
  /** Optional tap to corrupt/inject bytes on their way to the hub. */
  tamper: ((bytes: Buffer) => Buffer) | null = null;

  /** Hub-side microseconds accumulated by boards swapped out (keeps hub time monotonic). */
  private baseUs = 0;

  constructor(public sim: TableSim) {
    this.attach(sim, false);
  }

  /** Hub time in ms: continuous across board swaps. */
  get hubMs(): number {
    return (this.baseUs + this.sim.timeUs) / 1000;
  }

  /** Hub ms corresponding to a simulated time of the current board. */
  hubMsAt(simUs: number): number {
    return (this.baseUs + simUs) / 1000;
  }

  /** Swap in another board (a reset or a power cycle); the wire and hub time stay. */
  attach(sim: TableSim, swap = true): void {
    if (swap) this.baseUs += this.sim.timeUs;
    this.sim = sim;
    sim.onTransmit = (b) => this.pending.push(b);
  }

  /** Run simulated time, delivering the board's bytes as they appear. */
  async runUs(us: number, sliceUs = 100): Promise<void> {
    const end = this.sim.timeUs + us;
    while (this.sim.timeUs < end) {
      this.sim.runUntilUs(Math.min(end, this.sim.timeUs + sliceUs));
      if (this.pending.length) await this.flush();
    }
  }

  async flush(): Promise<void> {
    let bytes: Buffer = Buffer.from(this.pending);
    this.pending = [];
    if (this.tamper) bytes = this.tamper(bytes);
    this.deliver(bytes);
    await settle();
  }

  /** Bytes straight onto the hub's port (garbage injection etc.). */
  deliver(bytes: Buffer): void {
    const port = TrackedPortMock.latestOpen();
    if (!port) {
      this.lostBytes += bytes.length;
      return;
    }
    this.hook(port);
    port.port!.emitData(bytes);
  }

  /** Route the hub's writes on the open port to the board's RX pin. */
  private hook(port: TrackedPortMock): void {
    const binding = port.port!;
    if (this.hooked.has(binding)) return;
    this.hooked.add(binding);
    const write = binding.write.bind(binding);
    binding.write = async (buf: Buffer) => {
      this.sim.receive(buf);
      return write(buf);
    };
  }

  /** Call once after the bridge opened the port so command writes reach the board. */
  hookOpenPort(): void {
    const port = TrackedPortMock.latestOpen();
    if (port) this.hook(port);
  }
}
