import { describe, expect, it } from 'vitest';
import { piezoHit } from '../../hardware/avr-sim/board.ts';
import { createSimRig } from '../../hardware/avr-sim/harness.ts';

describe('table firmware in avr8js, through the serial bridge', () => {
  it('boots with hello, heartbeats, and timestamps rail hits within 250 us', async () => {
    const rig = await createSimRig();
    const impacts = [
      { ch: 0, t: 40_000, v: 4 },
      { ch: 3, t: 95_321, v: 2.5 },
      { ch: 5, t: 151_777, v: 4.8 },
    ];
    for (const i of impacts) rig.sim.setSignal(i.ch, piezoHit(i.t, i.v));
    await rig.link.runUs(300_000);
    await rig.stop();

    const board = rig.of('board');
    expect(board[0]).toMatchObject({ reason: 'hello', firmware: '1.0.0', protocol: 1, compatible: true });
    expect(rig.of('heartbeat').length).toBeGreaterThanOrEqual(1);
    const hits = rig.of('rail-hit');
    expect(hits.map((h) => h.channel)).toEqual([0, 3, 5]);
    for (const [k, h] of hits.entries()) {
      const truth = impacts[k]!;
      const errUs = h.boardUs - rig.sim.boardUsAt(truth.t);
      expect(errUs).toBeGreaterThanOrEqual(0);
      expect(errUs).toBeLessThan(250);
      expect(Math.abs(h.hubTime - truth.t / 1000)).toBeLessThan(1);
      expect(h.amplitude).toBeGreaterThan(80);
    }
    expect(rig.bridge.stats().dropped).toEqual({ 'seq-gap': 0, corrupt: 0, invalid: 0, 'board-queue': 0, 'board-tx': 0, 'board-rx': 0 });
  });
});
