import { EventEmitter } from 'node:events';

/**
 * One open link to a board: raw protocol bytes in both directions. Emits
 * 'data' (Buffer) and exactly one 'close' (Error | null: null when we closed it).
 */
export interface Connection extends EventEmitter {
  readonly description: string;
  write(data: Buffer): Promise<void>;
  close(): Promise<void>;
  /** Stops reading (backpressure): the bytes wait in the OS buffers, or at a TCP peer. Links without a stream of their own need not. */
  pause?(): void;
  /** Reads again after pause(). */
  resume?(): void;
}

/**
 * How the bridge reaches a board (injected, like node-serialport's binding). connect()
 * rejects when no board is reachable; the bridge retries with backoff.
 */
export interface Transport {
  readonly name: string;
  connect(): Promise<Connection>;
}

/**
 * What the stream-backed connections (serial, TCP) share: 'close' is reported once, and a
 * write after it is refused with the link's name rather than sent into the void.
 */
export abstract class StreamConnection extends EventEmitter implements Connection {
  protected closed = false;

  constructor(
    readonly description: string,
    private readonly send: (data: Buffer, done: (err?: Error | null) => void) => void,
  ) {
    super();
  }

  protected finish(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', err);
  }

  write(data: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`${this.description} is closed`));
      this.send(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  abstract close(): Promise<void>;
}
