import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * The hub as an operator runs it (`npm start`, its node flags too): the launcher, which loads
 * the bundled build in dist/, in a process of its own. Under other flags V8 would refuse the
 * build's code cache and each start would write it again.
 */
export const HUB = [...startNodeFlags(), 'app/start.cjs', 'start'];

/** One build for every test file that runs the compiled hub. */
export { buildHub } from '../support/build.ts';
import { startNodeFlags } from '../support/build.ts';

export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
export const MOSQUITTO_PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find((p) => existsSync(p));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface HubProcess {
  child: ChildProcessWithoutNullStreams;
  mqttUrl: string;
  webUrl: string;
  output: () => string;
}

export function startHub(env: Record<string, string>, children: ChildProcess[]): Promise<HubProcess> {
  const child = spawn(process.execPath, HUB, { cwd: REPO_ROOT, env: { ...process.env, PORT: '0', MQTT_PORT: '0', MQTT_WS_PORT: '0', LOG_LEVEL: 'warn', ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub did not start: ${out}${err}`)), 20_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /MQTT broker:\s+(mqtt:\/\/\S+)/.exec(out);
      const web = /Venue overview:\s+(http:\/\/\S+)\//.exec(out);
      if (m && web && out.includes('is running')) {
        clearTimeout(timer);
        resolve({ child, mqttUrl: m[1]!, webUrl: web[1]!, output: () => out + err });
      }
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`hub exited ${code}: ${out}${err}`))));
  });
}

/** The hub's /metrics, as name{labels} → value. */
export async function metrics(webUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${webUrl}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** A client on `#` that keeps every message it is given, as that role sees the broker. */
export interface Sniffer {
  name: string;
  client: MqttClient;
  seen: { topic: string; payload: string }[];
}

export async function sniffer(name: string, url: string, login?: { username: string; password: string }): Promise<Sniffer> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...(login ?? {}) });
  const seen: Sniffer['seen'] = [];
  client.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString('utf8') }));
  await client.subscribeAsync('#', { qos: 0 });
  return { name, client, seen };
}

/** Sends a request and waits for the response with the same transaction. */
export async function ask(client: MqttClient, command: string, fields: Record<string, unknown>, base = 'billiards', timeoutMs = 5000): Promise<{ transaction: string | null; status: string; data?: any; error?: string }> {
  const transaction = `tx-${Math.random().toString(36).slice(2)}`;
  const topic = `${base}/response/${command}`;
  await client.subscribeAsync(topic, { qos: 1 });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (client.off('message', onMessage), reject(new Error(`no response to ${command}`))), timeoutMs);
    const onMessage = (t: string, p: Buffer) => {
      if (t !== topic) return;
      const body = JSON.parse(p.toString('utf8'));
      if (body.transaction !== transaction) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(body);
    };
    client.on('message', onMessage);
    client.publish(`${base}/request/${command}`, JSON.stringify({ transaction, ...fields }), { qos: 1 });
  });
}

/** Mosquitto with the shipped recipe (hub/deploy/mosquitto), on a free loopback port, with these users. */
export async function startRecipeMosquitto(dir: string, users: Record<string, string>, children: ChildProcess[]): Promise<{ url: string; port: number; child: ChildProcess }> {
  // Mosquitto started as root drops to its own user, which must read these files.
  chmodSync(dir, 0o755);
  const passwd = join(dir, 'billiards.passwd');
  writeFileSync(passwd, '');
  for (const [user, password] of Object.entries(users)) {
    const r = spawnSync(MOSQUITTO_PASSWD!, ['-b', passwd, user, password], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mosquitto_passwd: ${r.stderr}`);
  }
  chmodSync(passwd, 0o644);
  const acl = join(dir, 'billiards.acl');
  writeFileSync(acl, readFileSync(join(REPO_ROOT, 'hub/deploy/mosquitto/billiards.acl')));
  const port = await freePort();
  // The shipped configuration, with only its port and file paths changed.
  const conf = readFileSync(join(REPO_ROOT, 'hub/deploy/mosquitto/billiards.conf'), 'utf8')
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    .replace(/^password_file .*$/m, `password_file ${passwd}`)
    .replace(/^acl_file .*$/m, `acl_file ${acl}`);
  const confFile = join(dir, 'mosquitto.conf');
  writeFileSync(confFile, conf);
  return { ...(await runMosquitto(['-c', confFile], port, children)), port };
}

/** Mosquitto as it comes, with no ACL: anonymous clients may publish anything. */
export async function startOpenMosquitto(children: ChildProcess[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  return runMosquitto(['-p', String(port)], port, children);
}

async function runMosquitto(args: string[], port: number, children: ChildProcess[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(MOSQUITTO!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = `mqtt://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${err}`);
    const up = await new Promise<boolean>((resolve) => {
      const c = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 500 });
      c.on('connect', () => (c.end(true), resolve(true)));
      c.on('error', (e) => (c.end(true), resolve(!/ECONNREFUSED/.test(e.message))));
      c.on('close', () => resolve(false));
    });
    if (up) return { url, child };
  }
  throw new Error(`mosquitto did not start: ${err}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
