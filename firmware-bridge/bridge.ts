import { EventEmitter, on } from 'node:events';
import { resolveBridgeOptions, type ResolvedOptions } from './bridge-options.ts';
import type { BridgeEvent, BridgeOptions, BridgeStats } from './bridge-types.ts';
import type { Command } from './messages.ts';
import { BoardSession } from './session.ts';
import type { Connection } from './transport.ts';

// The bridge's vocabulary lives in bridge-types.ts and its option checks in bridge-options.ts;
// re-exported so `firmware-bridge/bridge.ts` stays the one import callers need.
export type * from './bridge-types.ts';
export { resolveBridgeOptions } from './bridge-options.ts';

/**
 * Table board -> normalised sensor events. Construction only validates options;
 * start() connects (retrying with backoff), stop() closes everything.
 * Emits 'event' with every BridgeEvent and also each under its own type name.
 *
 * This class is the connection lifecycle (connect, backoff, silence timer, close); what the
 * bytes mean is the BoardSession's (session.ts), which does no I/O of its own.
 */
export class Bridge extends EventEmitter {
  private readonly o: ResolvedOptions;
  private conn: Connection | null = null;
  private running = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private silenceTimer: NodeJS.Timeout | null = null;
  private backoff = 0;
  private lastError: string | null = null;
  private readonly session: BoardSession;
  /** Input held (backpressure): no reading, and no silence read into it until silenceMs after it ends. */
  private held = false;
  private heardAgainFrom = -Infinity;

  constructor(options: BridgeOptions) {
    super();
    this.o = resolveBridgeOptions(options);
    this.session = new BoardSession(this.o, {
      now: () => this.o.clock(),
      emit: (ev) => this.out(ev),
      connected: () => this.conn !== null,
      write: (frame) => {
        if (!this.conn) return Promise.reject(new Error('bridge is not connected'));
        return this.conn.write(frame);
      },
    });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.backoff = this.o.reconnect.initialMs;
    if (this.o.silenceMs > 0) {
      this.silenceTimer = setInterval(() => this.checkSilence(), Math.max(10, this.o.silenceMs / 4));
      this.silenceTimer.unref?.();
    }
    await this.connectOnce();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.silenceTimer) clearInterval(this.silenceTimer);
    this.retryTimer = this.silenceTimer = null;
    const c = this.conn;
    this.conn = null;
    if (c) {
      c.removeAllListeners('data');
      await c.close().catch(() => undefined);
      this.session.disconnected('stopped');
    }
  }

  /** Sends a command; resolves when written. The reply arrives as a 'reply' event. */
  send(cmd: Command): Promise<number> {
    return this.session.send(cmd);
  }

  /**
   * New channel settings (a referee calibrating from the hardware page): validated, then
   * tracked like the configured ones: sent now if the board has said HELLO, and again
   * after every reset, until acknowledged.
   */
  setChannels(channels: ReadonlyArray<{ channel: number; threshold: number; refractoryMs: number }>): Promise<void> {
    return this.session.setChannels(channels);
  }

  /**
   * Holds the link's input (the hub is behind: backpressure) or reads it again. While held,
   * and for silenceMs after, the link is not reported silent: the board's frames wait in the
   * buffers below. A link (re)connected while held starts held.
   */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (held) this.conn?.pause?.();
    else {
      this.heardAgainFrom = this.o.clock();
      this.conn?.resume?.();
    }
  }

  stats(): BridgeStats {
    return { ...this.session.stats(), lastError: this.lastError };
  }

  /** Async iteration over every BridgeEvent (until the iterator is returned). */
  async *[Symbol.asyncIterator](): AsyncGenerator<BridgeEvent> {
    for await (const [ev] of on(this, 'event')) yield ev as BridgeEvent;
  }

  private out(ev: BridgeEvent): void {
    this.emit('event', ev);
    this.emit(ev.type, ev);
  }

  private async connectOnce(): Promise<void> {
    this.retryTimer = null;
    if (!this.running) return;
    let conn: Connection;
    try {
      conn = await this.o.transport.connect();
    } catch (err) {
      this.scheduleRetry((err as Error).message);
      return;
    }
    if (!this.running) {
      await conn.close().catch(() => undefined);
      return;
    }
    this.conn = conn;
    this.backoff = this.o.reconnect.initialMs;
    conn.on('data', (chunk: Buffer) => this.session.data(chunk));
    if (this.held) conn.pause?.();
    conn.once('close', (err: Error | null) => {
      if (this.conn !== conn) return;
      this.conn = null;
      const why = err ? `disconnected: ${err.message}` : 'closed';
      this.session.disconnected(why);
      this.scheduleRetry(why);
    });
    this.session.connected(conn.description);
  }

  private scheduleRetry(why: string): void {
    this.lastError = why;
    if (!this.running || this.retryTimer) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.o.reconnect.maxMs, this.backoff * this.o.reconnect.factor);
    this.retryTimer = setTimeout(() => void this.connectOnce(), wait);
  }

  private checkSilence(): void {
    if (!this.conn || this.held || this.o.clock() - this.heardAgainFrom < this.o.silenceMs) return;
    this.session.checkSilence(this.o.silenceMs);
  }
}
