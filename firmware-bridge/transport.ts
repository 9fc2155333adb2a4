import type { EventEmitter } from 'node:events';

/**
 * One open link to a board: raw protocol bytes in both directions. Emits
 * 'data' (Buffer) and exactly one 'close' (Error | null: null when we closed it).
 */
export interface Connection extends EventEmitter {
  readonly description: string;
  write(data: Buffer): Promise<void>;
  close(): Promise<void>;
}

/**
 * How the bridge reaches a board (injected, like node-serialport's binding). connect()
 * rejects when no board is reachable; the bridge retries with backoff.
 */
export interface Transport {
  readonly name: string;
  connect(): Promise<Connection>;
}
