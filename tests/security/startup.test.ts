import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildHub } from '../support/build.ts';
import { componentMissing } from '../support/components.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { freePort, holdPort, killAll, listening, PASSWORD_HASH, runToExit, tempDir, writeConfig } from './ops-support.ts';

/**
 * Issue 13, finding 7: every start-up failure is one line on stderr that names the file,
 * field, variable or port; the exit is non-zero and comes within 2 s; nothing is left
 * listening. The real compiled hub, as `npm start` and the systemd unit run it.
 */
beforeAll(() => buildHub(), 330_000);
afterEach(() => killAll());

const TABLE = { id: 't1', source: { type: 'serial', path: '/dev/null-billiards-board' } };
const GOOD = { hub: { id: 'club-s' }, venue: { passwordHash: PASSWORD_HASH }, tables: [TABLE] };

/** Fixed free ports for all three listeners, so the test can see that none is left open. */
async function ports(): Promise<{ PORT: string; MQTT_PORT: string; MQTT_WS_PORT: string }> {
  return { PORT: String(await freePort()), MQTT_PORT: String(await freePort()), MQTT_WS_PORT: String(await freePort()) };
}

/** How long a bare `node` takes to start and exit, now: the baseline the hub's 2 s are counted from. */
function nodeStartMs(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', () => resolve(performance.now() - started)));
}

async function expectOneLineFailure(env: Record<string, string>, message: RegExp, options: { uid?: number; gid?: number } = {}): Promise<void> {
  const r = await runToExit(env, 15_000, options);
  expect(r.exited, `still running after 15 s: ${r.stdout}${r.stderr}`).toBe(true);
  expect(r.code).not.toBe(0);
  expect(r.code).not.toBeNull();
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^start: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stdout).toBe(''); // no banner, no log: nothing had started
  // Within 2 s of what Node.js itself needs to start on this machine right now (a loaded CI
  // box can take over a second for that alone); a hang is caught above (15 s).
  const node = await nodeStartMs();
  expect(r.ms - node, `exited after ${Math.round(r.ms)} ms (Node.js alone: ${Math.round(node)} ms)`).toBeLessThan(2000);
  for (const name of ['PORT', 'MQTT_PORT', 'MQTT_WS_PORT'] as const) {
    const port = Number(env[name]);
    if (port > 0 && port < 65536 && env.__blocked !== String(port)) expect(await listening(port), `${name} ${port} left open`).toBe(false);
  }
}

describe('start-up failures: one line, non-zero exit within 2 s, nothing left running', () => {
  it("the example configuration's placeholder passwordHash is refused by field", async () => {
    const dir = tempDir('placeholder');
    copyFileSync(join(REPO_ROOT, 'hub/deploy/hub.example.json'), join(dir, 'hub.json'));
    await expectOneLineFailure({ ...(await ports()), CONFIG: join(dir, 'hub.json'), DATA_DIR: dir }, /hub\.json: venue\.passwordHash: .*placeholder.*hash-password/);
  });

  it('a password in clear where its hash belongs is refused by field', async () => {
    const dir = tempDir('cleartext');
    const config = writeConfig(dir, { ...GOOD, venue: { passwordHash: 'felt-and-chalk-2026' } });
    await expectOneLineFailure({ ...(await ports()), CONFIG: config, DATA_DIR: dir }, new RegExp(`${config.replace(/[.]/g, '\\.')}: venue\\.passwordHash: not a password hash`));
  });

  it("a broker user's clear-text password is refused by field", async () => {
    const dir = tempDir('user');
    const config = writeConfig(dir, { ...GOOD, broker: { users: [{ username: 'scoreboard', passwordHash: 'scoreboard-pw' }] } });
    await expectOneLineFailure({ ...(await ports()), CONFIG: config, DATA_DIR: dir }, /broker\.users\[0\]\.passwordHash: not a password hash/);
  });

  it('a bad configuration field is named', async () => {
    const dir = tempDir('field');
    const config = writeConfig(dir, { ...GOOD, tables: [{ ...TABLE, quietWindowMs: 5 }] });
    await expectOneLineFailure({ ...(await ports()), CONFIG: config, DATA_DIR: dir }, /hub\.json: tables\[0\]\.quietWindowMs/);
  });

  it('a configuration file that cannot be read is named', async () => {
    const dir = tempDir('nocfg');
    await expectOneLineFailure({ ...(await ports()), CONFIG: join(dir, 'missing.json'), DATA_DIR: dir }, /missing\.json: cannot read \(ENOENT\)/);
  });

  for (const name of ['MQTT_PORT', 'MQTT_WS_PORT', 'PORT'] as const) {
    it(`${name} in use is named, with the port`, async () => {
      const blocker = await holdPort();
      try {
        const dir = tempDir('port');
        const env = { ...(await ports()), [name]: String(blocker.port), __blocked: String(blocker.port), CONFIG: writeConfig(dir, GOOD), DATA_DIR: dir };
        await expectOneLineFailure(env, new RegExp(`${name} ${blocker.port} on 127\\.0\\.0\\.1: already in use`));
      } finally {
        await blocker.close();
      }
    });
  }

  it('a corrupt store is named, file and all', async () => {
    const dir = tempDir('corrupt');
    writeFileSync(join(dir, 'hub.sqlite'), Buffer.concat([Buffer.from('not a database at all '), Buffer.alloc(8192, 0x5a)]));
    const store = join(dir, 'hub.sqlite');
    await expectOneLineFailure({ ...(await ports()), CONFIG: writeConfig(dir, GOOD), DATA_DIR: dir }, new RegExp(`store ${store.replace(/[.]/g, '\\.')}: not an SQLite database`));
  });

  it('a store the hub may not read is named, file and all', async (ctx) => {
    const dir = tempDir('unreadable');
    const store = join(dir, 'hub.sqlite');
    writeFileSync(store, '');
    chmodSync(store, 0o000);
    const config = writeConfig(dir, GOOD);
    // Root reads any file: the hub then runs as an unprivileged user, as the systemd unit does.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(join(REPO_ROOT, 'dist/app/cli.bundle.cjs'))})`], { uid: 65534, gid: 65534 });
      if (componentMissing('an unprivileged user (uid 65534) who can read the repository', probe.status === 0)) return ctx.skip();
      chownSync(dir, 65534, 65534);
      chmodSync(config, 0o644);
    }
    await expectOneLineFailure({ ...(await ports()), CONFIG: config, DATA_DIR: dir }, new RegExp(`store ${store.replace(/[.]/g, '\\.')}: no permission to read and write it \\(EACCES\\)`), asRoot ? { uid: 65534, gid: 65534 } : {});
  });

  it('a directory where the store should be is named', async () => {
    const dir = tempDir('storedir');
    mkdirSync(join(dir, 'hub.sqlite'));
    await expectOneLineFailure({ ...(await ports()), CONFIG: writeConfig(dir, GOOD), DATA_DIR: dir }, /hub\.sqlite: a directory is in its place/);
  });

  it('a bad environment variable is named', async () => {
    const dir = tempDir('env');
    await expectOneLineFailure({ ...(await ports()), MQTT_WS_PORT: '70000', CONFIG: writeConfig(dir, GOOD), DATA_DIR: dir }, /MQTT_WS_PORT: '70000' is not a port number/);
    await expectOneLineFailure({ ...(await ports()), MQTT_HOST: '10.255.255.254', CONFIG: writeConfig(dir, GOOD), DATA_DIR: dir }, /MQTT_PORT \d+ on 10\.255\.255\.254: this machine has no address 10\.255\.255\.254; check MQTT_HOST/);
  });

  it('a certificate without its key, and a key that is not the certificate’s, are named', async (ctx) => {
    const dir = tempDir('tls');
    const make = (name: string) =>
      spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.crt`)], { encoding: 'utf8' });
    if (componentMissing('openssl (to make a test certificate)', make('a').status === 0 && make('b').status === 0)) return ctx.skip();
    const config = writeConfig(dir, GOOD);
    await expectOneLineFailure({ ...(await ports()), TLS_CERT: join(dir, 'a.crt'), CONFIG: config, DATA_DIR: dir }, /TLS_KEY: not set/);
    await expectOneLineFailure({ ...(await ports()), TLS_CERT: join(dir, 'a.crt'), TLS_KEY: join(dir, 'b.key'), CONFIG: config, DATA_DIR: dir }, /TLS_CERT .*a\.crt and TLS_KEY .*b\.key: not a usable pair/);
    expect(readFileSync(join(dir, 'a.crt'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });
});

afterAll(() => killAll());
