import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatedTable } from '../../app/simulated-table.ts';
import { demoConfig } from '../../app/start-command.ts';
import { Hub } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';

/** The no-hardware demo's table: a virtual board through the real bridge, played by physics. */
describe('simulated table', () => {
  it('plays shots that the hub scores, labelled simulated, with the board online', async () => {
    const config = demoConfig(2, ['three-cushion', 'skittles-5'], hashPasswordSync('demo-password'));
    const hub = new Hub({
      config,
      dataDir: mkdtempSync(join(tmpdir(), 'sim-table-')),
      mqttPort: 0,
      sourceFor: (table) => new SimulatedTable(table, { seed: 3, speed: 40 }),
    });
    await hub.start();
    try {
      const deadline = Date.now() + 20_000;
      const scored = () => [...hub.tables.values()].every((t) => t.state().shotCount >= 2);
      while (!scored() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      for (const table of hub.tables.values()) {
        const state = table.state();
        expect(state).toMatchObject({ simulated: true, status: 'playing' });
        expect(state.shotCount).toBeGreaterThanOrEqual(2);
        expect(table.isOnline).toBe(true);
        expect(table.counters.sensorEvents).toBeGreaterThan(10);
      }
    } finally {
      await hub.stop();
    }
  }, 30_000);
});
