import { describe, expect, it } from 'vitest';
import { findContacts } from '../../hub/vision/contacts.ts';
import { withDoubts } from '../../hub/vision/doubts.ts';
import { analysisStep, everyStep, statedEvents } from '../../hub/vision/tracker.ts';
import { madeUpShot, warmUpAnalysis } from '../../hub/vision/warm-up.ts';
import { CASES, firstDifference, readFixture, runCase } from './equivalence.ts';

const table = { length: 2840, width: 1420 };

describe('the analysis warm-up (a camera thread runs it before its first frame)', () => {
  // A made-up shot the analysis reads as a real one: the warm-up then runs the code real shots
  // run (a shot in which nothing is found would leave most of it cold).
  for (const fps of [30, 60]) {
    it(`its made-up shot at ${fps} fps is read as played: white–red, red off the foot, red–white, white off the head, white–red`, () => {
      const dt = 1000 / fps;
      const full = madeUpShot(dt, 30.75, table);
      const step = analysisStep(dt);
      const used = new Map([...full].map(([id, s]) => [id, everyStep(s, step)]));
      const found = findContacts({ tracks: used, dt: dt * step, ballRadius: 30.75, table, obstacles: [], pixelMm: 2.3 });
      const events = withDoubts({ tracks: full, dt, ballRadius: 30.75, table, events: statedEvents(found, [], dt), partial: new Map(), spots: [], skittles: [], standingBefore: [] });
      expect(events.map((e) => (e.kind === 'ball' ? `${e.balls.join('-')}` : e.kind === 'cushion' ? `${e.ball} ${e.rail}` : e.kind))).toEqual(['white-red', 'red foot', 'red-white', 'white head', 'white-red']);
      expect(events.every((e) => !e.maybe)).toBe(true);
    });
  }

  // It must leave nothing behind (a cache, say): after it, the tracker says exactly what the recorded outputs say.
  it('changes nothing the tracker then says: carom 360p30 after a warm-up is the recorded output', () => {
    warmUpAnalysis({ dt: 1000 / 30, ballRadius: 30.75, table, pixelMm: 2.3 });
    const c = CASES.find((x) => x.name === 'carom 360p30')!;
    expect(firstDifference(runCase(c), readFixture()[c.name], 0.01)).toBeNull();
  }, 60_000);

  it('is the same every time (no randomness) and states the shot in each round', () => {
    const o = { dt: 1000 / 60, ballRadius: 30.75, table, pixelMm: 2.3, rounds: 2 };
    expect(JSON.stringify(madeUpShot(o.dt, o.ballRadius, table))).toBe(JSON.stringify(madeUpShot(o.dt, o.ballRadius, table)));
    expect(warmUpAnalysis(o)).toBe(5);
  });
});
