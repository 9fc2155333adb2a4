import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Replay clips on disk: `<dir>/<table>/<id>.mp4`, written by the camera worker for shots
 * that raised a prompt (or on request). They expire by age and by a disk budget per table,
 * oldest first. Ids and table names are checked before they touch a path.
 */
export interface ClipInfo {
  id: string;
  table: string;
  /** ISO time the clip was written. */
  at: string;
  bytes: number;
}

const SAFE = /^[A-Za-z0-9_-]{1,80}$/;

export class ClipStore {
  constructor(private readonly dir: string) {}

  /** Where a clip lives, or null for an id or table that cannot be one. */
  path(table: string, id: string): string | null {
    if (!SAFE.test(table) || !SAFE.test(id)) return null;
    return join(this.dir, table, `${id}.mp4`);
  }

  /** The clip's detected tracks (hub/camera/clip-tracks.ts), beside it. */
  tracksPath(table: string, id: string): string | null {
    if (!SAFE.test(table) || !SAFE.test(id)) return null;
    return join(this.dir, table, `${id}.tracks.json`);
  }

  /** A fresh clip id for a table: time-ordered, so the newest sorts last. */
  newId(reason: 'prompt' | 'request', nowMs: number, shot: number): string {
    return `${nowMs.toString().padStart(14, '0')}-${reason}-shot${shot}`;
  }

  /** The table's clips, newest first. */
  list(table: string): ClipInfo[] {
    if (!SAFE.test(table)) return [];
    const dir = join(this.dir, table);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const clips: ClipInfo[] = [];
    for (const name of names) {
      if (!name.endsWith('.mp4')) continue;
      try {
        const s = statSync(join(dir, name));
        clips.push({ id: name.slice(0, -4), table, at: s.mtime.toISOString(), bytes: s.size });
      } catch {
        // removed meanwhile
      }
    }
    return clips.sort((a, b) => (a.id < b.id ? 1 : -1));
  }

  /** Deletes clips older than maxAgeMs, then the oldest until the table's clips fit budgetBytes. Returns how many went. */
  expire(table: string, nowMs: number, maxAgeMs: number, budgetBytes: number): number {
    let removed = 0;
    let total = 0;
    for (const clip of this.list(table)) {
      total += clip.bytes;
      if (nowMs - Date.parse(clip.at) > maxAgeMs || total > budgetBytes) {
        rmSync(this.path(table, clip.id)!, { force: true });
        rmSync(this.tracksPath(table, clip.id)!, { force: true });
        total -= clip.bytes;
        removed += 1;
      }
    }
    return removed;
  }

  ensure(table: string): void {
    if (SAFE.test(table)) mkdirSync(join(this.dir, table), { recursive: true });
  }
}
