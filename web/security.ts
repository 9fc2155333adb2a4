import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { sameText } from './auth.ts';
import { jsonError, ownOrigin, SESSION_COOKIE, type AppDeps, type Env } from './routes/common.ts';

/** Secure headers with a CSP of 'self' only, the session lookup, and CSRF + Origin checks. */
export function security(app: Hono<Env>, d: AppDeps): void {
  const { options, sessions } = d;
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        // The tracker page (/tracker/:table) publishes to the broker's MQTT-over-WebSocket port.
        connectSrc: ["'self'", (c) => (c.req.path.startsWith('/tracker/') ? 'ws: wss:' : '')],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
      referrerPolicy: 'same-origin',
    }),
  );

  // No request needs more than this (a shot of 500 events is about 50 kB).
  app.use('*', bodyLimit({ maxSize: 256 * 1024, onError: () => jsonError(413, 'the request body is too large (at most 256 kB)') }));

  app.use('*', async (c, next) => {
    c.set('session', sessions.get(getCookie(c, SESSION_COOKIE)));
    await next();
  });

  // CSRF: every state-changing request must come from our own origin and carry the session's token.
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const origin = c.req.header('origin');
    const own = ownOrigin(c, options.trustProxy);
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

}
