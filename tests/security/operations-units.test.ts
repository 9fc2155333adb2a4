import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkPorts, isLoopback, readStartEnv } from '../../app/start-checks.ts';
import { rateLimitedLog } from '../../hub/ops/log.ts';
import { passwordHashProblem, hashPasswordSync } from '../../hub/ops/password.ts';
import { EventStore } from '../../hub/store/event-store.ts';
import { startNodeFlags } from '../support/build.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { holdPort } from './ops-support.ts';

/** The pieces behind issue 13's operational findings, each on its own (the process tests run them together). */
describe('start-up environment', () => {
  it('defaults to loopback for the panel and the broker, plain HTTP, no proxy', () => {
    const env = readStartEnv({}, '/srv/hub');
    expect(env.ok && env.value).toMatchObject({ web: { host: '127.0.0.1', port: 8080 }, mqtt: { host: null, port: 1883, wsPort: 9001 }, tls: null, trustProxy: false, dataDir: '/srv/hub/data', mqttUrl: null });
  });

  it('reads the demo password and the hub\'s external broker login here too (the environment is read once)', () => {
    const none = readStartEnv({}, '/srv/hub');
    expect(none.ok && none.value).toMatchObject({ venuePassword: null, mqttLogin: null, allowOpenBroker: false });
    const set = readStartEnv({ VENUE_PASSWORD: 'longenough', MQTT_USERNAME: 'hub', MQTT_ALLOW_OPEN_BROKER: '1' }, '/srv/hub');
    expect(set.ok && set.value).toMatchObject({ venuePassword: 'longenough', mqttLogin: { username: 'hub', password: '' }, allowOpenBroker: true });
  });

  it.each([
    [{ PORT: '-1' }, /^PORT: '-1' is not a port number/],
    [{ MQTT_PORT: '18 83' }, /^MQTT_PORT: /],
    [{ HOST: 'a b' }, /^HOST: 'a b' is not an address/],
    [{ MQTT_HOST: '0.0.0.0/24' }, /^MQTT_HOST: /],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY: 'yes' is not 1 or 0/],
    [{ TLS_KEY: '/k.pem' }, /^TLS_CERT: not set; HTTPS needs both/],
    [{ TLS_CERT: '/nonexistent/c.pem', TLS_KEY: '/k.pem' }, /^TLS_CERT \/nonexistent\/c\.pem: cannot read it \(ENOENT\)/],
    [{ MQTT_URL: 'broker.local' }, /^MQTT_URL: 'broker\.local' is not a broker URL/],
    [{ PORT: '9001' }, /^PORT and MQTT_WS_PORT: both are 9001/],
  ])('refuses %o with one line naming it', (env, message) => {
    const parsed = readStartEnv(env, '/srv/hub');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(message);
      expect(parsed.error).not.toContain('\n');
    }
  });

  it('refuses a certificate file that is not PEM, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-pem-'));
    writeFileSync(join(dir, 'c.pem'), 'hello');
    writeFileSync(join(dir, 'k.pem'), 'hello');
    const parsed = readStartEnv({ TLS_CERT: join(dir, 'c.pem'), TLS_KEY: join(dir, 'k.pem') }, '/');
    expect(!parsed.ok && parsed.error).toBe(`TLS_CERT ${join(dir, 'c.pem')}: not a PEM certificate`);
  });

  it('the same port twice is fine with an external broker (the broker ports are unused)', () => {
    expect(readStartEnv({ PORT: '1883', MQTT_URL: 'mqtt://broker.local:1883' }, '/').ok).toBe(true);
  });

  it('a port in use is named with its variable; a free one and port 0 pass', async () => {
    const held = await holdPort();
    try {
      const r = await checkPorts([{ name: 'MQTT_PORT', hostName: 'MQTT_HOST', host: '127.0.0.1', port: held.port }]);
      expect(!r.ok && r.error).toBe(`MQTT_PORT ${held.port} on 127.0.0.1: already in use (another hub or broker running?); set MQTT_PORT to another port`);
      expect((await checkPorts([{ name: 'PORT', hostName: 'HOST', host: '127.0.0.1', port: 0 }])).ok).toBe(true);
    } finally {
      await held.close();
    }
  });

  it('knows loopback addresses (the banner warns about plain HTTP beyond them)', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.10'].some(isLoopback)).toBe(false);
  });
});

describe('password hashes in the configuration', () => {
  it('accepts a real hash and names what is wrong with anything else', () => {
    expect(passwordHashProblem(hashPasswordSync('a real password'))).toBeNull();
    expect(passwordHashProblem('hunter2hunter2')).toMatch(/not a password hash.*clear/);
    expect(passwordHashProblem('scrypt$…')).toMatch(/not a password hash/);
    expect(passwordHashProblem('scrypt$16384$8$1$REPLACE$REPLACE (npm run --silent cli -- hash-password)')).toMatch(/placeholder/);
  });
});

describe('rate-limited log', () => {
  it('logs a repeated message once per window, then how many times it repeated; others pass', () => {
    vi.useFakeTimers();
    try {
      const lines: [string, string, Record<string, unknown> | undefined][] = [];
      let t = 0;
      const log = rateLimitedLog((level, message, fields) => lines.push([level, message, fields]), { windowMs: 10_000, now: () => t });
      for (let i = 0; i < 7374; i++) log('error', 'sensor events could not be stored; they were not published', { rows: 1, error: 'database or disk is full' });
      log('warn', 'something else', {});
      expect(lines.map((l) => l[1])).toEqual(['sensor events could not be stored; they were not published', 'something else']);
      t = 10_000;
      vi.advanceTimersByTime(10_000);
      expect(lines[2]).toEqual(['error', 'sensor events could not be stored; they were not published', { rows: 1, error: 'database or disk is full', repeated: 7373, overMs: 10_000 }]);
      log('error', 'sensor events could not be stored; they were not published', {});
      expect(lines).toHaveLength(4); // a new window begins with the message itself
      log.flush();
      expect(lines).toHaveLength(4); // nothing repeated in it: no summary
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('event store write health', () => {
  it('a failed write makes it unwritable until a write succeeds; drops are counters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-store-'));
    let calls = 0;
    let t = 1_000_000;
    const store = new EventStore(join(dir, 'hub.sqlite'), { onWritable: (n) => (calls = n), now: () => t });
    const db = (store as unknown as { db: { pragma(s: string): unknown } }).db;
    expect(store.writeStatus()).toMatchObject({ writable: true, failedWrites: 0 });
    // A constraint error is a bug, not the disk: the store stays healthy.
    expect(() => store.append('t1', null, 'nonsense' as never, '{}', 0, 'now')).toThrow(/CHECK/);
    expect(store.healthy()).toBe(true);
    // A database that refuses writes (the process test fills a real disk) makes it unhealthy.
    db.pragma('query_only = 1');
    expect(() => store.append('t1', null, 'link', '{}', 0, 'now')).toThrow(/readonly/);
    expect(store.writeStatus()).toMatchObject({ writable: false, failedWrites: 1, error: expect.stringContaining('readonly') });
    t += 1000;
    expect(store.healthy()).toBe(false); // the probe write fails too
    expect(store.writeStatus().failedWrites).toBe(2); // at most one probe a second
    db.pragma('query_only = 0');
    expect(store.healthy()).toBe(false);
    t += 1000;
    expect(store.healthy()).toBe(true); // the probe got through: nothing else needed to be written
    expect(calls).toBe(2);
    store.append('t1', null, 'link', '{}', 0, 'now');
    store.addDrops('t1', 'corrupt', 3);
    store.addDrops('t1', 'corrupt', 2);
    store.addDrops('t1', 'seq-gap', 1);
    store.commitQueued();
    expect(store.droppedFrames('t1')).toEqual({ corrupt: 5, 'seq-gap': 1 });
    expect(store.count()).toBe(1); // the link row; no row per drop
    await store.close();
  });
});

describe('the systemd unit', () => {
  it('never serves the panel beyond loopback over plain HTTP, and keeps the broker on loopback', () => {
    const unit = readFileSync(join(REPO_ROOT, 'hub/deploy/billiards-hub.service'), 'utf8');
    const env = Object.fromEntries([...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    const host = env.HOST ?? '127.0.0.1';
    const secured = (env.TLS_CERT && env.TLS_KEY) || (env.TRUST_PROXY === '1' && isLoopback(host));
    expect(isLoopback(host) && !env.TLS_CERT ? true : Boolean(secured)).toBe(true);
    expect(isLoopback(env.MQTT_HOST ?? '127.0.0.1')).toBe(true);
    expect(unit).toMatch(/^RestartPreventExitStatus=2$/m);
    // npm start's launcher without the build check, under npm start's flags (the build's code cache is made under them).
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node .* app\/launch\.cjs start$/m);
    expect(/^ExecStart=\/usr\/bin\/node ((?:--\S+ )*)app\/launch\.cjs start$/m.exec(unit)![1]!.trim().split(' ')).toEqual(startNodeFlags());
    // Its certificate settings are the ones `start` reads: missing files stop it, naming them.
    const parsed = readStartEnv(env, '/opt/billiards-hub');
    expect(!parsed.ok && parsed.error).toMatch(/^TLS_CERT \/etc\/billiards\/tls\/hub\.crt: cannot read it/);
  });
});
