import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { seasonSchema, type Fixture, type LeagueResult, type Season } from './types.ts';
import { runMigrations } from '../store/migrate.ts';

/**
 * The league's tables in the hub's SQLite file, on a connection of its own (WAL lets the
 * event store and this one share the file) with its own schema version and migrations.
 * Results are append-only: a correction is a new version with who, why and when; nothing
 * is deleted or overwritten.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE league_seasons (
     id TEXT PRIMARY KEY,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE league_fixtures (
     id TEXT PRIMARY KEY,
     season TEXT NOT NULL REFERENCES league_seasons(id),
     round INTEGER NOT NULL,
     date TEXT NOT NULL,
     home TEXT NOT NULL,
     away TEXT NOT NULL
   );
   CREATE INDEX league_fixtures_season ON league_fixtures(season, round);
   CREATE TABLE league_results (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     fixture TEXT NOT NULL REFERENCES league_fixtures(id),
     version INTEGER NOT NULL,
     source TEXT NOT NULL CHECK (source IN ('table','manual')),
     body TEXT NOT NULL,
     by TEXT NOT NULL,
     reason TEXT NOT NULL,
     at TEXT NOT NULL,
     table_id TEXT,
     UNIQUE (fixture, version)
   );
   CREATE TABLE league_links (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     table_id TEXT NOT NULL,
     fixture TEXT NOT NULL REFERENCES league_fixtures(id),
     started_at TEXT NOT NULL,
     ended_at TEXT,
     outcome TEXT
   );
   CREATE TABLE league_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO league_meta (key, value) VALUES ('seq', 0);`,
];

export interface LeagueLink {
  id: number;
  table: string;
  fixture: string;
}

export class LeagueStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
  }

  private migrate(): void {
    runMigrations(this.db, 'league_schema_version', MIGRATIONS);
  }

  /** Each statement is compiled once: the table's every state change reads the open links. */
  private readonly statements = new Map<string, Database.Statement>();
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  get schemaVersion(): number {
    return (this.sql('SELECT version FROM league_schema_version').get() as { version: number }).version;
  }

  /** Runs `fn` in one transaction: everything or nothing. */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  bumpSeq(): number {
    this.sql("UPDATE league_meta SET value = value + 1 WHERE key = 'seq'").run();
    return this.seq();
  }

  seq(): number {
    return (this.sql("SELECT value FROM league_meta WHERE key = 'seq'").get() as { value: number }).value;
  }

  putSeason(season: Season, at: string): void {
    this.sql('INSERT INTO league_seasons (id, body, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body').run(season.id, JSON.stringify(season), at);
  }

  seasons(): Season[] {
    return (this.sql('SELECT body FROM league_seasons ORDER BY created_at, id').all() as { body: string }[]).map((r) => seasonSchema.parse(JSON.parse(r.body)));
  }

  addFixtures(fixtures: readonly Fixture[]): void {
    const insert = this.sql('INSERT INTO league_fixtures (id, season, round, date, home, away) VALUES (@id, @season, @round, @date, @home, @away)');
    for (const f of fixtures) insert.run(f);
  }

  fixtures(season?: string): Fixture[] {
    const sql = 'SELECT id, season, round, date, home, away FROM league_fixtures' + (season ? ' WHERE season = ?' : '') + ' ORDER BY season, round, rowid';
    return (season ? this.sql(sql).all(season) : this.sql(sql).all()) as Fixture[];
  }

  addResult(r: Omit<LeagueResult, 'version'>): LeagueResult {
    const version = ((this.sql('SELECT MAX(version) AS v FROM league_results WHERE fixture = ?').get(r.fixture) as { v: number | null }).v ?? 0) + 1;
    const body = JSON.stringify({ home: r.home, away: r.away, winner: r.winner });
    this.sql('INSERT INTO league_results (fixture, version, source, body, by, reason, at, table_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(r.fixture, version, r.source, body, r.by, r.reason, r.at, r.table);
    return { ...r, version };
  }

  /** Every version of every result (the audit trail), oldest first. */
  allResults(): LeagueResult[] {
    const rows = this.sql('SELECT fixture, version, source, body, by, reason, at, table_id FROM league_results ORDER BY id').all() as {
      fixture: string;
      version: number;
      source: 'table' | 'manual';
      body: string;
      by: string;
      reason: string;
      at: string;
      table_id: string | null;
    }[];
    return rows.map((r) => ({ fixture: r.fixture, version: r.version, source: r.source, ...(JSON.parse(r.body) as Pick<LeagueResult, 'home' | 'away' | 'winner'>), by: r.by, reason: r.reason, at: r.at, table: r.table_id }));
  }

  openLinks(): LeagueLink[] {
    return this.sql('SELECT id, table_id AS "table", fixture FROM league_links WHERE ended_at IS NULL ORDER BY id').all() as LeagueLink[];
  }

  link(table: string, fixture: string, at: string): void {
    this.sql("UPDATE league_links SET ended_at = ?, outcome = 'replaced' WHERE table_id = ? AND ended_at IS NULL").run(at, table);
    this.sql('INSERT INTO league_links (table_id, fixture, started_at) VALUES (?, ?, ?)').run(table, fixture, at);
  }

  endLink(id: number, at: string, outcome: 'recorded' | 'abandoned'): void {
    this.sql('UPDATE league_links SET ended_at = ?, outcome = ? WHERE id = ?').run(at, outcome, id);
  }

  healthy(): boolean {
    try {
      this.sql('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
