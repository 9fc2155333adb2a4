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
  /** Called as each port opens, before the bridge can write to it. */
  static onOpen: ((port: TrackedPortMock) => void) | null = null;
  constructor(opts: ConstructorParameters<typeof SerialPortMock>[0]) {
    super(opts);
    TrackedPortMock.instances.push(this);
    this.once('open', () => TrackedPortMock.onOpen?.(this));
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
  /** Optional tap on the hub's writes on their way to the board. */
  tamperToBoard: ((bytes: Buffer) => Buffer) | null = null;
  /** Every write from the hub: when (hub ms), and whether a bootloader ate it. */
  readonly writes: Array<{ hubMs: number; bytes: Buffer; eaten: boolean }> = [];
  /** Bootloader window left (us): the board is in reset, the hub's bytes are eaten. */
  private holdUs = 0;

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

  /**
   * The DTR reset of an Uno/Nano when the port opens: the board restarts into its
   * bootloader, which listens for `windowUs` (Optiboot ~1 s, the old Nano bootloader
   * ~2 s) and eats whatever the hub sends; then the sketch boots with a fresh TableSim.
   */
  holdInBootloader(windowUs: number, next: TableSim): void {
    this.attach(next);
    this.holdUs = windowUs;
  }

  get inBootloader(): boolean {
    return this.holdUs > 0;
  }

  /** Run simulated time, delivering the board's bytes as they appear. */
  async runUs(us: number, sliceUs = 100): Promise<void> {
    while (this.holdUs > 0 && us > 0) {
      const step = Math.min(this.holdUs, us, sliceUs * 10);
      this.holdUs -= step;
      this.baseUs += step;
      us -= step;
      await settle();
    }
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
      const bytes = this.tamperToBoard ? this.tamperToBoard(Buffer.from(buf)) : buf;
      const eaten = this.holdUs > 0;
      this.writes.push({ hubMs: this.hubMs, bytes: Buffer.from(bytes), eaten });
      if (!eaten) this.sim.receive(bytes);
      return write(buf);
    };
  }

  /** Routes the hub's writes to the board from the moment the next port opens. */
  hookOnOpen(): void {
    TrackedPortMock.onOpen = (port) => this.hook(port);
  }

  /** Call once after the bridge opened the port so command writes reach the board. */
  hookOpenPort(): void {
    const port = TrackedPortMock.latestOpen();
    if (port) this.hook(port);
  }
}
