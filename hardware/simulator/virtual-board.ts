import { FrameDecoder } from '../../firmware-bridge/decoder.ts';
import { encodeBoardMessage, type BoardMessage } from '../../firmware-bridge/messages.ts';
import { AckStatus, CLICK_CHANNEL, CmdType, PROTOCOL_VERSION, type RawFrame } from '../../firmware-bridge/protocol.ts';
import { VirtualTransport } from '../../firmware-bridge/transports/virtual.ts';

type Unsequenced<T> = T extends unknown ? Omit<T, 'seq'> : never;

/**
 * A simulated table board speaking the real protocol (firmware-bridge/PROTOCOL.md) over the
 * virtual transport: hello at power-up, heartbeats, impacts, clicks, vibration and tilt
 * switches, each framed, sequenced and checksummed as the firmware does (protocol 2: boot
 * id and 48-bit time in HELLO and HEARTBEAT). Settings commands are acknowledged, as the
 * firmware does, so the bridge sees them confirmed.
 */
export class VirtualBoard {
  readonly transport = new VirtualTransport();
  private seq = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private skittleMask = 0;
  private bootId = 0;
  private readonly commands = new FrameDecoder();

  /** `clockUs`: the board's microsecond clock (simulated time). */
  constructor(private readonly clockUs: () => number) {
    this.transport.onHubWrite = (data) => this.onCommands(data);
  }

  powerUp(): void {
    this.bootId = (this.bootId + 1) & 0xffff;
    this.hello(true);
    this.heartbeat = setInterval(() => {
      this.send({ kind: 'heartbeat', boardUs: this.now(), eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 180, skittleMask: this.skittleMask, v2: { bootId: this.bootId, usHigh: this.high() } });
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

  private hello(atBoot: boolean): void {
    this.send({ kind: 'hello', protocol: PROTOCOL_VERSION, firmware: 'sim-2.0.0', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: this.now(), v2: { usHigh: this.high(), bootId: this.bootId, atBoot, causeFromBootloader: false } });
  }

  private onCommands(data: Buffer): void {
    this.commands.write(data);
    let f: RawFrame | null;
    while ((f = this.commands.read() as RawFrame | null) !== null) {
      const { type, seq } = f;
      // Answered on the next turn, as a board answers after the command's line time.
      setImmediate(() => {
        if (type === CmdType.GetVersion) return this.hello(false);
        const known = type === CmdType.SetChannel || type === CmdType.SetDebounce || type === CmdType.SetInvert;
        this.send({ kind: 'ack', command: type, commandSeq: seq, status: known ? AckStatus.Ok : AckStatus.Unknown });
      });
    }
  }

  private now(): number {
    return Math.floor(this.clockUs()) >>> 0;
  }

  private high(): number {
    return Math.floor(Math.floor(this.clockUs()) / 2 ** 32) & 0xffff;
  }

  private send(message: Unsequenced<BoardMessage>): void {
    this.transport.toHub(encodeBoardMessage({ ...message, seq: this.seq } as BoardMessage));
    this.seq = (this.seq + 1) & 0xff;
  }
}
