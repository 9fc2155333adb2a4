import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { componentMissing } from '../support/components.ts';
import { VENUE_PASSWORD, feedShot, railHit, request, startTestHub, subscriber, testConfig, type TestHub } from './support.ts';

/** Against a real Mosquitto: the one CI starts (MQTT_TEST_URL), and one a test starts and stops itself. */
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const externalUrl = process.env.MQTT_TEST_URL;
const noExternal = componentMissing('a Mosquitto broker at MQTT_TEST_URL (.ci/run starts one)', externalUrl !== undefined && externalUrl !== '');
const noBinary = componentMissing('the mosquitto binary (Debian package mosquitto)', MOSQUITTO !== undefined);

const running: TestHub[] = [];
const ends: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const end of ends.splice(0)) await end().catch(() => undefined);
  for (const t of running.splice(0)) await t.hub.stop();
});

const base = () => `test-${Math.random().toString(36).slice(2, 8)}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startMosquitto(port: number): Promise<ChildProcess> {
  const child = spawn(MOSQUITTO!, ['-p', String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const open = await new Promise<boolean>((resolve) => {
      const socket = createServer();
      socket.once('error', () => resolve(true));
      socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
    });
    if (open) return child;
  }
  throw new Error('mosquitto did not start');
}

describe.skipIf(noExternal)('hub on an external Mosquitto broker (MQTT_URL)', () => {
  it('publishes retained state there and answers commands', async () => {
    const topic = base();
    const config = testConfig({ hub: { id: 'club-a', baseTopic: topic } });
    const t = await startTestHub({ config, mqttUrl: externalUrl! });
    running.push(t);
    const sub = await subscriber(externalUrl!, [`${topic}/#`]);
    ends.push(() => sub.client.endAsync());
    expect(await sub.next(`${topic}/tables/t1/state`)).toMatchObject({ table: 't1', variant: 'three-cushion', hub: 'club-a' });
    feedShot(t, 't1', [railHit(0)]);
    expect(await sub.next(`${topic}/tables/t1/state`, (s) => s.shotCount === 1)).toMatchObject({ turn: 'Ben' });
    const answer = await request(sub.client, topic, 'match/referee', { table: 't1', referee: { action: 'undo' } });
    expect(answer).toMatchObject({ status: 'ok', data: { shotCount: 0, turn: 'Ana' } });
  });

  it('several hubs with different ids share one broker; each answers for its own tables', async () => {
    const topic = base();
    const a = await startTestHub({ config: testConfig({ hub: { id: 'club-a', baseTopic: topic } }), mqttUrl: externalUrl! });
    running.push(a);
    const configB = testConfig({ hub: { id: 'club-b', baseTopic: topic } });
    configB.tables = [{ ...configB.tables[0]!, id: 't2' }];
    const b = await startTestHub({ config: configB, mqttUrl: externalUrl! });
    running.push(b);
    const sub = await subscriber(externalUrl!, [`${topic}/#`]);
    ends.push(() => sub.client.endAsync());
    expect(await sub.next(`${topic}/tables/t1/state`)).toMatchObject({ hub: 'club-a' });
    expect(await sub.next(`${topic}/tables/t2/state`)).toMatchObject({ hub: 'club-b' });
    await sub.next(`${topic}/hubs/club-a/state`, (s) => s.state === 'online');
    await sub.next(`${topic}/hubs/club-b/state`, (s) => s.state === 'online');
    await new Promise((r) => setTimeout(r, 200)); // both hubs have seen each other's table lists
    const answers: unknown[] = [];
    sub.client.on('message', (t, p) => t === `${topic}/response/match/referee` && answers.push(JSON.parse(p.toString())));
    const answer = await request(sub.client, topic, 'match/referee', { table: 't2', referee: { action: 'undo' } });
    expect(answer.error).toMatch(/nothing to undo/); // club-b answered for its own table
    await new Promise((r) => setTimeout(r, 300));
    expect(answers).toHaveLength(1); // club-a stayed silent
  });
});

describe.skipIf(noBinary)('broker restart', () => {
  it('scoring goes on while the broker is away, and the state is republished when it returns', async () => {
    const port = await freePort();
    let broker = await startMosquitto(port);
    ends.push(async () => void broker.kill('SIGKILL'));
    const url = `mqtt://127.0.0.1:${port}`;
    const topic = base();
    const t = await startTestHub({ config: testConfig({ hub: { id: 'club-a', baseTopic: topic } }), mqttUrl: url });
    running.push(t);
    broker.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    feedShot(t, 't1', [railHit(0)]); // scored with no broker
    expect(t.hub.tables.get('t1')!.state().shotCount).toBe(1);
    broker = await startMosquitto(port); // a fresh broker: no retained messages at all
    const sub = await subscriber(url, [`${topic}/#`]);
    ends.push(() => sub.client.endAsync());
    const state = await sub.next(`${topic}/tables/t1/state`, (s) => s.shotCount === 1);
    expect(state).toMatchObject({ shotCount: 1, turn: 'Ben' });
    expect(await sub.next(`${topic}/bridge/state`)).toEqual({ state: 'online' });
    // What the broker now retains is the newest state, not an older one resent late.
    await new Promise((r) => setTimeout(r, 300));
    const late = await subscriber(url, [`${topic}/tables/t1/state`]);
    ends.push(() => late.client.endAsync());
    expect(await late.next(`${topic}/tables/t1/state`)).toMatchObject({ shotCount: 1 });
  }, 20_000);
});
