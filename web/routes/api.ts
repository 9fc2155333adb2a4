import type { Hono } from 'hono';
import { commandSchemas, type CommandName } from '../../hub/contract/mqtt.ts';
import { jsonError, needLoginApi, readJsonBody, tableParam, type AppDeps, type Env } from './common.ts';

const omitEnvelope = { transaction: true, table: true } as const;
/** Bodies of the console's commands: the contract's own schemas without the envelope. */
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

/** CONTRACT §4 and the console's commands, forwarded as MQTT requests. */
export function apiRoutes(app: Hono<Env>, d: AppDeps): void {
  const { options, store, link } = d;
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
    // Name what failed: `store` when the disk refuses writes, and so on.
    const failing = Object.entries(extra).filter(([, v]) => v === false).map(([k]) => k);
    const why = failing.length > 0 ? `failing: ${failing.join(', ')}` : 'the health check failed';
    if (!(ok && broker)) return c.json({ ...body, error: broker ? why : 'not connected to the MQTT broker' }, 503);
    return c.json(body, 200);
  });

  app.get('/api/tables', (c) => c.json(store.states()));
  app.get('/api/tables/:table', (c) => {
    const table = tableParam(c);
    const state = store.get(table)?.state;
    if (!state) return jsonError(404, `unknown table '${table}'`);
    return c.json(state);
  });

  // No password on the wire: the logged-in session decides here, the panel's broker identity at the broker.
  for (const route of Object.keys(bodies) as (keyof typeof bodies)[]) {
    app.post(`/api/tables/:table/${route}`, needLoginApi, async (c) => {
      const table = tableParam(c);
      const body = await readJsonBody(c, bodies[route]);
      if (!body.ok) return body.response;
      const data = await link.request(commandOf[route], { ...(body.data as Record<string, unknown>), table });
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
