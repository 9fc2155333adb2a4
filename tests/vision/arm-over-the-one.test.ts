import { describe, expect, it } from 'vitest';
import type { DoubtEvent } from '../../hub/vision/doubts.ts';
import { cameraEvents, load, pair, scored } from './fixture-shots.ts';

/**
 * Held-out seed 21231, seven skittles on a pyramid table at 30 fps, s17 #17 (the same shot at
 * 60 fps alike): the cue ball struck the white `two`; the white `one` lay still all shot. The
 * player's arm came over `one` before the stroke: `one` was seen only in part from 300 ms on, at
 * its place, then for seven frames (533–767 ms) something of the arm was tracked for it 150–
 * 200 mm off, then `one` was seen clearly where it lay. The contact finder read a sure contact
 * of `one` with the cue ball at the stroke, and the camera alone scored the shot as the cue
 * ball's hit on `one` (5 points) — a foul with nothing made. awayOnlyInPart asked for three clear
 * sightings at the place before; here only one was clear, the rest seen in part, still there.
 */
describe('held-out 21231, pyramid 30 s17 #17: an arm over a white seen only in part at its place', () => {
  const fixture = load('arm-over-the-one-21231.json');
  const events = cameraEvents(fixture, fixture.read);
  const withOne = (e: DoubtEvent) => e.kind === 'ball' && pair(e) === 'cue+one' && e.t < 700;

  it('SK7P-4: the white one, at its place before (clear once, then in part) and clear there after, met the cue ball at the stroke only maybe', () => {
    expect(events.some(withOne)).toBe(true);
    expect(events.filter(withOne).every((e) => e.maybe)).toBe(true);
  });

  it('the shot\'s own contacts stay sure: the cue ball met two, which met one later', () => {
    expect(events.some((e) => e.kind === 'ball' && pair(e) === 'cue+two' && !e.maybe)).toBe(true);
    expect(events.some((e) => e.kind === 'ball' && pair(e) === 'one+two' && e.t > 1500 && !e.maybe)).toBe(true);
  });

  it('SK7P-4: the camera alone no longer scores the hit on one: the truth, or a prompt offering it', () => {
    const r = scored('skittles-7-pyramid', fixture, events, 'cue');
    if (r.decided) expect(r.decided).toEqual(r.expected);
    else expect(r.truthOffered).toBe(true);
  });
});
