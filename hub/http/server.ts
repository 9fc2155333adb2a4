import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import type { Hub } from '../hub.ts';

/**
 * The hub's own HTTP surface: health, metrics and the table API (CONTRACT §4). The web
 * panel's pages are mounted on the same server.
 */
export function hubRoutes(hub: Hub): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => {
    const health = hub.health();
    return c.json({ status: health.ok ? 'ok' : 'degraded', ...health }, health.ok ? 200 : 503);
  });
  app.get('/metrics', (c) => c.text(hub.metrics(), 200, { 'content-type': 'text/plain; version=0.0.4' }));
  app.get('/api/tables', (c) => c.json([...hub.tables.values()].map((t) => t.state())));
  app.get('/api/tables/:table', (c) => {
    const table = hub.tables.get(c.req.param('table'));
    return table ? c.json(table.state()) : c.json({ error: `no table '${c.req.param('table')}'` }, 404);
  });
  app.notFound((c) => c.json({ error: `not found: ${c.req.path}` }, 404));
  app.onError((e, c) => c.json({ error: e.message.split('\n')[0] ?? 'internal error' }, 500));
  return app;
}

export async function startHubHttp(hub: Hub, options: { port: number; host: string }): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const app = hubRoutes(hub);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => {
      const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${info.port}`;
      resolve({ url, port: info.port, stop: () => new Promise((done) => server.close(() => done())) });
    });
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`web port ${options.port} on ${options.host} is already in use (set PORT to another port)`) : e),
    );
  });
}
