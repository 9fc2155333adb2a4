import { EventEmitter } from 'node:events';
import type { Connection, Transport } from '../transport.ts';

/**
 * In-memory link for simulators: the board side calls toHub(bytes) and receives the
 * hub's writes through onHubWrite. unplug() drops the link with an error, like a USB
 * disconnect; while `present` is false connect() fails, like a missing device.
 */
export class VirtualTransport implements Transport {
  readonly name = 'virtual';
  present = true;
  onHubWrite: ((data: Buffer) => void) | null = null;
  private conn: VirtualConnection | null = null;
  connects = 0;

  async connect(): Promise<Connection> {
    if (!this.present) throw new Error('virtual board not present');
    this.connects++;
    this.conn = new VirtualConnection((d) => this.onHubWrite?.(d));
    return this.conn;
  }

  /** Board -> hub bytes; dropped (like a real wire) when nothing is connected. */
  toHub(data: Uint8Array): void {
    this.conn?.deliver(Buffer.from(data));
  }

  unplug(reason = 'virtual unplug'): void {
    this.present = false;
    const c = this.conn;
    this.conn = null;
    c?.fail(new Error(reason));
  }

  replug(): void {
    this.present = true;
  }
}

class VirtualConnection extends EventEmitter implements Connection {
  readonly description = 'virtual';
  private open = true;
  constructor(private readonly sink: (d: Buffer) => void) {
    super();
  }
  deliver(d: Buffer): void {
    if (this.open) this.emit('data', d);
  }
  fail(err: Error): void {
    if (!this.open) return;
    this.open = false;
    this.emit('close', err);
  }
  async write(data: Buffer): Promise<void> {
    if (!this.open) throw new Error('virtual link is closed');
    this.sink(Buffer.from(data));
  }
  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.emit('close', null);
  }
}
