import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { etag } from 'hono/etag';
import { fileURLToPath } from 'node:url';
import type { Env } from './common.ts';

/** web/static/ beside this module (dist/web/static/ in the build: app/copy-assets.mjs copies it). */
const STATIC_ROOT = fileURLToPath(new URL('../static/', import.meta.url));

/**
 * `/static/*`: the pages' scripts, style sheet and icon, by Hono's serveStatic (content type
 * from the extension; `..`, `.` and percent-encoded segments refused, so nothing outside
 * web/static/ is reachable). Assets change with each release and their URLs do not, so
 * browsers revalidate (`no-cache`) with a strong ETag and get a 304 while nothing changed.
 * A name not in the folder falls through (to /static/vendor/… or the JSON 404).
 */
export function staticRoutes(app: Hono<Env>): void {
  app.use(
    '/static/*',
    etag(),
    async (c, next) => {
      c.header('Cache-Control', 'no-cache');
      await next();
    },
    serveStatic({ root: STATIC_ROOT, rewriteRequestPath: (path) => path.slice('/static'.length) }),
  );
}
