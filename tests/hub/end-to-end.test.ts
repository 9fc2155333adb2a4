import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { piezoHit, sumSignals } from '../../hardware/avr-sim/board.ts';
import { createSimRig, type SimRig } from '../../hardware/avr-sim/harness.ts';
import { Hub } from '../../hub/hub.ts';
import type { SensorSource } from '../../hub/sources/source.ts';
import { ok } from '../../hub/rules/result.ts';
import { subscriber, testConfig } from './support.ts';

/** The real firmware in avr8js → USART → serialport mock → bridge, as a table's source. */
function rigSource(rig: SimRig): SensorSource {
  return {
    kind: 'serial',
    simulated: false,
    async start(onEvent) {
      for (const e of rig.events) if (e.type !== 'reply') onEvent(e); // what the board said before the hub listened
      rig.bridge.on('event', (e: BridgeEvent) => e.type !== 'reply' && onEvent(e));
    },
    stop: () => rig.stop(),
    setThresholds: async () => ok(undefined),
    stats: () => ({ framesDropped: 0, linkUp: true }),
  };
}

let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

describe('end to end: firmware in avr8js → bridge → hub → broker → an MQTT subscriber', () => {
  it('sensor hits on the simulated board become scored shots in the retained state', async () => {
    const rig = await createSimRig();
    const clock = { now: () => rig.link.hubMs, iso: () => new Date(1_800_000_000_000 + rig.link.hubMs).toISOString() };
    const config = testConfig();
    config.tables[0] = { ...config.tables[0]!, quietWindowMs: 300, rails: { '0': 'head', '1': 'foot', '2': 'left', '3': 'right' } };
    hub = new Hub({ config, dataDir: mkdtempSync(join(tmpdir(), 'e2e-')), mqttPort: 0, clock, tickMs: 60_000, shotEndTimers: false, sourceFor: () => rigSource(rig) });
    await hub.start();
    const sub = await subscriber(hub.mqttUrl, ['billiards/#']);
    const table = hub.tables.get('t1')!;

    // Ana's break: three rails and no ball (before any ball contact only the cue ball moves): no point.
    rig.sim.setSignal(0, piezoHit(60_000, 4));
    rig.sim.setSignal(1, piezoHit(180_000, 3.5));
    rig.sim.setSignal(2, piezoHit(300_000, 3));
    await rig.link.runUs(420_000);
    table.tick(rig.link.hubMs + 400);
    let state = await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 1);
    expect(state).toMatchObject({ turn: 'Ben', status: 'playing' });
    expect(state.shots[0]).toMatchObject({ shooter: 'Ana', points: 0, foul: null, rules: ['TC-1', 'TC-2'], turnPasses: true });

    // Ben: one click (the cue ball meets a ball), nothing else: no point, the turn passes.
    rig.sim.setSignal(6, sumSignals(piezoHit(900_000, 3)));
    await rig.link.runUs(600_000);
    table.tick(rig.link.hubMs + 400);
    state = await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 2);
    expect(state).toMatchObject({ turn: 'Ana' });
    expect(state.players.map((p: { innings: number }) => p.innings)).toEqual([2, 1]);

    const hit = await sub.next('billiards/tables/t1/events', (e) => e.type === 'sensor' && e.sensor === 'rail-hit' && e.rail === 'foot');
    expect(Math.abs(hit.hubTime - 180)).toBeLessThan(1); // within 1 ms of the simulated impact
    // The board acknowledged the hub's settings (debounce, switch polarity): in the health and /metrics.
    const health = await sub.next('billiards/tables/t1/health', (h) => h.board?.confirmed === 2);
    expect(health.board).toMatchObject({ bootId: 0, confirmed: 2, pending: 0, rejected: 0, unconfirmed: [] });
    expect(hub!.metrics()).toMatch(/^billiards_board_settings\{table="t1",state="confirmed"\} 2$/m);
    await sub.client.endAsync();
  }, 60_000);
});
