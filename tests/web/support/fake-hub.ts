import mqtt, { type MqttClient } from 'mqtt';
import { commandSchemas, topics, type CommandName, type TableHealth } from '../../../hub/contract/mqtt.ts';
import type { FoulKind } from '../../../hub/rules/ids.ts';
import type { TableView } from '../../../web/store.ts';

type NextShot = { declare: 'safety' | 'carom' | null; fouls: { foul: FoulKind; by: 'shooter' | 'opponent' }[] };
import type { MatchSetup, RefereeInput, Shot } from '../../../hub/rules/events.ts';
import { Match } from '../../../hub/rules/match.ts';

/**
 * A stand-in for the hub until the real one lands: an MQTT client that answers the command
 * topics with the real rules engine and publishes each table's TableView, retained.
 */
interface Table {
  match: Match | null;
  setup: MatchSetup | null;
  seq: number;
  lastShotEndedAt: string | null;
  nextShot: NextShot | null;
  log: string[];
}

export interface FakeHub {
  client: MqttClient;
  /** Requests received, newest last (for assertions). */
  requests: { command: string; body: unknown }[];
  /** As if the sensors had cut a shot: applies it and publishes the shot event and the state. */
  feedShot(table: string, shot: Shot): Promise<string | null>;
  publishSensor(table: string, fields: Record<string, unknown>): Promise<void>;
  publishAvailability(table: string, state: 'online' | 'offline'): Promise<void>;
  publishHealth(table: string, health: Partial<TableHealth>): Promise<void>;
  /** Publishes a hand-made state (for games the engine does not have yet). */
  publishState(table: string, state: Partial<TableView>): Promise<void>;
  state(table: string): TableView | null;
  stop(): Promise<void>;
}

export async function startFakeHub(o: { url: string; password: string; baseTopic?: string; hub?: string; now?: () => number }): Promise<FakeHub> {
  const t = topics(o.baseTopic ?? 'billiards');
  const hub = o.hub ?? 'test';
  const now = o.now ?? Date.now;
  const client = await mqtt.connectAsync(o.url, { clientId: `fake-hub-${Math.random().toString(36).slice(2, 8)}`, reconnectPeriod: 0 });
  const tables = new Map<string, Table>();
  const requests: FakeHub['requests'] = [];

  const table = (id: string): Table => {
    let tb = tables.get(id);
    if (!tb) {
      tb = { match: null, setup: null, seq: 0, lastShotEndedAt: null, nextShot: null, log: [] };
      tables.set(id, tb);
    }
    return tb;
  };

  const stateOf = (id: string): TableView | null => {
    const tb = tables.get(id);
    if (!tb?.match || !tb.setup) return null;
    const view = tb.match.view();
    return {
      ...view,
      shots: view.shots.slice(-20),
      table: id,
      seq: tb.seq,
      updatedAt: new Date(now()).toISOString(),
      shotCount: tb.match.shotCount,
      hub,
      simulated: false,
      lastShotEndedAt: tb.lastShotEndedAt,
      pendingShots: 0,
      match: { variant: tb.setup.variant, players: [...tb.setup.players], target: tb.setup.target, options: { ...(tb.setup.options ?? {}) } },
      nextShot: tb.nextShot,
      adjustments: tb.match.adjustmentLog.map((a) => ({ ...a })),
    };
  };

  const publishState = async (id: string) => {
    const tb = table(id);
    tb.seq += 1;
    const s = stateOf(id);
    if (s) await client.publishAsync(t.tableState(id), JSON.stringify(s), { qos: 1, retain: true });
  };

  const respond = (command: string, transaction: string | null, result: { data?: unknown; error?: string }) =>
    client.publishAsync(
      t.response(command),
      JSON.stringify(result.error !== undefined ? { transaction, status: 'error', error: result.error } : { transaction, status: 'ok', data: result.data ?? null }),
      { qos: 1 },
    );

  const applyShot = async (id: string, shot: Shot): Promise<string | null> => {
    const tb = table(id);
    if (!tb.match) return 'no match on this table';
    const annotated: Shot = tb.nextShot
      ? { ...shot, ...(tb.nextShot.declare ? { declare: tb.nextShot.declare } : {}), events: [...shot.events, ...tb.nextShot.fouls.map((f) => ({ kind: 'foul' as const, ...f }))] }
      : shot;
    const r = tb.match.apply({ kind: 'shot', shot: annotated });
    if (!r.ok) return r.error;
    tb.nextShot = null;
    tb.log.push(JSON.stringify({ shot: annotated }));
    tb.lastShotEndedAt = new Date(now()).toISOString();
    const view = tb.match.view();
    const result = view.status === 'awaiting-referee' ? null : (view.shots[view.shots.length - 1] ?? null);
    await client.publishAsync(t.tableEvents(id), JSON.stringify({ type: 'shot', table: id, at: tb.lastShotEndedAt, result, events: annotated.events, prompt: result === null }), { qos: 1 });
    await publishState(id);
    return null;
  };

  const handle = async (command: CommandName, payload: Buffer) => {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString());
    } catch {
      return respond(command, null, { error: 'bad JSON' });
    }
    requests.push({ command, body: raw });
    const tx = typeof (raw as { transaction?: unknown }).transaction === 'string' ? (raw as { transaction: string }).transaction : null;
    const parsed = (commandSchemas[command] as { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }).safeParse(raw);
    if (!parsed.success) return respond(command, tx, { error: `${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` });
    const body = parsed.data as Record<string, unknown> & { table?: string; password?: string };
    if ('password' in body && body.password !== o.password) return respond(command, tx, { error: 'bad venue credentials' });
    const id = body.table ?? '';
    switch (command) {
      case 'match/start': {
        const b = parsed.data as { variant: string; players: string[]; target: number; options?: Record<string, unknown> };
        const setup: MatchSetup = { variant: b.variant, players: b.players, target: b.target, options: b.options ?? {} };
        const created = Match.create(setup);
        if (!created.ok) return respond(command, tx, { error: created.error });
        const tb = table(id);
        Object.assign(tb, { match: created.value, setup, lastShotEndedAt: null, nextShot: null, log: [JSON.stringify({ match: setup })] });
        await client.publishAsync(t.tableEvents(id), JSON.stringify({ type: 'match', table: id, at: new Date(now()).toISOString(), action: 'started', detail: setup }), { qos: 1 });
        await publishState(id);
        return respond(command, tx, { data: stateOf(id) });
      }
      case 'match/shot': {
        const error = await applyShot(id, (parsed.data as { shot: Shot }).shot);
        return respond(command, tx, error ? { error } : { data: stateOf(id) });
      }
      case 'match/referee': {
        const tb = table(id);
        if (!tb.match) return respond(command, tx, { error: 'no match on this table' });
        const referee = (parsed.data as { referee: RefereeInput }).referee;
        const r = tb.match.apply({ kind: 'referee', referee });
        if (!r.ok) return respond(command, tx, { error: r.error });
        tb.log.push(JSON.stringify({ referee }));
        await publishState(id);
        return respond(command, tx, { data: stateOf(id) });
      }
      case 'match/next-shot': {
        const tb = table(id);
        const b = parsed.data as NextShot;
        tb.nextShot = b.declare || b.fouls.length > 0 ? { declare: b.declare, fouls: b.fouls } : null;
        await publishState(id);
        return respond(command, tx, { data: tb.nextShot });
      }
      case 'match/export': {
        const tb = tables.get(id);
        if (!tb?.match) return respond(command, tx, { error: 'no match on this table' });
        const format = (parsed.data as { format: 'jsonl' | 'csv' }).format;
        const content =
          format === 'jsonl'
            ? tb.log.join('\n') + '\n'
            : ['shot,shooter,points,foul,rules', ...tb.match.shots.map((s, i) => `${i + 1},${s.shooter},${s.points},${s.foul ?? ''},${s.rules.join(' ')}`)].join('\n') + '\n';
        return respond(command, tx, { data: { format, content } });
      }
      case 'table/thresholds':
        return respond(command, tx, { data: { applied: (parsed.data as { channels: unknown[] }).channels.length } });
      case 'hub/tables':
        return respond(command, tx, { data: [...tables.keys()] });
    }
  };

  client.on('message', (topic, payload) => {
    const command = topic.slice(t.request('').length) as CommandName;
    if (command in commandSchemas) void handle(command, payload);
  });
  await client.subscribeAsync(t.allRequests, { qos: 1 });

  return {
    client,
    requests,
    feedShot: applyShot,
    async publishSensor(id, fields) {
      await client.publishAsync(t.tableEvents(id), JSON.stringify({ type: 'sensor', table: id, at: new Date(now()).toISOString(), hubTime: now(), boardUs: null, seq: null, ...fields }), { qos: 1 });
    },
    async publishAvailability(id, state) {
      await client.publishAsync(t.tableAvailability(id), JSON.stringify({ state }), { qos: 1, retain: true });
    },
    async publishHealth(id, health) {
      const full: TableHealth = { table: id, link: 'up', lastHeartbeatAt: new Date(now()).toISOString(), framesDropped: 0, boardResets: 0, alerts: [], ...health };
      await client.publishAsync(t.tableHealth(id), JSON.stringify(full), { qos: 1, retain: true });
    },
    async publishState(id, partial) {
      const s = { table: id, seq: 1, updatedAt: new Date(now()).toISOString(), shotCount: 0, hub, simulated: false, lastShotEndedAt: null, pendingShots: 0, nextShot: null, match: null, ...partial };
      await client.publishAsync(t.tableState(id), JSON.stringify(s), { qos: 1, retain: true });
    },
    state: stateOf,
    async stop() {
      await client.endAsync(true);
    },
  };
}
