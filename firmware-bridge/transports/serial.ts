import { EventEmitter } from 'node:events';
import { SerialPort } from 'serialport';
import { StreamConnection, type Connection, type Transport } from '../transport.ts';

/** USB ids of boards that run the table firmware (Uno/Nano and the usual bridges). */
export const KNOWN_USB_IDS: ReadonlyArray<{ vendorId: string; productId: string }> = [
  { vendorId: '2341', productId: '0043' }, // Arduino Uno R3 (16U2)
  { vendorId: '2341', productId: '0001' }, // Arduino Uno (8U2)
  { vendorId: '1a86', productId: '7523' }, // CH340 (most Nano clones)
  { vendorId: '0403', productId: '6001' }, // FTDI FT232R (original Nano)
];

export interface PortInfoLike {
  path: string;
  vendorId?: string | undefined;
  productId?: string | undefined;
  serialNumber?: string | undefined;
}

/** USB ids to look for; a serial number singles out one of several identical boards. */
export interface UsbMatch {
  vendorId: string;
  productId: string;
  serialNumber?: string;
}

/** The subset of serialport 13's SerialPort (and SerialPortMock) this transport uses. */
export interface SerialPortLike extends EventEmitter {
  open(cb: (err: Error | null) => void): void;
  write(data: Buffer, cb?: (err: Error | null | undefined) => void): boolean;
  drain(cb: (err: Error | null) => void): void;
  close(cb?: (err: Error | null) => void): void;
  pause(): unknown;
  resume(): unknown;
  readonly isOpen: boolean;
}
export interface SerialPortClassLike {
  new (opts: { path: string; baudRate: number; autoOpen: false }): SerialPortLike;
  list(): Promise<PortInfoLike[]>;
}

export interface SerialTransportOptions {
  /** Fixed device path; without it the port is found by USB id on every connect. */
  path?: string;
  usbIds?: ReadonlyArray<UsbMatch>;
  baudRate?: number;
  /** Injected port class: SerialPort (default) or SerialPortMock in tests. */
  SerialPort?: SerialPortClassLike;
}

/**
 * Picks the first listed port whose USB ids match (case-insensitive hex) and, where the
 * match names one, whose serial number is exactly that.
 */
export function findPort(ports: PortInfoLike[], ids: ReadonlyArray<UsbMatch>): string | null {
  for (const p of ports) {
    const v = p.vendorId?.toLowerCase();
    const d = p.productId?.toLowerCase();
    if (ids.some((id) => id.vendorId.toLowerCase() === v && id.productId.toLowerCase() === d && (id.serialNumber === undefined || id.serialNumber === p.serialNumber))) return p.path;
  }
  return null;
}

class SerialConnection extends StreamConnection {
  constructor(
    private readonly port: SerialPortLike,
    description: string,
  ) {
    super(description, (data, done) => port.write(data, done));
    port.on('data', (d: Buffer) => this.emit('data', d));
    // serialport reports an unplug as 'close' with a DisconnectedError; other I/O
    // failures arrive as 'error'. Either way the link is gone: report it once.
    port.on('close', (err: Error | null) => this.finish(err ?? null));
    port.on('error', (err: Error) => {
      this.finish(err);
      if (port.isOpen) port.close(() => undefined);
    });
  }

  pause(): void {
    this.port.pause();
  }

  resume(): void {
    this.port.resume();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.port.isOpen) {
        this.finish(null);
        return resolve();
      }
      this.closed = true; // a close we asked for is not a failure
      this.port.close(() => {
        this.emit('close', null);
        resolve();
      });
    });
  }
}

export class SerialTransport implements Transport {
  readonly name = 'serial';
  private readonly opts: Required<Omit<SerialTransportOptions, 'path'>> & { path: string | undefined };

  constructor(opts: SerialTransportOptions = {}) {
    if (opts.path !== undefined && (typeof opts.path !== 'string' || opts.path === '')) {
      throw new TypeError('SerialTransport option "path" must be a non-empty string');
    }
    const baudRate = opts.baudRate ?? 115200;
    if (!Number.isInteger(baudRate) || baudRate <= 0) throw new RangeError(`SerialTransport option "baudRate" must be a positive integer, got ${String(baudRate)}`);
    this.opts = {
      path: opts.path,
      usbIds: opts.usbIds ?? KNOWN_USB_IDS,
      baudRate,
      SerialPort: opts.SerialPort ?? SerialPort,
    };
  }

  async connect(): Promise<Connection> {
    const Port = this.opts.SerialPort;
    const path = this.opts.path ?? findPort(await Port.list(), this.opts.usbIds);
    if (!path) {
      const serials = this.opts.usbIds.flatMap((id) => (id.serialNumber ? [id.serialNumber] : []));
      throw new Error(`no table board found: no serial port with a known USB vendor/product id${serials.length ? ` and serial number ${serials.join(', ')}` : ''}`);
    }
    const port = new Port({ path, baudRate: this.opts.baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    return new SerialConnection(port, `serial ${path}`);
  }
}
