import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { ask, buildHub, metrics, sleep, sniffer, startHub, type HubProcess, type Sniffer } from './support.ts';

/**
 * Issue 13, findings 1–5 and 10a with the hub's embedded broker: the compiled hub in a
 * process of its own, probed from outside as a venue's IT person and an attacker would.
 */
const PW = { venue: 'venue-secret-8Hn', scoreboard: 'scoreboard-secret-9Lm', tracker: 'tracker-secret-2Vb', legacy: 'legacy-secret-5Tc' };
const SECRETS = Object.values(PW);
const carom = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };
const REFEREE = { username: 'referee', password: PW.venue };

const children: ChildProcess[] = [];
const clients: { endAsync: (force?: boolean) => Promise<unknown> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.endAsync(true).catch(() => undefined);
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

beforeAll(() => buildHub(), 200_000);

async function start(): Promise<HubProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sec-embedded-'));
  const config = join(dir, 'hub.json');
  writeFileSync(
    config,
    JSON.stringify({
      hub: { id: 'club-s' },
      venue: { passwordHash: hashPasswordSync(PW.venue) },
      broker: {
        users: [
          { username: 'scoreboard', passwordHash: hashPasswordSync(PW.scoreboard), role: 'display' },
          { username: 'tracker-t1', passwordHash: hashPasswordSync(PW.tracker), role: 'tracker', tables: ['t1'] },
          // As the old example configuration had it: no role, everything under the base topic.
          { username: 'legacy', passwordHash: hashPasswordSync(PW.legacy), subscribe: ['billiards/#'] },
        ],
      },
      tables: [{ id: 't1', source: { type: 'serial', path: '/dev/null-billiards-board' }, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 1000 } }],
    }),
  );
  return startHub({ CONFIG: config, DATA_DIR: dir }, children);
}

async function panelLogin(webUrl: string): Promise<{ post: (path: string, body: unknown) => Promise<Response>; get: (path: string) => Promise<Response> }> {
  const login = await fetch(`${webUrl}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'referee', password: PW.venue }) });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf } = (await login.json()) as { csrf: string };
  return {
    post: (path, body) => fetch(`${webUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    get: (path) => fetch(`${webUrl}${path}`, { headers: { cookie } }),
  };
}

/** One MQTT CONNECT from a chosen local address (127.0.0.2 is loopback too): the CONNACK return code. */
function rawConnect(port: number, localAddress: string, username: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    const parser = mqttPacket.parser();
    parser.on('packet', (p) => (socket.destroy(), resolve((p as { returnCode: number }).returnCode)));
    socket.on('data', (d) => parser.parse(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(-1));
    socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: `guess-${Math.random().toString(36).slice(2)}`, keepalive: 0, username, password: Buffer.from(password) }));
  });
}

const healthy = async (webUrl: string) => (await fetch(`${webUrl}/healthz`)).status;

describe('security of the hub with its embedded broker (issue 13)', () => {
  it('finding 1, 10a: a sniffer on # as every role never sees a secret; requests are nobody’s to read; answers reach referees only', async () => {
    const hub = await start();
    const sniffers: Sniffer[] = [
      await sniffer('anonymous', hub.mqttUrl),
      await sniffer('scoreboard', hub.mqttUrl, { username: 'scoreboard', password: PW.scoreboard }),
      await sniffer('tracker', hub.mqttUrl, { username: 'tracker-t1', password: PW.tracker }),
      await sniffer('legacy', hub.mqttUrl, { username: 'legacy', password: PW.legacy }),
      await sniffer('referee', hub.mqttUrl, REFEREE),
    ];
    clients.push(...sniffers.map((s) => s.client));
    // The web console, logged in: every command it has.
    const panel = await panelLogin(hub.webUrl);
    expect((await panel.post('/api/tables/t1/shot', { shot: carom })).status).toBe(200);
    expect((await panel.post('/api/tables/t1/next-shot', { declare: 'safety', fouls: [] })).status).toBe(200);
    expect((await panel.post('/api/tables/t1/referee', { referee: { action: 'undo' } })).status).toBe(200);
    expect((await panel.post('/api/tables/t1/match', { variant: 'carom', players: ['Cid', 'Dan'], target: 50 })).status).toBe(200);
    expect((await panel.get('/api/tables/t1/export?format=jsonl')).status).toBe(200);
    // A referee app on MQTT, logged in with the venue's referee login.
    const referee = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...REFEREE });
    clients.push(referee);
    expect(await ask(referee, 'match/shot', { table: 't1', shot: carom })).toMatchObject({ status: 'ok', data: { shotCount: 1 } });
    expect((await ask(referee, 'match/export', { table: 't1', format: 'jsonl' })).data.content).toContain('"Cid"');
    // An anonymous client asking for the export (10a) is cut off by the broker; nothing answers it.
    const anonymous = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0 });
    clients.push(anonymous);
    const cut = new Promise((r) => anonymous.once('close', () => r(null)));
    anonymous.publish('billiards/request/match/export', JSON.stringify({ transaction: 'steal', table: 't1', format: 'jsonl' }), { qos: 1 });
    await cut;
    await sleep(300);

    for (const s of sniffers) {
      for (const m of s.seen) {
        for (const secret of SECRETS) expect(m.payload, `${s.name} saw a secret on ${m.topic}`).not.toContain(secret);
        expect(m.payload, `${s.name} saw a credential on ${m.topic}`).not.toMatch(/"password"|scrypt\$/);
      }
      expect(s.seen.filter((m) => m.topic.startsWith('billiards/request/')), `${s.name} read a request`).toEqual([]);
      expect(s.seen.some((m) => m.topic === 'billiards/tables/t1/state'), `${s.name} reads the public state`).toBe(true);
    }
    for (const s of sniffers.slice(0, 4)) expect(s.seen.filter((m) => m.topic.startsWith('billiards/response/')), `${s.name} read an answer`).toEqual([]);
    // The referee's own exports (the panel's and its app's), never an answer to the thief.
    const exports = sniffers[4]!.seen.filter((m) => m.topic === 'billiards/response/match/export');
    expect(exports).toHaveLength(2);
    expect(exports.map((m) => JSON.parse(m.payload).transaction)).not.toContain('steal');
    // Displays and trackers cannot publish on the hub's topics, nor send requests.
    for (const [login, topic] of [
      [{ username: 'scoreboard', password: PW.scoreboard }, 'billiards/request/match/start'],
      [{ username: 'tracker-t1', password: PW.tracker }, 'billiards/tables/t1/state'],
      [{ username: 'legacy', password: PW.legacy }, 'billiards/tables/t1/state'],
    ] as const) {
      const c = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...login });
      clients.push(c);
      const closed = new Promise((r) => c.once('close', () => r(null)));
      c.publish(topic, JSON.stringify({ transaction: 'x', table: 't1', seq: 99999 }), { qos: 1 });
      await closed;
    }
    const state = (await (await fetch(`${hub.webUrl}/api/tables/t1`)).json()) as { seq: number; players: { name: string }[] };
    expect(state.seq).toBeLessThan(99999);
    expect(state.players.map((p) => p.name)).toEqual(['Cid', 'Dan']);
  }, 60_000);

  it('finding 2: refused and malformed commands, with wildcard subscribers connected, leave the hub serving', async () => {
    const hub = await start();
    const watchers = [await sniffer('anonymous', hub.mqttUrl), await sniffer('referee', hub.mqttUrl, REFEREE)];
    clients.push(...watchers.map((s) => s.client));
    for (const w of watchers) {
      await w.client.subscribeAsync('billiards/#', { qos: 1 });
      // Nobody but the hub reads requests: the subscription is negated, the client stays.
      await expect(w.client.subscribeAsync('billiards/request/#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
      expect(w.client.connected).toBe(true);
    }
    const panel = await panelLogin(hub.webUrl);
    // The crash of the issue: a ruling with no prompt open, five times.
    for (let i = 0; i < 5; i++) {
      const r = await panel.post('/api/tables/t1/referee', { referee: { ruling: 'score' } });
      expect(r.status).toBe(422);
    }
    // Every console route, refused by the hub (valid input) and refused at the edge (malformed).
    const refusedByHub: [string, unknown][] = [
      ['/api/tables/t1/referee', { referee: { action: 'undo' } }],
      ['/api/tables/nope/shot', { shot: carom }],
      ['/api/tables/nope/match', { variant: 'carom', players: ['A', 'B'], target: 10 }],
      ['/api/tables/nope/next-shot', { declare: null, fouls: [] }],
      ['/api/tables/t1/thresholds', { channels: [{ channel: 0, threshold: 10, refractoryMs: 5 }] }],
      ['/api/league/setup', { season: { id: 's' } }],
      ['/api/league/start-fixture', { table: 't1', fixture: 'nope' }],
    ];
    for (const [path, body] of refusedByHub) expect((await panel.post(path, body)).status, path).toBeGreaterThanOrEqual(400);
    for (const route of ['match', 'shot', 'referee', 'next-shot', 'thresholds']) {
      for (const body of ['{nope', '[]', '{"shot":{"events":"x"}}', JSON.stringify({ x: 'y'.repeat(50_000) })]) expect((await panel.post(`/api/tables/t1/${route}`, body)).status).toBeGreaterThanOrEqual(400);
    }
    // The same over MQTT, as a referee: every command, refused and malformed.
    const referee = watchers[1]!.client;
    const commands = ['match/start', 'match/shot', 'match/referee', 'match/next-shot', 'match/export', 'table/thresholds', 'hub/tables', 'league/setup', 'league/generate-fixtures', 'league/start-fixture', 'league/result', 'league/export', 'no/such'];
    for (const command of commands) {
      expect((await ask(referee, command, { table: 'nope', referee: { ruling: 'score' }, shot: carom, format: 'csv', fixture: 'f', what: 'standings', season: 's' })).status, command).toBe('error');
      for (const raw of ['{', 'null', '[]', '"x"', '{"transaction":5}', JSON.stringify({ transaction: 't', table: { $gt: '' } })]) referee.publish(`billiards/request/${command}`, raw, { qos: 1 });
    }
    await sleep(500);
    expect(hub.child.exitCode).toBeNull();
    expect(await healthy(hub.webUrl)).toBe(200);
    expect(hub.output()).not.toMatch(/unhandled|uncaught|HubRequestError/i);
    expect(await ask(referee, 'match/shot', { table: 't1', shot: carom })).toMatchObject({ status: 'ok' });
  }, 90_000);

  it('finding 3: concurrent guesses are serialized and backed off per source; the referee still acts meanwhile', async () => {
    const hub = await start();
    const port = Number(new URL(hub.mqttUrl).port);
    // Forty wrong passwords at once from the attacker's address.
    const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => rawConnect(port, '127.0.0.2', 'referee', `guess-${i}`)));
    expect(codes.every((c) => c === 4)).toBe(true);
    const m = await metrics(hub.webUrl);
    // Five were checked (the free failures), the rest refused without a check.
    expect(m.get('billiards_mqtt_refused_total{reason="login"}')).toBe(5);
    expect(m.get('billiards_mqtt_refused_total{reason="login-locked"}')).toBe(35);
    // Even the right password is refused from there while the back-off lasts…
    expect(await rawConnect(port, '127.0.0.2', 'referee', PW.venue)).toBe(4);
    // …while the referee, at its own address, logs in and acts, and keeps acting as guesses go on.
    const guessing = Promise.all(Array.from({ length: 20 }, (_, i) => rawConnect(port, '127.0.0.2', 'referee', `more-${i}`)));
    const referee = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...REFEREE });
    clients.push(referee);
    expect(await ask(referee, 'match/shot', { table: 't1', shot: carom })).toMatchObject({ status: 'ok' });
    const panel = await panelLogin(hub.webUrl);
    expect((await panel.post('/api/tables/t1/referee', { referee: { action: 'undo' } })).status).toBe(200);
    await guessing;
    expect((await metrics(hub.webUrl)).get('billiards_mqtt_refused_total{reason="login"}')).toBe(5);
  }, 60_000);

  it('finding 4: a retained request is refused by the broker and never runs; a duplicate transaction is applied once', async () => {
    const hub = await start();
    const referee = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...REFEREE });
    clients.push(referee);
    expect(await ask(referee, 'match/shot', { table: 't1', shot: carom })).toMatchObject({ status: 'ok', data: { shotCount: 1 } });
    const planter = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...REFEREE });
    clients.push(planter);
    const closed = new Promise((r) => planter.once('close', () => r(null)));
    planter.publish('billiards/request/match/start', JSON.stringify({ transaction: 'planted', table: 't1', variant: 'carom', players: ['Mallory', 'Eve'], target: 1 }), { qos: 1, retain: true });
    await closed;
    // A new subscriber (and the hub at its next start) finds nothing retained there.
    const look = await sniffer('referee', hub.mqttUrl, REFEREE);
    clients.push(look.client);
    await sleep(300);
    expect(look.seen.filter((m) => m.topic.startsWith('billiards/request/'))).toEqual([]);
    const state = async () => (await (await fetch(`${hub.webUrl}/api/tables/t1`)).json()) as { shotCount: number; players: { name: string }[] };
    expect(await state()).toMatchObject({ shotCount: 1, players: [{ name: 'Ana' }, { name: 'Ben' }] });
    // The same request twice: one shot, two identical answers.
    const body = JSON.stringify({ transaction: 'once', table: 't1', shot: carom });
    const answers: string[] = [];
    referee.on('message', (topic, payload) => topic === 'billiards/response/match/shot' && answers.push(payload.toString()));
    await referee.publishAsync('billiards/request/match/shot', body, { qos: 1 });
    await referee.publishAsync('billiards/request/match/shot', body, { qos: 1 });
    await expect.poll(() => answers.length).toBe(2);
    expect(answers[0]).toBe(answers[1]);
    await expect.poll(async () => (await state()).shotCount).toBe(2); // the panel's view follows the retained state
    await sleep(300);
    expect((await state()).shotCount).toBe(2); // and stays there: the duplicate did not follow
  }, 60_000);

  it('finding 5: five 10 MB payloads are refused without growing the hub by more than a few MB; subscriptions are bounded', async () => {
    const hub = await start();
    const before = (await metrics(hub.webUrl)).get('process_resident_memory_bytes')!;
    const big = Buffer.alloc(10 * 1024 * 1024, 0x7b);
    for (let i = 0; i < 5; i++) {
      const c = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...(i % 2 === 0 ? REFEREE : {}) });
      clients.push(c);
      c.on('error', () => undefined);
      const closed = new Promise((r) => c.once('close', () => r(null)));
      c.publish('billiards/request/match/start', big, { qos: 0, retain: true });
      await closed;
    }
    // A payload over its family's limit but in a small packet: refused at publish.
    const c = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0, ...REFEREE });
    clients.push(c);
    const closed = new Promise((r) => c.once('close', () => r(null)));
    c.publish('billiards/request/match/shot', Buffer.alloc(100 * 1024, 0x20), { qos: 0 });
    await closed;
    await sleep(300);
    const m = await metrics(hub.webUrl);
    const grown = (m.get('process_resident_memory_bytes')! - before) / 1e6;
    expect(grown).toBeLessThan(5);
    expect(m.get('billiards_mqtt_refused_total{reason="packet-size"}')).toBe(5);
    expect(m.get('billiards_mqtt_refused_total{reason="payload-size"}')).toBe(1);
    // At most 64 subscriptions per client.
    const greedy = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0 });
    clients.push(greedy);
    await greedy.subscribeAsync(Array.from({ length: 64 }, (_, i) => `billiards/tables/t${i}/state`), { qos: 0 });
    await expect(greedy.subscribeAsync('billiards/tables/t64/state', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(greedy.connected).toBe(true);
    expect((await metrics(hub.webUrl)).get('billiards_mqtt_refused_total{reason="subscriptions-limit"}')).toBe(1);
    expect(await healthy(hub.webUrl)).toBe(200);
    console.info(`security: five 10 MB publishes grew the hub's RSS by ${grown.toFixed(1)} MB`);
  }, 60_000);
});
