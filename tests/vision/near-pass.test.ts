import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findContacts, type TrackSample } from '../../hub/vision/contacts.ts';
import { analysisStep, everyStep } from '../../hub/vision/tracker.ts';

/**
 * Two balls curving past each other a few mm apart are not a contact the camera can state
 * (contacts.ts, pushedApart). The fixture is the tracker's paths of held-out seed 21218, carom
 * s17 #3, at 30 and 60 fps: the yellow (the cue ball) met the white, the white the red; later
 * the yellow and the red, each swerving off its rail, passed within a few mm of each other.
 * Stated as a contact, the camera alone scored a carom (yellow on white and red) that was none.
 */
type Fixture = Record<string, { pixelMm: number; ballRadius: number; table: { length: number; width: number }; paths: Record<string, [number, number[] | null][]> }>;
const fixture = JSON.parse(readFileSync(new URL('./fixtures/near-pass-21218.json', import.meta.url), 'utf8')) as Fixture;

function contactsAt(fps: '30' | '60') {
  const f = fixture[fps]!;
  const dt = 1000 / Number(fps);
  const step = analysisStep(dt);
  const tracks = new Map(Object.entries(f.paths).map(([ball, samples]) => [ball, everyStep(samples.map(([t, at]): TrackSample => ({ t, at: at as [number, number] | null })), step)]));
  return findContacts({ tracks, dt: dt * step, ballRadius: f.ballRadius, table: f.table, pixelMm: f.pixelMm }).events.filter((e) => e.kind === 'ball');
}
const pair = (e: { balls?: [string | null, string | null] }) => [...e.balls!].sort().join('+');

describe('a near pass is no sure contact (held-out 21218, carom s17 #3)', () => {
  for (const fps of ['30', '60'] as const) {
    it(`BC-1 at ${fps} fps: yellow–white and white–red are sure; the yellow and the red passing close is only maybe`, () => {
      const balls = contactsAt(fps);
      expect(balls.filter((e) => !e.maybe).map(pair)).toEqual(['white+yellow', 'red+white']);
      expect(balls.filter((e) => e.maybe).map(pair)).toEqual(['red+yellow']);
    });
  }

  it('a head-on hit and a thin cut, with the kick they give, stay sure', () => {
    const dt = 1000 / 30;
    const R = 30.75;
    const table = { length: 2840, width: 1420 };
    // The white at 1 mm/ms along x meets the red at rest: head-on (the red takes its speed)
    // and a thin cut (the line of centres at 75° off the path: the red gets a quarter of it).
    for (const angle of [0, 75]) {
      const a = (angle * Math.PI) / 180;
      const meet = [1000, 700] as const;
      const red0: [number, number] = [meet[0] + 2 * R * Math.cos(a), meet[1] + 2 * R * Math.sin(a)];
      const n = [Math.cos(a), Math.sin(a)];
      const kick = Math.cos(a); // the part of the white's velocity along the line of centres
      const tc = 20 * dt;
      const white = Array.from({ length: 40 }, (_, k): TrackSample => {
        const t = k * dt;
        const before: [number, number] = [meet[0] - (tc - t), meet[1]];
        const v = [1 - kick * n[0]!, -kick * n[1]!];
        return { t, at: t <= tc ? before : [meet[0] + v[0]! * (t - tc), meet[1] + v[1]! * (t - tc)] };
      });
      const red = Array.from({ length: 40 }, (_, k): TrackSample => {
        const t = k * dt;
        return { t, at: t <= tc ? red0 : [red0[0] + kick * n[0]! * (t - tc), red0[1] + kick * n[1]! * (t - tc)] };
      });
      const events = findContacts({ tracks: new Map([['white', white], ['red', red]]), dt, ballRadius: R, table, pixelMm: 5 }).events;
      expect(events.filter((e) => e.kind === 'ball')).toEqual([expect.objectContaining({ kind: 'ball', balls: ['white', 'red'] })]);
      expect(events.some((e) => e.maybe)).toBe(false);
    }
  });
});
