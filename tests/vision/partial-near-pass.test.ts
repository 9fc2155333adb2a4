import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findContacts, type TrackSample } from '../../hub/vision/contacts.ts';
import { nearPasses, withDoubts, type DoubtEvent } from '../../hub/vision/doubts.ts';
import { analysisStep, everyStep, statedEvents } from '../../hub/vision/tracker.ts';

/**
 * Two balls seen in part may be nearer than their sightings say (doubts.ts, nearPasses: up to
 * PARTIAL_MM more per ball seen in part). The fixture is the tracker's paths of held-out seed
 * 21223, carom at 30 fps, s18 #15 ([t, place, 1 when seen in part], unrounded: the pair came within
 * 0.1 mm of the clear slack): the yellow (the cue ball)
 * struck the white, came off the left rail by the head-left corner and touched the red lying
 * there, slowly (truth 3684 ms, video clock). Both seen in part against the rail, their centres
 * were 69.6 mm apart at the frame after the touch: 0.1 mm past the slack for clear sightings, so
 * nothing stated the yellow–red contact, and the camera alone scored no point for a point (C-1).
 */
type Fixture = { pixelMm: number; ballRadius: number; table: { length: number; width: number }; paths: Record<string, ([number, number[], 1] | [number, number[] | null])[]> };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/partial-near-pass-21223.json', import.meta.url), 'utf8')) as Fixture;
const dt = 1000 / 30;
const tracks = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, samples.map(([t, at]): TrackSample => ({ t, at: at as [number, number] | null }))]));
const partial = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, new Set(samples.filter((x) => x[2] === 1).map((x) => x[0]))]));
const pair = (e: DoubtEvent) => (e.kind === 'ball' ? [...e.balls].sort().join('+') : e.kind);

describe('a near pass of two balls seen in part (held-out 21223, carom 30 s18 #15)', () => {
  it('C-1: the yellow–red touch by the corner is stated maybe; the contacts before it stay sure', () => {
    const step = analysisStep(dt);
    const used = new Map([...tracks].map(([ball, samples]) => [ball, everyStep(samples, step)]));
    const found = findContacts({ tracks: used, dt: dt * step, ballRadius: fixture.ballRadius, table: fixture.table, pixelMm: fixture.pixelMm });
    const events = withDoubts({ tracks, dt, ballRadius: fixture.ballRadius, table: fixture.table, spots: [], partial, events: statedEvents(found, []) as DoubtEvent[] });
    const balls = events.filter((e) => e.kind === 'ball');
    expect(balls.filter((e) => !e.maybe).map(pair)).toEqual(['white+yellow', 'red+white']);
    const touch = balls.filter((e) => e.maybe && pair(e) === 'red+yellow');
    expect(touch.length).toBeGreaterThan(0);
    expect(touch.some((e) => Math.abs(e.t - 3684) <= 2 * dt)).toBe(true);
  });

  it('seen clearly at the same distances, the pair is no near pass (the slack is the partial sightings’)', () => {
    expect(nearPasses({ tracks, dt, ballRadius: fixture.ballRadius, table: fixture.table, spots: [], partial, events: [] }).filter((e) => pair(e) === 'red+yellow' && Math.abs(e.t - 3684) <= 2 * dt).length).toBeGreaterThan(0);
    expect(nearPasses({ tracks, dt, ballRadius: fixture.ballRadius, table: fixture.table, spots: [], partial: new Map(), events: [] }).filter((e) => pair(e) === 'red+yellow' && Math.abs(e.t - 3684) <= 2 * dt)).toEqual([]);
  });
});
