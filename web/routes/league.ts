import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { commandSchemas, type CommandName } from '../../hub/contract/mqtt.ts';
import { exportText } from './api.ts';
import { html } from 'hono/html';
import { langSwitch, layout } from '../pages/layout.ts';
import { leagueAdminBody, leagueDisplayFragment, leagueResultsBody } from '../pages/league.ts';
import { messages } from '../i18n.ts';
import { HubRequestError } from '../mqtt-link.ts';
import { jsonError, needLoginApi, needLoginPage, readJsonBody, requestLang, zodMessage, type AppDeps, type Env } from './common.ts';

const omitEnvelope = { transaction: true } as const;
/** Bodies of the league's console commands: the contract's own schemas without the envelope. */
const bodies = {
  setup: commandSchemas['league/setup'].omit(omitEnvelope),
  'generate-fixtures': commandSchemas['league/generate-fixtures'].omit(omitEnvelope),
  'start-fixture': commandSchemas['league/start-fixture'].omit(omitEnvelope),
  result: commandSchemas['league/result'].omit({ ...omitEnvelope, by: true }),
} as const;
const commandOf: Record<keyof typeof bodies, CommandName> = { setup: 'league/setup', 'generate-fixtures': 'league/generate-fixtures', 'start-fixture': 'league/start-fixture', result: 'league/result' };

const num = (v: unknown): number | undefined => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined);
const lines = (v: unknown): string[] => (typeof v === 'string' ? v.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '') : []);

/** The admin forms' fields → a command body (validated by the contract's schema afterwards). */
function formToBody(action: string, f: Record<string, unknown>): { route: keyof typeof bodies; body: Record<string, unknown> } | null {
  switch (action) {
    case 'setup': {
      const discipline = String(f.discipline ?? '');
      const handicap = [f.hInnings, f.hMin, f.hMax, f.hLast].every((x) => num(x) === undefined)
        ? null
        : { inningsPerMatch: num(f.hInnings), min: num(f.hMin), max: num(f.hMax), lastMatches: num(f.hLast) };
      const players = lines(f.players).map((l) => {
        const [name, team, average] = l.split(';').map((x) => x.trim());
        return { name, ...(team ? { team } : {}), ...(average ? { averages: { [discipline]: Number(average) } } : {}) };
      });
      const season = { id: f.id, name: f.name, discipline, target: num(f.target), ...(num(f.inningsLimit) !== undefined ? { inningsLimit: num(f.inningsLimit) } : {}), points: { win: num(f.win), draw: num(f.draw), loss: num(f.loss) }, handicap, teams: lines(f.teams), players };
      return { route: 'setup', body: { season } };
    }
    case 'generate':
      return { route: 'generate-fixtures', body: { season: f.season, startDate: f.startDate, daysBetweenRounds: num(f.daysBetweenRounds) ?? 7, double: f.double === '1' } };
    case 'start':
      return { route: 'start-fixture', body: { table: f.table, fixture: f.fixture } };
    case 'result':
      return {
        route: 'result',
        body: {
          fixture: f.fixture,
          home: { score: num(f.homeScore), innings: num(f.homeInnings), highRun: num(f.homeHighRun) },
          away: { score: num(f.awayScore), innings: num(f.awayInnings), highRun: num(f.awayHighRun) },
          winner: f.winner,
          reason: f.reason,
        },
      };
    default:
      return null;
  }
}

/** The house league (issue 8): the club TV, the printable results, CSV downloads and the console's forms. */
export function leagueRoutes(app: Hono<Env>, d: AppDeps): void {
  const { store, league, link, options } = d;
  // No password on the wire: the panel's own broker login (or its in-process client) carries the authority.
  const send = (c: Context<Env>, route: keyof typeof bodies, body: Record<string, unknown>) => {
    const extra = route === 'result' ? { by: c.get('session')!.username } : {};
    return link.request(commandOf[route], { ...body, ...extra });
  };

  const lang = (c: Context<Env>) => requestLang(c, d.options.language);
  const path = (c: Context<Env>) => {
    const url = new URL(c.req.url);
    url.searchParams.delete('lang');
    return `${url.pathname}${url.search}`;
  };

  app.get('/league', (c) => {
    const s = c.get('session');
    const l = lang(c);
    const m = messages(l);
    return c.html(
      layout({
        title: m.lgHouse,
        body: html`<main class="league-tv" data-lang="${l}"><div id="league-live">${leagueDisplayFragment(league.state, store.list(), m)}</div><footer class="display-foot">${langSwitch(l, path(c))}</footer></main>`,
        bodyClass: 'page-league',
        scripts: ['league.js'],
        csrf: s?.csrf ?? null,
        nav: false,
        lang: l,
      }),
    );
  });
  /** The display's pages alone, for the script to swap in. */
  app.get('/league/live', (c) => c.html(leagueDisplayFragment(league.state, store.list(), messages(lang(c)))));

  app.get('/league/results', (c) => {
    const s = c.get('session');
    const l = lang(c);
    const m = messages(l);
    return c.html(layout({ title: m.lgResults, body: leagueResultsBody(league.state, m), bodyClass: 'page-league-results', csrf: s?.csrf ?? null, user: s?.username ?? null, nav: true, lang: l, path: path(c) }));
  });

  app.get('/league/admin', needLoginPage, (c) => {
    const s = c.get('session')!;
    const l = lang(c);
    const m = messages(l);
    const message = { ...(c.req.query('ok') ? { ok: c.req.query('ok')!.slice(0, 300) } : {}), ...(c.req.query('error') ? { error: c.req.query('error')!.slice(0, 500) } : {}) };
    return c.html(layout({ title: m.lgAdmin, body: leagueAdminBody(league.state, store.list().map((r) => r.table), s.csrf, message, m), bodyClass: 'page-league-admin', csrf: s.csrf, user: s.username, nav: true, lang: l, path: path(c) }));
  });

  app.post('/league/admin/:action', needLoginPage, async (c) => {
    const form = (await c.req.parseBody()) as Record<string, unknown>;
    const mapped = formToBody(c.req.param('action'), form);
    if (!mapped) return jsonError(404, 'unknown league action');
    const back = (q: string) => c.redirect(`/league/admin?${q}`, 303);
    const parsed = bodies[mapped.route].safeParse(mapped.body);
    if (!parsed.success) return back(`error=${encodeURIComponent(zodMessage(parsed.error))}`);
    try {
      await send(c, mapped.route, parsed.data as Record<string, unknown>);
    } catch (e) {
      if (e instanceof HubRequestError) return back(`error=${encodeURIComponent(e.message)}`);
      throw e;
    }
    return back(`ok=${encodeURIComponent(`${commandOf[mapped.route]}: done`)}`);
  });

  // ---- API
  app.get('/api/league', (c) => (league.state ? c.json(league.state) : jsonError(404, 'no league state published yet')));
  for (const what of ['standings', 'results'] as const) {
    app.get(`/api/league/${what}.csv`, async (c) => {
      const season = c.req.query('season');
      const checked = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/).optional().safeParse(season);
      if (!checked.success) return jsonError(400, 'season: a season id');
      const data = await link.request('league/export', { what, ...(season ? { season } : {}) });
      return c.body(exportText(data), 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="league-${what}.csv"` });
    });
  }
  for (const route of Object.keys(bodies) as (keyof typeof bodies)[]) {
    app.post(`/api/league/${route}`, needLoginApi, async (c) => {
      const body = await readJsonBody(c, bodies[route]);
      if (!body.ok) return body.response;
      return c.json({ ok: true, data: await send(c, route, body.data as Record<string, unknown>) });
    });
  }
}
