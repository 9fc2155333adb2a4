import { readFile } from 'node:fs/promises';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import { commandSchemas, type CommandName } from '../hub/contract/mqtt.ts';
import { RateLimiter, SessionStore, sameText, verifyPassword, type Session } from './auth.ts';
import { h, jsonBlock } from './html.ts';
import { HubRequestError, type MqttLink } from './mqtt-link.ts';
import type { ResolvedOptions } from './options.ts';
import { hardwareBody } from './pages/hardware.ts';
import { layout } from './pages/layout.ts';
import { loginPage } from './pages/login.ts';
import { overviewFragment } from './pages/overview.ts';
import { refereeForms, refereeFragment } from './pages/referee.ts';
import { scoreboardFragment } from './pages/scoreboard.ts';
import { sseStream, type StreamRegistry } from './sse.ts';
import { TABLE_ID, type TableStore } from './store.ts';

export const SESSION_COOKIE = 'bsid';

export interface AppDeps {
  options: ResolvedOptions;
  store: TableStore;
  link: MqttLink;
  sessions: SessionStore;
  loginLimiter: RateLimiter;
  streams: StreamRegistry;
  clientIp: (c: Context) => string;
}

type Env = { Variables: { session: Session | null } };

const STATIC: Record<string, string> = {
  'panel.css': 'text/css; charset=utf-8',
  'common.js': 'text/javascript; charset=utf-8',
  'scoreboard.js': 'text/javascript; charset=utf-8',
  'overview.js': 'text/javascript; charset=utf-8',
  'referee.js': 'text/javascript; charset=utf-8',
  'hardware.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};
const staticCache = new Map<string, string>();
async function staticFile(name: string): Promise<string> {
  let text = staticCache.get(name);
  if (text === undefined) {
    text = await readFile(new URL(`./static/${name}`, import.meta.url), 'utf8');
    staticCache.set(name, text);
  }
  return text;
}

const jsonError = (status: number, error: string) => Response.json({ error }, { status });

function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.join('.');
  const extra = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
  return `${path ? `${path}: ` : ''}${issue.message}${extra}`;
}

const omitEnvelope = { transaction: true, password: true, table: true } as const;
const bodies = {
  match: commandSchemas['match/start'].omit(omitEnvelope),
  shot: commandSchemas['match/shot'].omit(omitEnvelope),
  referee: commandSchemas['match/referee'].omit(omitEnvelope),
  'next-shot': commandSchemas['match/next-shot'].omit(omitEnvelope),
  thresholds: commandSchemas['table/thresholds'].omit(omitEnvelope),
} as const;
const commandOf: Record<keyof typeof bodies, CommandName> = {
  match: 'match/start',
  shot: 'match/shot',
  referee: 'match/referee',
  'next-shot': 'match/next-shot',
  thresholds: 'table/thresholds',
};

const loginSchema = z.object({ username: z.string().max(200), password: z.string().max(200), next: z.string().max(500).optional() });

function safeNext(next: string | undefined): string {
  return next && /^\/(?!\/)[A-Za-z0-9_\-/?=&.%]*$/.test(next) ? next : '/';
}

function queryNumber(v: string | undefined, min: number, max: number, fallback: number): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

export function buildApp(d: AppDeps): Hono<Env> {
  const { options, store, link, sessions } = d;
  const app = new Hono<Env>();

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
      referrerPolicy: 'same-origin',
    }),
  );

  app.use('*', async (c, next) => {
    c.set('session', sessions.get(getCookie(c, SESSION_COOKIE)));
    await next();
  });

  // CSRF: every state-changing request must come from our own origin and carry the session's token.
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const origin = c.req.header('origin');
    const own = ownOrigin(c);
    if (origin !== undefined && origin !== own) return jsonError(403, 'cross-origin request refused');
    if (c.req.path === '/login') return next();
    const session = c.get('session');
    if (!session) return jsonError(401, 'log in first');
    let token = c.req.header('x-csrf-token');
    if (token === undefined && (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
      const form = await c.req.parseBody();
      token = typeof form.csrf === 'string' ? form.csrf : undefined;
    }
    if (token === undefined || !sameText(token, session.csrf)) return jsonError(403, 'missing or bad CSRF token');
    return next();
  });

  /** This panel's origin as the browser sees it (behind a trusted proxy: X-Forwarded-Proto/Host). */
  function ownOrigin(c: Context): string {
    const url = new URL(c.req.url);
    if (!options.trustProxy) return url.origin;
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || url.host;
    return `${proto}://${host}`;
  }

  const needLoginApi: MiddlewareHandler<Env> = async (c, next) => (c.get('session') ? next() : jsonError(401, 'log in first'));
  const needLoginPage: MiddlewareHandler<Env> = async (c, next) =>
    c.get('session') ? next() : c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);

  const tableParam = (c: Context): string => {
    const table = c.req.param('table') ?? '';
    if (!TABLE_ID.test(table)) throw new HTTPException(404, { message: `unknown table '${table.slice(0, 40)}'` });
    return table;
  };

  // ---- API (CONTRACT §4)
  app.get('/healthz', (c) => {
    let extra: Record<string, unknown> = {};
    let ok = true;
    if (options.health) {
      try {
        const r = options.health();
        ok = r.ok === true;
        extra = { ...r };
        delete extra.ok;
      } catch (e) {
        ok = false;
        extra = { healthError: (e as Error).message };
      }
    }
    const broker = link.connected;
    const body = { ...extra, status: ok && broker ? 'ok' : 'error', broker: broker ? 'connected' : 'disconnected', tables: store.list().length };
    if (!(ok && broker)) return c.json({ ...body, error: broker ? 'the health check failed' : 'not connected to the MQTT broker' }, 503);
    return c.json(body, 200);
  });

  app.get('/api/tables', (c) => c.json(store.states()));
  app.get('/api/tables/:table', (c) => {
    const table = tableParam(c);
    const state = store.get(table)?.state;
    if (!state) return jsonError(404, `unknown table '${table}'`);
    return c.json(state);
  });

  const password = (c: Context<Env>): string => options.commandPassword ?? c.get('session')!.password;

  for (const route of Object.keys(bodies) as (keyof typeof bodies)[]) {
    app.post(`/api/tables/:table/${route}`, needLoginApi, async (c) => {
      const table = tableParam(c);
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return jsonError(400, 'the body must be a JSON object');
      }
      const parsed = bodies[route].safeParse(raw);
      if (!parsed.success) return jsonError(400, zodMessage(parsed.error));
      const data = await link.request(commandOf[route], { ...parsed.data, table, password: password(c) });
      return c.json({ ok: true, data });
    });
  }

  app.get('/api/tables/:table/export', needLoginApi, async (c) => {
    const table = tableParam(c);
    const format = c.req.query('format') ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv') return jsonError(400, "format: 'jsonl' or 'csv'");
    const data = await link.request('match/export', { table, format });
    const text = exportText(data);
    return c.body(text, 200, {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="table-${table}.${format}"`,
    });
  });

  // ---- live streams
  const now = () => options.clock();
  const recPayload = (table: string) => {
    const rec = store.get(table);
    return { table, state: rec?.state ?? null, availability: rec?.availability ?? null, health: rec?.health ?? null };
  };
  app.get('/events', (c) => {
    const view = c.req.query('view');
    const loggedIn = c.get('session') !== null;
    if (view === 'overview') {
      return sseStream(c, { store, registry: d.streams, table: null, payload: () => ({ html: overviewFragment(store.list(), now(), loggedIn).value }), refreshMs: 5000, whole: true });
    }
    return sseStream(c, { store, registry: d.streams, table: null, payload: recPayload });
  });
  app.get('/events/:table', (c) => {
    const table = tableParam(c);
    const view = c.req.query('view');
    const render =
      view === 'scoreboard' || view === 'overlay'
        ? () => scoreboardFragment(store.get(table), table, { compact: view === 'overlay' }).value
        : view === 'referee'
          ? () => refereeFragment(store.get(table), table).value
          : null;
    return sseStream(c, { store, registry: d.streams, table, payload: () => ({ ...recPayload(table), ...(render ? { html: render() } : {}) }) });
  });

  // ---- pages
  const page = (c: Context<Env>, title: string, body: ReturnType<typeof h>, extra: { bodyClass?: string; scripts?: string[]; nav?: boolean } = {}) => {
    const s = c.get('session');
    return c.html(layout({ title, body, csrf: s?.csrf ?? null, user: s?.username ?? null, nav: extra.nav ?? true, ...extra }));
  };

  app.get('/', (c) =>
    page(c, 'Venue overview · Billiards', h`<main class="overview"><h1>Venue overview</h1><div id="live">${overviewFragment(store.list(), now(), c.get('session') !== null)}</div></main>`, {
      scripts: ['overview.js'],
      bodyClass: 'page-overview',
    }),
  );

  const displayConfig = (c: Context) => ({
    clock: queryNumber(c.req.query('clock'), 0, 600, 0),
    ext: queryNumber(c.req.query('ext'), 0, 9, 0),
    warn: queryNumber(c.req.query('warn'), 0, 600, 10),
    speak: c.req.query('speak') === '1',
  });

  app.get('/tables/:table', (c) => {
    const table = tableParam(c);
    const cfg = { ...displayConfig(c), table, view: 'scoreboard' };
    const mirror = c.req.query('mirror') === '1';
    return page(
      c,
      `Table ${table} · Scoreboard`,
      h`<main class="scoreboard-page">${jsonBlock('config', cfg)}<div id="live">${scoreboardFragment(store.get(table), table)}</div>${cfg.clock > 0 ? h`<div id="shotclock" class="shotclock" hidden><span class="sc-time">–</span><span class="sc-ext"></span></div>` : ''}</main>`,
      { scripts: ['scoreboard.js'], bodyClass: `page-scoreboard${mirror ? ' mirror' : ''}${cfg.clock > 0 ? ' has-clock' : ''}`, nav: false },
    );
  });

  app.get('/overlay/:table', (c) => {
    const table = tableParam(c);
    const cfg = { ...displayConfig(c), table, view: 'overlay' };
    return page(c, `Table ${table} · Overlay`, h`<main class="overlay-page">${jsonBlock('config', cfg)}<div id="live">${scoreboardFragment(store.get(table), table, { compact: true })}</div></main>`, {
      scripts: ['scoreboard.js'],
      bodyClass: `page-overlay${c.req.query('mirror') === '1' ? ' mirror' : ''}`,
      nav: false,
    });
  });

  app.get('/referee/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    return page(
      c,
      `Table ${table} · Referee`,
      h`<main class="referee" data-table="${table}"><div class="ref-grid"><div class="ref-live"><div id="live">${refereeFragment(store.get(table), table)}</div><div id="toast" class="toast" role="status" aria-live="polite"></div></div><div class="ref-forms">${refereeForms(table)}</div></div></main>`,
      { scripts: ['referee.js'], bodyClass: 'page-referee' },
    );
  });

  app.get('/hardware/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    return page(c, `Table ${table} · Hardware`, h`${hardwareBody(table)}<div id="toast" class="toast" role="status" aria-live="polite"></div>`, { scripts: ['hardware.js'], bodyClass: 'page-hardware' });
  });

  app.get('/login', (c) => c.html(loginPage(safeNext(c.req.query('next')), null)));

  app.post('/login', async (c) => {
    const wantsJson = (c.req.header('content-type') ?? '').startsWith('application/json');
    const wait = d.loginLimiter.hit(d.clientIp(c));
    if (wait > 0) {
      c.header('retry-after', String(wait));
      if (wantsJson) return c.json({ error: `too many login attempts: wait ${wait} s` }, 429);
      return c.html(loginPage('/', `Too many login attempts. Wait ${wait} seconds.`), 429);
    }
    let raw: unknown;
    try {
      raw = wantsJson ? await c.req.json() : await c.req.parseBody();
    } catch {
      return jsonError(400, 'the body must be a login form or JSON');
    }
    const parsed = loginSchema.safeParse(raw);
    if (!parsed.success) return wantsJson ? jsonError(400, zodMessage(parsed.error)) : c.html(loginPage('/', 'Enter a user name and a password.'), 400);
    const { username, password, next } = parsed.data;
    const userOk = sameText(username, options.venue.username);
    const passOk = await verifyPassword(password, options.venue.passwordHash);
    if (!userOk || !passOk) {
      if (wantsJson) return jsonError(401, 'wrong user name or password');
      return c.html(loginPage(safeNext(next), 'Wrong user name or password.'), 401);
    }
    const old = c.get('session');
    if (old) sessions.destroy(old.id);
    const session = sessions.create(username, password);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: ownOrigin(c).startsWith('https:'),
      maxAge: Math.floor(options.sessionTtlMs / 1000),
    });
    if (wantsJson) return c.json({ ok: true, csrf: session.csrf });
    return c.redirect(safeNext(next), 303);
  });

  app.post('/logout', (c) => {
    const s = c.get('session');
    if (s) sessions.destroy(s.id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/', 303);
  });

  app.get('/static/:file', async (c) => {
    const name = c.req.param('file');
    const type = Object.hasOwn(STATIC, name) ? STATIC[name] : undefined;
    if (!type) return jsonError(404, 'not found');
    return c.body(await staticFile(name), 200, { 'content-type': type, 'cache-control': 'no-cache' });
  });

  app.notFound((c) => jsonError(404, `not found: ${c.req.method} ${c.req.path}`));
  app.onError((e, c) => {
    if (e instanceof HTTPException) return jsonError(e.status, e.message || 'error');
    if (e instanceof HubRequestError) return jsonError(e.status, e.message);
    console.error(`web panel: ${c.req.method} ${c.req.path}: ${(e as Error).message}`);
    return jsonError(500, 'internal error');
  });

  return app;
}

/** The hub's export answer, whatever shape it has: a string, or `{content}`/`{text}`/`{lines}`. */
export function exportText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (typeof data === 'object' && data !== null) {
    const o = data as Record<string, unknown>;
    for (const k of ['content', 'text', 'body', 'log', 'csv', 'jsonl']) if (typeof o[k] === 'string') return o[k];
    if (Array.isArray(o.lines)) return o.lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  }
  return JSON.stringify(data ?? null);
}
