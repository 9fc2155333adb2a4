import type { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { PasswordVerifier, sameText } from '../auth.ts';
import { loginPage } from '../pages/login.ts';
import { messages } from '../i18n.ts';
import { jsonError, ownOrigin, requestLang, SESSION_COOKIE, zodMessage, type AppDeps, type Env } from './common.ts';

const loginSchema = z.object({ username: z.string().max(200), password: z.string().max(200), next: z.string().max(500).optional() });

/** Only a local path may follow a login: never another site. */
export function safeNext(next: string | undefined): string {
  return next && /^\/(?!\/)[A-Za-z0-9_\-/?=&.%]*$/.test(next) ? next : '/';
}

/** Login (form or JSON, rate-limited per client IP) and logout. */
export function loginRoutes(app: Hono<Env>, d: AppDeps): void {
  const { options, sessions } = d;
  // One scrypt check per password in ten minutes, not per login (16 MB and tens of ms each).
  const passwords = new PasswordVerifier();
  const lang = (c: Parameters<typeof requestLang>[0]) => requestLang(c, options.language);
  app.get('/login', (c) => c.html(loginPage(safeNext(c.req.query('next')), null, lang(c))));

  app.post('/login', async (c) => {
    const wantsJson = (c.req.header('content-type') ?? '').startsWith('application/json');
    const wait = d.loginLimiter.hit(d.clientIp(c));
    if (wait > 0) {
      c.header('retry-after', String(wait));
      if (wantsJson) return c.json({ error: `too many login attempts: wait ${wait} s` }, 429);
      return c.html(loginPage('/', messages(lang(c)).loginTooMany(wait), lang(c)), 429);
    }
    let raw: unknown;
    try {
      raw = wantsJson ? await c.req.json() : await c.req.parseBody();
    } catch {
      return jsonError(400, 'the body must be a login form or JSON');
    }
    const parsed = loginSchema.safeParse(raw);
    if (!parsed.success) return wantsJson ? jsonError(400, zodMessage(parsed.error)) : c.html(loginPage('/', messages(lang(c)).loginEnterBoth, lang(c)), 400);
    const { username, password, next } = parsed.data;
    const userOk = sameText(username, options.venue.username);
    const passOk = await passwords.verify(password, options.venue.passwordHash);
    if (!userOk || !passOk) {
      if (wantsJson) return jsonError(401, 'wrong user name or password');
      return c.html(loginPage(safeNext(next), messages(lang(c)).loginWrong, lang(c)), 401);
    }
    const old = c.get('session');
    if (old) sessions.destroy(old.id);
    const session = sessions.create(username);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: ownOrigin(c, options.trustProxy).startsWith('https:'),
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

}
