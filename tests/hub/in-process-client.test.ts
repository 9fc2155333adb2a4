import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import type { Aedes } from 'aedes';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../hub/mqtt/broker.ts';
import { InProcessClient } from '../../hub/mqtt/in-process-client.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';

let broker: EmbeddedBroker | null = null;
afterEach(async () => {
  await broker?.close();
  broker = null;
});

/** A socket client that may send requests and read everything a client may read. */
const TESTER = { username: 'tester', password: 'tester-password' };
const testerHash = hashPasswordSync(TESTER.password);

async function setup() {
  broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0, wsPort: null, baseTopic: 'billiards', users: [{ username: TESTER.username, passwordHash: testerHash, publish: ['billiards/request/#'], subscribe: ['#'] }], allowAnonymousRead: true });
  const hub = broker.client();
  await new Promise((r) => hub.once('connect', r));
  const outside = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, ...TESTER });
  return { hub, outside };
}

describe("the hub's in-process client of the embedded broker", () => {
  it('delivers every publish in order, retained or not (aedes would drop a retained one overtaken by a plain one)', async () => {
    const { hub, outside } = await setup();
    const got: string[] = [];
    outside.on('message', (_t, p) => got.push(p.toString()));
    await outside.subscribeAsync('billiards/#', { qos: 1 });
    const sent = ['s1', 'e1', 's2', 'e2', 'e3', 's3'];
    for (const p of sent) hub.publish(p.startsWith('s') ? 'billiards/tables/t1/state' : 'billiards/tables/t1/events', p, { qos: 1, retain: p.startsWith('s') }, () => undefined);
    await hub.publishAsync('billiards/done', 'done', { qos: 1, retain: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([...sent, 'done']);
    // Retained: a late subscriber gets the last state.
    const late = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker!.port}`, { reconnectPeriod: 0 });
    const retained = new Promise<string>((resolve) => late.on('message', (_t, p) => resolve(p.toString())));
    await late.subscribeAsync('billiards/tables/t1/state', { qos: 1 });
    expect(await retained).toBe('s3');
    await Promise.all([outside.endAsync(), late.endAsync(), hub.endAsync()]);
  });

  it("receives what socket clients publish on its subscriptions, and a handler's error stays out of the broker", async () => {
    const { hub, outside } = await setup();
    const errors: Error[] = [];
    const requests: string[] = [];
    hub.on('error', (e: Error) => errors.push(e));
    hub.on('message', (topic: string, payload: Buffer) => {
      if (payload.toString() === 'boom') throw new Error('handler failed');
      requests.push(`${topic} ${payload.toString()}`);
    });
    hub.subscribe(['billiards/request/#'], { qos: 1 });
    await outside.publishAsync('billiards/request/match/shot', 'boom', { qos: 1 });
    await outside.publishAsync('billiards/request/hub/tables', '{}', { qos: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toEqual(['billiards/request/hub/tables {}']);
    expect(errors.map((e) => e.message)).toEqual(['handler failed']);
    await hub.endAsync();
    await outside.publishAsync('billiards/request/hub/tables', 'after the end', { qos: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toHaveLength(1);
    await outside.endAsync();
  });

  it('replays the retained messages a subscription matches, as the broker does for a socket client', async () => {
    const { hub, outside } = await setup();
    await hub.publishAsync('billiards/tables/t1/state', 's1', { qos: 1, retain: true });
    await hub.publishAsync('billiards/tables/t2/state', 's2', { qos: 1, retain: true });
    await hub.publishAsync('billiards/tables/t1/events', 'not retained', { qos: 1, retain: false });
    const panel = broker!.client();
    await new Promise((r) => panel.once('connect', r));
    const got: string[] = [];
    panel.on('message', (topic: string, payload: Buffer) => got.push(`${topic} ${payload.toString()}`));
    await new Promise<void>((resolve, reject) => panel.subscribe({ 'billiards/tables/+/state': { qos: 1 }, 'billiards/request/#': { qos: 0 } }, (e: Error | null) => (e ? reject(e) : resolve())));
    expect(got.sort()).toEqual(['billiards/tables/t1/state s1', 'billiards/tables/t2/state s2']);
    // Live messages from socket clients, too.
    await outside.publishAsync('billiards/request/hub/tables', 'live', { qos: 1 });
    await expect.poll(() => got.at(-1)).toBe('billiards/request/hub/tables live');
    // Unsubscribed: nothing more arrives.
    await panel.unsubscribeAsync(['billiards/tables/+/state', 'billiards/request/#']);
    await hub.publishAsync('billiards/tables/t1/state', 's1 again', { qos: 1, retain: true });
    await outside.publishAsync('billiards/request/hub/tables', 'after', { qos: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(3);
    await Promise.all([outside.endAsync(), hub.endAsync(), panel.endAsync()]);
  });

  it('holds a live message back while the retained ones are replayed: an older retained value never lands last', async () => {
    // A broker whose retained store answers slowly (as a persistence on disk or Redis does):
    // the replay yields a stale value after a newer one went out live.
    const subscriptions: ((packet: unknown, done: () => void) => void)[] = [];
    const replay = new PassThrough({ objectMode: true });
    const slowBroker = {
      closed: false,
      subscribe: (_topic: string, deliver: (typeof subscriptions)[number], done: () => void) => (subscriptions.push(deliver), done()),
      unsubscribe: (_topic: string, _deliver: unknown, done: () => void) => done(),
      persistence: { createRetainedStreamCombi: () => replay },
    };
    const panel = new InProcessClient(slowBroker as unknown as Aedes);
    await new Promise((r) => panel.once('connect', r));
    const got: string[] = [];
    panel.on('message', (_topic: string, payload: Buffer) => got.push(payload.toString()));
    let subscribed = false;
    panel.subscribe({ 'billiards/tables/+/state': { qos: 1 } }, () => (subscribed = true));
    const topic = 'billiards/tables/t1/state';
    subscriptions[0]!({ topic, payload: Buffer.from('new') }, () => undefined);
    replay.end({ topic, payload: Buffer.from('old') });
    await expect.poll(() => subscribed).toBe(true);
    expect(got).toEqual(['old', 'new']);
    // After the replay, live messages go straight through.
    subscriptions[0]!({ topic, payload: Buffer.from('newer') }, () => undefined);
    expect(got).toEqual(['old', 'new', 'newer']);
    await panel.endAsync();
  });
  it('holds what follows a retained message only until it is on the bus, not until a slow subscriber has it (issue 18)', async () => {
    const { hub, outside } = await setup();
    const got: string[] = [];
    outside.on('message', (_t, p) => got.push(p.toString()));
    await outside.subscribeAsync('billiards/#', { qos: 0 });
    // The subscriber stops reading: its deliveries wait for the socket (aedes waits for its drain).
    outside.stream.pause();
    const sent: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const retained = i % 500 === 0;
      const payload = `${retained ? 's' : 'e'}${i}-${'x'.repeat(200)}`;
      sent.push(payload);
      hub.publish(retained ? 'billiards/tables/t1/state' : 'billiards/tables/t1/events', payload, { qos: 1, retain: retained }, () => undefined);
    }
    // Every message went into the broker within a few turns; what waits, waits there (backlog: for a delivery slot).
    for (let i = 0; i < 20 && (hub as InProcessClient).queued > 0; i++) await new Promise((r) => setImmediate(r));
    expect((hub as InProcessClient).queued).toBe(0);
    expect(broker!.backlog()).toBeGreaterThan(0);
    outside.stream.resume();
    await expect.poll(() => got.length, { timeout: 10_000 }).toBe(sent.length);
    expect(got).toEqual(sent);
    await Promise.all([outside.endAsync(), hub.endAsync()]);
  });

  it("queues QoS 1 messages for a persistent session while it is away, and skips the look-up while there is none", async () => {
    const { hub, outside } = await setup();
    const connect = () => mqtt.connectAsync(`mqtt://127.0.0.1:${broker!.port}`, { reconnectPeriod: 0, clientId: 'scoreboard-1', clean: false, ...TESTER });
    // A clean session's subscription is not persistent: nothing is queued for it.
    await outside.subscribeAsync('billiards/tables/+/events', { qos: 1 });
    await outside.endAsync();
    let away = await connect();
    await away.subscribeAsync('billiards/tables/+/events', { qos: 1 });
    await away.endAsync();
    for (const p of ['e1', 'e2', 'e3']) await hub.publishAsync('billiards/tables/t1/events', p, { qos: 1, retain: false });
    // The queued messages come right after the connection is accepted: listened for before it is.
    const got: string[] = [];
    const back = mqtt.connect(`mqtt://127.0.0.1:${broker!.port}`, { reconnectPeriod: 0, clientId: 'scoreboard-1', clean: false, ...TESTER });
    back.on('message', (_t, p) => got.push(p.toString()));
    await new Promise((r) => back.once('connect', r));
    await expect.poll(() => got).toEqual(['e1', 'e2', 'e3']);
    // Unsubscribed and gone: nothing more is kept for it.
    await back.unsubscribeAsync('billiards/tables/+/events');
    await back.endAsync();
    await hub.publishAsync('billiards/tables/t1/events', 'e4', { qos: 1, retain: false });
    const later: string[] = [];
    away = mqtt.connect(`mqtt://127.0.0.1:${broker!.port}`, { reconnectPeriod: 0, clientId: 'scoreboard-1', clean: false, ...TESTER });
    away.on('message', (_t, p) => later.push(p.toString()));
    await new Promise((r) => away.once('connect', r));
    await new Promise((r) => setTimeout(r, 100));
    expect(later).toEqual([]);
    await Promise.all([away.endAsync(), hub.endAsync()]);
  });
});
