import { describe, expect, it } from 'vitest';
import { TableStore } from '../../web/store.ts';
import type { TableEvent } from '../../hub/contract/mqtt.ts';

/** A rail hit as the hub publishes it (hub/tables/sensor-intake.ts: `type` first). */
const hit = { type: 'sensor', table: 't1', at: '2026-12-01T00:00:00.000Z', hubTime: 1000, boardUs: 1_000_000, seq: 1, sensor: 'rail-hit', channel: 0, rail: 'bottom', amplitude: 120 };
const payload = (event: object) => Buffer.from(JSON.stringify(event));

describe('TableStore: sensor events only for the tables a live view follows', () => {
  it('a table nobody follows: its sensor events are taken and dropped, not even parsed', () => {
    const store = new TableStore();
    expect(store.ingest('t1', 'events', payload(hit))).toBe(true);
    // Never parsed: a sensor event nobody wants is not read at all.
    expect(store.ingest('t1', 'events', Buffer.from('{"type":"sensor",not json'))).toBe(true);
    expect(store.get('t1')).toBeUndefined();
  });

  it('a followed table: each sensor event is checked and handed to the view, as a Buffer or a string', () => {
    const store = new TableStore();
    const seen: [string, TableEvent][] = [];
    const unfollow = store.followEvents('t1');
    store.on('event', (table, event) => seen.push([table, event]));
    expect(store.ingest('t1', 'events', payload(hit))).toBe(true);
    expect(store.ingest('t1', 'events', JSON.stringify({ ...hit, seq: 2 }))).toBe(true);
    expect(store.ingest('t1', 'events', Buffer.from('{"type":"sensor",not json'))).toBe(false);
    expect(store.ingest('t1', 'events', payload({ ...hit, rail: 7 }))).toBe(false);
    // Another table's stream is still not read.
    expect(store.ingest('t2', 'events', payload({ ...hit, table: 't2' }))).toBe(true);
    expect(seen.map(([table, e]) => [table, e.type === 'sensor' ? e.seq : null])).toEqual([
      ['t1', 1],
      ['t1', 2],
    ]);
    unfollow();
  });

  it('a sensor event spelled another way (keys in another order) takes the full path', () => {
    const store = new TableStore();
    const seen: TableEvent[] = [];
    store.followEvents('t1');
    store.on('event', (_table, event) => seen.push(event));
    const { type, ...rest } = hit;
    expect(store.ingest('t1', 'events', payload({ ...rest, type }))).toBe(true);
    expect(seen).toHaveLength(1);
    const other = new TableStore();
    // Not followed: dropped too, after parsing.
    expect(other.ingest('t1', 'events', payload({ ...rest, type }))).toBe(true);
  });
});
