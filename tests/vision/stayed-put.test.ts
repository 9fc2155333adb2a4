import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findContacts, type TrackSample } from '../../hub/vision/contacts.ts';
import { withDoubts, type DoubtEvent } from '../../hub/vision/doubts.ts';
import { analysisStep, everyStep, statedEvents } from '../../hub/vision/tracker.ts';

/**
 * A ball that lay still and stayed still just after a contact took no kick (doubts.ts,
 * unmovedPartners). The fixture is the tracker's paths of held-out seed 21221, three-cushion at
 * 60 fps, s17 #16 ([t, place, 1 when seen in part]): the white, seen only in part under the
 * cue's follow-through, passed the resting yellow 0.5 mm off and struck the red; two seconds
 * later it came back and struck the yellow. The contact finder read the near pass as a
 * white–yellow contact; the doubts let it stand because the yellow moved later in the shot, and
 * the camera alone called a point lost.
 */
type Fixture = { pixelMm: number; ballRadius: number; table: { length: number; width: number }; paths: Record<string, ([number, number[], 1] | [number, number[] | null])[]> };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/stayed-put-21221.json', import.meta.url), 'utf8')) as Fixture;
const pair = (e: { kind: string; balls?: [string | null, string | null] }) => (e.kind === 'ball' ? [...e.balls!].sort().join('+') : e.kind);

/** The shot's events as the tracker states them: contacts on every analysed frame, then the doubts over every frame. */
function shotEvents() {
  const dt = 1000 / 60;
  const step = analysisStep(dt);
  const full = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, samples.map(([t, at]): TrackSample => ({ t, at: at as [number, number] | null }))]));
  const used = new Map([...full].map(([ball, samples]) => [ball, everyStep(samples, step)]));
  const found = findContacts({ tracks: used, dt: dt * step, ballRadius: fixture.ballRadius, table: fixture.table, pixelMm: fixture.pixelMm });
  const partial = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, new Set(samples.filter((x) => x[2] === 1).map((x) => x[0]))]));
  const stated = statedEvents(found, []) as DoubtEvent[];
  return { found: found.events, events: withDoubts({ tracks: full, dt, ballRadius: fixture.ballRadius, table: fixture.table, spots: [], partial, events: stated }) };
}

describe('a ball that stayed put just after a contact took no kick there (held-out 21221, three-cushion 60 s17 #16)', () => {
  it('TC-1: the white–yellow near pass is at most maybe; the white–red contact and the later white–yellow one stay sure', () => {
    const { found, events } = shotEvents();
    // The contact finder does read the near pass (the white's bend beside the yellow's jiggle)…
    expect(found.filter((e) => e.kind === 'ball' && !e.maybe && e.t < 700).map(pair)).toEqual(['white+yellow', 'red+white']);
    // …and the doubts make it maybe, because the yellow did not move for the next 200 ms.
    const sure = events.filter((e): e is Extract<DoubtEvent, { kind: 'ball' }> => e.kind === 'ball' && !e.maybe);
    expect(sure.map((e) => [pair(e), e.t < 700 ? 'at the stroke' : 'later'])).toEqual([
      ['red+white', 'at the stroke'],
      ['white+yellow', 'later'],
    ]);
    expect(events.some((e) => e.kind === 'ball' && e.maybe && pair(e) === 'white+yellow' && e.t < 700)).toBe(true);
  });
});
