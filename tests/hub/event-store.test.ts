import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStore, MATCH_QUERIES, PAGE_CACHE_KIB } from '../../hub/store/event-store.ts';

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

/** A store that hands every group to its writer thread (handOverRowsPerS 0), once that thread is up. */
async function writerStore(options: ConstructorParameters<typeof EventStore>[1] = {}) {
  let up!: () => void;
  const ready = new Promise<void>((resolve) => (up = resolve));
  const made = store({ writeInWorker: true, handOverRowsPerS: 0, ...options, onWriterReady: () => up() });
  await ready;
  return made;
}

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

  it('a large group (several multi-row INSERTs) keeps every row, its columns and the arrival order', async () => {
    const { s } = store();
    const told: number[] = [];
    const n = 64 * 2 + 37; // two full statements and a remainder
    for (let i = 0; i < n; i++) s.appendSoon(`t${i % 3}`, i % 2 ? 7 : null, 'sensor', `row-${i}`, i + 0.5, `at-${i}`, { boardUs: i * 10, seq: i, ...(i === 5 ? { ref: 4 } : {}) }, () => told.push(i));
    expect(s.queuedRows).toBe(n);
    await tick();
    expect(told).toEqual([...Array(n).keys()]);
    const reader = new Database(s.path, { readonly: true });
    const rows = reader.prepare('SELECT table_id, match_id, kind, body, hub_time, board_us, seq, at, ref FROM log ORDER BY id').all() as Record<string, unknown>[];
    reader.close();
    expect(rows).toHaveLength(n);
    rows.forEach((r, i) => expect(r).toEqual({ table_id: `t${i % 3}`, match_id: i % 2 ? 7 : null, kind: 'sensor', body: `row-${i}`, hub_time: i + 0.5, board_us: i * 10, seq: i, at: `at-${i}`, ref: i === 5 ? 4 : null }));
  });

  it('with a group commit window, a row after a quiet spell is committed in its turn, and the next ones wait for the window (told only once committed)', async () => {
    const { s, bodies } = store({ groupCommitMs: 30 });
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'first', 1, 'at', {}, () => told.push('first'));
    await tick();
    expect(told).toEqual(['first']); // no commit for 30 ms before it: at once
    const at = performance.now();
    s.appendSoon('t1', null, 'sensor', 'second', 2, 'at', {}, () => told.push(`second:${bodies().includes('second')}`));
    s.appendSoon('t1', null, 'sensor', 'third', 3, 'at', {}, () => told.push('third'));
    await tick();
    expect(told).toEqual(['first']); // within the window: both wait, neither is visible
    expect(bodies()).toEqual(['first']);
    while (told.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(told).toEqual(['first', 'second:true', 'third']);
    expect(performance.now() - at).toBeGreaterThanOrEqual(25); // the window (timer granularity aside)
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

describe('event store: group commits on the writer thread (writeInWorker)', () => {
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(done()).toBe(true);
  };

  it('at a venue\'s rate groups are committed on the hub thread; while rows come faster than handOverRowsPerS they go to the writer, once it is up', async () => {
    let up = false;
    const { s, bodies } = store({ writeInWorker: true, handOverRowsPerS: 1000, onWriterReady: () => (up = true) });
    const told: number[] = [];
    const row = (body: string) => {
      const n = told.length + s.queuedRows;
      s.appendSoon('t1', null, 'sensor', body, 1, 'at', {}, () => told.push(n));
    };
    row('quiet');
    await tick();
    expect(told).toEqual([0]); // committed in this turn, here
    // 300 rows within 100 ms: the stream is busy from the next window on, and the thread starts.
    for (let i = 1; i <= 300; i++) row(`burst-${i}`);
    await tick();
    await new Promise((r) => setTimeout(r, 110));
    row('busy, the thread starting');
    await tick();
    expect(s.queuedRows).toBe(0); // not up yet: committed here
    expect(up).toBe(false);
    await until(() => up);
    // Still busy (2,000 rows in this window however long the thread took to start).
    for (let i = 1; i <= 2000; i++) row(`burst-${i}`);
    await tick();
    await new Promise((r) => setTimeout(r, 110));
    await until(() => s.queuedRows === 0);
    row('busy');
    await tick();
    expect(s.queuedRows).toBe(1); // with the writer, not yet answered
    await until(() => told.length === 2303);
    expect(told).toEqual([...Array(2303).keys()]);
    expect(bodies().at(-1)).toBe('busy');
  });

  it('tells each queued row only once it is committed, in order, and counts the rows with the writer as queued', async () => {
    const { s, bodies } = await writerStore();
    const told: string[] = [];
    for (const n of ['a', 'b', 'c']) s.appendSoon('t1', null, 'sensor', n, 1, 'at', {}, () => told.push(`${n}:${bodies().includes(n)}`));
    expect(s.queuedRows).toBe(3);
    await tick();
    expect(s.queuedRows).toBe(3); // sent, not yet answered: still ahead of the disk
    await until(() => told.length === 3);
    expect(told).toEqual(['a:true', 'b:true', 'c:true']);
    expect(s.queuedRows).toBe(0);
  });

  it('while the writer thread starts, groups are committed on the hub thread: a flood\'s first shot does not wait for the thread to load', async () => {
    let up = false;
    const { s, bodies } = store({ writeInWorker: true, handOverRowsPerS: 0, onWriterReady: () => (up = true) });
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'first hit', 1, 'at', {}, () => told.push('first hit'));
    await tick(); // the scheduled commit: the thread cannot be up yet (no turn has taken its word)
    expect(told).toEqual(['first hit']);
    s.appendSoon('t1', null, 'sensor', 'second hit', 2, 'at', {}, () => told.push('second hit'));
    const started = performance.now();
    s.append('t1', 1, 'shot', 'the shot', 3, 'at');
    // Had the first group gone to the thread, this append would have waited for it to start.
    expect(told).toEqual(['first hit', 'second hit']);
    expect(bodies()).toEqual(['first hit', 'second hit', 'the shot']);
    expect(performance.now() - started).toBeLessThan(1000); // a guard against a hang, not a timing target
    await until(() => up);
    s.appendSoon('t1', null, 'sensor', 'after', 4, 'at', {}, () => told.push('after'));
    await tick();
    expect(s.queuedRows).toBe(1); // now with the thread
    await until(() => told.length === 3);
  });

  it('a large group keeps every row, its columns and the arrival order', async () => {
    const { s } = await writerStore();
    const told: number[] = [];
    const n = 64 * 3 + 5;
    for (let i = 0; i < n; i++) s.appendSoon(`t${i % 3}`, i % 2 ? 7 : null, 'sensor', `row-${i}`, i + 0.5, `at-${i}`, { boardUs: i * 10, seq: i, ...(i === 5 ? { ref: 4 } : {}) }, () => told.push(i));
    await until(() => told.length === n);
    expect(told).toEqual([...Array(n).keys()]);
    const reader = new Database(s.path, { readonly: true });
    const rows = reader.prepare('SELECT table_id, match_id, kind, body, hub_time, board_us, seq, at, ref FROM log ORDER BY id').all() as Record<string, unknown>[];
    reader.close();
    rows.forEach((r, i) => expect(r).toEqual({ table_id: `t${i % 3}`, match_id: i % 2 ? 7 : null, kind: 'sensor', body: `row-${i}`, hub_time: i + 0.5, board_us: i * 10, seq: i, at: `at-${i}`, ref: i === 5 ? 4 : null }));
  });

  it('a synchronous append waits for the groups sent before it: the log keeps arrival order, and they are told before it returns', async () => {
    const { s, bodies } = await writerStore();
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'hit-1', 1, 'at', {}, () => told.push('hit-1'));
    await tick(); // hit-1 is with the writer
    s.appendSoon('t1', null, 'sensor', 'hit-2', 2, 'at', {}, () => told.push('hit-2')); // still queued here
    const id = s.append('t1', 1, 'shot', 'the shot those hits made', 3, 'at');
    expect(told).toEqual(['hit-1', 'hit-2']);
    expect(bodies()).toEqual(['hit-1', 'hit-2', 'the shot those hits made']);
    expect(id).toBe(3);
    s.startMatch('t1', 'a match line', 4, 'at');
    expect(bodies().at(-1)).toBe('a match line');
  });

  it('a group the writer cannot commit is reported, none of it told, and the next one goes through', async () => {
    const failures: string[] = [];
    const { s, bodies } = await writerStore({ onGroupError: (e, rows) => failures.push(`${rows}: ${e.message}`) });
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'fine', 1, 'at', {}, () => told.push('fine'));
    s.appendSoon('t1', null, 'nonsense' as never, 'bad', 2, 'at', {}, () => told.push('bad'));
    await until(() => failures.length === 1);
    expect(failures[0]).toMatch(/^2: .*CHECK/);
    expect(told).toEqual([]);
    s.appendSoon('t1', null, 'sensor', 'next', 3, 'at', {}, () => told.push('next'));
    await until(() => told.length === 1);
    expect(bodies()).toEqual(['next']);
    expect(s.writeStatus().writable).toBe(true); // a constraint is a bug, not the disk
  });

  it('drop counts go with a group, and close commits what is still queued', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'store-')), 'hub.sqlite');
    const s = new EventStore(path, { writeInWorker: true, handOverRowsPerS: 0 });
    s.addDrops('t1', 'corrupt', 3);
    s.appendSoon('t1', null, 'sensor', 'last', 1, 'at', {}, () => undefined);
    await s.close();
    const reader = new Database(path, { readonly: true });
    expect((reader.prepare('SELECT body FROM log').all() as { body: string }[]).map((r) => r.body)).toEqual(['last']);
    expect(reader.prepare('SELECT source, count FROM drops').all()).toEqual([{ source: 'corrupt', count: 3 }]);
  });

  it('a writer thread lost with a group in flight: every row is written once and told once, from then on by the hub thread', async () => {
    const lost: string[] = [];
    const { s, bodies } = await writerStore({ onWriterLost: (e) => lost.push(e.message) });
    const told: string[] = [];
    s.appendSoon('t1', null, 'sensor', 'before', 1, 'at', {}, () => told.push('before'));
    await until(() => told.length === 1);
    // Another connection holds the write lock: the writer's next transaction waits on it.
    const other = new Database(s.path);
    other.exec('BEGIN IMMEDIATE');
    s.appendSoon('t1', null, 'sensor', 'in flight', 2, 'at', {}, () => told.push('in flight'));
    await tick();
    await new Promise((r) => setTimeout(r, 50));
    other.exec('ROLLBACK');
    other.close();
    // Lost at once: it may or may not have committed the group by then.
    await (s as unknown as { writer: { worker: { terminate(): Promise<number> } } }).writer.worker.terminate();
    await until(() => lost.length === 1);
    s.appendSoon('t1', null, 'sensor', 'after', 3, 'at', {}, () => told.push('after'));
    await until(() => told.length === 3);
    expect(told).toEqual(['before', 'in flight', 'after']);
    expect(bodies()).toEqual(['before', 'in flight', 'after']);
    expect(s.queuedRows).toBe(0);
  });
});

describe('event store schema', () => {
  it('v2 migration keeps every row and id of a v1 log, and later rows follow on', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'store-v1-')), 'hub.sqlite');
    // A v1 log as the first release wrote it.
    const v1 = new Database(path);
    v1.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);
      CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, match_id INTEGER, kind TEXT NOT NULL CHECK (kind IN ('match','shot','referee','queued','sensor','link')), ref INTEGER, body TEXT NOT NULL, hub_time REAL NOT NULL, board_us INTEGER, seq INTEGER, at TEXT NOT NULL);
      CREATE INDEX log_match ON log(table_id, match_id, id);
      CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, started_at TEXT NOT NULL);
      CREATE INDEX matches_table ON matches(table_id, id);
      INSERT INTO matches (table_id, started_at) VALUES ('t1', 'x');
      INSERT INTO log (table_id, match_id, kind, body, hub_time, at) VALUES ('t1', 1, 'match', 'm', 1, 'x'), ('t1', 1, 'sensor', 'hit', 2, 'x'), ('t1', 1, 'shot', 's1', 3, 'x'), ('t1', 1, 'queued', 'q', 4, 'x');`);
    v1.close();
    const s = new EventStore(path);
    open.push(s);
    expect(s.matchLines(1)).toEqual(['m', 's1']);
    expect(s.pendingShots(1)).toEqual([{ id: 4, body: 'q' }]);
    expect(s.changes('t1')).toBe(3);
    expect(s.append('t1', 1, 'shot', 's2', 5, 'x', { ref: 4 })).toBe(5);
    expect(s.pendingShots(1)).toEqual([]);
  });

  it('the queries a restart runs use indexes, not a scan of the sensor stream', () => {
    const { s } = store();
    s.append('t1', null, 'sensor', 'hit', 1, 'x');
    const db = new Database((s as unknown as { db: Database.Database }).db.name, { readonly: true });
    for (const [name, sql] of Object.entries(MATCH_QUERIES)) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill(1)) as { detail: string }[]).map((r) => r.detail);
      expect(plan.filter((d) => /^SCAN /.test(d)), `${name}: ${plan.join('; ')}`).toEqual([]);
    }
  });

  it(`keeps a small page cache (${PAGE_CACHE_KIB} KiB): the log is appended at its end, and a 16 MB cache would sit in resident memory`, () => {
    const { s } = store();
    expect((s as unknown as { db: Database.Database }).db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
  });
});
