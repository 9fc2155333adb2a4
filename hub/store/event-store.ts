import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { runMigrations } from './migrate.ts';

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
interface QueuedRow {
  params: [string, number | null, LogKind, string, number, number | null, number | null, string, number | null];
  onStored: () => void;
}

/** SQLite page cache of each connection to the log, in KiB. */
export const PAGE_CACHE_KIB = 2048;

export interface EventStoreOptions {
  checkpointInWorker?: boolean;
  /** A queued group of rows could not be committed (disk full, I/O error): none of it was published. */
  onGroupError?: (error: Error, rows: number) => void;
}

export class EventStore {
  private readonly db: Database.Database;
  private readonly insertLog: Database.Statement;
  private readonly insertMatch: Database.Statement;
  private readonly insertQueued: (rows: QueuedRow[]) => void;
  private checkpointer: Worker | null = null;
  private queued: QueuedRow[] = [];
  private commitScheduled = false;

  constructor(
    path: string,
    private readonly options: EventStoreOptions = {},
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // NORMAL keeps every committed transaction across a process crash; only an OS crash can lose the last ones.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // The log is appended to at its end and read back only at a restart or an export, so a
    // large page cache buys nothing; better-sqlite3's default (16 MB) would fill with old
    // pages and sit in the hub's resident memory.
    this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
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
    this.migrate();
    this.insertLog = this.db.prepare(
      'INSERT INTO log (table_id, match_id, kind, body, hub_time, board_us, seq, at, ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertMatch = this.db.prepare('INSERT INTO matches (table_id, started_at) VALUES (?, ?)');
    this.insertQueued = this.db.transaction((rows: QueuedRow[]) => {
      for (const row of rows) this.insertLog.run(...row.params);
    });
  }

  private migrate(): void {
    runMigrations(this.db, 'schema_version', MIGRATIONS);
  }


  /** Starts a match: its id, and the match line stored with it, in one transaction. */
  startMatch(table: string, matchLine: string, hubTime: number, at: string): number {
    this.commitQueued();
    return this.db.transaction(() => {
      const id = Number(this.insertMatch.run(table, at).lastInsertRowid);
      this.insertLog.run(table, id, 'match', matchLine, hubTime, null, null, at, null);
      return id;
    })();
  }

  /**
   * Appends one row; returns its id. Synchronous: when it returns, the row is committed
   * (after every row queued before it, so the log keeps arrival order).
   */
  append(table: string, match: number | null, kind: LogKind, body: string, hubTime: number, at: string, extra: RowExtra = {}): number {
    this.commitQueued();
    return Number(this.insertLog.run(table, match, kind, body, hubTime, extra.boardUs ?? null, extra.seq ?? null, at, extra.ref ?? null).lastInsertRowid);
  }

  /**
   * Group commit for the sensor stream: queues a row and calls `onStored` once it is
   * committed, in one transaction with every row queued in the same turn of the event loop
   * (16 boards' frames that arrive together cost one WAL write, not sixteen). Publishing in
   * `onStored` keeps the rule: durable before visible.
   */
  appendSoon(table: string, match: number | null, kind: LogKind, body: string, hubTime: number, at: string, extra: RowExtra, onStored: () => void): void {
    this.queued.push({ params: [table, match, kind, body, hubTime, extra.boardUs ?? null, extra.seq ?? null, at, extra.ref ?? null], onStored });
    if (!this.commitScheduled) {
      this.commitScheduled = true;
      setImmediate(() => this.commitQueued());
    }
  }

  /** Commits the queued rows, then tells each of them, in order. */
  commitQueued(): void {
    this.commitScheduled = false;
    if (this.queued.length === 0) return;
    const rows = this.queued;
    this.queued = [];
    try {
      this.insertQueued(rows);
    } catch (e) {
      // Nothing of the group is in the log, so nothing of it is published.
      this.options.onGroupError?.(e as Error, rows.length);
      return;
    }
    for (const row of rows) row.onStored();
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

  /** A cheap query that proves the database answers (for /healthz). */
  healthy(): boolean {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.commitQueued();
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
