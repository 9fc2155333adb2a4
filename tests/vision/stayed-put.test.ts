import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findContacts, type TrackSample } from '../../hub/vision/contacts.ts';
import { analysisStep, everyStep } from '../../hub/vision/tracker.ts';

/**
 * A ball that never moved took no kick (contacts.ts, stayedPut). The fixture is the tracker's
 * paths of held-out seed 21221, three-cushion at 60 fps, s17 #16 (its first 1.5 s): the white,
 * seen only in part under the cue's follow-through, passed the resting yellow 0.5 mm off and
 * struck the red. The white's wobbling centroid and a 5 mm jiggle of the yellow's beside it were
 * read as a sure white–yellow contact, and the camera alone called a point lost.
 */
type Fixture = { pixelMm: number; ballRadius: number; table: { length: number; width: number }; paths: Record<string, [number, number[] | null][]> };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/stayed-put-21221.json', import.meta.url), 'utf8')) as Fixture;
const pair = (e: { balls?: [string | null, string | null] }) => [...e.balls!].sort().join('+');

function contactsOf(paths: Record<string, TrackSample[]>, dt: number, pixelMm: number) {
  return findContacts({ tracks: new Map(Object.entries(paths)), dt, ballRadius: 30.75, table: { length: 2840, width: 1420 }, pixelMm }).events.filter((e) => e.kind === 'ball');
}

describe('a ball that stayed put took no kick (held-out 21221, three-cushion 60 s17 #16)', () => {
  it('TC-1: the white–yellow near pass is at most maybe; the white–red contact stays sure', () => {
    const dt = 1000 / 60;
    const step = analysisStep(dt);
    const paths = Object.fromEntries(Object.entries(fixture.paths).map(([ball, samples]) => [ball, everyStep(samples.map(([t, at]): TrackSample => ({ t, at: at as [number, number] | null })), step)]));
    const balls = contactsOf(paths, dt * step, fixture.pixelMm);
    expect(balls.filter((e) => !e.maybe).map(pair)).toEqual(['red+white']);
  });

  it('a resting ball struck into motion is a sure contact; the same bends beside a ball that does not move are maybe', () => {
    // The white at 2 mm/ms meets the red at rest at 500 ms, a 60° cut: the white turns, the red
    // leaves along the line of centres at its share of the speed.
    const dt = 1000 / 30;
    const R = 30.75;
    const a = (60 * Math.PI) / 180;
    const n: [number, number] = [Math.cos(a), Math.sin(a)];
    const meet: [number, number] = [1000, 600];
    const redAt: [number, number] = [meet[0] + 2 * R * n[0], meet[1] + 2 * R * n[1]];
    const kick = 2 * Math.cos(a);
    const white = Array.from({ length: 40 }, (_, k): TrackSample => {
      const t = k * dt;
      return { t, at: t <= 500 ? [meet[0] - 2 * (500 - t), meet[1]] : [meet[0] + (2 - kick * n[0]) * (t - 500), meet[1] - kick * n[1] * (t - 500)] };
    });
    const red = (moves: boolean) => Array.from({ length: 40 }, (_, k): TrackSample => {
      const t = k * dt;
      // Not moving, its centroid still jiggles 3 mm away from the white as it passes (blur).
      if (!moves) return { t, at: [redAt[0] + (Math.abs(t - 500) < dt ? 3 * n[0] : 0), redAt[1] + (Math.abs(t - 500) < dt ? 3 * n[1] : 0)] };
      return { t, at: t <= 500 ? redAt : [redAt[0] + kick * n[0] * (t - 500), redAt[1] + kick * n[1] * (t - 500)] };
    });
    const struck = contactsOf({ white, red: red(true) }, dt, 5);
    expect(struck).toEqual([expect.objectContaining({ balls: ['white', 'red'] })]);
    expect(struck[0]!.maybe).toBeUndefined();
    const still = contactsOf({ white, red: red(false) }, dt, 5);
    expect(still.every((e) => e.maybe)).toBe(true);
  });
});
