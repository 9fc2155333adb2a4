import { encodeBoardMessage, type BoardMessage } from '../../firmware-bridge/messages.ts';
import { CLICK_CHANNEL, PROTOCOL_VERSION } from '../../firmware-bridge/protocol.ts';
import { VirtualTransport } from '../../firmware-bridge/transports/virtual.ts';

type Unsequenced<T> = T extends unknown ? Omit<T, 'seq'> : never;

/**
 * A simulated table board speaking the real protocol (firmware-bridge/PROTOCOL.md) over the
 * virtual transport: hello at power-up, heartbeats, impacts, clicks, vibration and tilt
 * switches, each framed, sequenced and checksummed as the firmware does.
 */
export class VirtualBoard {
  readonly transport = new VirtualTransport();
  private seq = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private skittleMask = 0;

  /** `clockUs`: the board's microsecond clock (simulated time). */
  constructor(private readonly clockUs: () => number) {}

  powerUp(): void {
    this.send({ kind: 'hello', protocol: PROTOCOL_VERSION, firmware: 'sim-1.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: this.now() } as Unsequenced<BoardMessage>);
    this.heartbeat = setInterval(() => {
      this.send({ kind: 'heartbeat', boardUs: this.now(), eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 180, skittleMask: this.skittleMask });
    }, 250);
    this.heartbeat.unref();
  }

  powerDown(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Returns the board time the impact was stamped with. */
  impact(channel: number, amplitude: number): number {
    const boardUs = this.now();
    this.send({ kind: 'impact', channel, amplitude, boardUs });
    return boardUs;
  }

  click(amplitude: number): number {
    return this.impact(CLICK_CHANNEL, amplitude);
  }

  vibration(level: number): void {
    this.send({ kind: 'vibration', level, boardUs: this.now() });
  }

  skittle(index: number, down: boolean): void {
    this.skittleMask = down ? this.skittleMask | (1 << index) : this.skittleMask & ~(1 << index);
    this.send({ kind: 'skittle', index, down, boardUs: this.now() });
  }

  private now(): number {
    return Math.floor(this.clockUs()) >>> 0;
  }

  private send(message: Unsequenced<BoardMessage>): void {
    this.transport.toHub(encodeBoardMessage({ ...message, seq: this.seq } as BoardMessage));
    this.seq = (this.seq + 1) & 0xff;
  }
}
