import Database from 'better-sqlite3';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { runMigrations } from './migrate.ts';
import { StoreWriter, type WriterAnswer } from './store-writer.ts';

/**
 * The durable, append-only log of everything a table did: match setups, shots and referee
 * lines (exactly as CONTRACT §1 match-log lines), sensor events and link changes. SQLite in
 * WAL mode: a committed row survives `kill -9`, and the hub writes a row before it
 * publishes what the row says (durable before visible).
 */
/** `queued`: a shot from the sensors that waits for a referee's ruling on an earlier one. */
export type LogKind = 'match' | 'shot' | 'referee' | 'queued' | 'sensor' | 'link';

export interface LogRow {
  id: number;
  table: string;
  match: number | null;
  kind: LogKind;
  body: unknown;
  hubTime: number;
  at: string;
}

export interface MatchRecord {
  id: number;
  table: string;
  startedAt: string;
  /** The match-log lines of this match, in order (match, shots, referee lines). */
  lines: string[];
}

const MIGRATIONS: string[] = [
  `CREATE TABLE log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     table_id TEXT NOT NULL,
     match_id INTEGER,
     kind TEXT NOT NULL CHECK (kind IN ('match','shot','referee','queued','sensor','link')),
     ref INTEGER,
     body TEXT NOT NULL,
     hub_time REAL NOT NULL,
     board_us INTEGER,
     seq INTEGER,
     at TEXT NOT NULL
   );
   CREATE INDEX log_match ON log(table_id, match_id, id);
   CREATE TABLE matches (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     table_id TEXT NOT NULL,
     started_at TEXT NOT NULL
   );
   CREATE INDEX matches_table ON matches(table_id, id);`,
  // v2: the sensor stream is most of the log and is only ever read whole (export), so its
  // rows go into no index, and ids come from the rowid (append-only: never reused) rather
  // than AUTOINCREMENT's extra write per row. A commit costs about half as much.
  `CREATE TABLE log_v2 (
     id INTEGER PRIMARY KEY,
     table_id TEXT NOT NULL,
     match_id INTEGER,
     kind TEXT NOT NULL CHECK (kind IN ('match','shot','referee','queued','sensor','link')),
     ref INTEGER,
     body TEXT NOT NULL,
     hub_time REAL NOT NULL,
     board_us INTEGER,
     seq INTEGER,
     at TEXT NOT NULL
   );
   INSERT INTO log_v2 (id, table_id, match_id, kind, ref, body, hub_time, board_us, seq, at)
     SELECT id, table_id, match_id, kind, ref, body, hub_time, board_us, seq, at FROM log ORDER BY id;
   DROP TABLE log;
   ALTER TABLE log_v2 RENAME TO log;
   CREATE INDEX log_match ON log(match_id, id) WHERE kind <> 'sensor';
   CREATE INDEX log_table ON log(table_id) WHERE kind <> 'sensor';
   CREATE INDEX log_ref ON log(ref) WHERE ref IS NOT NULL;`,
  // v3: frames the bridge dropped, as one counter per table and cause (line noise used to
  // write a row per frame); and one row /healthz rewrites to learn whether the disk takes writes.
  `CREATE TABLE drops (
     table_id TEXT NOT NULL,
     source TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (table_id, source)
   ) WITHOUT ROWID;
   CREATE TABLE write_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at TEXT NOT NULL);`,
];

/** Added to every query on the match rows: the exact term that lets SQLite use the partial indexes. */
const NOT_SENSOR = "kind <> 'sensor'";

/** The queries a restart and an export run; each must use an index, however long the sensor log grows. */
export const MATCH_QUERIES = {
  pendingShots: `SELECT q.id, q.body FROM log q WHERE q.match_id = ? AND q.${NOT_SENSOR} AND q.kind = 'queued' AND NOT EXISTS (SELECT 1 FROM log s WHERE s.ref = q.id) ORDER BY q.id`,
  changes: `SELECT COUNT(*) AS n FROM log WHERE table_id = ? AND ${NOT_SENSOR} AND kind IN ('match','shot','referee','queued')`,
  matchLines: `SELECT body FROM log WHERE match_id = ? AND ${NOT_SENSOR} AND kind IN ('match','shot','referee') ORDER BY id`,
} as const;

type RowExtra = { boardUs?: number | null; seq?: number | null; ref?: number | null };
type SqlValue = string | number | null;

/** Columns of a log row as the insert binds them. */
const ROW_COLUMNS = '(table_id, match_id, kind, body, hub_time, board_us, seq, at, ref)';
const ROW_WIDTH = 9;
/**
 * Rows per INSERT in a group commit: one statement for many rows costs much less than a
 * statement per row (issue 18: the per-row insert was 11 % of the hub's time in a flood).
 */
const ROWS_PER_INSERT = 64;
/**
 * With the writer thread, groups are handed to it while the sensor stream runs at this many rows
 * a second or more (measured over 100 ms windows); below it they are committed on the hub thread.
 * A venue at the firmware's rate stores at most 6,400 rows a second (128 tables); there the
 * hand-over's round trip only adds latency (the 64-table p99 rose with every group handed over),
 * while in a flood the hub thread is what runs out (15 % less of its time a frame handed over).
 */
const HANDOVER_ROWS_PER_S = 10_000;

/** One row's placeholders in an INSERT. */
const ROW_PLACEHOLDERS = `(${new Array(ROW_WIDTH).fill('?').join(', ')})`;
const DROPS_SQL = 'INSERT INTO drops (table_id, source, count) VALUES (?, ?, ?) ON CONFLICT (table_id, source) DO UPDATE SET count = count + excluded.count';

/** Errors that say the disk or the file refuses writes (a constraint error is a bug, not the disk's health). */
const DISK_ERROR = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PERM)/;

/** SQLite page cache of each connection to the log, in KiB. */
export const PAGE_CACHE_KIB = 2048;

/** Whether the last write reached the disk; the first failure since the last success, and how many since. */
export interface StoreWriteHealth {
  writable: boolean;
  error: string | null;
  failingSince: string | null;
  failedWrites: number;
}

/** A store that cannot be opened: the message names the file and what is wrong with it. */
export class StoreOpenError extends Error {}

export interface EventStoreOptions {
  checkpointInWorker?: boolean;
  /** A queued group of rows could not be committed (disk full, I/O error): none of it was published. */
  onGroupError?: (error: Error, rows: number) => void;
  /** Writes work again after failing: how many failed meanwhile. */
  onWritable?: (failedWrites: number) => void;
  /** For the write health's timestamps; Date.now by default. */
  now?: () => number;
  /**
   * Group commit window (ms): a commit follows the last one by at least this long, so at a
   * busy venue one transaction (and one publish round after it) holds the rows of several
   * turns of the event loop. After a quiet spell the next row is committed in its own turn.
   * 0 (the default): one commit per turn with rows.
   */
  groupCommitMs?: number;
  /**
   * Group commits on a thread of their own while the sensor stream is busy (store-writer.ts;
   * not for ':memory:'): the hub thread queues and publishes, the writer binds, inserts and
   * commits (issue 18: a sixth of the hub thread's busy time in a flood). Started the first
   * time the stream runs at `handOverRowsPerS`; below that rate groups are committed on the hub
   * thread as without it. Rows are still told (published) only once committed, and a
   * synchronous write waits for what was queued before it.
   */
  writeInWorker?: boolean;
  /** With the writer thread: groups go to it while rows come at this rate (rows/s) or faster, else they are committed on the hub thread (default HANDOVER_ROWS_PER_S; 0: always). */
  handOverRowsPerS?: number;
  /** The writer thread is up: groups go to it from now on while the stream is busy. */
  onWriterReady?: () => void;
  /** The writer thread failed: the store writes on the hub thread from then on (nothing queued is lost). */
  onWriterLost?: (error: Error) => void;
}

/** A group sent to the writer thread and not yet answered. */
interface SentGroup {
  values: SqlValue[];
  callbacks: (() => void)[];
  rows: number;
  drops: Map<string, Map<string, number>>;
}

export class EventStore {
  private readonly db: Database.Database;
  private readonly insertLog: Database.Statement;
  private readonly insertMatch: Database.Statement;
  private readonly insertQueued: (values: SqlValue[], rows: number, drops: Map<string, Map<string, number>>) => number | null;
  /** INSERTs of n rows at once, prepared when first needed. */
  private readonly insertRows = new Map<number, Database.Statement>();
  private checkpointer: Worker | null = null;
  /** The queued rows' columns, row after row (no array or object per row: this is per frame). */
  private queuedValues: SqlValue[] = [];
  private queuedCallbacks: (() => void)[] = [];
  private commitScheduled = false;
  private lastCommitAt = -Infinity;
  private readonly commitSoon = () => this.commitOrHandOver();
  /** The writer thread (writeInWorker), and the groups it has not answered yet, oldest first. */
  private writer: StoreWriter | null = null;
  /** writeInWorker on a file: the writer thread may be started (not again once lost). */
  private mayHandOver = false;
  /** At most one group, or two while a synchronous write flushes: an array will do. */
  private readonly sent: SentGroup[] = [];
  private sentRows = 0;
  /** The largest row id known committed: what a lost writer thread had surely written up to. */
  private confirmedMaxId = 0;

  /** Rows waiting for a group commit, queued or with the writer: how far the sensor stream is ahead of the disk (the overload signal). */
  get queuedRows(): number {
    return this.queuedCallbacks.length + this.sentRows;
  }

  private readonly insertDrops: Database.Statement;
  private readonly updateProbe: Database.Statement;
  /** Drop counts not yet written, by table and cause: folded into the next group commit. */
  private drops = new Map<string, Map<string, number>>();
  private writeHealth: StoreWriteHealth = { writable: true, error: null, failingSince: null, failedWrites: 0 };
  private lastProbeAt = -Infinity;

  constructor(
    readonly path: string,
    private readonly options: EventStoreOptions = {},
  ) {
    let db: Database.Database | null = null;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      db = new Database(path);
      db.pragma('journal_mode = WAL');
      // NORMAL keeps every committed transaction across a process crash; only an OS crash can lose the last ones.
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // The log is appended to at its end and read back only at a restart or an export, so a
      // large page cache buys nothing; better-sqlite3's default (16 MB) would fill with old
      // pages and sit in the hub's resident memory.
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      runMigrations(db, 'schema_version', MIGRATIONS);
    } catch (e) {
      if (db?.open) db.close();
      throw new StoreOpenError(describeOpenError(path, e as NodeJS.ErrnoException));
    }
    this.db = db;
    if (this.options.checkpointInWorker && path !== ':memory:') {
      // Checkpoints (and their fsync) on another thread: a write here never waits for one.
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), { workerData: { path, everyMs: 1000, cacheKiB: PAGE_CACHE_KIB } });
      this.checkpointer.unref();
      this.checkpointer.on('error', () => {
        // The worker is an optimisation: without it SQLite checkpoints on commit again.
        if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
        this.checkpointer = null;
      });
    }
    this.insertLog = this.db.prepare(
      `INSERT INTO log ${ROW_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertMatch = this.db.prepare('INSERT INTO matches (table_id, started_at) VALUES (?, ?)');
    this.insertDrops = this.db.prepare(DROPS_SQL);
    this.updateProbe = this.db.prepare('INSERT INTO write_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at');
    this.mayHandOver = this.options.writeInWorker === true && path !== ':memory:';
    if (this.mayHandOver) this.confirmedMaxId = this.maxId();
    // Always handing over: the thread starts now, not with the first row.
    if (this.mayHandOver && this.options.handOverRowsPerS === 0) this.startWriter();
    this.insertQueued = this.db.transaction((values: SqlValue[], rows: number, drops: Map<string, Map<string, number>>) => {
      let lastId: number | null = null;
      for (let from = 0; from < rows; from += ROWS_PER_INSERT) {
        const n = Math.min(ROWS_PER_INSERT, rows - from);
        lastId = Number(this.insertStatement(n).run(n === rows ? values : values.slice(from * ROW_WIDTH, (from + n) * ROW_WIDTH)).lastInsertRowid);
      }
      for (const [table, bySource] of drops) for (const [source, count] of bySource) this.insertDrops.run(table, source, count);
      return lastId;
    });
  }

  private insertStatement(rows: number): Database.Statement {
    let statement = this.insertRows.get(rows);
    if (!statement) {
      statement = this.db.prepare(`INSERT INTO log ${ROW_COLUMNS} VALUES ${new Array(rows).fill(ROW_PLACEHOLDERS).join(', ')}`);
      this.insertRows.set(rows, statement);
    }
    return statement;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Runs one write and keeps the store's write health: a failure marks it unwritable until a write succeeds. */
  private write<T>(run: () => T): T {
    let result: T;
    try {
      result = run();
    } catch (e) {
      this.wroteNot(e as Error & { code?: string });
      throw e;
    }
    this.wrote();
    return result;
  }

  /** A write failed: the disk's doing (not a constraint's) marks the store unwritable. */
  private wroteNot(e: Error & { code?: string }): void {
    if (!DISK_ERROR.test(e.code ?? '')) return;
    const h = this.writeHealth;
    this.writeHealth = { writable: false, error: e.message, failingSince: h.failingSince ?? new Date(this.now()).toISOString(), failedWrites: h.failedWrites + 1 };
    // The failure is fresh news: the next probe waits its second.
    this.lastProbeAt = this.now();
  }

  /** A write went through: writable again, if it was not. */
  private wrote(): void {
    if (!this.writeHealth.writable) {
      const failed = this.writeHealth.failedWrites;
      this.writeHealth = { writable: true, error: null, failingSince: null, failedWrites: 0 };
      this.options.onWritable?.(failed);
    }
  }

  /**
   * Whether the store takes writes. While the last write failed, a tiny write is tried (at
   * most once a second), so a freed disk shows as healthy even with nothing else to store.
   */
  writeStatus(): StoreWriteHealth {
    if (!this.writeHealth.writable && this.db.open && this.now() - this.lastProbeAt >= 1000) {
      this.lastProbeAt = this.now();
      try {
        this.write(() => this.updateProbe.run(new Date(this.now()).toISOString()));
      } catch {
        // Still failing: the health says so.
      }
    }
    return { ...this.writeHealth };
  }


  /** Starts a match: its id, and the match line stored with it, in one transaction. */
  startMatch(table: string, matchLine: string, hubTime: number, at: string): number {
    this.commitQueued();
    return this.write(() =>
      this.db.transaction(() => {
        const id = Number(this.insertMatch.run(table, at).lastInsertRowid);
        this.confirmedMaxId = Number(this.insertLog.run(table, id, 'match', matchLine, hubTime, null, null, at, null).lastInsertRowid);
        return id;
      })(),
    );
  }

  /**
   * Appends one row; returns its id. Synchronous: when it returns, the row is committed
   * (after every row queued before it, so the log keeps arrival order).
   */
  append(table: string, match: number | null, kind: LogKind, body: string, hubTime: number, at: string, extra: RowExtra = {}): number {
    this.commitQueued();
    const id = this.write(() => Number(this.insertLog.run(table, match, kind, body, hubTime, extra.boardUs ?? null, extra.seq ?? null, at, extra.ref ?? null).lastInsertRowid));
    this.confirmedMaxId = id;
    return id;
  }

  /**
   * Group commit for the sensor stream: queues a row and calls `onStored` once it is
   * committed, in one transaction with every row queued in the same turn of the event loop
   * (16 boards' frames that arrive together cost one WAL write, not sixteen). Publishing in
   * `onStored` keeps the rule: durable before visible.
   */
  appendSoon(table: string, match: number | null, kind: LogKind, body: string, hubTime: number, at: string, extra: RowExtra, onStored: () => void): void {
    if (this.mayHandOver) this.countRate();
    this.queuedValues.push(table, match, kind, body, hubTime, extra.boardUs ?? null, extra.seq ?? null, at, extra.ref ?? null);
    this.queuedCallbacks.push(onStored);
    this.scheduleCommit();
  }

  /**
   * Counts frames a table's bridge dropped, by cause: added to that counter with the next
   * group commit, never a row per frame (line noise drops hundreds a second).
   */
  addDrops(table: string, source: string, count: number): void {
    if (!(count > 0)) return;
    this.countDrops(table, source, count);
    this.scheduleCommit();
  }

  private countDrops(table: string, source: string, count: number): void {
    let bySource = this.drops.get(table);
    if (!bySource) this.drops.set(table, (bySource = new Map()));
    bySource.set(source, (bySource.get(source) ?? 0) + count);
  }

  /** Stored drop counters, by cause, of one table or all of them (the pending ones not yet counted). */
  droppedFrames(table?: string): Record<string, number> {
    const rows = (table === undefined ? this.db.prepare('SELECT source, SUM(count) AS n FROM drops GROUP BY source').all() : this.db.prepare('SELECT source, count AS n FROM drops WHERE table_id = ?').all(table)) as { source: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.source, r.n]));
  }

  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    // A commit and the publish round after it cost about 50 µs whatever they hold (issue 18:
    // at 64 tables a turn held one or two frames, and that was most of a frame's cost).
    const wait = (this.options.groupCommitMs ?? 0) - (performance.now() - this.lastCommitAt);
    if (wait <= 0) setImmediate(this.commitSoon);
    else setTimeout(this.commitSoon, Math.ceil(wait));
  }

  /**
   * Commits the queued rows, then tells each of them, in order. With the writer thread: sends
   * them and waits (blocking) until it has answered every group sent, told in order.
   */
  commitQueued(): void {
    if (this.writer?.inFlight) {
      this.sendQueued(true);
      this.writer?.waitAll();
      return;
    }
    this.commitHere();
  }

  /**
   * The scheduled commit: while the stream is busy (HANDOVER_ROWS_PER_S), the group goes to the
   * writer thread (or waits while it has one: it goes with the next); else it is committed here.
   */
  private commitOrHandOver(): void {
    this.commitScheduled = false;
    const writer = this.writer;
    if (writer && writer.inFlight > 0) return;
    if (writer?.ready && this.busy) this.sendQueued();
    else this.commitHere();
  }

  /** Commits the queued rows on this thread (nothing may be with the writer), then tells each of them, in order. */
  private commitHere(): void {
    this.commitScheduled = false;
    if (this.queuedCallbacks.length === 0 && this.drops.size === 0) return;
    this.lastCommitAt = performance.now();
    const values = this.queuedValues;
    const callbacks = this.queuedCallbacks;
    const drops = this.drops;
    this.queuedValues = [];
    this.queuedCallbacks = [];
    if (drops.size > 0) this.drops = new Map();
    try {
      const lastId = this.write(() => this.insertQueued(values, callbacks.length, drops));
      if (lastId !== null) this.confirmedMaxId = lastId;
    } catch (e) {
      // Nothing of the group is in the log, so nothing of it is published. The drop counts
      // wait for the next commit: a count is small and must not be lost with the disk.
      for (const [table, bySource] of drops) for (const [source, count] of bySource) this.countDrops(table, source, count);
      this.options.onGroupError?.(e as Error, callbacks.length);
      return;
    }
    for (const onStored of callbacks) onStored();
  }

  /** Rows queued in the current 100 ms window, and whether the last window's rate was a busy one (writer thread only). */
  private rateFrom = -Infinity;
  private rateRows = 0;
  private busy = false;

  private countRate(): void {
    const now = performance.now();
    const elapsed = now - this.rateFrom;
    if (elapsed >= 100) {
      this.busy = (this.rateRows * 1000) / elapsed >= (this.options.handOverRowsPerS ?? HANDOVER_ROWS_PER_S);
      this.rateFrom = now;
      this.rateRows = 0;
      // Started the first time the stream is busy: a venue that never is has no thread to carry.
      if (this.busy && !this.writer) this.startWriter();
    }
    this.rateRows += 1;
  }

  private startWriter(): void {
    this.writer = new StoreWriter({
      path: this.path,
      cacheKiB: PAGE_CACHE_KIB,
      rowSql: { head: `INSERT INTO log ${ROW_COLUMNS} VALUES `, row: ROW_PLACEHOLDERS },
      rowWidth: ROW_WIDTH,
      rowsPerInsert: ROWS_PER_INSERT,
      dropsSql: DROPS_SQL,
      onReady: () => this.options.onWriterReady?.(),
      onAnswer: (answer) => this.settle(answer),
      onLost: (error) => this.writerLost(error),
    });
  }

  /**
   * The queued rows to the writer thread, as one group; told when it answers (settle). One group
   * in flight at a time (unless `now`): what comes meanwhile goes with the next, sent when the
   * writer answers, so a busy hub hands over fewer, larger groups (a message costs about as much
   * as a few rows).
   */
  private sendQueued(now = false): void {
    this.commitScheduled = false;
    const writer = this.writer;
    if (!writer) return this.commitHere();
    if (this.queuedCallbacks.length === 0 && this.drops.size === 0) return;
    if (!now && writer.inFlight > 0) return;
    this.lastCommitAt = performance.now();
    const group: SentGroup = { values: this.queuedValues, callbacks: this.queuedCallbacks, rows: this.queuedCallbacks.length, drops: this.drops };
    this.queuedValues = [];
    this.queuedCallbacks = [];
    if (this.drops.size > 0) this.drops = new Map();
    this.sent.push(group);
    this.sentRows += group.rows;
    writer.send(group);
  }

  /** The writer's answer for the oldest group sent: tell its rows, or report it (none of it told, the drop counts kept). */
  private settle(answer: WriterAnswer): void {
    const group = this.sent.shift();
    if (!group) return;
    this.sentRows -= group.rows;
    if (!answer.ok) {
      for (const [table, bySource] of group.drops) for (const [source, count] of bySource) this.countDrops(table, source, count);
      const error = Object.assign(new Error(answer.message), { code: answer.code });
      this.wroteNot(error);
      this.options.onGroupError?.(error, group.rows);
      this.commitOrHandOver();
      return;
    }
    if (answer.lastId !== null) this.confirmedMaxId = answer.lastId;
    this.wrote();
    for (const onStored of group.callbacks) onStored();
    // What queued while this group was with the writer goes now.
    this.commitOrHandOver();
  }

  /**
   * The writer thread is gone (not asked to stop): from here on this thread writes. Of the
   * groups it did not answer, the ones it committed are told (each group is one transaction,
   * committed in order, and row ids only grow: the rows past the last known id are theirs);
   * the others are written here.
   */
  private writerLost(error: Error): void {
    this.writer = null;
    this.mayHandOver = false;
    this.options.onWriterLost?.(error);
    let written = this.db.open ? this.maxId() - this.confirmedMaxId : 0;
    const rest: SentGroup[] = [];
    for (let group = this.sent.shift(); group; group = this.sent.shift()) {
      this.sentRows -= group.rows;
      if (rest.length === 0 && group.rows > 0 && written >= group.rows) {
        written -= group.rows;
        for (const onStored of group.callbacks) onStored();
      } else rest.push(group);
    }
    // In order, ahead of anything queued since: as if they had been queued here.
    this.queuedValues = [...rest.flatMap((g) => g.values), ...this.queuedValues];
    this.queuedCallbacks = [...rest.flatMap((g) => g.callbacks), ...this.queuedCallbacks];
    for (const group of rest) for (const [table, bySource] of group.drops) for (const [source, count] of bySource) this.countDrops(table, source, count);
    if (this.db.open) this.commitQueued();
  }

  private maxId(): number {
    return (this.db.prepare('SELECT MAX(id) AS m FROM log').get() as { m: number | null }).m ?? 0;
  }


  /** Queued shots of a match that no stored shot has taken up yet, oldest first. */
  pendingShots(matchId: number): { id: number; body: string }[] {
    return this.db
      .prepare(MATCH_QUERIES.pendingShots)
      .all(matchId) as { id: number; body: string }[];
  }

  /** State changes of a table so far (match, shot, referee and queued rows): the base of its `seq`. */
  changes(table: string): number {
    const row = this.db.prepare(MATCH_QUERIES.changes).get(table) as { n: number };
    return row.n;
  }

  /** The latest match of every table, with its lines: what a restart rebuilds. */
  latestMatches(): MatchRecord[] {
    const rows = this.db
      .prepare('SELECT m.id, m.table_id AS tableId, m.started_at AS startedAt FROM matches m WHERE m.id = (SELECT MAX(id) FROM matches WHERE table_id = m.table_id)')
      .all() as { id: number; tableId: string; startedAt: string }[];
    return rows.map((r) => ({ id: r.id, table: r.tableId, startedAt: r.startedAt, lines: this.matchLines(r.id) }));
  }

  matchLines(matchId: number): string[] {
    const rows = this.db
      .prepare(MATCH_QUERIES.matchLines)
      .all(matchId) as { body: string }[];
    return rows.map((r) => r.body);
  }

  matches(table: string): { id: number; startedAt: string }[] {
    return this.db.prepare('SELECT id, started_at AS startedAt FROM matches WHERE table_id = ? ORDER BY id').all(table) as { id: number; startedAt: string }[];
  }

  count(kind?: LogKind): number {
    const row = (kind ? this.db.prepare('SELECT COUNT(*) AS n FROM log WHERE kind = ?').get(kind) : this.db.prepare('SELECT COUNT(*) AS n FROM log').get()) as { n: number };
    return row.n;
  }

  /** The database answers and its last write reached the disk (for /healthz). */
  healthy(): boolean {
    try {
      this.db.prepare('SELECT 1').get();
    } catch {
      return false;
    }
    return this.writeStatus().writable;
  }

  async close(): Promise<void> {
    if (this.db.open) this.commitQueued();
    const writer = this.writer;
    this.writer = null;
    this.mayHandOver = false;
    if (writer) await writer.stop();
    const worker = this.checkpointer;
    this.checkpointer = null;
    if (worker) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), 2000);
        worker.once('message', () => (clearTimeout(timer), resolve()));
        worker.postMessage('stop');
      });
      await worker.terminate();
    }
    if (this.db.open) this.db.close();
  }
}

/** One line naming the store's file and what is wrong with it (not a database, no permission, …). */
function describeOpenError(path: string, e: NodeJS.ErrnoException): string {
  let code = e.code ?? '';
  if (code === 'SQLITE_CANTOPEN') code = whyCannotOpen(path) ?? code;
  const why =
    code === 'SQLITE_NOTADB' ? 'not an SQLite database (corrupt, or another file)'
    : code === 'SQLITE_CORRUPT' ? 'the database is corrupt'
    : code === 'SQLITE_CANTOPEN' ? 'cannot open it'
    : code === 'EISDIR' ? 'a directory is in its place'
    : code === 'ENOENT' ? 'its directory does not exist'
    : code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'EACCES' || code === 'EPERM' ? 'no permission to read and write it'
    : code === 'SQLITE_FULL' || code === 'ENOSPC' ? 'the disk is full'
    : e.message;
  return `store ${path}: ${why}${code ? ` (${code})` : ''}`;
}

/** SQLite says only "unable to open database file": the file system says why. */
function whyCannotOpen(path: string): string | null {
  const code = (check: () => void): string | null => {
    try {
      check();
      return null;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? null;
    }
  };
  const file = code(() => {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    accessSync(path, constants.R_OK | constants.W_OK);
  });
  // SQLite writes its -wal and -shm files beside the database.
  return file === 'ENOENT' || file === null ? code(() => accessSync(dirname(path), constants.W_OK)) : file;
}
