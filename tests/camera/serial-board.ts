import { SerialPortMock } from 'serialport';
import type { Connection } from '../../firmware-bridge/transport.ts';
import { SerialTransport } from '../../firmware-bridge/transports/serial.ts';
import { TrackedPortMock } from '../../hardware/avr-sim/serial-link.ts';
import { VirtualBoard } from '../../hardware/simulator/virtual-board.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';

/**
 * A table board on a serialport mock port: the simulator's VirtualBoard (the firmware's
 * protocol: hello, heartbeats, impacts, clicks, vibration, tilt switches, acknowledged
 * settings) wired to the hub's end of a `SerialPortMock` the bridge opens by path. Its
 * clock is the hub's clock since `zeroMs`, so a sensor trace can be played at chosen hub
 * times: each impact is stamped with the board time it was meant for, however late the
 * timer that sends it fires (as the firmware stamps at the interrupt, not at sending).
 */
const boards = new Map<string, SerialMockBoard>();
TrackedPortMock.onOpen = (port) => boards.get(port.path)?.attach(port);

export class SerialMockBoard {
  readonly board: VirtualBoard;
  private stampUs: number | null = null;
  private link: Connection | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly path: string,
    private readonly nowMs: () => number,
    private readonly zeroMs: number,
  ) {
    this.board = new VirtualBoard(() => this.stampUs ?? (this.nowMs() - this.zeroMs) * 1000);
    SerialPortMock.binding.createPort(path);
    boards.set(path, this);
  }

  /** The transport a table's BridgeSource opens: this board's port. */
  transport(): SerialTransport {
    return new SerialTransport({ SerialPort: TrackedPortMock, path: this.path });
  }

  /** The bridge opened the port: the board powers up and its bytes flow both ways. */
  async attach(port: TrackedPortMock): Promise<void> {
    const link = await this.board.transport.connect();
    this.link = link;
    const binding = port.port!;
    link.on('data', (d: Buffer) => binding.isOpen && binding.emitData(d));
    const write = binding.write.bind(binding);
    binding.write = async (buf: Buffer) => {
      await link.write(Buffer.from(buf));
      return write(buf);
    };
    this.board.powerUp();
  }

  /**
   * Plays a shot's sensor trace: each true event at hub time `strikeAtMs + e.t` on the channel
   * the table's config gives it (rails: piezo channels; skittles: switch index; ball–ball:
   * the click channel), and the bed vibration every 100 ms as SimulatedTable plays it.
   */
  playShot(strikeAtMs: number, events: readonly ShotEvent[], durationMs: number, speeds: readonly (number | null)[], rails: ReadonlyMap<string, number>, skittles: ReadonlyMap<string, number>): void {
    for (let t = 0; t < durationMs; t += 100) {
      const level = t < durationMs - 700 ? 90 : Math.max(2, Math.round(40 * (1 - (t - durationMs + 700) / 700)));
      this.at(strikeAtMs + t, () => this.board.vibration(level));
    }
    this.at(strikeAtMs + durationMs, () => this.board.vibration(2));
    events.forEach((e, i) => {
      const when = strikeAtMs + (e.t ?? 0);
      const speed = speeds[i];
      const amplitude = speed == null ? 150 : Math.min(255, Math.max(40, Math.round(40 + speed / 20)));
      if (e.kind === 'cushion') {
        const channel = rails.get(e.rail);
        if (channel !== undefined) this.at(when, () => this.board.impact(channel, amplitude));
      } else if (e.kind === 'ball') this.at(when, () => this.board.click(amplitude));
      else if (e.kind === 'skittle') {
        const index = skittles.get(e.skittle);
        if (index !== undefined) {
          this.at(when, () => this.board.skittle(index, true));
          this.at(strikeAtMs + durationMs + 300, () => this.board.skittle(index, false)); // stood up again after the shot
        }
      }
    });
  }

  /** Runs `send` at hub time `hubMs`, its frame stamped with exactly that time. */
  private at(hubMs: number, send: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.stampUs = (hubMs - this.zeroMs) * 1000;
      try {
        send();
      } finally {
        this.stampUs = null;
      }
    }, Math.max(0, hubMs - this.nowMs()));
    this.timers.add(timer);
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.board.powerDown();
    await this.link?.close();
    boards.delete(this.path);
  }
}
