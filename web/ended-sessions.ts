import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Sessions a referee logged out of, kept in a file (DATA_DIR/sessions-ended) so that a signed
 * session id is not taken up again after a restart. One line per session: the SHA-256 of its
 * id (never the id) and when it was issued; lines older than the session lifetime are dropped
 * when the file is read. Without a file the list lives in memory only. A file that cannot be
 * read or written does not stop the panel: the list then holds for this process.
 */
export class EndedSessions {
  private readonly ended = new Map<string, number>();
  /** The last problem with the file, for the operator (null: none). */
  problem: string | null = null;

  constructor(
    private readonly file: string | null,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    if (file && existsSync(file)) this.load(file);
  }

  has(id: string): boolean {
    return this.ended.has(digest(id));
  }

  add(id: string, issuedAt: number): void {
    const key = digest(id);
    if (this.ended.has(key)) return;
    this.ended.set(key, issuedAt);
    if (!this.file) return;
    try {
      appendFileSync(this.file, `${key} ${issuedAt}\n`, { mode: 0o600 });
    } catch (e) {
      this.problem = `${this.file}: ${(e as Error).message}`;
    }
  }

  private load(file: string): void {
    try {
      const oldest = this.now() - this.ttlMs;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const [key, at] = line.trim().split(' ');
        const issuedAt = Number(at);
        if (key && /^[0-9a-f]{64}$/.test(key) && Number.isFinite(issuedAt) && issuedAt >= oldest) this.ended.set(key, issuedAt);
      }
      // Rewritten without the expired lines, so the file stays as small as the sessions alive.
      writeFileSync(`${file}.tmp`, [...this.ended].map(([k, at]) => `${k} ${at}\n`).join(''), { mode: 0o600 });
      chmodSync(`${file}.tmp`, 0o600);
      renameSync(`${file}.tmp`, file);
    } catch (e) {
      this.problem = `${file}: ${(e as Error).message}`;
    }
  }
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex');
