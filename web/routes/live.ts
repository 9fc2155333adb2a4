import type { Hono } from 'hono';
import { htmlText } from '../pages/layout.ts';
import { overviewFragment } from '../pages/overview.ts';
import { refereeFragment } from '../pages/referee.ts';
import { scoreboardFragment } from '../pages/scoreboard.ts';
import { sseStream } from '../sse.ts';
import { requestLang, tableParam, type AppDeps, type Env } from './common.ts';
import { announcement } from '../pages/scoreboard.ts';
import { messages } from '../i18n.ts';

/** SSE: `/events` (every table) and `/events/:table`, with server-rendered fragments on request. */
export function liveRoutes(app: Hono<Env>, d: AppDeps): void {
  const { options, store } = d;
  const now = () => options.clock();
  const recPayload = (table: string) => {
    const rec = store.get(table);
    return { table, state: rec?.state ?? null, availability: rec?.availability ?? null, health: rec?.health ?? null };
  };
  app.get('/events', (c) => {
    const view = c.req.query('view');
    const loggedIn = c.get('session') !== null;
    if (view === 'overview') {
      const lang = requestLang(c, options.language);
      return sseStream(c, { store, registry: d.streams, table: null, payload: () => ({ html: htmlText(overviewFragment(store.list(), now(), loggedIn, store.hubList(), lang)) }), refreshMs: 5000, whole: true, tableEvents: 'none' });
    }
    return sseStream(c, { store, registry: d.streams, table: null, payload: recPayload });
  });
  app.get('/events/:table', (c) => {
    const table = tableParam(c);
    const view = c.req.query('view');
    const lang = requestLang(c, options.language);
    const render =
      view === 'scoreboard' || view === 'overlay'
        ? () => ({ html: htmlText(scoreboardFragment(store.get(table), table, { compact: view === 'overlay', lang })), say: announcement(store.get(table)?.state, messages(lang)) })
        : view === 'referee'
          ? () => ({ html: htmlText(refereeFragment(store.get(table), table, lang)) })
          : null;
    // view=state: the table's states alone (the tracker page follows the game on the table).
    if (view === 'state') return sseStream(c, { store, registry: d.streams, table, payload: () => recPayload(table), tableEvents: 'none' });
    return sseStream(c, { store, registry: d.streams, table, payload: () => ({ ...recPayload(table), ...(render ? render() : {}) }), tableEvents: render ? 'no-status' : 'all' });
  });

}
