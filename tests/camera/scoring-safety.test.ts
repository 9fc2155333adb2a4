import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub } from '../../hub/hub.ts';
import { cameraAloneWarning } from '../../hub/camera/scoring-safety.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { testConfig } from '../hub/support.ts';

/** `scoring: "camera"` on a table with a board: the camera alone decides, the board's hits are not scored — said once at start-up. */
let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

const table = (id: string, scoring: string, source: Record<string, unknown>) => ({ id, source, scoring, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } });

describe('camera-alone scoring on a table with a board (issue 16)', () => {
  it('logs one start-up warning naming the table, and publishes the mode in the table health', async () => {
    const config = testConfig({
      tables: [
        table('north-1', 'camera', { type: 'serial', path: '/dev/billiards/north-1' }),
        table('north-2', 'camera+sensors', { type: 'serial', path: '/dev/billiards/north-2' }),
        table('demo', 'camera', { type: 'simulator' }),
        table('south-1', 'sensors', { type: 'tcp', host: '127.0.0.1', port: 4001 }),
      ],
    });
    const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
    hub = new Hub({ config, dataDir: mkdtempSync(join(tmpdir(), 'hub-safety-')), mqttPort: 0, tickMs: 10_000, sourceFor: () => new ManualSource(false), log: (level, msg, fields) => logs.push({ level, msg, ...(fields ? { fields } : {}) }) });
    await hub.start();
    const warnings = logs.filter((l) => l.level === 'warn' && /camera alone/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain("table 'north-1'");
    expect(warnings[0]!.msg).toContain('camera+sensors');
    expect(warnings[0]!.fields).toEqual({ table: 'north-1' });
    expect(hub.tables.get('north-1')!.healthView().scoring).toBe('camera');
    expect(hub.tables.get('north-2')!.healthView().scoring).toBe('camera+sensors');
    expect(hub.tables.get('south-1')!.healthView().scoring).toBe('sensors');
  });

  it('only camera scoring with a real board source is flagged', () => {
    const [serial, tcp, firmata, sim] = testConfig({
      tables: [
        table('a', 'camera', { type: 'serial', path: '/dev/ttyUSB0' }),
        table('b', 'camera', { type: 'tcp', host: 'ser2net.local', port: 4001 }),
        { ...table('c', 'camera', { type: 'firmata', path: '/dev/ttyACM0' }), rails: {} },
        table('d', 'camera', { type: 'simulator' }),
      ],
    }).tables;
    expect(cameraAloneWarning(serial!)).toMatch(/^table 'a' has a board \(serial\)/);
    expect(cameraAloneWarning(tcp!)).toMatch(/^table 'b' has a board \(tcp\)/);
    expect(cameraAloneWarning(firmata!)).toMatch(/^table 'c' has a board \(firmata\)/);
    expect(cameraAloneWarning(sim!)).toBeNull();
    for (const scoring of ['sensors', 'tracker', 'camera+sensors']) expect(cameraAloneWarning({ ...serial!, scoring: scoring as 'sensors' })).toBeNull();
  });
});
