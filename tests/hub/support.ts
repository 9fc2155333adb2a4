import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { parseConfig } from '../../hub/config/load.ts';
import type { HubConfig } from '../../hub/config/schema.ts';
import { Hub, type HubOptions } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';
import type { HubClock } from '../../hub/tables/clock.ts';

export const VENUE_PASSWORD = 'chalk-and-cue';
const VENUE_HASH = hashPasswordSync(VENUE_PASSWORD);

export function testConfig(extra: Record<string, unknown> = {}): HubConfig {
  const parsed = parseConfig(
    JSON.stringify({
      hub: { id: 'club-a' },
      venue: { passwordHash: VENUE_HASH },
      tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 500, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 } }],
      ...extra,
    }),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** A clock the test moves by hand. */
export class ManualClock implements HubClock {
  t = 1_000_000;
  now = () => this.t;
  iso = () => new Date(this.t).toISOString();
}

export interface TestHub {
  hub: Hub;
  sources: Map<string, ManualSource>;
  clock: ManualClock;
  dataDir: string;
}

export async function startTestHub(options: { dataDir?: string; config?: HubConfig; mqttUrl?: string; clock?: ManualClock; extensions?: HubOptions['extensions']; log?: HubOptions['log'] } = {}): Promise<TestHub> {
  const sources = new Map<string, ManualSource>();
  const clock = options.clock ?? new ManualClock();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hub-'));
  const hub = new Hub({
    config: options.config ?? testConfig(),
    dataDir,
    mqttPort: 0,
    mqttWsPort: 0,
    // The test brokers have no ACL: these tests opt in to an open broker (tests/security has the ACL'd one).
    ...(options.mqttUrl ? { mqttUrl: options.mqttUrl, allowOpenBroker: true } : {}),
    clock,
    tickMs: 10_000, // the tests tick by hand
    shotEndTimers: false,
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.log ? { log: options.log } : {}),
    sourceFor: (table) => {
      const source = new ManualSource(false);
      sources.set(table.id, source);
      return source;
    },
  });
  await hub.start();
  return { hub, sources, clock, dataDir };
}

/** Feeds one shot's worth of sensor events and lets the quiet window pass. */
export function feedShot(t: TestHub, table: string, events: ((at: number) => SensorEvent)[], gapMs = 150): void {
  const source = t.sources.get(table)!;
  for (const make of events) {
    t.clock.t += gapMs;
    source.emit(make(t.clock.t));
  }
  t.clock.t += 2_000;
  t.hub.tables.get(table)!.tick(t.clock.t);
}

const stamp = (at: number) => ({ boardUs: at * 1000, hubTime: at, seq: 0 });
export const railHit = (channel: number) => (at: number): SensorEvent => ({ type: 'rail-hit', channel, amplitude: 120, ...stamp(at) });
export const click = () => (at: number): SensorEvent => ({ type: 'click', amplitude: 90, ...stamp(at) });
export const linkUp = (at: number): SensorEvent => ({ type: 'link', state: 'up', reason: 'test', hubTime: at });

/** The venue's referee login, which the embedded broker takes as a referee user (docs/security.md). */
export const REFEREE = { username: 'referee', password: VENUE_PASSWORD } as const;

/** A client watching topics; logged in as the referee unless `login` is null (anonymous: a display). */
export async function subscriber(url: string, topicsToWatch: string[], login: { username: string; password: string } | null = REFEREE): Promise<{ client: MqttClient; messages: Map<string, unknown[]>; next: (topic: string, predicate?: (m: any) => boolean) => Promise<any> }> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...(login ?? {}) });
  const messages = new Map<string, unknown[]>();
  const waiters: { topic: string; predicate: (m: any) => boolean; resolve: (m: unknown) => void }[] = [];
  client.on('message', (topic, payload) => {
    let value: unknown;
    try {
      value = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // someone's malformed request: not ours to read
    }
    messages.set(topic, [...(messages.get(topic) ?? []), value]);
    for (const w of [...waiters]) {
      if (w.topic === topic && w.predicate(value)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(value);
      }
    }
  });
  await client.subscribeAsync(topicsToWatch, { qos: 1 });
  const next = (topic: string, predicate: (m: any) => boolean = () => true) => {
    const seen = (messages.get(topic) ?? []).find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message on ${topic} matching in time`)), 5_000);
      waiters.push({ topic, predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  };
  return { client, messages, next };
}

/** Sends a request and waits for the response with the same transaction. */
export async function request(client: MqttClient, base: string, command: string, payload: Record<string, unknown>): Promise<any> {
  const transaction = `tx-${Math.random().toString(36).slice(2)}`;
  const topic = `${base}/response/${command}`;
  await client.subscribeAsync(topic, { qos: 1 });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no response to ${command}`)), 5_000);
    const onMessage = (t: string, p: Buffer) => {
      if (t !== topic) return;
      const body = JSON.parse(p.toString('utf8'));
      if (body.transaction !== transaction && !(payload.__raw && body.transaction === null)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(body);
    };
    client.on('message', onMessage);
    const raw = payload.__raw as string | undefined;
    void client.publishAsync(`${base}/request/${command}`, raw ?? JSON.stringify({ transaction, ...payload }), { qos: 1 });
  });
}
