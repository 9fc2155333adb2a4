import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import { jsonError, needLoginApi, tableParam, type AppDeps, type Env } from './common.ts';

/**
 * Replay clips of a table's camera (issue 16), for logged-in users: the list, newest first,
 * and each clip as MP4. The hub gives the panel read access to its clip store (`clips`
 * option); a panel without it answers 404.
 */
export interface ClipAccess {
  list(table: string): { id: string; at: string; bytes: number }[];
  /** The clip's file, or null for an id that cannot be one. */
  file(table: string, id: string): string | null;
  /** The clip's detected tracks (hub/camera/clip-tracks.ts), or null. */
  tracks?(table: string, id: string): string | null;
}

export function clipRoutes(app: Hono<Env>, d: AppDeps): void {
  const clips = d.options.clips as ClipAccess | undefined;
  app.get('/api/tables/:table/clips', needLoginApi, (c) => {
    const table = tableParam(c);
    if (!clips) return jsonError(404, 'this panel has no replay clips');
    return c.json(clips.list(table).map((clip) => ({ ...clip, url: `/api/tables/${table}/clips/${clip.id}`, tracks: `/api/tables/${table}/clips/${clip.id}/tracks` })));
  });
  // The tracks drawn over the clip: a clip written without a detector has none (404).
  app.get('/api/tables/:table/clips/:clip/tracks', needLoginApi, async (c) => {
    const table = tableParam(c);
    const file = clips?.tracks?.(table, c.req.param('clip'));
    if (!file) return jsonError(404, 'no such clip');
    try {
      return c.body(await readFile(file, 'utf8'), 200, { 'content-type': 'application/json', 'cache-control': 'private, max-age=3600' });
    } catch {
      return jsonError(404, 'this clip has no tracks');
    }
  });
  app.get('/api/tables/:table/clips/:clip', needLoginApi, async (c) => {
    const table = tableParam(c);
    const file = clips?.file(table, c.req.param('clip'));
    if (!file) return jsonError(404, 'no such clip');
    try {
      const bytes = await readFile(file);
      return c.body(bytes, 200, { 'content-type': 'video/mp4', 'cache-control': 'private, max-age=3600' });
    } catch {
      return jsonError(404, 'no such clip (expired?)');
    }
  });
}
