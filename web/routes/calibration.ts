import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { html } from 'hono/html';
import { messages } from '../i18n.ts';
import { calibrationBody, calibrationText } from '../pages/calibration.ts';
import { layout } from '../pages/layout.ts';
import { tableName } from '../pages/scoreboard.ts';
import { jsonError, needLoginApi, needLoginPage, readJsonBody, requestLang, tableParam, type AppDeps, type Env } from './common.ts';

/**
 * The camera calibration (issue 16), for the referee (logged in; changes carry the CSRF
 * token): the page, the camera's newest frame as a PNG, the corners in use with the table's
 * lines through them, a check of proposed corners, "find automatically", and Save. The hub
 * gives the panel this access (`camera` option); a panel without it answers 404.
 */
export type Corners = [number, number][];
type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface CameraAccess {
  /** The table's camera calibration (size, corners, lines), or null: the table has no camera. */
  calibration(table: string): unknown | null;
  snapshot(table: string): Promise<Outcome<Uint8Array>>;
  preview(table: string, corners: Corners): Outcome<unknown>;
  findCorners(table: string): Promise<Outcome<Corners>>;
  saveCalibration(table: string, corners: Corners): Promise<Outcome<unknown>>;
}

const pixel = z.number({ error: 'each corner coordinate must be a number (pixels)' }).finite('each corner coordinate must be a finite number');
/** The boundary: exactly four [x, y] pairs of finite numbers; geometry (convex, in order, in the image) is the hub's check. */
export const cornersBody = z.strictObject({
  corners: z
    .array(z.tuple([pixel, pixel], { error: 'each corner must be an [x, y] pair' }), { error: 'corners must be a list of four [x, y] pairs' })
    .length(4, 'four corners are needed, in the order head-left, foot-left, foot-right, head-right'),
});

export function calibrationRoutes(app: Hono<Env>, d: AppDeps): void {
  const camera = d.options.camera as CameraAccess | undefined;
  const noCamera = (table: string) => jsonError(404, `table '${table}' has no camera on this hub`);

  app.get('/calibration/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    const lang = requestLang(c, d.options.language);
    const s = c.get('session');
    const name = tableName(d.store.get(table)?.state ?? null, table, messages(lang));
    return c.html(layout({ title: calibrationText(lang).title(name), body: html`${calibrationBody(table, name, lang)}`, csrf: s?.csrf ?? null, user: s?.username ?? null, nav: true, lang, path: new URL(c.req.url).pathname, scripts: ['calibration.js'], bodyClass: 'page-calibration' }));
  });

  app.get('/api/tables/:table/camera/frame.png', needLoginApi, async (c) => {
    const table = tableParam(c);
    if (!camera?.calibration(table)) return noCamera(table);
    const frame = await camera.snapshot(table);
    if (!frame.ok) return jsonError(503, frame.error);
    return c.body(new Uint8Array(frame.value), 200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
  });

  app.get('/api/tables/:table/calibration', needLoginApi, (c) => {
    const table = tableParam(c);
    const view = camera?.calibration(table);
    return view ? c.json(view) : noCamera(table);
  });

  const withCorners = async (c: Context<Env>, then: (table: string, corners: Corners) => Promise<Response> | Response) => {
    const table = tableParam(c);
    if (!camera?.calibration(table)) return noCamera(table);
    const body = await readJsonBody(c, cornersBody);
    if (!body.ok) return body.response;
    return then(table, body.data.corners.map(([x, y]) => [x, y] as [number, number]));
  };

  app.post('/api/tables/:table/calibration/preview', needLoginApi, (c) =>
    withCorners(c, (table, corners) => {
      const r = camera!.preview(table, corners);
      return r.ok ? c.json({ corners, lines: r.value }) : jsonError(400, r.error);
    }),
  );

  app.post('/api/tables/:table/calibration/find', needLoginApi, async (c) => {
    const table = tableParam(c);
    if (!camera?.calibration(table)) return noCamera(table);
    const found = await camera.findCorners(table);
    if (!found.ok) return jsonError(422, `the table was not found in the picture: ${found.error}`);
    const lines = camera.preview(table, found.value);
    return lines.ok ? c.json({ corners: found.value, lines: lines.value }) : jsonError(422, `the corners found do not calibrate: ${lines.error}`);
  });

  app.put('/api/tables/:table/calibration', needLoginApi, (c) =>
    withCorners(c, async (table, corners) => {
      const r = await camera!.saveCalibration(table, corners);
      return r.ok ? c.json(r.value) : jsonError(400, r.error);
    }),
  );
}
