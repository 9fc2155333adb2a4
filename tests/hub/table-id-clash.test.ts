import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub } from '../../hub/hub.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { ManualClock, testConfig } from './support.ts';

let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

describe('table ids across hubs (docs/deployment.md, several venues)', () => {
  it('another hub announcing one of this hub’s table ids is logged as an error, once', async () => {
    const logged: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    hub = new Hub({
      config: testConfig({ hub: { id: 'north' } }),
      dataDir: mkdtempSync(join(tmpdir(), 'hub-')),
      mqttPort: 0,
      mqttWsPort: 0,
      clock: new ManualClock(),
      tickMs: 10_000,
      shotEndTimers: false,
      sourceFor: () => new ManualSource(false),
      log: (level, message, fields) => logged.push({ level, message, ...(fields ? { fields } : {}) }),
    });
    await hub.start();
    const clashes = () => logged.filter((l) => l.level === 'error' && /same id/.test(l.message));
    hub.noteRemoteHub('south', ['s1']);
    expect(clashes()).toEqual([]);
    hub.noteRemoteHub('south', ['s1', 't1']);
    expect(clashes()).toHaveLength(1);
    expect(clashes()[0]!.fields).toEqual({ hub: 'south', tables: ['t1'] });
    hub.noteRemoteHub('south', ['s1', 't1']); // its retained state again: already said
    expect(clashes()).toHaveLength(1);
  });
});
