import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TableEvent } from '../hub/contract/mqtt.ts';
import type { TableStore } from './store.ts';
import { shed } from '../hub/ops/shed.ts';

/**
 * A live view gets at most one `state` per table per this many ms: under a flood every
 * status frame changes a table, and a page cannot show 500 states a second anyway. The
 * first change goes out at once; the later ones in the window fold into one, sent at its
 * end with the newest state. `table-event` messages (hits, shots) are never folded.
 */
export const SSE_STATE_EVERY_MS = 80;

/** Open SSE streams, so stop() can end them. */
export class StreamRegistry {
  private readonly closers = new Set<() => void>();
  closeAll(): void {
    for (const close of [...this.closers]) close();
    this.closers.clear();
  }
  add(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }
}

export interface SseSpec {
  store: TableStore;
  registry: StreamRegistry;
  /** Only this table, or every table. */
  table: string | null;
  /** The payload of a `state` message for a table (JSON-serialisable). */
  payload: (table: string) => unknown;
  /** Re-send every this many ms even without a change (relative times on the page). */
  refreshMs?: number;
  /** The payload covers every table at once: send it once, not once per table. */
  whole?: boolean;
  /**
   * Which `table-event` messages go out: `all` (the default; the hardware page and tools),
   * `no-status` (the status frames, vibration, left out: a rendered table view, which draws
   * states, still gets hits, clicks, skittles, links and shots), or `none` (the venue
   * overview draws states only; following every table's stream would decode and send
   * thousands of events a second it never reads).
   */
  tableEvents?: 'all' | 'no-status' | 'none';
}

/** A stream of `state` messages on every change and `table-event` messages as they arrive. */
export function sseStream(c: Context, spec: SseSpec): Response {
  return streamSSE(c, async (stream) => {
    let closed = false;
    // Messages of one turn go out in one write: a flood delivers hundreds per turn, and each
    // write is a promise, a web-stream chunk and a socket write of its own (issue 18).
    let pending = '';
    const flush = () => {
      const text = pending;
      pending = '';
      if (!closed && text !== '') stream.write(text).catch(() => undefined);
    };
    const send = (event: string, data: unknown) => {
      if (closed) return;
      if (pending === '') process.nextTick(flush);
      pending += sseMessage(event, JSON.stringify(data));
    };
    const sendState = (table: string) => send('state', spec.payload(table));
    const coalesce = new Coalescer(SSE_STATE_EVERY_MS, sendState);
    const onChange = (table: string) => {
      if (spec.table === null && !spec.whole && table === '') return;
      // A whole-venue payload covers every table: one key for all of them.
      if (spec.table === null || spec.table === table) coalesce.change(spec.whole ? (spec.table ?? '') : table);
    };
    const onEvent = (table: string, event: TableEvent) => {
      if (spec.tableEvents === 'no-status' && event.type === 'sensor' && event.sensor === 'vibration') return;
      if (spec.table === null || spec.table === table) send('table-event', event);
    };
    await stream.writeSSE({ event: 'hello', data: '{}', retry: 2000 });
    if (spec.table !== null || spec.whole) send('state', spec.payload(spec.table ?? ''));
    else {
      const tables = spec.store.list();
      if (tables.length === 0) send('state', spec.payload(''));
      for (const rec of tables) send('state', spec.payload(rec.table));
    }
    spec.store.on('change', onChange);
    const withEvents = spec.tableEvents !== 'none';
    const unfollow = withEvents ? spec.store.followEvents(spec.table) : () => undefined;
    if (withEvents) spec.store.on('event', onEvent);
    const ping = setInterval(() => {
      if (spec.refreshMs !== undefined) onChange(spec.table ?? '');
      else stream.write(': ping\n\n').catch(() => undefined);
    }, spec.refreshMs ?? 15_000);
    await new Promise<void>((resolve) => {
      const unregister = spec.registry.add(resolve);
      stream.onAbort(() => {
        unregister();
        resolve();
      });
    });
    closed = true;
    coalesce.stop();
    clearInterval(ping);
    spec.store.off('change', onChange);
    spec.store.off('event', onEvent);
    unfollow();
  });
}

/**
 * One SSE message, as hono's writeSSE writes it: `json` is JSON.stringify's output, which is
 * one line (it escapes CR and LF), so it is one `data:` line.
 */
export function sseMessage(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * Per key: the first change is sent at once, later ones within `everyMs` are folded into
 * one sent when the window ends (the newest state is computed then). Each folded change
 * is counted as shed (`sse-state`): its state was replaced by a newer one, never lost.
 */
export class Coalescer {
  private readonly windows = new Map<string, { pending: boolean; timer: NodeJS.Timeout }>();

  constructor(
    private readonly everyMs: number,
    private readonly send: (key: string) => void,
  ) {}

  change(key: string): void {
    const open = this.windows.get(key);
    if (open) {
      if (open.pending) shed.count('sse-state');
      open.pending = true;
      return;
    }
    this.send(key);
    this.openWindow(key);
  }

  private openWindow(key: string): void {
    const timer = setTimeout(() => {
      const window = this.windows.get(key);
      this.windows.delete(key);
      if (!window?.pending) return;
      this.send(key);
      this.openWindow(key); // changes keep coming: a new window from this send
    }, this.everyMs);
    timer.unref?.();
    this.windows.set(key, { pending: false, timer });
  }

  stop(): void {
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }
}
