import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBoardMessage } from '../../firmware-bridge/messages.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { startNodeFlags } from '../support/build.ts';
import { REPO_ROOT } from '../support/paths.ts';

/** The hub's launcher, as `npm start` and the systemd unit run it (tests build dist/ first: tests/support/build.ts). */
export const HUB_MAIN = join(REPO_ROOT, 'app/start.cjs');
export const PASSWORD = 'felt-and-chalk';
export const PASSWORD_HASH = hashPasswordSync(PASSWORD);

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `sec-${name}-`));

export function writeConfig(dir: string, body: unknown, name = 'hub.json'): string {
  const file = join(dir, name);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

/** A port free right now on loopback. */
export async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Holds a port, as another program would. */
export async function holdPort(host = '127.0.0.1'): Promise<{ port: number; close: () => Promise<void> }> {
  const s = createServer();
  s.listen(0, host);
  await once(s, 'listening');
  return { port: (s.address() as AddressInfo).port, close: () => new Promise((r) => s.close(() => r())) };
}

/** Whether something still listens on the port (the hub must leave nothing behind). */
export async function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(true));
    s.listen(port, host, () => s.close(() => resolve(false)));
  });
}

const children = new Set<ChildProcessWithoutNullStreams>();
export function killAll(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}

const BASE_ENV = { PORT: '0', MQTT_PORT: '0', MQTT_WS_PORT: '0', LOG_LEVEL: 'error', CONFIG: '', TLS_CERT: '', TLS_KEY: '', TRUST_PROXY: '', HOST: '', MQTT_HOST: '', MQTT_URL: '' };

/** Runs `start` until it exits by itself (or `limitMs` passes): its exit code, output and how long it took. */
export function runToExit(env: Record<string, string>, limitMs = 15_000, options: { uid?: number; gid?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; exited: boolean }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...startNodeFlags(), HUB_MAIN, 'start'], { cwd: REPO_ROOT, env: { ...process.env, ...BASE_ENV, ...env }, ...options });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, stderr, ms: performance.now() - started, exited: false });
    }, limitMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr, ms: performance.now() - started, exited: true });
    });
  });
}

export interface RunningHub {
  child: ChildProcessWithoutNullStreams;
  webUrl: string;
  mqttUrl: string;
  /** Everything it printed so far (the banner, then pino's JSON lines). */
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the hub and waits for its banner. */
export function startHub(env: Record<string, string>): Promise<RunningHub> {
  const child = spawn(process.execPath, [...startNodeFlags(), HUB_MAIN, 'start'], { cwd: REPO_ROOT, env: { ...process.env, ...BASE_ENV, ...env } });
  children.add(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub did not start: ${out}`)), 30_000);
    const onData = () => {
      const mqtt = /MQTT broker:\s+(mqtt:\/\/\S+)/.exec(out);
      const web = /Venue overview:\s+(https?:\/\/\S+)\//.exec(out);
      if (!mqtt || !web || !out.includes('is running')) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        child,
        webUrl: web[1]!,
        mqttUrl: mqtt[1]!,
        output: () => out,
        stop: async () => {
          if (child.exitCode !== null) return child.exitCode;
          child.kill('SIGTERM');
          const [code] = (await once(child, 'exit')) as [number | null];
          children.delete(child);
          return code;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`hub exited ${code}: ${out}`))));
  });
}

/**
 * A board behind a serial server (ser2net in raw mode) on loopback: the hub's `tcp` source
 * connects to it and the test writes the board's bytes.
 */
export async function fakeBoard(): Promise<{ port: number; connected: Promise<Socket>; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  let resolveFirst!: (s: Socket) => void;
  const connected = new Promise<Socket>((r) => (resolveFirst = r));
  const server: Server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
    resolveFirst(s);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    connected,
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

/** The board's frames: a boot hello, then vibration frames with consecutive sequence numbers. */
export function boardFrames(): { hello: () => Buffer; vibration: (level?: number) => Buffer } {
  let seq = 0;
  let us = 1_000;
  return {
    hello: () => encodeBoardMessage({ kind: 'hello', seq: 0, protocol: 1, firmware: '1.0.0', adcChannels: 6, skittles: 0, resetCause: 1, boardUs: us }),
    vibration: (level = 40) => {
      seq = (seq + 1) & 0xff;
      us += 10_000;
      return encodeBoardMessage({ kind: 'vibration', seq, level, boardUs: us });
    },
  };
}

/** A frame with one payload byte flipped: its CRC no longer matches (line noise). */
export function corrupt(frame: Buffer): Buffer {
  const bad = Buffer.from(frame);
  bad[5] = bad[5]! ^ 0x10;
  return bad;
}

/** Bytes of line noise that never contain the frame's sync byte (0xA5): garbage, never a candidate frame. */
export function noise(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const b = x & 0xff;
    out[i] = b === 0xa5 ? 0x20 : b;
  }
  return out;
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
