import { describe, expect, it } from 'vitest';
import { piezoHit } from '../../hardware/avr-sim/board.ts';
import { createSimRig } from '../../hardware/avr-sim/harness.ts';
import { configSchema } from '../../hub/config/schema.ts';
import { ShotSegmenter } from '../../hub/pipeline/segmenter.ts';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';

describe('cross-talk, measured with the real firmware in avr8js', () => {
  it('one knock on the head rail that rings into the three other rails gives one cushion', async () => {
    const rig = await createSimRig();
    const knock = 100_000;
    // The head rail's piezo takes the knock; the frame carries it to the others, later and weaker.
    rig.sim.setSignal(0, piezoHit(knock, 4.2, 2500, 6000));
    rig.sim.setSignal(1, piezoHit(knock + 900, 1.6, 1800, 4000, -1)); // foot, far away
    rig.sim.setSignal(2, piezoHit(knock + 350, 2.2, 3100, 5000)); // left, next to it
    rig.sim.setSignal(3, piezoHit(knock + 420, 1.9, 2700, 5000, -1)); // right, next to it
    await rig.link.runUs(300_000);
    await rig.stop();
    const hits = rig.of('rail-hit');
    expect(hits.map((h) => h.channel).sort()).toEqual([0, 1, 2, 3]); // every piezo heard it

    const table = configSchema.parse({ tables: [{ id: 't1', source: { type: 'simulator' } }] }).tables[0]!;
    const seg = new ShotSegmenter({ rails: { 0: 'head', 1: 'foot', 2: 'left', 3: 'right' }, skittles: {}, quietWindowMs: table.quietWindowMs, restVibrationLevel: table.restVibrationLevel, railMergeMs: table.railMergeMs, crossRailMs: table.crossRailMs, crossRailRatio: table.crossRailRatio, amplitudes: true });
    for (const h of [...hits].sort((a, b) => a.hubTime - b.hubTime)) seg.push(h as SensorEvent);
    const [done] = seg.tick(hits[0]!.hubTime + 10_000);
    expect(done?.type === 'shot-complete' && done.events).toEqual([{ kind: 'cushion', rail: 'head', ball: null, t: 0, amplitude: Math.max(...hits.map((h) => h.amplitude)) }]);
    expect(seg.crossRailEchoes).toBe(3);
  });
});
