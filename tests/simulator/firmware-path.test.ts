import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { piezoHit, sumSignals, type AnalogSignal } from '../../hardware/avr-sim/board.ts';
import { createSimRig } from '../../hardware/avr-sim/harness.ts';
import { PhysicsTable } from '../../hardware/simulator/physics/planner.ts';
import { Hub } from '../../hub/hub.ts';
import { Match } from '../../hub/rules/match.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { ok } from '../../hub/rules/result.ts';
import type { SensorSource } from '../../hub/sources/source.ts';
import { subscriber, testConfig } from '../hub/support.ts';

/**
 * The simulator's shot through the whole real path: physics ground truth → piezo signals
 * on the table firmware's inputs in avr8js → USART → bridge → hub, and the hub's decision
 * checked against the truth (decided the same, or put to the referee with the truth offered).
 */
const RAIL_CHANNEL = { head: 0, foot: 1, left: 2, right: 3 } as const;
const CLICK_CHANNEL = 6;
const T0_US = 60_000;

let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

describe('simulated shot through the real firmware in avr8js', () => {
  it('the hub scores a physics shot from the firmware\'s own sensor frames as the truth says, or asks', async () => {
    const physics = new PhysicsTable('three-cushion');
    const planned = physics.plan({ variant: 'three-cushion', cueBall: 'white', isBreak: true, random: seededRandom(5), table: { length: 2840, width: 1420 } });
    const signals = new Map<number, AnalogSignal[]>();
    planned.shot.events.forEach((e, i) => {
      const channel = e.kind === 'cushion' ? RAIL_CHANNEL[e.rail] : e.kind === 'ball' ? CLICK_CHANNEL : null;
      if (channel === null) return;
      const volts = Math.min(4.5, 1.2 + (planned.speeds[i] ?? 1000) / 1000);
      signals.set(channel, [...(signals.get(channel) ?? []), piezoHit(T0_US + (e.t ?? 0) * 1000, volts)]);
    });

    const rig = await createSimRig();
    for (const [channel, list] of signals) rig.sim.setSignal(channel, sumSignals(...list));
    const source: SensorSource = {
      kind: 'serial',
      simulated: true,
      async start(onEvent) {
        for (const e of rig.events) if (e.type !== 'reply') onEvent(e);
        rig.bridge.on('event', (e: BridgeEvent) => e.type !== 'reply' && onEvent(e));
      },
      stop: () => rig.stop(),
      setThresholds: async () => ok(undefined),
      stats: () => ({ framesDropped: 0, linkUp: true }),
    };
    const config = testConfig();
    config.tables[0] = { ...config.tables[0]!, quietWindowMs: 400, rails: { '0': 'head', '1': 'foot', '2': 'left', '3': 'right' } };
    const clock = { now: () => rig.link.hubMs, iso: () => new Date(1_800_000_000_000 + rig.link.hubMs).toISOString() };
    hub = new Hub({ config, dataDir: mkdtempSync(join(tmpdir(), 'sim-fw-')), mqttPort: 0, clock, tickMs: 60_000, shotEndTimers: false, sourceFor: () => source });
    await hub.start();
    const sub = await subscriber(hub.mqttUrl, ['billiards/tables/t1/#']);

    await rig.link.runUs(T0_US + planned.durationMs * 1000 + 50_000);
    hub.tables.get('t1')!.tick(rig.link.hubMs + 1_000);
    const cut = await sub.next('billiards/tables/t1/events', (e) => e.type === 'shot');

    // The sensors saw every rail hit of the truth, in order, and the clicks.
    const truthRails = planned.shot.events.flatMap((e) => (e.kind === 'cushion' ? [e.rail] : []));
    const seenRails = (cut.events as { kind: string; rail?: string }[]).flatMap((e) => (e.kind === 'cushion' ? [e.rail] : []));
    expect(seenRails).toEqual(truthRails);
    expect(cut.events.filter((e: { kind: string }) => e.kind === 'ball').length).toBeGreaterThan(0);

    // What the engine makes of the truth, with every fact known.
    const truth = Match.create({ variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 });
    if (!truth.ok) throw new Error(truth.error);
    truth.value.apply({ kind: 'shot', shot: planned.shot });
    const expected = truth.value.view().shots[0]!;
    const state = hub.tables.get('t1')!.state();
    if (state.status === 'awaiting-referee') {
      expect(state.prompt!.options.some((o) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses)).toBe(true);
    } else {
      expect(state.shots[0]).toMatchObject({ points: expected.points, foul: expected.foul, turnPasses: expected.turnPasses });
    }
    await sub.client.endAsync();
  }, 60_000);
});
