/**
 * Boards running StandardFirmata instead of the table firmware. Firmata only streams
 * analog values (at its sampling interval, 1..19 ms) and digital pin changes, so the
 * threshold/peak/refractory detection runs here, and the result is re-encoded as
 * protocol v1 frames: the bridge downstream cannot tell the difference, except that
 * "board time" is the hub's own microsecond clock at arrival and timing is only as
 * good as the sampling interval plus USB latency (milliseconds, not microseconds).
 *
 * The serial port is serialport 13; firmata-io speaks Firmata over it; johnny-five
 * 2.1 (optional, default on) owns the board lifecycle with `io: new Firmata(port)`,
 * which avoids johnny-five's own serialport 8 dependency entirely.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { SerialPort } from 'serialport';
import { encodeBoardMessage, type BoardMessage } from '../messages.ts';
import { DETECT_CHANNELS, SKITTLES } from '../protocol.ts';
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
  /** Analog inputs (A0..A7 numbers) of detector channels 0..6: 6 rails + ball contact. */
  detectPins?: number[];
  vibrationPin?: number | null;
  /** Digital pins of skittles 0..6 (pull-up, closed = down). */
  skittlePins?: number[];
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

class FirmataConnection extends EventEmitter implements Connection {
  private seq = 0;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];
  private vibMax = 0;
  private skittleMask = 0;

  constructor(
    readonly description: string,
    private readonly port: SerialPortLike,
    private readonly o: Required<Omit<FirmataTransportOptions, 'path' | 'SerialPort' | 'usbIds'>>,
  ) {
    super();
    port.on('close', (err: Error | null) => this.finish(err ?? null));
    port.on('error', (err: Error) => this.finish(err));
  }

  start(io: FirmataBoardLike): void {
    const o = this.o;
    const v = io.firmware?.version;
    this.send({ kind: 'hello', seq: 0, protocol: 1, firmware: `0.${v?.major ?? 0}.${v?.minor ?? 0}`, adcChannels: io.analogPins.length & 0xff, skittles: SKITTLES, resetCause: 0, boardUs: this.now() });
    io.setSamplingInterval(o.samplingIntervalMs);
    o.detectPins.forEach((pin, ch) => {
      const det = new SoftDetector(o.threshold, o.refractoryMs * 1000);
      io.analogRead(pin, (value) => {
        const hit = det.sample(value, this.now());
        // 10-bit Firmata values scaled to the 8-bit amplitude of protocol v1.
        if (hit) this.send({ kind: 'impact', seq: 0, channel: ch, amplitude: hit.peak >> 2, boardUs: hit.tUs });
      });
    });
    if (o.vibrationPin !== null) io.analogRead(o.vibrationPin, (value) => (this.vibMax = Math.max(this.vibMax, value >> 2)));
    o.skittlePins.forEach((pin, index) => {
      io.pinMode(pin, io.MODES.PULLUP);
      io.digitalRead(pin, (value) => {
        const down = value === 0;
        const bit = 1 << index;
        if (down === ((this.skittleMask & bit) !== 0)) return;
        this.skittleMask ^= bit;
        this.send({ kind: 'skittle', seq: 0, index, down, boardUs: this.now() });
      });
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
    this.emit('close', err);
  }

  async write(_data: Buffer): Promise<void> {
    // Table-firmware commands have no Firmata equivalent; thresholds are set in options.
    if (this.closed) throw new Error(`${this.description} is closed`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const t of this.timers) clearInterval(t);
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
    const detectPins = opts.detectPins ?? [0, 1, 2, 3, 4, 5, 6];
    if (!Array.isArray(detectPins) || detectPins.length > DETECT_CHANNELS || detectPins.some((p) => !Number.isInteger(p) || p < 0 || p > 15)) {
      throw new RangeError(`FirmataTransport option "detectPins" must list at most ${DETECT_CHANNELS} analog pin numbers 0..15`);
    }
    const skittlePins = opts.skittlePins ?? [2, 3, 4, 5, 6, 7, 8];
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
      SerialPort: opts.SerialPort ?? (SerialPort as unknown as SerialPortClassLike),
      johnnyFive: opts.johnnyFive ?? true,
      clockUs: opts.clockUs,
      detectPins,
      vibrationPin: opts.vibrationPin === undefined ? 7 : opts.vibrationPin,
      skittlePins,
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
    try {
      if (o.johnnyFive) {
        const five = require('johnny-five') as { Board: new (opts: Record<string, unknown>) => EventEmitter };
        const board = new five.Board({ io, repl: false, debug: false, sigint: false, timeout: o.readyTimeoutMs });
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
    setImmediate(() => conn.start(io));
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
