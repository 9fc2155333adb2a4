import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { buildHub, startNodeFlags } from '../support/build.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { startHub as startHubProcess } from '../security/support.ts';
import { request } from './support.ts';

/**
 * The hub as an operator runs it: `npm start`, which builds (`npm run build`) and runs the
 * bundled hub in dist/ in a process of its own (app/start.cjs).
 */
const HUB = [...startNodeFlags(), 'app/start.cjs', 'start'];
beforeAll(() => buildHub(), 330_000);

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function writeConfig(dir: string, body: unknown): string {
  const file = join(dir, 'hub.json');
  writeFileSync(file, JSON.stringify(body));
  return file;
}

const PASSWORD = 'felt-and-chalk';
const CONFIG = {
  hub: { id: 'club-k' },
  venue: { passwordHash: hashPasswordSync(PASSWORD) },
  // A board that is not plugged in: the table is offline, its match is scored from commands.
  tables: [{ id: 't1', source: { type: 'serial', path: '/dev/null-billiards-board' }, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 1000 } }],
};

/** The compiled hub in its own process (tests/security/support.ts), stopped after each test. */
const startHub = (env: Record<string, string>) => startHubProcess({ LOG_LEVEL: 'error', ...env }, children);

describe('hub process', () => {
  it('kill -9 in the middle of a match loses nothing that was published; the restart has the same state', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-kill-'));
    const config = writeConfig(dataDir, CONFIG);
    const first = await startHub({ CONFIG: config, DATA_DIR: dataDir });
    // The build copied what the compiled panel loads at run time.
    const css = await fetch(`${first.webUrl}/static/panel.css`);
    expect(css.status).toBe(200);
    const client = await mqtt.connectAsync(first.mqttUrl, { reconnectPeriod: 0, username: 'referee', password: PASSWORD });
    const carom = { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] };
    let acknowledged = 0;
    let lastState: { shotCount: number; players: { score: number }[] } | null = null;
    for (let i = 0; i < 12; i++) {
      const answer = await request(client, 'billiards', 'match/shot', { table: 't1', shot: carom });
      expect(answer.status).toBe('ok');
      acknowledged += 1;
      lastState = answer.data;
    }
    // More shots in flight when the process dies: those may or may not have made it.
    for (let i = 0; i < 5; i++) void client.publishAsync('billiards/request/match/shot', JSON.stringify({ transaction: `late-${i}`, table: 't1', shot: carom }), { qos: 1 }).catch(() => undefined);
    first.child.kill('SIGKILL');
    await client.endAsync(true).catch(() => undefined);
    await new Promise((r) => first.child.once('exit', r));

    const second = await startHub({ CONFIG: config, DATA_DIR: dataDir });
    const again = await mqtt.connectAsync(second.mqttUrl, { reconnectPeriod: 0, username: 'referee', password: PASSWORD });
    const tables = await request(again, 'billiards', 'hub/tables', {});
    await again.endAsync();
    const state = tables.data[0];
    expect(state.shotCount).toBeGreaterThanOrEqual(acknowledged);
    expect(state.shotCount).toBeLessThanOrEqual(acknowledged + 5);
    expect(state.players[0].score).toBe(state.shotCount); // every stored shot is one carom: nothing half-applied
    expect(lastState!.shotCount).toBe(acknowledged);
  }, 60_000);

  it('npm start with no configuration shows the demo house league with its standings on /league within 60 s (issue 17)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-demo-'));
    const started = Date.now();
    const hub = await startHub({ CONFIG: '', DATA_DIR: dataDir });
    let html = '';
    while (Date.now() - started < 60_000) {
      html = await (await fetch(`${hub.webUrl}/league`)).text();
      if (html.includes('class="lg-standings"')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(html).toContain('class="lg-standings"');
    expect(html.match(/<td class="pn">/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 70_000);

  it('a corrupt configuration is refused with one line naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-bad-'));
    const config = writeConfig(dir, { tables: [{ id: 't1', source: { type: 'serial', path: '/dev/x' }, rails: { '9': 'head' } }] });
    const r = spawnSync(process.execPath, HUB, { cwd: REPO_ROOT, env: { ...process.env, CONFIG: config, DATA_DIR: dir }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/tables\[0\]\.rails\.9/);
  });

  it('a web port already taken gets a one-line explanation, not a stack trace', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'hub-port-'));
      const r = spawnSync(process.execPath, HUB, { cwd: REPO_ROOT, env: { ...process.env, PORT: String(port), MQTT_PORT: '0', MQTT_WS_PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`start: PORT ${port} on 127.0.0.1: already in use (another hub or broker running?); set PORT to another port`);
    } finally {
      blocker.close();
    }
  }, 40_000);
});
