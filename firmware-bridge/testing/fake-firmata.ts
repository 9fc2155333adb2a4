/**
 * A Firmata-speaking fake board on serialport 13's mock binding: it answers the
 * StandardFirmata handshake (REPORT_VERSION, firmware name, CAPABILITY_RESPONSE,
 * ANALOG_MAPPING_RESPONSE) and then streams ANALOG_MESSAGE / DIGITAL_MESSAGE frames
 * that the test drives.
 */
import type { SerialPortMock } from 'serialport';

const REPORT_VERSION = 0xf9;
const START_SYSEX = 0xf0;
const END_SYSEX = 0xf7;
const QUERY_FIRMWARE = 0x79;
const CAPABILITY_QUERY = 0x6b;
const CAPABILITY_RESPONSE = 0x6c;
const ANALOG_MAPPING_QUERY = 0x69;
const ANALOG_MAPPING_RESPONSE = 0x6a;
const DIGITAL_PINS = 14;
const ANALOG_PINS = 8; // Nano: A0..A7 = pins 14..21

export class FakeFirmataBoard {
  readonly reportedAnalog = new Set<number>();
  readonly reportedPorts = new Set<number>();
  readonly received: number[] = [];
  private ports = [0xff, 0xff, 0xff]; // pull-ups: every input idles high
  private sysex: number[] | null = null;
  private pending: number[] = [];

  constructor(private readonly port: SerialPortMock) {
    const binding = port.port!;
    const write = binding.write.bind(binding);
    binding.write = async (buf: Buffer) => {
      for (const b of buf) this.onByte(b);
      return write(buf);
    };
  }

  /** What StandardFirmata prints at boot. */
  boot(): void {
    this.send([REPORT_VERSION, 2, 5]);
    this.send([START_SYSEX, QUERY_FIRMWARE, 2, 5, ...this.seven('StandardFirmata.ino'), END_SYSEX]);
  }

  analog(channel: number, value: number): void {
    if (!this.reportedAnalog.has(channel)) return; // not asked for: a real board stays quiet
    this.send([0xe0 | channel, value & 0x7f, (value >> 7) & 0x7f]);
  }

  digital(pin: number, high: boolean): void {
    const p = pin >> 3;
    if (high) this.ports[p]! |= 1 << (pin & 7);
    else this.ports[p]! &= ~(1 << (pin & 7));
    if (this.reportedPorts.has(p)) this.sendPort(p);
  }

  private sendPort(p: number): void {
    const v = this.ports[p]!;
    this.send([0x90 | p, v & 0x7f, (v >> 7) & 0x7f]);
  }

  private seven(s: string): number[] {
    return [...Buffer.from(s, 'ascii')].flatMap((c) => [c & 0x7f, (c >> 7) & 0x7f]);
  }

  private send(bytes: number[]): void {
    this.port.port!.emitData(Buffer.from(bytes));
  }

  private onByte(b: number): void {
    this.received.push(b);
    if (this.sysex) {
      if (b === END_SYSEX) {
        this.onSysex(this.sysex);
        this.sysex = null;
      } else this.sysex.push(b);
      return;
    }
    if (b === START_SYSEX) {
      this.sysex = [];
      return;
    }
    if (b === REPORT_VERSION) return this.send([REPORT_VERSION, 2, 5]);
    if (b & 0x80) this.pending = [b];
    else this.pending.push(b);
    const [cmd, a] = this.pending;
    if (cmd === undefined || a === undefined) return;
    const hi = cmd & 0xf0;
    if (hi === 0xc0) {
      if (a) this.reportedAnalog.add(cmd & 0x0f);
      else this.reportedAnalog.delete(cmd & 0x0f);
      this.pending = [];
    } else if (hi === 0xd0) {
      if (a) {
        this.reportedPorts.add(cmd & 0x0f);
        this.sendPort(cmd & 0x0f);
      } else this.reportedPorts.delete(cmd & 0x0f);
      this.pending = [];
    } else if (this.pending.length >= 3) {
      this.pending = []; // pin mode, digital write, analog write: accepted silently
    }
  }

  private onSysex(msg: number[]): void {
    switch (msg[0]) {
      case QUERY_FIRMWARE:
        this.send([START_SYSEX, QUERY_FIRMWARE, 2, 5, ...this.seven('StandardFirmata.ino'), END_SYSEX]);
        break;
      case CAPABILITY_QUERY: {
        const out = [START_SYSEX, CAPABILITY_RESPONSE];
        for (let pin = 0; pin < DIGITAL_PINS + ANALOG_PINS; pin++) {
          out.push(0x00, 1, 0x01, 1, 0x0b, 1); // input, output, pull-up
          if (pin >= DIGITAL_PINS) out.push(0x02, 10); // analog, 10 bits
          out.push(0x7f);
        }
        out.push(END_SYSEX);
        this.send(out);
        break;
      }
      case ANALOG_MAPPING_QUERY: {
        const out = [START_SYSEX, ANALOG_MAPPING_RESPONSE];
        for (let pin = 0; pin < DIGITAL_PINS + ANALOG_PINS; pin++) out.push(pin >= DIGITAL_PINS ? pin - DIGITAL_PINS : 0x7f);
        out.push(END_SYSEX);
        this.send(out);
        break;
      }
      default:
        break; // sampling interval and others need no answer
    }
  }
}
