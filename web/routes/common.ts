import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import { isLang, pickLang, type Lang } from '../i18n.ts';
import type { z } from 'zod';
import { describeIssues } from '../../hub/rules/result.ts';
import type { RateLimiter, Session, SessionStore } from '../auth.ts';
import type { MqttLink } from '../mqtt-link.ts';
import type { ResolvedOptions } from '../options.ts';
import type { StreamRegistry } from '../sse.ts';
import { TABLE_ID, type TableStore } from '../store.ts';
import type { LeagueCache } from '../league-store.ts';

/** What every route module gets: the parsed options and the panel's services. */
export interface AppDeps {
  options: ResolvedOptions;
  store: TableStore;
  /** The house league's latest retained state (issue 8). */
  league: LeagueCache;
  link: MqttLink;
  sessions: SessionStore;
  loginLimiter: RateLimiter;
  streams: StreamRegistry;
  clientIp: (c: Context) => string;
}

export type Env = { Variables: { session: Session | null } };

export const SESSION_COOKIE = 'bsid';

export const jsonError = (status: number, error: string) => Response.json({ error }, { status });

/** A bad request body's first problem, in the project's one format (hub/rules/result.ts). */
export function zodMessage(error: z.ZodError): string {
  return describeIssues('', error, { first: true });
}

export const needLoginApi: MiddlewareHandler<Env> = async (c, next) => (c.get('session') ? next() : jsonError(401, 'log in first'));
export const needLoginPage: MiddlewareHandler<Env> = async (c, next) =>
  c.get('session') ? next() : c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);

/** The `:table` parameter, or a 404 for anything that cannot be a table id. */
export function tableParam(c: Context): string {
  const table = c.req.param('table') ?? '';
  if (!TABLE_ID.test(table)) throw new HTTPException(404, { message: `unknown table '${table.slice(0, 40)}'` });
  return table;
}

/** This panel's origin as the browser sees it (behind a trusted proxy: X-Forwarded-Proto/Host). */
export function ownOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (!trustProxy) return url.origin;
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
  const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || url.host;
  return `${proto}://${host}`;
}

/** Reads a JSON request body and checks it against a schema: the data, or a 400 answer naming the problem. */
export async function readJsonBody<T extends z.ZodType>(c: { req: { json(): Promise<unknown> } }, schema: T): Promise<{ ok: true; data: z.infer<T> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return { ok: false, response: jsonError(400, 'the body must be a JSON object') };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, response: jsonError(400, zodMessage(parsed.error)) };
}

/** The request's language; `?lang=` (the switch on every page) is remembered in a cookie for this browser. */
export function requestLang(c: Context, venue: Lang): Lang {
  const query = c.req.query('lang');
  if (isLang(query) && getCookie(c, 'lang') !== query) setCookie(c, 'lang', query, { path: '/', maxAge: 365 * 24 * 3600, sameSite: 'Lax', httpOnly: true });
  return pickLang(query, getCookie(c, 'lang'), venue);
}
