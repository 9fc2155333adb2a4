import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { componentMissing } from '../support/components.ts';
import { ask, buildHub, metrics, MOSQUITTO, MOSQUITTO_PASSWD, sleep, sniffer, startHub, startOpenMosquitto, startRecipeMosquitto, type Sniffer } from './support.ts';

/**
 * Issue 13, findings 1, 4, 5 and 8 on an external broker: the real Mosquitto with the
 * shipped recipe (hub/deploy/mosquitto), and the real hub process on it.
 */
const missing = componentMissing('mosquitto and mosquitto_passwd (Debian package mosquitto)', MOSQUITTO !== undefined && MOSQUITTO_PASSWD !== undefined);

const PW = { hub: 'hub-secret-7Qx', referee: 'referee-secret-4Kd', scoreboard: 'scoreboard-secret-9Lm', tracker: 'tracker-secret-2Vb', venue: 'venue-secret-8Hn' };
const USERS = { 'billiards-hub': PW.hub, referee: PW.referee, scoreboard: PW.scoreboard, 'tracker-north-1': PW.tracker };
const SECRETS = Object.values(PW);
const carom = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };

const children: ChildProcess[] = [];
const clients: { endAsync: (force?: boolean) => Promise<unknown> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.endAsync(true).catch(() => undefined);
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

beforeAll(() => {
  if (!missing) buildHub();
}, 200_000);

function hubConfig(dir: string): string {
  const file = join(dir, 'hub.json');
  const venueHash = hashPasswordSync(PW.venue);
  writeFileSync(file, JSON.stringify({ hub: { id: 'club-m' }, venue: { passwordHash: venueHash }, tables: [{ id: 'north-1', source: { type: 'serial', path: '/dev/null-billiards-board' }, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 1000 } }] }));
  return file;
}

describe.skipIf(missing)('the Mosquitto recipe (hub/deploy/mosquitto) with the real hub', () => {
  it('a sniffer on # as every role sees no secret; only a referee commands and reads answers; anonymous cannot spoof state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-mosq-'));
    const broker = await startRecipeMosquitto(dir, USERS, children);
    const hub = await startHub({ CONFIG: hubConfig(dir), DATA_DIR: dir, MQTT_URL: broker.url, MQTT_USERNAME: 'billiards-hub', MQTT_PASSWORD: PW.hub }, children);
    const sniffers: Sniffer[] = [
      await sniffer('anonymous', broker.url),
      await sniffer('scoreboard', broker.url, { username: 'scoreboard', password: PW.scoreboard }),
      await sniffer('tracker', broker.url, { username: 'tracker-north-1', password: PW.tracker }),
      await sniffer('referee', broker.url, { username: 'referee', password: PW.referee }),
    ];
    clients.push(...sniffers.map((s) => s.client));
    const referee = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'referee', password: PW.referee });
    clients.push(referee);

    expect(await ask(referee, 'match/shot', { table: 'north-1', shot: carom })).toMatchObject({ status: 'ok', data: { shotCount: 1 } });
    const exported = await ask(referee, 'match/export', { table: 'north-1', format: 'jsonl' });
    expect(exported.data.content).toContain('"match"');
    // The web panel, logged in, acts for the referee; the hub's own broker login carries it.
    const login = await fetch(`${hub.webUrl}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'referee', password: PW.venue }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf } = (await login.json()) as { csrf: string };
    const undo = await fetch(`${hub.webUrl}/api/tables/north-1/referee`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: JSON.stringify({ referee: { action: 'undo' } }) });
    expect(undo.status).toBe(200);

    // An anonymous client tries to command and to spoof a retained state (finding 8).
    const anonymous = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    clients.push(anonymous);
    await anonymous.publishAsync('billiards/request/match/start', JSON.stringify({ transaction: 'evil', table: 'north-1', variant: 'carom', players: ['Mallory', 'Eve'], target: 1 }), { qos: 1 });
    await anonymous.publishAsync('billiards/tables/north-1/state', JSON.stringify({ table: 'north-1', seq: 99999, players: [{ name: 'Mallory', score: 15 }] }), { qos: 1, retain: true });
    await sleep(500);
    const tables = (await (await fetch(`${hub.webUrl}/api/tables`)).json()) as { table: string; seq: number; players: { name: string }[] }[];
    expect(tables[0]!.seq).toBeLessThan(99999);
    expect(tables[0]!.players.map((p) => p.name)).toEqual(['Ana', 'Ben']);

    for (const s of sniffers) {
      for (const m of s.seen) for (const secret of SECRETS) expect(m.payload, `${s.name} saw a secret on ${m.topic}`).not.toContain(secret);
      for (const m of s.seen) expect(m.payload, `${s.name} saw a password field on ${m.topic}`).not.toMatch(/"password"|scrypt\$/);
      expect(s.seen.filter((m) => m.topic.startsWith('billiards/request/')), `${s.name} read a request`).toEqual([]);
      expect(s.seen.some((m) => m.topic === 'billiards/tables/north-1/state'), `${s.name} reads the public state`).toBe(true);
    }
    // Answers (the exported match log among them) reach referees only.
    for (const s of sniffers.slice(0, 3)) expect(s.seen.filter((m) => m.topic.startsWith('billiards/response/')), `${s.name} read an answer`).toEqual([]);
    expect(sniffers[3]!.seen.some((m) => m.topic === 'billiards/response/match/export')).toBe(true);
  }, 60_000);

  it('a retained request never runs (not live, not at a reconnect) and is cleared; a duplicate transaction is not applied twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-retain-'));
    const broker = await startRecipeMosquitto(dir, USERS, children);
    const env = { CONFIG: hubConfig(dir), DATA_DIR: dir, MQTT_URL: broker.url, MQTT_USERNAME: 'billiards-hub', MQTT_PASSWORD: PW.hub };
    let hub = await startHub(env, children);
    const referee = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'referee', password: PW.referee });
    clients.push(referee);
    expect(await ask(referee, 'match/shot', { table: 'north-1', shot: carom })).toMatchObject({ status: 'ok', data: { shotCount: 1 } });
    // A retained match/start (finding 4): it would reset the match at every hub reconnect.
    await referee.publishAsync('billiards/request/match/start', JSON.stringify({ transaction: 'replayed', table: 'north-1', variant: 'carom', players: ['Mallory', 'Eve'], target: 1 }), { qos: 1, retain: true });
    await sleep(500);
    const state = async () => ((await (await fetch(`${hub.webUrl}/api/tables`)).json()) as { shotCount: number; players: { name: string }[] }[])[0]!;
    expect(await state()).toMatchObject({ shotCount: 1, players: [{ name: 'Ana' }, { name: 'Ben' }] });
    // Seen live (retain as published, MQTT 5), ignored and cleared.
    expect((await metrics(hub.webUrl)).get('billiards_mqtt_refused_total{reason="retained-request"}')).toBe(1);
    hub.child.kill('SIGKILL');
    await new Promise((r) => hub.child.once('exit', r));
    hub = await startHub(env, children);
    await sleep(500);
    expect(await state()).toMatchObject({ shotCount: 1, players: [{ name: 'Ana' }, { name: 'Ben' }] });
    // Cleared: the hub's own login finds nothing retained on the request topics.
    const look = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'billiards-hub', password: PW.hub, clientId: 'look' });
    clients.push(look);
    const retained: string[] = [];
    look.on('message', (topic, payload) => payload.length > 0 && retained.push(topic));
    await look.subscribeAsync('billiards/request/#', { qos: 1 });
    await sleep(300);
    expect(retained).toEqual([]);

    // The hub's client id is not the guessable `billiards-hub-<hub>-<pid>` of old: taking that id throws nobody off.
    const impostor = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'referee', password: PW.referee, clientId: `billiards-hub-club-m-${hub.child.pid}` });
    clients.push(impostor);
    await sleep(300);
    expect((await (await fetch(`${hub.webUrl}/healthz`)).json()) as { broker: string }).toMatchObject({ broker: 'connected' });

    // The same request twice (a QoS 1 redelivery, or a replay): applied once, answered twice.
    const body = JSON.stringify({ transaction: 'once', table: 'north-1', shot: carom });
    const answers: string[] = [];
    referee.on('message', (topic, payload) => topic === 'billiards/response/match/shot' && answers.push(payload.toString()));
    await referee.subscribeAsync('billiards/response/match/shot', { qos: 1 });
    await referee.publishAsync('billiards/request/match/shot', body, { qos: 1 });
    await referee.publishAsync('billiards/request/match/shot', body, { qos: 1 });
    await expect.poll(() => answers.length).toBe(2);
    expect(answers[0]).toBe(answers[1]);
    await expect.poll(async () => (await state()).shotCount).toBe(2); // the panel's view follows the retained state
    await sleep(300);
    expect((await state()).shotCount).toBe(2); // and stays there: the duplicate did not follow
  }, 60_000);

  it('MQTT 5: an answer goes to the requester’s own response topic with its correlation data, and never onto a hub-owned topic', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-v5-'));
    const broker = await startRecipeMosquitto(dir, USERS, children);
    await startHub({ CONFIG: hubConfig(dir), DATA_DIR: dir, MQTT_URL: broker.url, MQTT_USERNAME: 'billiards-hub', MQTT_PASSWORD: PW.hub }, children);
    const shared = await sniffer('referee', broker.url, { username: 'referee', password: PW.referee });
    clients.push(shared.client);
    const app = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, protocolVersion: 5, username: 'referee', password: PW.referee });
    clients.push(app);
    const mine: { topic: string; payload: string; correlation?: string }[] = [];
    app.on('message', (topic, payload, packet) => mine.push({ topic, payload: payload.toString(), correlation: packet.properties?.correlationData?.toString() }));
    await app.subscribeAsync('billiards/response/app-7/#', { qos: 1 });
    app.publish('billiards/request/match/shot', JSON.stringify({ transaction: 'v5-1', table: 'north-1', shot: carom }), { qos: 1, properties: { responseTopic: 'billiards/response/app-7/shot', correlationData: Buffer.from('corr-1') } });
    await expect.poll(() => mine.length).toBe(1);
    expect(mine[0]).toMatchObject({ topic: 'billiards/response/app-7/shot', correlation: 'corr-1' });
    expect(JSON.parse(mine[0]!.payload)).toMatchObject({ transaction: 'v5-1', status: 'ok' });
    // A response topic on a hub-owned topic is not honoured: the answer goes to the shared response topic.
    app.publish('billiards/request/match/referee', JSON.stringify({ transaction: 'v5-2', table: 'north-1', referee: { action: 'undo' } }), { qos: 1, properties: { responseTopic: 'billiards/tables/north-1/state' } });
    await expect.poll(() => shared.seen.some((m) => m.topic === 'billiards/response/match/referee' && m.payload.includes('v5-2'))).toBe(true);
    expect(shared.seen.filter((m) => m.topic === 'billiards/tables/north-1/state').every((m) => !m.payload.includes('v5-2'))).toBe(true);
    expect(shared.seen.some((m) => m.payload.includes('v5-1') && m.topic === 'billiards/response/match/shot')).toBe(false);
  }, 60_000);

  it('a 10 MB payload is refused by the recipe before anyone parses it; the hub is untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-size-'));
    const broker = await startRecipeMosquitto(dir, USERS, children);
    const hub = await startHub({ CONFIG: hubConfig(dir), DATA_DIR: dir, MQTT_URL: broker.url, MQTT_USERNAME: 'billiards-hub', MQTT_PASSWORD: PW.hub }, children);
    const before = (await metrics(hub.webUrl)).get('process_resident_memory_bytes')!;
    for (let i = 0; i < 5; i++) {
      const referee = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'referee', password: PW.referee });
      clients.push(referee);
      referee.on('error', () => undefined);
      referee.publish('billiards/request/match/start', Buffer.alloc(10 * 1024 * 1024, 0x20), { qos: 0, retain: true });
      await new Promise((r) => (referee.connected ? referee.once('close', () => r(null)) : r(null)));
    }
    await sleep(500);
    const after = (await metrics(hub.webUrl)).get('process_resident_memory_bytes')!;
    expect((after - before) / 1e6).toBeLessThan(5);
    const referee = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0, username: 'referee', password: PW.referee });
    clients.push(referee);
    expect(await ask(referee, 'hub/tables', {})).toMatchObject({ status: 'ok' });
  }, 60_000);

  it('the hub refuses to start on a broker that lets anonymous clients publish its topics, unless told to accept it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-open-'));
    const open = await startOpenMosquitto(children);
    const config = hubConfig(dir);
    const started = Date.now();
    const refused = await startHub({ CONFIG: config, DATA_DIR: dir, MQTT_URL: open.url }, children).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused, String(refused)).toMatch(/hub exited 1/);
    // All the process printed: one line.
    const line = refused!.replace(/^hub exited 1: /, '').trim().split('\n');
    expect(line, refused!).toHaveLength(1);
    expect(line[0]).toMatch(/^start: the MQTT broker at mqtt:\/\/127\.0\.0\.1:\d+ lets anonymous clients publish on the hub's topics .*allowOpenExternalBroker/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Explicitly accepted: it starts (and says so in its log).
    const hub = await startHub({ CONFIG: config, DATA_DIR: dir, MQTT_URL: open.url, MQTT_ALLOW_OPEN_BROKER: '1' }, children);
    // Healthy once its link to the broker is up (a loaded machine may take a moment).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await fetch(`${hub.webUrl}/healthz`)).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
  }, 60_000);
});
