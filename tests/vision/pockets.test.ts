import { describe, expect, it } from 'vitest';
import type { TrackSample } from '../../hub/vision/contacts.ts';
import { calibrate } from '../../hub/vision/calibration.ts';
import { findPockets, pyramidPockets } from '../../hub/vision/pockets.ts';
import { VisionTracker, type TrackerMessage } from '../../hub/vision/tracker.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { pyramidTable } from '../../hardware/simulator/physics/table.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { still } from './helpers.ts';

/**
 * Pocket detection (issue 15, seven skittles on a pyramid table, SK7P-6/7): a ball that runs
 * into a pocket and is never seen again is pocketed; a ball that merely goes out of sight
 * elsewhere is not.
 */
const dt = 1000 / 30;
const table = { length: 3550, width: 1775 };
const pockets = pyramidPockets(table, 34);

/** A ball running from `from` with velocity v (mm/ms), seen for `seen` samples, then not at all until sample n. */
function vanishing(from: [number, number], v: [number, number], seen: number, n: number): TrackSample[] {
  return Array.from({ length: n }, (_, k) => ({ t: k * dt, at: k < seen ? ([from[0] + v[0] * k * dt, from[1] + v[1] * k * dt] as [number, number]) : null }));
}
const resting = (p: [number, number], n: number): TrackSample[] => Array.from({ length: n }, (_, k) => ({ t: k * dt, at: [p[0], p[1]] as [number, number] }));

describe('pockets: from tracks', () => {
  it('a ball running into a corner pocket and never seen again is pocketed, at the time it entered', () => {
    // Toward the foot-right corner at 1.5 mm/ms along the diagonal; last seen 77 mm (1.5 frames) from the pocket's circle.
    const v: [number, number] = [1.5 * Math.SQRT1_2, 1.5 * Math.SQRT1_2];
    const from: [number, number] = [3550 - 600, 1775 - 600];
    const tracks = new Map([
      ['cue', vanishing(from, v, 15, 40)],
      ['one', resting([1000, 500], 40)],
    ]);
    const found = findPockets({ tracks, pockets, dt });
    expect(found.map((p) => p.ball)).toEqual(['cue']);
    // Truth: the centre enters the 71.4 mm circle when its distance to the corner falls to it.
    const d0 = Math.hypot(600, 600);
    const truthT = (d0 - 1.05 * 68) / 1.5;
    expect(Math.abs(found[0]!.t - truthT)).toBeLessThan(2);
  });

  it('a middle pocket too', () => {
    const tracks = new Map([['two', vanishing([1775 - 30, 400], [0.02, -1.2], 9, 30)]]);
    expect(findPockets({ tracks, pockets, dt }).map((p) => p.ball)).toEqual(['two']);
  });

  it('a ball that goes out of sight in open cloth, or near a pocket but is seen again, is not pocketed', () => {
    const open = vanishing([1000, 800], [1, 0.2], 10, 40);
    const back = vanishing([3550 - 600, 1775 - 600], [1.06, 1.06], 11, 40);
    for (let k = 30; k < 40; k++) back[k]!.at = [3450, 1700];
    expect(findPockets({ tracks: new Map([['cue', open], ['one', back]]), pockets, dt })).toEqual([]);
  });

  it('a ball too slow to reach the pocket, or heading past it, is not pocketed', () => {
    // 0.04 mm/ms stops within ~8 mm; last seen 150 mm from the corner circle.
    const slow = vanishing([3550 - 180, 1775 - 180], [0.028, 0.028], 10, 40);
    // Along the foot rail, away from the corner.
    const away = vanishing([3550 - 40, 1775 - 300], [0, -1.5], 10, 40);
    expect(findPockets({ tracks: new Map([['cue', slow], ['one', away]]), pockets, dt })).toEqual([]);
  });
});

describe('pockets: rendered', () => {
  it('the tracker reports the cue ball pocketed in a corner and leaves out its resting place', { timeout: 60_000 }, () => {
    const t = pyramidTable();
    const start = [strike('cue', [2900, 1150], { angle: Math.atan2(1775 - 1150, 3550 - 2900), speed: 1800, follow: 0.3, english: 0 }), still('one', [1200, 600]), still('two', [1500, 1200])];
    const clip = makeClip({ table: t, start, cueBall: 'cue', variant: 'skittles-7-pyramid', fps: 30, width: 800, height: 450, seed: 11, chalk: false, hoverCue: false });
    const truth = clip.truth.shot.events.find((e) => e.kind === 'pocket');
    expect(truth).toMatchObject({ kind: 'pocket', ball: 'cue' });
    const c = clip.camera;
    const cal = calibrate({ width: c.lens.width, height: c.lens.height, corners: c.corners, table: { length: t.length, width: t.width }, k1: c.spec.k1, fovDeg: c.spec.hfovDeg });
    if (!cal.ok) throw new Error(cal.error);
    const tracker = new VisionTracker({ calibration: cal.value, balls: 'skittles', ballRadius: t.ballRadius, pockets: pyramidPockets(t, t.ballRadius), initial: { cue: [2900, 1150], one: [1200, 600], two: [1500, 1200] } });
    const messages: TrackerMessage[] = [];
    for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), (i * 1000) / clip.fps));
    messages.push(...tracker.finish());
    const shot = messages.find((m) => m.type === 'shot');
    if (shot?.type !== 'shot') throw new Error('no shot');
    const pocket = shot.shot.events.find((e) => e.kind === 'pocket');
    expect(pocket).toMatchObject({ kind: 'pocket', ball: 'cue' });
    // On the video's clock: the strike is at clip.strikeAt.
    expect(Math.abs(pocket!.t - (clip.strikeAt * 1000 + truth!.t!))).toBeLessThan(20);
    expect(shot.shot.positions.cue).toBeUndefined();
    expect(shot.shot.events.filter((e) => e.kind === 'pocket')).toHaveLength(1);
  });
});
