import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { hardwareBody } from '../pages/hardware.ts';
import { calibrationLink } from '../pages/calibration.ts';
import { jsonBlock, layout } from '../pages/layout.ts';
import { overviewFragment } from '../pages/overview.ts';
import { refereeForms, refereeFragment } from '../pages/referee.ts';
import { announcement, scoreboardFragment, tableName } from '../pages/scoreboard.ts';
import { messages, type Lang } from '../i18n.ts';
import { langSwitch, type Html } from '../pages/layout.ts';
import { needLoginPage, requestLang, tableParam, type AppDeps, type Env } from './common.ts';

function queryNumber(v: string | undefined, min: number, max: number, fallback: number): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

/** The pages (server-rendered; the scripts in static/, served by routes/static.ts, keep them live). */
export function pageRoutes(app: Hono<Env>, d: AppDeps): void {
  const { options, store } = d;
  const now = () => options.clock();
  const langOf = (c: Context<Env>) => requestLang(c, options.language);
  const path = (c: Context<Env>) => {
    const url = new URL(c.req.url);
    url.searchParams.delete('lang');
    return `${url.pathname}${url.search}`;
  };
  const page = (c: Context<Env>, title: string, body: Html, extra: { bodyClass?: string; scripts?: string[]; nav?: boolean; lang?: Lang; status?: 404 } = {}) => {
    const s = c.get('session');
    const { status, ...rest } = extra;
    return c.html(layout({ title, body, csrf: s?.csrf ?? null, user: s?.username ?? null, nav: extra.nav ?? true, lang: extra.lang ?? langOf(c), path: path(c), ...rest }), status ?? 200);
  };
  /** A table nobody has announced, once the broker's retained states are in: a page that says so, not a wait forever. */
  const unknownTable = (c: Context<Env>, table: string, lang: Lang) => {
    if (store.get(table) || store.hubList().some((hub) => hub.tables.includes(table)) || store.list().length === 0) return null;
    const m = messages(lang);
    return page(c, `${m.notFoundTitle} · ${m.table(table)}`, html`<main class="notfound"><h1>${m.notFoundTitle}</h1><p>${m.noSuchTable(table)}</p><p><a href="/">${m.backToOverview}</a></p></main>`, { lang, status: 404 });
  };

  app.get('/', (c) => {
    const lang = langOf(c);
    const m = messages(lang);
    return page(c, `${m.overviewTitle} · ${m.brand}`, html`<main class="overview" data-lang="${lang}"><h1>${m.overviewTitle}</h1><div id="live">${overviewFragment(store.list(), now(), c.get('session') !== null, store.hubList(), lang)}</div></main>`, {
      scripts: ['overview.js'],
      bodyClass: 'page-overview',
      lang,
    });
  });

  const displayConfig = (c: Context) => ({
    clock: queryNumber(c.req.query('clock'), 0, 600, 0),
    ext: queryNumber(c.req.query('ext'), 0, 9, 0),
    warn: queryNumber(c.req.query('warn'), 0, 600, 10),
    speak: c.req.query('speak') === '1',
  });

  app.get('/tables/:table', (c) => {
    const table = tableParam(c);
    const lang = langOf(c);
    const missing = unknownTable(c, table, lang);
    if (missing) return missing;
    const cfg = { ...displayConfig(c), table, view: 'scoreboard', lang, say: messages(lang).spoken };
    const mirror = c.req.query('mirror') === '1';
    const rec = store.get(table);
    return page(
      c,
      tableName(rec?.state ?? null, table, messages(lang)),
      html`<main class="scoreboard-page">${jsonBlock('config', cfg)}<div id="live">${scoreboardFragment(rec, table, { lang })}</div><p id="announce" class="sr-only" aria-live="polite">${announcement(rec?.state, messages(lang))}</p>${cfg.clock > 0 ? html`<div id="shotclock" class="shotclock" hidden><span class="sc-time">–</span><span class="sc-ext"></span></div>` : ''}<footer class="display-foot">${langSwitch(lang, path(c))}</footer></main>`,
      { scripts: ['scoreboard.js'], bodyClass: `page-scoreboard${mirror ? ' mirror' : ''}${cfg.clock > 0 ? ' has-clock' : ''}`, nav: false, lang },
    );
  });

  // The overlay takes its options from the URL the streaming software opens: ?lang=, ?pos=top|bottom, ?stats=0.
  app.get('/overlay/:table', (c) => {
    const table = tableParam(c);
    const lang = langOf(c);
    const missing = unknownTable(c, table, lang);
    if (missing) return missing;
    const cfg = { ...displayConfig(c), table, view: 'overlay', lang };
    const pos = c.req.query('pos') === 'top' ? 'top' : 'bottom';
    const stats = c.req.query('stats') === '0' ? ' no-stats' : '';
    return page(c, `${messages(lang).table(table)} · ${messages(lang).linkOverlay}`, html`<main class="overlay-page pos-${pos}"><h1 class="sr-only">${messages(lang).table(table)}</h1>${jsonBlock('config', cfg)}<div id="live">${scoreboardFragment(store.get(table), table, { compact: true, lang })}</div></main>`, {
      scripts: ['scoreboard.js'],
      bodyClass: `page-overlay${stats}${c.req.query('mirror') === '1' ? ' mirror' : ''}`,
      nav: false,
      lang,
    });
  });

  app.get('/referee/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    const lang = langOf(c);
    const m = messages(lang);
    const rec = store.get(table);
    // The league's next fixture not yet played nor being played, today's first.
    const fixtures = [...(d.league.state?.todayFixtures ?? []), ...(d.league.state?.seasons.flatMap((x) => x.fixtures) ?? [])];
    const next = fixtures.find((f) => f.status === 'scheduled') ?? null;
    return page(
      c,
      `${tableName(rec?.state ?? null, table, m)} · ${m.console}`,
      html`<main class="referee" data-table="${table}" data-lang="${lang}">${jsonBlock('i18n', m.client)}<h1 class="sr-only">${m.console}</h1><div id="toast" class="toast" role="status" aria-live="polite"></div><div class="ref-grid"><div class="ref-live"><div id="live">${refereeFragment(rec, table, lang)}</div><aside id="replay-clip" class="card" data-table="${table}" hidden></aside></div><div class="ref-forms">${refereeForms(table, rec, lang, next)}</div></div></main>`,
      { scripts: ['referee.js', 'replay-clip.js', 'clip-tracks.js'], bodyClass: 'page-referee', lang },
    );
  });

  app.get('/hardware/:table', needLoginPage, (c) => {
    const table = tableParam(c);
    const lang = langOf(c);
    const m = messages(lang);
    const name = tableName(store.get(table)?.state ?? null, table, m);
    // A table with a camera links to its calibration page (web/pages/calibration.ts).
    const cameraLink = (d.options.camera as { calibration(t: string): unknown } | undefined)?.calibration(table) ? calibrationLink(table, lang) : '';
    return page(c, m.hwTitle(name), html`${jsonBlock('i18n', m.hw)}${cameraLink}${hardwareBody(table, name, m, store.get(table)?.state?.rails ?? null)}<div id="toast" class="toast" role="status" aria-live="polite"></div>`, { scripts: ['hardware.js'], bodyClass: 'page-hardware', lang });
  });
}
