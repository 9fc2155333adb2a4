import { describe, expect, it } from 'vitest';
import { VisionTracker, type TrackerMessage } from '../../hub/vision/tracker.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { calibrationOf, clipOf, still } from './helpers.ts';

/**
 * A live table's shot must end even when the frames never come to rest: a resting ball whose
 * centre flickers between two pixels on a coarse camera keeps the tracker "moving". Here the
 * frames after the strike are the last one with the red 8 mm one way or the other every other
 * frame (a flickering centre, a little larger): the shot is analysed as it stands after
 * `maxShotSeconds`, and the tracker is back at rest.
 */
describe('tracker: the longest shot', () => {
  const start = [strike('white', [500, 700], { angle: 0.02, speed: 600, follow: 0, english: 0 }), still('yellow', [400, 300]), still('red', [2500, 1200])];
  const clip = clipOf(start, { seed: 7, player: false });
  // The last frame, and the same with the red 8 mm over (more than a pixel of this camera).
  const scene = clip.scene(clip.frameCount - 1);
  const last = clip.renderer.render(scene);
  const shiftedBy = (dx: number) => clip.renderer.render({ ...scene, balls: scene.balls.map((b, k) => (k === 2 ? { ...b, path: b.path.map(([x, y]) => [x + dx, y] as [number, number]) } : b)) });
  // The red at its place, 8 mm one way, at its place, 8 mm the other: never two frames in a row
  // away from its place, yet unlike the frame ~70 ms before (2 or 4 frames back) every other frame.
  const flicker = [last, shiftedBy(8), last, shiftedBy(-8)];
  const feed = (tracker: VisionTracker, seconds: number): TrackerMessage[] => {
    const out: TrackerMessage[] = [];
    const frameMs = 1000 / clip.fps;
    let i = 0;
    // The clip until the strike has been read, then the two frames by turns.
    for (; i < clip.frameCount && !out.some((m) => m.type === 'strike'); i++) out.push(...tracker.push(clip.frame(i), i * frameMs));
    for (; i * frameMs <= seconds * 1000; i++) out.push(...tracker.push(flicker[i % 4]!, i * frameMs));
    return out;
  };

  it('is analysed as it stands after maxShotSeconds, and the tracker rests again', () => {
    const messages = feed(new VisionTracker({ calibration: calibrationOf(clip), balls: 'carom', maxShotSeconds: 2 }), 2 + clip.strikeAt + 0.2);
    expect(messages.map((m) => m.type)).toEqual(['strike', 'shot', 'rest']);
  });

  it('is not cut short by default before a minute', () => {
    const messages = feed(new VisionTracker({ calibration: calibrationOf(clip), balls: 'carom' }), 4);
    expect(messages.map((m) => m.type)).toEqual(['strike']);
  });
});
