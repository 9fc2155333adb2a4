import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { RateLimiter, SessionStore } from './auth.ts';
import { buildApp } from './app.ts';
import { MqttLink } from './mqtt-link.ts';
import { parseOptions, type WebPanelOptions } from './options.ts';
import { StreamRegistry } from './sse.ts';
import { TableStore } from './store.ts';
import { LeagueCache } from './league-store.ts';

export { hashPassword, verifyPassword } from './auth.ts';
export type { WebPanelOptions } from './options.ts';

export interface WebPanel {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app: Hono<any>;
  start(): Promise<{ port: number; url: string }>;
  stop(): Promise<void>;
}

/**
 * The web panel (issue 6): an MQTT client of its own that keeps every table's latest state,
 * serves the displays, the referee console and the hardware page, and turns console
 * actions into MQTT requests. Construction validates the options and has no side effects;
 * start() connects and listens; stop() closes everything.
 */
export function createWebPanel(input: WebPanelOptions): WebPanel {
  const options = parseOptions(input);
  const store = new TableStore();
  const league = new LeagueCache();
  const link = new MqttLink(options, store, league);
  const sessions = new SessionStore(options.sessionTtlMs, options.clock, options.sessionKey ?? null, options.sessionsEndedFile ?? null);
  const loginLimiter = new RateLimiter(options.loginAttemptsPerMinute, 60_000, options.clock);
  const streams = new StreamRegistry();
  const clientIp = (c: Context): string => {
    if (options.trustProxy) {
      const fwd = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
      if (fwd) return fwd;
    }
    try {
      return getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      return 'local';
    }
  };
  const app = buildApp({ options, store, league, link, sessions, loginLimiter, streams, clientIp });
  let server: Server | null = null;

  return {
    app,
    async start() {
      if (server) throw new Error('web panel: already started');
      // Under TLS the request URLs are https:, so the login sets its cookie `Secure`.
      const s = (options.tls
        ? createAdaptorServer({ fetch: app.fetch, hostname: options.host, createServer: createHttpsServer, serverOptions: { cert: options.tls.cert, key: options.tls.key } })
        : createAdaptorServer({ fetch: app.fetch, hostname: options.host })) as Server;
      await new Promise<void>((resolve, reject) => {
        const onError = (e: NodeJS.ErrnoException) => {
          s.off('listening', onListening);
          const why = e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
          reject(new Error(`web panel: cannot listen on ${options.host}:${options.port}: ${why}`));
        };
        const onListening = () => {
          s.off('error', onError);
          resolve();
        };
        s.once('error', onError);
        s.once('listening', onListening);
        s.listen(options.port, options.host);
      });
      server = s;
      link.start();
      const port = (s.address() as AddressInfo).port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      return { port, url: `${options.tls ? 'https' : 'http'}://${host}:${port}` };
    },
    async stop() {
      streams.closeAll();
      await link.stop();
      const s = server;
      server = null;
      if (s) {
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      sessions.clear();
      store.clear();
      league.clear();
    },
  };
}
