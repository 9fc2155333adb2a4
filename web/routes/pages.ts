import { readFile } from 'node:fs/promises';
import type { Context, Hono } from 'hono';
import { h, jsonBlock } from '../html.ts';
import { hardwareBody } from '../pages/hardware.ts';
import { layout } from '../pages/layout.ts';
import { overviewFragment } from '../pages/overview.ts';
import { refereeForms, refereeFragment } from '../pages/referee.ts';
import { scoreboardFragment } from '../pages/scoreboard.ts';
import { jsonError, needLoginPage, tableParam, type AppDeps, type Env } from './common.ts';

const STATIC: Record<string, string> = {
  'panel.css': 'text/css; charset=utf-8',
  'common.js': 'text/javascript; charset=utf-8',
  'scoreboard.js': 'text/javascript; charset=utf-8',
  'overview.js': 'text/javascript; charset=utf-8',
  'referee.js': 'text/javascript; charset=utf-8',
  'hardware.js': 'text/javascript; charset=utf-8',
  'league.js': 'text/javascript; charset=utf-8',
  'replay-clip.js': 'text/javascript; charset=utf-8',
  'tracker.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};
const staticCache = new Map<string, string>();
async function staticFile(name: string): Promise<string> {
  let text = staticCache.get(name);
  if (text === undefined) {
    text = await readFile(new URL(`../static/${name}`, import.meta.url), 'utf8');
    staticCache.set(name, text);
  }
  return text;
}

function queryNumber(v: string | undefined, min: number, max: number, fallback: number): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

/** The pages (server-rendered; the scripts in static/ keep them live) and their assets. */
export function pageRoutes(app: Hono<Env>, d: AppDeps): void {
  const { options, store } = d;
  const now = () => options.clock();
  const page = (c: Context<Env>, title: string, body: ReturnType<typeof h>, extra: { bodyClass?: string; scripts?: string[]; nav?: boolean } = {}) => {
    const s = c.get('session');
    return c.html(layout({ title, body, csrf: s?.csrf ?? null, user: s?.username ?? null, nav: extra.nav ?? true, ...extra }));
  };

  app.get('/', (c) =>
    page(c, 'Venue overview · Billiards', h`<main class="overview"><h1>Venue overview</h1><div id="live">${overviewFragment(store.list(), now(), c.get('session') !== null, store.hubList())}</div></main>`, {
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
      h`<main class="referee" data-table="${table}"><div class="ref-grid"><div class="ref-live"><div id="live">${refereeFragment(store.get(table), table)}</div><div id="toast" class="toast" role="status" aria-live="polite"></div><aside id="replay-clip" class="card" data-table="${table}" hidden></aside></div><div class="ref-forms">${refereeForms(table)}</div></div></main>`,
      { scripts: ['referee.js', 'replay-clip.js'], bodyClass: 'page-referee' },
    );
  });

  app.get('/hardware/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    return page(c, `Table ${table} · Hardware`, h`${hardwareBody(table)}<div id="toast" class="toast" role="status" aria-live="polite"></div>`, { scripts: ['hardware.js'], bodyClass: 'page-hardware' });
  });

  app.get('/static/:file', async (c) => {
    const name = c.req.param('file');
    const type = Object.hasOwn(STATIC, name) ? STATIC[name] : undefined;
    if (!type) return jsonError(404, 'not found');
    return c.body(await staticFile(name), 200, { 'content-type': type, 'cache-control': 'no-cache' });
  });

}
