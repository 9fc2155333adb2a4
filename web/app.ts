import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { HubRequestError } from './mqtt-link.ts';
import { apiRoutes } from './routes/api.ts';
import { jsonError, type AppDeps, type Env } from './routes/common.ts';
import { liveRoutes } from './routes/live.ts';
import { loginRoutes } from './routes/login.ts';
import { pageRoutes } from './routes/pages.ts';
import { leagueRoutes } from './routes/league.ts';
import { clipRoutes } from './routes/clips.ts';
import { trackerRoutes } from './routes/tracker.ts';
import { calibrationRoutes } from './routes/calibration.ts';
import { security } from './security.ts';
import { staticRoutes } from './routes/static.ts';
import { visionRoutes } from './routes/vision.ts';

export type { AppDeps } from './routes/common.ts';
export { SESSION_COOKIE } from './routes/common.ts';
export { exportText } from './routes/api.ts';

/** The Hono app: security first, then each concern's routes, one JSON 404 and one onError. */
export function buildApp(d: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  security(app, d);
  apiRoutes(app, d);
  liveRoutes(app, d);
  pageRoutes(app, d);
  staticRoutes(app);
  visionRoutes(app);
  leagueRoutes(app, d);
  clipRoutes(app, d);
  trackerRoutes(app, d);
  calibrationRoutes(app, d);
  loginRoutes(app, d);
  app.notFound((c) => jsonError(404, `not found: ${c.req.method} ${c.req.path}`));
  app.onError((e, c) => {
    if (e instanceof HTTPException) return jsonError(e.status, e.message || 'error');
    if (e instanceof HubRequestError) return jsonError(e.status, e.message);
    console.error(`web panel: ${c.req.method} ${c.req.path}: ${(e as Error).message}`);
    return jsonError(500, 'internal error');
  });

  return app;
}

