import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStore } from '../../hub/store/event-store.ts';

const open: EventStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function store(options: ConstructorParameters<typeof EventStore>[1] = {}) {
  const path = join(mkdtempSync(join(tmpdir(), 'store-')), 'hub.sqlite');
  const s = new EventStore(path, options);
  open.push(s);
  const reader = new Database(path, { readonly: true });
  const bodies = () => (reader.prepare('SELECT body FROM log ORDER BY id').all() as { body: string }[]).map((r) => r.body);
  return { s, bodies };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('event store: group commit of the sensor stream', () => {
  it('commits a turn\'s queued rows together, and tells each only once it is committed', async () => {
    const { s, bodies } = store();
    const told: string[] = [];
    for (const n of ['a', 'b', 'c']) s.appendSoon('t1', null, 'sensor', n, 1, 'at', {}, () => told.push(`${n}:${bodies().includes(n)}`));
    expect(told).toEqual([]); // nothing is visible before it is durable
    expect(bodies()).toEqual([]);
    await tick();
    expect(told).toEqual(['a:true', 'b:true', 'c:true']);
  });

  it('a synchronous append commits the queue first: the log keeps arrival order', () => {
    const { s, bodies } = store();
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'hit-1', 1, 'at', {}, () => told.push('hit-1'));
    s.appendSoon('t1', null, 'sensor', 'hit-2', 2, 'at', {}, () => told.push('hit-2'));
    s.append('t1', 1, 'shot', 'the shot those hits made', 3, 'at');
    expect(bodies()).toEqual(['hit-1', 'hit-2', 'the shot those hits made']);
    expect(told).toEqual(['hit-1', 'hit-2']);
  });

  it('a group that cannot be committed is reported and none of it is told (so none is published)', async () => {
    const failures: number[] = [];
    const { s } = store({ onGroupError: (_e, rows) => failures.push(rows) });
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'fine', 1, 'at', {}, () => told.push('fine'));
    // The CHECK constraint on kind refuses the second row: the whole transaction rolls back.
    s.appendSoon('t1', null, 'nonsense' as never, 'bad', 2, 'at', {}, () => told.push('bad'));
    await tick();
    expect(failures).toEqual([2]);
    expect(told).toEqual([]);
    expect(s.count()).toBe(0);
  });

  it('close commits what is still queued', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'store-')), 'hub.sqlite');
    const s = new EventStore(path);
    s.appendSoon('t1', null, 'sensor', 'last', 1, 'at', {}, () => undefined);
    await s.close();
    const reader = new Database(path, { readonly: true });
    expect((reader.prepare('SELECT body FROM log').all() as { body: string }[]).map((r) => r.body)).toEqual(['last']);
  });
});
