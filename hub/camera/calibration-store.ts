import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../rules/result.ts';

/**
 * Camera corners saved from the calibration page (issue 16), kept in DATA_DIR and laid over
 * the configuration's `camera.corners` at every start: the config file stays the venue's
 * own, and a calibration outlives a restart. Written whole (temporary file, fsync, rename):
 * a crash leaves the old file or the new one, never half of one.
 */
const point = z.tuple([z.number().finite(), z.number().finite()]);
export const cornersSchema = z.array(point, { error: 'corners must be a list of [x, y] pixel pairs' }).length(4, 'four corners are needed: head-left, foot-left, foot-right, head-right');

const fileSchema = z.strictObject({
  version: z.literal(1),
  tables: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/), z.strictObject({ corners: cornersSchema, savedAt: z.string() })),
});
type CalibrationFile = z.infer<typeof fileSchema>;

export class CalibrationStore {
  private data: CalibrationFile = { version: 1, tables: {} };
  /** Why the file on disk was not used (it is then left as it is, and replaced at the next save). */
  readonly loadError: string | null = null;

  constructor(private readonly file: string) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.loadError = `${file}: cannot read (${(e as Error).message})`;
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      this.loadError = `${file}: not valid JSON (${(e as Error).message})`;
      return;
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) this.loadError = `${file}: ${describeIssues('', parsed.error, { first: true })}`;
    else this.data = parsed.data;
  }

  corners(table: string): [number, number][] | null {
    const entry = this.data.tables[table];
    return entry ? entry.corners.map(([x, y]) => [x, y] as [number, number]) : null;
  }

  savedAt(table: string): string | null {
    return this.data.tables[table]?.savedAt ?? null;
  }

  /** Saves a table's corners durably; throws (and keeps the old ones) if the disk refuses. */
  save(table: string, corners: [number, number][], at: string): void {
    const next: CalibrationFile = { version: 1, tables: { ...this.data.tables, [table]: { corners, savedAt: at } } };
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    try {
      const dir = openSync(dirname(this.file), 'r');
      fsyncSync(dir);
      closeSync(dir);
    } catch {
      // a directory fsync is not possible everywhere; the rename is still atomic
    }
    this.data = next;
  }
}
