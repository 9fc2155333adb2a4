import { connect as netConnect, type Socket } from 'node:net';
import { StreamConnection, type Connection, type Transport } from '../transport.ts';

export interface TcpTransportOptions {
  host: string;
  port: number;
  /** How long a connect may take before it counts as failed (the bridge then backs off). */
  connectTimeoutMs?: number;
}

/**
 * A board behind a serial-to-network server (ser2net in raw mode, ESP-Link, a Moxa NPort):
 * the same protocol bytes over a TCP stream. Useful where the hub cannot sit under the
 * table. A dropped connection is an unplug; the bridge reconnects with its backoff.
 */
export class TcpTransport implements Transport {
  readonly name = 'tcp';

  constructor(private readonly opts: TcpTransportOptions) {
    if (typeof opts.host !== 'string' || opts.host === '') throw new TypeError('TcpTransport option "host" must be a non-empty string');
    if (!Number.isInteger(opts.port) || opts.port < 1 || opts.port > 65535) throw new RangeError(`TcpTransport option "port" must be 1–65535, got ${String(opts.port)}`);
  }

  connect(): Promise<Connection> {
    const { host, port } = this.opts;
    return new Promise((resolve, reject) => {
      const socket = netConnect({ host, port, noDelay: true });
      socket.setTimeout(this.opts.connectTimeoutMs ?? 3000, () => socket.destroy(new Error(`tcp ${host}:${port}: connect timed out`)));
      const failed = (e: Error) => reject(new Error(`tcp ${host}:${port}: ${e.message}`));
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        socket.setTimeout(0);
        // A half-dead link (a power-cut bridge) shows up through keep-alive probes.
        socket.setKeepAlive(true, 5000);
        resolve(new TcpConnection(socket, `tcp ${host}:${port}`));
      });
    });
  }
}

class TcpConnection extends StreamConnection {
  private failure: Error | null = null;

  constructor(
    private readonly socket: Socket,
    description: string,
  ) {
    super(description, (data, done) => socket.write(data, done));
    socket.on('data', (d: Buffer) => this.emit('data', d));
    socket.on('error', (e: Error) => (this.failure ??= e));
    // The far end closing is an unplug, reported once as an error; our own close() reports null.
    socket.on('close', () => this.finish(this.failure ?? new Error(`${description}: connection closed by the far end`)));
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.finish(null);
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
      this.socket.destroySoon();
    });
  }
}
