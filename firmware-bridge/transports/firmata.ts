/**
 * Boards running StandardFirmata instead of the table firmware, for what Firmata can
 * carry: skittle tilt switches (digital pin changes) and the bed-vibration level. Piezo
 * rails cannot be scored this way: Firmata sends 3 bytes per analog sample, so 8 inputs
 * at a 2 ms sampling interval need 12 kB/s where 57,600 baud carries 5.76 kB/s, and 2 ms
 * sampling misses a 1 ms knock (the hub's config refuses rails on a Firmata board). The
 * software detector for analog inputs is kept for a `detectPins` opt-in (slow signals).
 *
 * With johnny-five (the default) the switches are johnny-five `Button`s (pull-up,
 * polarity by `invert`, its 7 ms debounce plus ours up to `debounceMs`) and the vibration
 * input is a `Sensor`. Events are re-encoded as protocol v1 frames, and the settings the
 * bridge pushes (debounce, switch polarity, channel thresholds) are applied here and
 * acknowledged. "Board time" is the hub's own microsecond clock at arrival.
 *
 * The serial port is serialport 13; firmata-io speaks Firmata over it; johnny-five
 * 2.1 (optional, default on) owns the board lifecycle with `io: new Firmata(port)`,
 * which avoids johnny-five's own serialport 8 dependency entirely.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { SerialPort } from 'serialport';
import { FrameParser } from '../decoder.ts';
import { encodeBoardMessage, type BoardMessage } from '../messages.ts';
import { AckStatus, CmdType, DETECT_CHANNELS, SKITTLES, type RawFrame } from '../protocol.ts';
import type { Connection, Transport } from '../transport.ts';
import { findPort, KNOWN_USB_IDS, type SerialPortClassLike, type SerialPortLike } from './serial.ts';

const require = createRequire(import.meta.url);

/** The part of firmata-io's Board used here. */
export interface FirmataBoardLike extends EventEmitter {
  MODES: { ANALOG: number; PULLUP: number; INPUT: number };
  firmware?: { version?: { major: number; minor: number } };
  analogRead(pin: number, cb: (value: number) => void): void;
  digitalRead(pin: number, cb: (value: number) => void): void;
  pinMode(pin: number, mode: number): void;
  setSamplingInterval(ms: number): void;
  analogPins: number[];
}
type FirmataCtor = new (port: unknown, opts?: Record<string, unknown>) => FirmataBoardLike;

export interface FirmataTransportOptions {
  path?: string;
  usbIds?: ReadonlyArray<{ vendorId: string; productId: string }>;
  /** StandardFirmata's default line rate. */
  baudRate?: number;
  SerialPort?: SerialPortClassLike;
  /** Wrap the Firmata IO in a johnny-five Board (lifecycle, its pin helpers). */
  johnnyFive?: boolean;
  /** Hub clock in microseconds: stands in for board time (injected). */
  clockUs: () => number;
  /** Analog inputs (A0..A7 numbers) of detector channels 0..6, opt-in (slow signals only). Default none. */
  detectPins?: number[];
  vibrationPin?: number | null;
  /** Digital pins of skittles 0..6 (pull-up, closed = down unless inverted). */
  skittlePins?: number[];
  /** A switch must hold a new level this long (ms) to count. Default 10; the bridge may set it. */
  debounceMs?: number;
  /** Switches that read high when down (bit i = skittle i). */
  invertSwitches?: number;
  /** 10-bit threshold per detector channel (Firmata reports 0..1023). */
  threshold?: number;
  refractoryMs?: number;
  samplingIntervalMs?: number;
  readyTimeoutMs?: number;
}

/** Per-channel crossing/peak/refractory detector fed by timestamped samples. */
export class SoftDetector {
  private state: 'idle' | 'peak' | 'refractory' = 'idle';
  private peak = 0;
  private left = 0;
  private tCross = 0;
  constructor(
    private readonly threshold: number,
    private readonly refractoryUs: number,
    private readonly peakSamples = 3,
  ) {}

  /** Returns a detected {peak, tUs} when the peak window closes. */
  sample(value: number, tUs: number): { peak: number; tUs: number } | null {
    if (this.state === 'refractory') {
      if (tUs - this.tCross < this.refractoryUs) return null;
      this.state = 'idle';
    }
    if (this.state === 'idle') {
      if (value < this.threshold) return null;
      this.state = 'peak';
      this.peak = value;
      this.tCross = tUs;
      this.left = this.peakSamples;
      return null;
    }
    this.peak = Math.max(this.peak, value);
    if (--this.left > 0) return null;
    this.state = 'refractory';
    return { peak: this.peak, tUs: this.tCross };
  }
}

/** The johnny-five classes used here. */
interface JohnnyFive {
  Board: new (opts: Record<string, unknown>) => EventEmitter;
  Button: new (opts: Record<string, unknown>) => EventEmitter & { invert: boolean };
  Sensor: new (opts: Record<string, unknown>) => EventEmitter;
}
/** johnny-five's Button waits this long (ms) after the last change before it reports. */
const J5_BUTTON_DEBOUNCE_MS = 7;

/**
 * One switch's debounce: a new level counts once it has held `debounceMs` since its
 * first sample; a bounce back starts over. Timers run on the host (Firmata has no board time).
 */
class SwitchDebouncer {
  private stable: boolean | null = null;
  private pending: { down: boolean; since: number; timer: NodeJS.Timeout } | null = null;
  constructor(
    private readonly commit: (down: boolean, sinceUs: number) => void,
    private readonly baseline: (down: boolean) => void,
  ) {}

  /** A reading (after polarity); `holdMs` is how much longer it must hold. The first one is the resting state. */
  level(down: boolean, nowUs: number, holdMs: number): void {
    if (this.stable === null) {
      this.stable = down;
      return this.baseline(down);
    }
    if (this.pending && this.pending.down === down) return;
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
    if (down === this.stable) return; // bounced back
    const since = nowUs;
    const done = () => {
      this.pending = null;
      this.stable = down;
      this.commit(down, since);
    };
    if (holdMs <= 0) return done();
    this.pending = { down, since, timer: setTimeout(done, holdMs) };
  }

  /** The resting state, if none is known yet. */
  seed(down: boolean): void {
    if (this.stable !== null) return;
    this.stable = down;
    this.baseline(down);
  }

  /** Polarity changed: the next reading (or `down`, when known) is the resting state, not an event. */
  rebase(down: boolean | null): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
    this.stable = down;
    if (down !== null) this.baseline(down);
  }

  stop(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
  }
}

class FirmataConnection extends EventEmitter implements Connection {
  private seq = 0;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];
  private vibMax = 0;
  private skittleMask = 0;
  private debounceMs: number;
  private invertMask: number;
  private readonly switches: Array<{ debouncer: SwitchDebouncer; raw: number | null; button: { invert: boolean } | null }> = [];
  private readonly detectors: Array<SoftDetector | null> = [];
  private readonly commands = new FrameParser();

  constructor(
    readonly description: string,
    private readonly port: SerialPortLike,
    private readonly o: Required<Omit<FirmataTransportOptions, 'path' | 'SerialPort' | 'usbIds'>>,
  ) {
    super();
    this.debounceMs = o.debounceMs;
    this.invertMask = o.invertSwitches;
    port.on('close', (err: Error | null) => this.finish(err ?? null));
    port.on('error', (err: Error) => this.finish(err));
  }

  start(io: FirmataBoardLike, five: { lib: JohnnyFive; board: EventEmitter } | null): void {
    const o = this.o;
    const v = io.firmware?.version;
    this.send({ kind: 'hello', seq: 0, protocol: 1, firmware: `0.${v?.major ?? 0}.${v?.minor ?? 0}`, adcChannels: io.analogPins.length & 0xff, skittles: SKITTLES, resetCause: 0, boardUs: this.now() });
    io.setSamplingInterval(o.samplingIntervalMs);
    o.detectPins.forEach((pin, ch) => {
      const det = new SoftDetector(o.threshold, o.refractoryMs * 1000);
      this.detectors[ch] = det;
      io.analogRead(pin, (value) => {
        const hit = this.detectors[ch]!.sample(value, this.now());
        // 10-bit Firmata values scaled to the 8-bit amplitude of protocol v1.
        if (hit) this.send({ kind: 'impact', seq: 0, channel: ch, amplitude: hit.peak >> 2, boardUs: hit.tUs });
      });
    });
    if (o.vibrationPin !== null) {
      if (five) {
        const sensor = new five.lib.Sensor({ pin: `A${o.vibrationPin}`, freq: 25, board: five.board });
        sensor.on('data', (value: number) => (this.vibMax = Math.max(this.vibMax, value >> 2)));
      } else io.analogRead(o.vibrationPin, (value) => (this.vibMax = Math.max(this.vibMax, value >> 2)));
    }
    o.skittlePins.forEach((pin, index) => {
      const bit = 1 << index;
      const debouncer = new SwitchDebouncer(
        (down, sinceUs) => {
          if (down === ((this.skittleMask & bit) !== 0)) return;
          this.skittleMask ^= bit;
          this.send({ kind: 'skittle', seq: 0, index, down, boardUs: sinceUs });
        },
        (down) => (this.skittleMask = down ? this.skittleMask | bit : this.skittleMask & ~bit),
      );
      if (five) {
        // Pull-up: a closed switch reads 0, which johnny-five calls "down" unless inverted.
        const button = new five.lib.Button({ pin, isPullup: true, invert: (this.invertMask & bit) === 0, board: five.board });
        this.switches[index] = { debouncer, raw: null, button };
        const report = (down: boolean) => debouncer.level(down, this.now() - J5_BUTTON_DEBOUNCE_MS * 1000, Math.max(0, this.debounceMs - J5_BUTTON_DEBOUNCE_MS));
        button.on('down', () => report(true));
        button.on('up', () => report(false));
        // johnny-five reports changes only: the raw pin gives the resting state.
        io.digitalRead(pin, (value) => {
          this.switches[index]!.raw = value;
          debouncer.seed((value === 0) !== ((this.invertMask & bit) !== 0));
        });
      } else {
        io.pinMode(pin, io.MODES.PULLUP);
        this.switches[index] = { debouncer, raw: null, button: null };
        io.digitalRead(pin, (value) => {
          this.switches[index]!.raw = value;
          debouncer.level((value === 0) !== ((this.invertMask & bit) !== 0), this.now(), this.debounceMs);
        });
      }
    });
    this.timers.push(setInterval(() => {
      this.send({ kind: 'vibration', seq: 0, level: this.vibMax, boardUs: this.now() });
      this.vibMax = 0;
    }, 100));
    this.timers.push(setInterval(() => this.send({ kind: 'heartbeat', seq: 0, boardUs: this.now(), eventsDropped: 0, txDropped: 0, rxErrors: 0, loopMaxUs: 0, skittleMask: this.skittleMask }), 250));
  }

  private now(): number {
    return Math.floor(this.o.clockUs()) >>> 0;
  }

  private send(m: BoardMessage): void {
    if (this.closed) return;
    m.seq = this.seq;
    this.seq = (this.seq + 1) & 0xff;
    this.emit('data', encodeBoardMessage(m));
  }

  private finish(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const s of this.switches) s?.debouncer.stop();
    this.emit('close', err);
  }

  /** Table-firmware commands, applied here: the settings that make sense for Firmata are acknowledged. */
  async write(data: Buffer): Promise<void> {
    if (this.closed) throw new Error(`${this.description} is closed`);
    for (const f of this.commands.feed(data)) this.command(f);
  }

  private command(f: RawFrame): void {
    const ack = (status: number) => this.send({ kind: 'ack', seq: 0, command: f.type, commandSeq: f.seq, status });
    const p = f.payload;
    switch (f.type) {
      case CmdType.SetDebounce:
        if (p.length !== 1 || p[0]! < 1 || p[0]! > 200) return ack(AckStatus.BadValue);
        this.debounceMs = p[0]!;
        return ack(AckStatus.Ok);
      case CmdType.SetInvert: {
        if (p.length !== 1 || p[0]! > 0x7f) return ack(AckStatus.BadValue);
        this.invertMask = p[0]!;
        this.switches.forEach((s, i) => {
          if (!s) return;
          const inverted = (this.invertMask & (1 << i)) !== 0;
          if (s.button) s.button.invert = !inverted;
          // The switch as it reads now is its resting state under the new polarity.
          // johnny-five re-reports only on a change: until then the level is unknown.
          s.debouncer.rebase(s.raw === null ? null : (s.raw === 0) !== inverted);
        });
        return ack(AckStatus.Ok);
      }
      case CmdType.SetChannel: {
        if (p.length !== 4) return ack(AckStatus.BadLength);
        const ch = p[0]!;
        if (ch >= DETECT_CHANNELS || p.readUInt16LE(2) > 7000) return ack(AckStatus.BadValue);
        // Without a detector on that channel (no piezo on Firmata) there is nothing to set.
        if (!this.detectors[ch]) return ack(AckStatus.Unknown);
        this.detectors[ch] = new SoftDetector(Math.max(1, p[1]! * 4), p.readUInt16LE(2) * 1000);
        return ack(AckStatus.Ok);
      }
      default:
        return ack(AckStatus.Unknown);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const t of this.timers) clearInterval(t);
    for (const s of this.switches) s?.debouncer.stop();
    this.closed = true;
    await new Promise<void>((r) => (this.port.isOpen ? this.port.close(() => r()) : r()));
    this.emit('close', null);
  }
}

export class FirmataTransport implements Transport {
  readonly name = 'firmata';
  private readonly o: Required<Omit<FirmataTransportOptions, 'path'>> & { path: string | undefined };

  constructor(opts: FirmataTransportOptions) {
    if (typeof opts?.clockUs !== 'function') throw new TypeError('FirmataTransport option "clockUs" must be a function returning microseconds');
    // No piezo channels unless asked for: Firmata cannot carry them (see the top of this file).
    const detectPins = opts.detectPins ?? [];
    if (!Array.isArray(detectPins) || detectPins.length > DETECT_CHANNELS || detectPins.some((p) => !Number.isInteger(p) || p < 0 || p > 15)) {
      throw new RangeError(`FirmataTransport option "detectPins" must list at most ${DETECT_CHANNELS} analog pin numbers 0..15`);
    }
    const skittlePins = opts.skittlePins ?? [2, 3, 4, 5, 6, 7, 8];
    const debounceMs = opts.debounceMs ?? 10;
    if (!Number.isInteger(debounceMs) || debounceMs < 1 || debounceMs > 200) throw new RangeError('FirmataTransport option "debounceMs" must be an integer in 1..200');
    const invertSwitches = opts.invertSwitches ?? 0;
    if (!Number.isInteger(invertSwitches) || invertSwitches < 0 || invertSwitches > 0x7f) throw new RangeError('FirmataTransport option "invertSwitches" must be a bit mask 0..127');
    if (!Array.isArray(skittlePins) || skittlePins.length > SKITTLES || skittlePins.some((p) => !Number.isInteger(p) || p < 2 || p > 69)) {
      throw new RangeError(`FirmataTransport option "skittlePins" must list at most ${SKITTLES} digital pins 2..69`);
    }
    const threshold = opts.threshold ?? 160;
    if (!Number.isInteger(threshold) || threshold < 1 || threshold > 1023) throw new RangeError('FirmataTransport option "threshold" must be an integer in 1..1023');
    const samplingIntervalMs = opts.samplingIntervalMs ?? 2;
    if (!Number.isInteger(samplingIntervalMs) || samplingIntervalMs < 1 || samplingIntervalMs > 1000) throw new RangeError('FirmataTransport option "samplingIntervalMs" must be an integer in 1..1000');
    this.o = {
      path: opts.path,
      usbIds: opts.usbIds ?? KNOWN_USB_IDS,
      baudRate: opts.baudRate ?? 57600,
      SerialPort: opts.SerialPort ?? SerialPort,
      johnnyFive: opts.johnnyFive ?? true,
      clockUs: opts.clockUs,
      detectPins,
      vibrationPin: opts.vibrationPin === undefined ? 7 : opts.vibrationPin,
      skittlePins,
      debounceMs,
      invertSwitches,
      threshold,
      refractoryMs: opts.refractoryMs ?? 30,
      samplingIntervalMs,
      readyTimeoutMs: opts.readyTimeoutMs ?? 10_000,
    };
  }

  async connect(): Promise<Connection> {
    const o = this.o;
    const path = o.path ?? findPort(await o.SerialPort.list(), o.usbIds);
    if (!path) throw new Error('no Firmata board found: no serial port with a known USB vendor/product id');
    const port = new o.SerialPort({ path, baudRate: o.baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    const Firmata = (require('firmata-io') as { Firmata: FirmataCtor }).Firmata;
    const io = new Firmata(port, { reportVersionTimeout: Math.min(o.readyTimeoutMs, 5000) });
    let five: { lib: JohnnyFive; board: EventEmitter } | null = null;
    try {
      if (o.johnnyFive) {
        const lib = require('johnny-five') as JohnnyFive;
        const board = new lib.Board({ io, repl: false, debug: false, sigint: false, timeout: o.readyTimeoutMs });
        five = { lib, board };
        // johnny-five waits for the IO's 'connect' (firmata-io emits it on the port's
        // 'open'), but a serialport 13 port we opened ourselves is open already.
        io.emit('connect');
        await waitReady(board, o.readyTimeoutMs, 'johnny-five Board');
      } else {
        await waitReady(io, o.readyTimeoutMs, 'Firmata');
      }
    } catch (err) {
      port.close(() => undefined);
      throw err;
    }
    const conn = new FirmataConnection(`firmata ${path}`, port, o);
    // Give the bridge a tick to attach its listeners before the hello goes out.
    setImmediate(() => conn.start(io, five));
    return conn;
  }
}

function waitReady(em: EventEmitter & { isReady?: boolean }, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (em.isReady) return resolve();
    const t = setTimeout(() => reject(new Error(`${what} not ready within ${ms} ms (no Firmata handshake)`)), ms);
    em.once('ready', () => {
      clearTimeout(t);
      resolve();
    });
    em.once('error', (e: Error) => {
      clearTimeout(t);
      reject(e);
    });
  });
}
