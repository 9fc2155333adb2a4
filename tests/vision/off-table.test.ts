import { describe, expect, it } from 'vitest';
import type { TrackSample } from '../../hub/vision/contacts.ts';
import { findOffTable } from '../../hub/vision/off-table.ts';
import { VisionTracker, type TrackerMessage } from '../../hub/vision/tracker.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { CAROM, calibrationOf, clipOf, still } from './helpers.ts';

/**
 * A ball off the table (G-7, G-11, SK5-8, SK7P-9): the sensors cannot see it, the camera sees
 * a fast ball run at a rail and never come back. A ball that merely goes out of sight (slow,
 * away from the rails, or seen again) is not stated off the table.
 */
const dt = 1000 / 30;
const table = { length: CAROM.length, width: CAROM.width };
const R = CAROM.ballRadius;

/** A ball running from `from` with velocity v (mm/ms), seen for `seen` samples, then not at all until sample n. */
function vanishing(from: [number, number], v: [number, number], seen: number, n: number): TrackSample[] {
  return Array.from({ length: n }, (_, k) => ({ t: k * dt, at: k < seen ? ([from[0] + v[0] * k * dt, from[1] + v[1] * k * dt] as [number, number]) : null }));
}

describe('off the table: from tracks', () => {
  it('a fast ball last seen running at a rail and never again left the table, when its line reached the rail', () => {
    // 3 mm/ms toward the foot rail; the last sighting (k = 9) is 60 mm short of the rail contact.
    const from: [number, number] = [table.length - R - 60 - 3 * 9 * dt, 700];
    const found = findOffTable({ tracks: new Map([['white', vanishing(from, [3, 0], 10, 30)]]), table, ballRadius: R, dt });
    expect(found).toHaveLength(1);
    expect(found[0]!.ball).toBe('white');
    expect(found[0]!.t).toBeCloseTo(9 * dt + 20, 5);
  });

  it('not stated: a slow ball at the rail, a fast one vanishing in open cloth, one seen again, one pocketed, one seen to the end', () => {
    const slow = vanishing([table.length - R - 10 - 0.5 * 9 * dt, 700], [0.5, 0], 10, 30);
    const open = vanishing([800, 700], [3, 0], 10, 30);
    const back = vanishing([table.length - R - 60 - 3 * 9 * dt, 300], [3, 0], 10, 30);
    back[25] = { t: 25 * dt, at: [2500, 300] };
    const pocketed = vanishing([table.length - R - 60 - 3 * 9 * dt, 1100], [3, 0], 10, 30);
    const seen = vanishing([1000, 1000], [0, 0], 30, 30);
    const tracks = new Map([['white', slow], ['yellow', open], ['red', back], ['cue', pocketed], ['one', seen]]);
    expect(findOffTable({ tracks, table, ballRadius: R, dt, except: new Set(['cue']) })).toEqual([]);
  });

  it('a ball out of sight for only the last few frames (a clip cut short) is not stated', () => {
    const from: [number, number] = [table.length - R - 60 - 3 * 9 * dt, 700];
    expect(findOffTable({ tracks: new Map([['white', vanishing(from, [3, 0], 10, 13)]]), table, ballRadius: R, dt })).toEqual([]);
  });
});

describe('off the table: rendered', () => {
  it('the tracker reports the white jumping the foot rail at 5 m/s, at its time, and no resting place for it', { timeout: 60_000 }, () => {
    // Seed 27 of this stroke: the physics sends the white over the foot rail at its first hit.
    const start = [strike('white', [2200, 700], { angle: 0, speed: 5000, follow: 0.2, english: 0 }), still('yellow', [900, 300]), still('red', [1200, 1100])];
    const clip = clipOf(start, { width: 640, height: 360, seed: 27 });
    const truth = clip.truth.shot.events.find((e) => e.kind === 'off-table');
    expect(truth).toMatchObject({ kind: 'off-table', ball: 'white' });
    const tracker = new VisionTracker({ calibration: calibrationOf(clip), balls: 'carom', ballRadius: R, initial: { white: [2200, 700], yellow: [900, 300], red: [1200, 1100] } });
    const messages: TrackerMessage[] = [];
    for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), (i * 1000) / clip.fps));
    messages.push(...tracker.finish());
    const shot = messages.find((m) => m.type === 'shot');
    if (shot?.type !== 'shot') throw new Error('no shot');
    const off = shot.shot.events.filter((e) => e.kind === 'off-table');
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ kind: 'off-table', ball: 'white' });
    expect(Math.abs(off[0]!.t - (clip.strikeAt * 1000 + truth!.t!))).toBeLessThan(35);
    expect(shot.shot.positions.white).toBeUndefined();
  });
});
