import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildHub } from '../support/build.ts';
import { freePort, killAll, listening, PASSWORD_HASH, startHub, tempDir, writeConfig } from './ops-support.ts';

/**
 * Issue 13, finding 9: the embedded broker listens where MQTT_HOST (or broker.host) says,
 * not hard-wired to 127.0.0.1. Shown on 127.0.0.2, a loopback address other than the
 * default, so the test never listens beyond this machine.
 */
beforeAll(() => buildHub(), 330_000);
afterEach(() => killAll());
afterAll(() => killAll());

const CONFIG = { hub: { id: 'club-m' }, venue: { passwordHash: PASSWORD_HASH }, tables: [{ id: 't1', source: { type: 'serial', path: '/dev/null-billiards-board' } }] };

async function reaches(url: string): Promise<boolean> {
  try {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 2000 });
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}

describe('where the embedded broker listens', () => {
  it.each([
    ['MQTT_HOST', (port: number) => ({ env: { MQTT_HOST: '127.0.0.2', MQTT_PORT: String(port) }, config: CONFIG })],
    ['broker.host in the configuration', (port: number) => ({ env: { MQTT_PORT: String(port) }, config: { ...CONFIG, broker: { host: '127.0.0.2' } } })],
  ])('%s binds it to that address, and only there', async (_name, setup) => {
    const dir = tempDir('bind');
    const port = await freePort();
    const { env, config } = setup(port);
    const hub = await startHub({ ...env, CONFIG: writeConfig(dir, config), DATA_DIR: dir });
    expect(hub.mqttUrl).toBe(`mqtt://127.0.0.2:${port}`);
    expect(await reaches(`mqtt://127.0.0.2:${port}`)).toBe(true);
    expect(await listening(port, '127.0.0.1')).toBe(false);
    expect(await hub.stop()).toBe(0);
  }, 60_000);
});
