import { describe, expect, it } from 'vitest';
import { ShotPairing, type PairedBy } from '../../hub/camera/shot-pairing.ts';
import type { Shot } from '../../hub/rules/events.ts';

/** ShotPairing with a camera whose detector runs behind by more than a shot (a busy hub). */
const sensors = () => [
  { kind: 'ball' as const, balls: [null, null] as [null, null], t: 100 },
  { kind: 'cushion' as const, rail: 'foot' as const, ball: null, t: 400 },
];
const camera = (ball: string): Shot => ({ events: [{ kind: 'ball', balls: ['white', ball], t: 110 }, { kind: 'cushion', rail: 'foot', ball: 'white', t: 410 }] });

describe('shot pairing (issue 16)', () => {
  it('a camera a shot behind still meets each shot’s sensors, in order', () => {
    const scored: [PairedBy, Shot][] = [];
    const p = new ShotPairing({ waitMs: 10_000, frameMs: 33, clockToleranceMs: 15, score: (shot, how) => scored.push([how, shot]) });
    // Sensor shots started at hub 1000 and 4000; the camera's readings (t from hub 1000 and 4000) come after both.
    p.sensorShot(sensors(), 1000, 2000);
    p.sensorShot(sensors(), 4000, 5000);
    expect(scored).toEqual([]);
    p.cameraShot(camera('red'), 1000, 6000);
    p.cameraShot(camera('yellow'), 4000, 7000);
    expect(scored.map(([how]) => how)).toEqual(['fused', 'fused']);
    expect(scored.map(([, s]) => s.events[0])).toEqual([expect.objectContaining({ balls: ['white', 'red'] }), expect.objectContaining({ balls: ['white', 'yellow'] })]);
    expect(p.counts).toMatchObject({ fused: 2, sensorsAlone: 0, late: 0 });
  });

  it('a camera reading of a shot already scored alone is late, and the next one still pairs', () => {
    const scored: PairedBy[] = [];
    const p = new ShotPairing({ waitMs: 3000, frameMs: 33, clockToleranceMs: 15, score: (_s, how) => scored.push(how) });
    p.sensorShot(sensors(), 1000, 2000);
    p.sensorShot(sensors(), 4000, 5000);
    p.tick(5500); // the first waited 3.5 s: scored alone
    expect(scored).toEqual(['sensors-alone']);
    p.cameraShot(camera('red'), 1000, 5600); // its contacts at hub 1110…: before the waiting shot began (4000)
    p.cameraShot(camera('yellow'), 4000, 5700);
    expect(scored).toEqual(['sensors-alone', 'late', 'fused']);
    expect(p.waiting).toBe(false);
  });
});

describe('shot pairing with the camera’s paths (track fusion, issue 16)', () => {
  const R = 30.75;
  // Frames every 33 ms from camera t = 0: the white runs into the foot rail at camera t ≈ 410, the others lie still.
  const sample = (pos: (t: number) => [number, number]) => Array.from({ length: 30 }, (_, k) => ({ t: k * 33, at: pos(k * 33), clear: true }));
  const paths = {
    ballRadius: R,
    doubt: null,
    table: { length: 2840, width: 1420 },
    paths: {
      white: sample((t) => [2840 - R - 2 * Math.abs(t - 410), 700]),
      yellow: sample(() => [500, 300]),
      red: sample(() => [1000, 1100]),
    },
  };

  it('a rail hit the camera’s contacts missed takes its ball from the paths', () => {
    const scored: Shot[] = [];
    const p = new ShotPairing({ waitMs: 10_000, frameMs: 33, clockToleranceMs: 15, score: (shot) => scored.push(shot) });
    p.sensorShot([{ kind: 'cushion', rail: 'foot', ball: null, t: 400 }, { kind: 'cushion', rail: 'head', ball: null, t: 5000 }], 1000, 2000);
    // The camera's reading has one contact (so the two line up) but not the foot rail; its t = 0 is hub 990.
    p.cameraShot({ events: [{ kind: 'cushion', rail: 'head', ball: 'red', t: 5010 }] }, 990, 3000, paths);
    expect(scored[0]!.events[0]).toMatchObject({ kind: 'cushion', rail: 'foot', ball: 'white' });
    // Without the paths: unknown.
    const plain: Shot[] = [];
    const q = new ShotPairing({ waitMs: 10_000, frameMs: 33, clockToleranceMs: 15, score: (shot) => plain.push(shot) });
    q.sensorShot([{ kind: 'cushion', rail: 'foot', ball: null, t: 400 }, { kind: 'cushion', rail: 'head', ball: null, t: 5000 }], 1000, 2000);
    q.cameraShot({ events: [{ kind: 'cushion', rail: 'head', ball: 'red', t: 5010 }] }, 990, 3000);
    expect(plain[0]!.events[0]).toMatchObject({ ball: null });
  });
});
