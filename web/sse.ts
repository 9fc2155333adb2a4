import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TableStore } from './store.ts';

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
}

/** A stream of `state` messages on every change and `table-event` messages as they arrive. */
export function sseStream(c: Context, spec: SseSpec): Response {
  return streamSSE(c, async (stream) => {
    let closed = false;
    const send = (event: string, data: unknown) => {
      if (closed) return;
      stream.writeSSE({ event, data: JSON.stringify(data) }).catch(() => undefined);
    };
    const onChange = (table: string) => {
      if (spec.table === null && !spec.whole && table === '') return;
      if (spec.table === null || spec.table === table) send('state', spec.payload(table));
    };
    const onEvent = (table: string, event: unknown) => {
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
    spec.store.on('event', onEvent);
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
    clearInterval(ping);
    spec.store.off('change', onChange);
    spec.store.off('event', onEvent);
  });
}
