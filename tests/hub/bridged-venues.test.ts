import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { Hub } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { createWebPanel } from '../../web/index.ts';
import { componentMissing } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { ManualClock, feedShot, railHit, request, subscriber, testConfig, type TestHub } from './support.ts';

/**
 * Venues on a bridged broker (issue 18), with the shipped configuration
 * (hub/deploy/mosquitto/bridge/): two venue Mosquittos, each with its hub, bridged to a
 * central Mosquitto that a web panel and the league's referee use. The same files as a
 * venue installs, run over loopback: listeners and addresses moved to free ports, TLS and
 * system paths replaced, the bridge's retry shortened.
 */
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const MOSQUITTO_PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find((p) => existsSync(p));
const missing = componentMissing('the mosquitto and mosquitto_passwd binaries (Debian package mosquitto)', MOSQUITTO !== undefined && MOSQUITTO_PASSWD !== undefined);

const DEPLOY = join(REPO_ROOT, 'hub/deploy/mosquitto');
const PASSWORDS = { 'billiards-hub': 'hub-secret-1', referee: 'referee-secret', scoreboard: 'scoreboard-secret', 'bridge-north': 'north-secret', 'bridge-south': 'south-secret' } as const;
type User = keyof typeof PASSWORDS;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A shipped file for this test's broker: its port on loopback, files in `dir`, no TLS (loopback), the bridge retrying every second. */
function localise(text: string, dir: string, port: number, centralPort?: number, bridgePassword?: string): string {
  return text
    .split('\n')
    .filter((line) => !/^(certfile|keyfile|cafile|bridge_cafile) /.test(line))
    .map((line) =>
      line
        .replace(/^listener \d+$/, `listener ${port} 127.0.0.1`)
        .replace(/^address \S+$/, `address 127.0.0.1:${centralPort}`)
        .replace(/^remote_password \S+$/, `remote_password ${bridgePassword}`)
        .replace(/^restart_timeout .*$/, 'restart_timeout 1')
        .replace(/\/var\/lib\/mosquitto\//, `${dir}/`)
        .replace(/\/etc\/mosquitto\//g, `${dir}/`),
    )
    .join('\n');
}

function passwordFile(path: string, users: User[]): void {
  writeFileSync(path, '');
  for (const user of users) {
    const made = spawnSync(MOSQUITTO_PASSWD!, ['-b', path, user, PASSWORDS[user]], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`mosquitto_passwd: ${made.stderr}`);
  }
}

interface Broker {
  port: number;
  url: string;
  start(): Promise<void>;
  kill(): void;
}

function broker(name: string, port: number, write: (dir: string) => string): Broker {
  const dir = mkdtempSync(join(tmpdir(), `bridge-${name}-`));
  const conf = write(dir);
  // Started as root, mosquitto would switch to its own user, who cannot read this test's files.
  writeFileSync(conf, `${readFileSync(conf, 'utf8')}\nuser ${userInfo().username}\n`);
  let child: ChildProcess | null = null;
  let log = '';
  const b: Broker = {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    async start() {
      child = spawn(MOSQUITTO!, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (child.exitCode !== null) throw new Error(`mosquitto ${name} exited: ${log}`);
        if (log.includes('running')) return;
      }
      throw new Error(`mosquitto ${name} did not start: ${log}`);
    },
    kill() {
      child?.kill('SIGKILL');
      child = null;
    },
  };
  cleanups.push(() => b.kill());
  return b;
}

/** A hub on its venue's Mosquitto, logged in as the recipe's hub user. */
async function venueHub(id: string, table: string, url: string): Promise<TestHub> {
  const config = testConfig({ hub: { id } });
  config.tables = [{ ...config.tables[0]!, id: table }];
  const sources = new Map<string, ManualSource>();
  const clock = new ManualClock();
  const dataDir = mkdtempSync(join(tmpdir(), `hub-${id}-`));
  const hub = new Hub({
    config,
    dataDir,
    mqttUrl: url,
    mqttUsername: 'billiards-hub',
    mqttPassword: PASSWORDS['billiards-hub'],
    clock,
    tickMs: 10_000,
    shotEndTimers: false,
    sourceFor: (t) => {
      const source = new ManualSource(false);
      sources.set(t.id, source);
      return source;
    },
  });
  await hub.start();
  cleanups.push(() => hub.stop());
  return { hub, sources, clock, dataDir };
}

const login = (user: User) => ({ username: user, password: PASSWORDS[user] });

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the central broker retains under billiards/#, read by a fresh client. */
async function retained(url: string): Promise<Map<string, any>> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...login('scoreboard') });
  const seen = new Map<string, any>();
  client.on('message', (topic, payload, packet) => packet.retain && payload.length > 0 && seen.set(topic, JSON.parse(payload.toString())));
  await client.subscribeAsync('billiards/#', { qos: 1 });
  await new Promise((r) => setTimeout(r, 400));
  await client.endAsync();
  return seen;
}

const season = {
  id: 's1',
  name: 'Two venues',
  discipline: 'carom',
  target: 3,
  points: { win: 2, draw: 1, loss: 0 },
  handicap: { inningsPerMatch: 4, min: 1, max: 3, lastMatches: 5 },
  players: [{ name: 'Ana' }, { name: 'Ben' }],
};
const scoring = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };

describe.skipIf(missing)('venues bridged to a central Mosquitto (hub/deploy/mosquitto/bridge)', () => {
  it('both venues reach the centre; the central broker dies and returns with no state lost or doubled', async () => {
    const [centralPort, northPort, southPort] = [await freePort(), await freePort(), await freePort()];
    const central = broker('central', centralPort, (dir) => {
      passwordFile(join(dir, 'billiards-central.passwd'), ['bridge-north', 'bridge-south', 'referee', 'scoreboard']);
      writeFileSync(join(dir, 'billiards-central.acl'), readFileSync(join(DEPLOY, 'bridge/billiards-central.acl')));
      writeFileSync(join(dir, 'central.conf'), localise(readFileSync(join(DEPLOY, 'bridge/central.conf'), 'utf8'), dir, centralPort));
      return join(dir, 'central.conf');
    });
    const venue = (name: 'north' | 'south', port: number) =>
      broker(name, port, (dir) => {
        passwordFile(join(dir, 'billiards.passwd'), ['billiards-hub', 'referee']);
        writeFileSync(join(dir, 'billiards.acl'), readFileSync(join(DEPLOY, 'billiards.acl')));
        const base = localise(readFileSync(join(DEPLOY, 'billiards.conf'), 'utf8'), dir, port);
        const bridge = localise(readFileSync(join(DEPLOY, `bridge/venue-${name}.conf`), 'utf8'), dir, port, centralPort, PASSWORDS[`bridge-${name}`]);
        writeFileSync(join(dir, 'venue.conf'), `${base}\n${bridge}\n`);
        return join(dir, 'venue.conf');
      });
    const north = venue('north', northPort);
    const south = venue('south', southPort);
    await central.start();
    await north.start();
    await south.start();

    const hubN = await venueHub('north', 'north-1', north.url);
    const hubS = await venueHub('south', 'south-1', south.url);

    // The centre: a web panel (a scoreboard login) and the league director (a referee login).
    const panel = createWebPanel({ mqtt: { url: central.url, ...login('scoreboard') }, host: '127.0.0.1', port: 0, venue: { username: 'referee', passwordHash: hashPasswordSync('unused-here-1') } });
    const { url: panelUrl } = await panel.start();
    cleanups.push(() => panel.stop());
    const api = async (path: string) => {
      const r = await fetch(`${panelUrl}${path}`);
      return r.status === 200 ? ((await r.json()) as any) : undefined;
    };
    const director = await subscriber(central.url, ['billiards/tables/+/state', 'billiards/league/state'], login('referee'));
    cleanups.push(() => director.client.endAsync());
    const responses: unknown[] = [];
    director.client.on('message', (topic, payload) => topic.startsWith('billiards/response/') && responses.push(JSON.parse(payload.toString())));

    // Both venues' tables, in the central panel, with scores from both.
    await until('both tables in the central panel', async () => ((await api('/api/tables'))?.length === 2 ? true : undefined));
    // Each hub has learnt the other's tables through the centre (hubs/+/state both ways).
    await until('the hubs know each other', () => ((hubS.hub as any).remoteTables.get('north')?.has('north-1') && (hubN.hub as any).remoteTables.get('south')?.has('south-1') ? true : undefined));
    feedShot(hubN, 'north-1', [railHit(0)]);
    feedShot(hubS, 'south-1', [railHit(1)]);
    await director.next('billiards/tables/north-1/state', (s) => s.shotCount === 1 && s.hub === 'north');
    await director.next('billiards/tables/south-1/state', (s) => s.shotCount === 1 && s.hub === 'south');
    await until('scores in the central panel', async () => {
      const tables = (await api('/api/tables')) as { table: string; shotCount: number }[] | undefined;
      return tables?.every((t) => t.shotCount === 1) ? true : undefined;
    });

    // The league, run from the centre: north keeps it; the fixture is played on north's table.
    const r1 = (command: string, payload: Record<string, unknown>) => request(director.client, 'billiards', command, payload);
    expect((await r1('league/setup', { season })).status).toBe('ok');
    const fixtures = await r1('league/generate-fixtures', { season: 's1', startDate: '1970-01-01', daysBetweenRounds: 7 });
    expect(fixtures.status).toBe('ok');
    const fixture = fixtures.data[0];
    const started = await r1('league/start-fixture', { table: 'north-1', fixture: fixture.id });
    expect(started.status, started.error).toBe('ok');
    let state = await director.next('billiards/tables/north-1/state', (s) => s.variant === 'carom');
    // A shot by request: the home player scores every time, the away player misses.
    const shot = async (client: MqttClient) => {
      const current = hubN.hub.tables.get('north-1')!.state();
      const r = await request(client, 'billiards', 'match/shot', { table: 'north-1', shot: current.turn === fixture.home ? scoring : { events: [] } });
      expect(r.status, r.error).toBe('ok');
      return r.data;
    };
    // One from the centre: only north answers it (south leaves north's table to north).
    state = await shot(director.client);
    await new Promise((r) => setTimeout(r, 300));
    const answersToCentre = responses.filter((m: any) => m.status === 'error');
    expect(answersToCentre).toEqual([]); // no hub answered "no such table" for another venue's table

    // The central link goes down: the venues play on.
    central.kill();
    const referee = await mqtt.connectAsync(north.url, { reconnectPeriod: 0, ...login('referee') });
    cleanups.push(() => referee.endAsync());
    for (let i = 0; i < 40 && state.status !== 'finished'; i++) state = await shot(referee);
    expect(state.status).toBe('finished');
    feedShot(hubS, 'south-1', [railHit(2)]);
    expect(hubS.hub.tables.get('south-1')!.state().shotCount).toBe(2);
    const leagueAtNorth = hubN.hub.league!.state();
    expect(leagueAtNorth.recentResults).toHaveLength(1);

    // …and comes back, empty (a crash: nothing of it on disk). The venues' bridges reconnect
    // and send their retained states again: the centre ends with the newest of each, once.
    await central.start();
    const panelLeague = await until('the result in the central panel', async () => ((await api('/api/league'))?.recentResults?.length === 1 ? await api('/api/league') : undefined), 15_000);
    const kept = await until('both venues retained at the centre', async () => {
      const r = await retained(central.url);
      return r.get('billiards/tables/south-1/state')?.shotCount === 2 && r.get('billiards/tables/north-1/state')?.status === 'finished' && r.has('billiards/league/state') ? r : undefined;
    });
    expect(kept.get('billiards/tables/north-1/state')).toEqual(JSON.parse(JSON.stringify(hubN.hub.tables.get('north-1')!.state())));
    expect(kept.get('billiards/tables/south-1/state')).toEqual(JSON.parse(JSON.stringify(hubS.hub.tables.get('south-1')!.state())));
    const league = kept.get('billiards/league/state');
    expect(league).toEqual(JSON.parse(JSON.stringify(hubN.hub.league!.state())));
    // Counted once: one result, one game played by each player.
    expect(league.recentResults).toHaveLength(1);
    expect(league.seasons[0].standings.map((row: { played: number }) => row.played)).toEqual([1, 1]);
    expect(panelLeague.seasons[0].standings.map((row: { played: number }) => row.played)).toEqual([1, 1]);
    const tables = (await api('/api/tables')) as { table: string; shotCount: number; status: string }[];
    expect(Object.fromEntries(tables.map((t) => [t.table, t.shotCount]))).toEqual({ 'north-1': hubN.hub.tables.get('north-1')!.state().shotCount, 'south-1': 2 });
  }, 60_000);
});
