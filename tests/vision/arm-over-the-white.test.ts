import { describe, expect, it } from 'vitest';
import type { DoubtEvent } from '../../hub/vision/doubts.ts';
import { cameraEvents, load, pair, scored } from './fixture-shots.ts';

/**
 * Held-out seed 21229, balkline 47/2 at 60 fps, s3 #16: the yellow (the cue ball) struck the
 * red, then rails; the white lay still by the right rail all shot. As the player stroke, his arm
 * passed over the white, and for nine frames (633–767 ms) something of it was tracked for the
 * white in part, up to 150 mm off and into the rail, before the white was seen clearly where it
 * lay. The contact finder read a right-rail hit of the white there, sure; the white had then
 * moved, so the yellow's maybe contact with an unknown ball at the stroke had to be with it, and
 * the camera alone scored a point that was not (doubts.ts, awayOnlyInPart).
 */
describe('held-out 21229, balkline 47/2 60 s3 #16: an arm over the white by the rail', () => {
  const fixture = load('arm-over-the-white-21229.json');
  const events = cameraEvents(fixture, fixture.read);
  const whiteRail = (e: DoubtEvent) => e.kind === 'cushion' && e.ball === 'white' && e.rail === 'right' && e.t < 800;

  it('G-14: the white, clear at its place before and after and only seen in part between, struck no rail for sure', () => {
    expect(events.some(whiteRail)).toBe(true);
    expect(events.filter(whiteRail).every((e) => e.maybe)).toBe(true);
  });

  it('the shot\'s own contacts stay sure: the yellow met the red, then the rails', () => {
    expect(events.some((e) => e.kind === 'ball' && pair(e) === 'red+yellow' && !e.maybe)).toBe(true);
    expect(events.some((e) => e.kind === 'cushion' && e.ball === 'yellow' && e.rail === 'left' && !e.maybe)).toBe(true);
  });

  it('BK-1: the camera alone no longer scores the point: no point, or a prompt with no point among its options', () => {
    const r = scored('balkline-47-2', fixture, events, 'yellow');
    expect(r.expected.points).toBe(0);
    if (r.decided) expect(r.decided.points).toBe(0);
    else expect(r.truthOffered).toBe(true);
  });
});
