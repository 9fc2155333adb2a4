import type Database from 'better-sqlite3';

/**
 * Brings a schema up to date: `versionTable` holds how many of `migrations` have run; each
 * further one runs in its own transaction with the version bump, so a crash never leaves
 * half a migration. The hub's event log and the league each keep their own list.
 */
export function runMigrations(db: Database.Database, versionTable: string, migrations: readonly string[]): void {
  if (!/^[a-z_]+$/.test(versionTable)) throw new Error(`runMigrations: bad table name '${versionTable}'`);
  db.exec(`CREATE TABLE IF NOT EXISTS ${versionTable} (version INTEGER NOT NULL)`);
  const row = db.prepare(`SELECT version FROM ${versionTable}`).get() as { version: number } | undefined;
  if (!row) db.prepare(`INSERT INTO ${versionTable} (version) VALUES (0)`).run();
  for (let version = row?.version ?? 0; version < migrations.length; version++) {
    const sql = migrations[version]!;
    db.transaction(() => {
      db.exec(sql);
      db.prepare(`UPDATE ${versionTable} SET version = ?`).run(version + 1);
    })();
  }
}
