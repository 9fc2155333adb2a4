import { describe, expect, it } from 'vitest';
import { ShotSegmenter } from '../../hub/pipeline/segmenter.ts';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';

const opts = { rails: { 0: 'head', 1: 'foot', 2: 'left', 3: 'left', 4: 'right' } as const, skittles: { 0: 'king' } as const, quietWindowMs: 1000, restVibrationLevel: 10, railMergeMs: 15 };
const stamp = (hubTime: number) => ({ boardUs: hubTime * 1000, hubTime, seq: 0 });
const rail = (channel: number, at: number, amplitude = 100): SensorEvent => ({ type: 'rail-hit', channel, amplitude, ...stamp(at) });
const click = (at: number): SensorEvent => ({ type: 'click', amplitude: 80, ...stamp(at) });
const vibration = (level: number, at: number): SensorEvent => ({ type: 'vibration', level, ...stamp(at) });

describe('shot segmenter', () => {
  it('shot events carry the hits\' amplitudes only from calibrated sensors (amplitudes: true)', () => {
    for (const amplitudes of [true, false]) {
      const s = new ShotSegmenter({ ...opts, amplitudes });
      s.push(click(100));
      s.push(rail(1, 400));
      const [done] = s.tick(2000);
      expect(done?.type === 'shot-complete' && done.events).toEqual(
        amplitudes
          ? [{ kind: 'ball', balls: [null, null], t: 0, amplitude: 80 }, { kind: 'cushion', rail: 'foot', ball: null, t: 300, amplitude: 100 }]
          : [{ kind: 'ball', balls: [null, null], t: 0 }, { kind: 'cushion', rail: 'foot', ball: null, t: 300 }],
      );
    }
  });

  it('G-6 a shot starts at the first sign of motion and ends after a quiet window with the bed at rest', () => {
    const s = new ShotSegmenter(opts);
    expect(s.push(click(100))).toEqual([{ type: 'shot-started', at: 100 }]);
    s.push(rail(1, 400));
    s.push(vibration(40, 600));
    expect(s.tick(1500)).toEqual([]); // quiet for 900 ms only: the window is 1000
    s.push(vibration(3, 1550)); // the bed has calmed down
    const [done] = s.tick(1700);
    expect(done).toMatchObject({ type: 'shot-complete', startedAt: 100, endedAt: 1700, endedBy: 'quiet' });
    expect(done?.type === 'shot-complete' && done.events).toEqual([
      { kind: 'ball', balls: [null, null], t: 0 },
      { kind: 'cushion', rail: 'foot', ball: null, t: 300 },
    ]);
  });

  it('a vibrating bed keeps the shot open past the quiet window', () => {
    const s = new ShotSegmenter(opts);
    s.push(click(0));
    s.push(vibration(30, 900));
    expect(s.tick(1500)).toEqual([]);
    s.push(vibration(30, 1900));
    expect(s.tick(2500)).toEqual([]);
    s.push(vibration(2, 2600));
    expect(s.tick(2950)).toHaveLength(1);
  });

  it('two sensors on one long rail hearing the same impact make one cushion contact', () => {
    const s = new ShotSegmenter(opts);
    s.push(rail(2, 100));
    s.push(rail(3, 104));
    s.push(rail(3, 500));
    const [done] = s.tick(5000);
    expect(done?.type === 'shot-complete' && done.events.map((e) => e.kind === 'cushion' && e.rail)).toEqual(['left', 'left']);
  });

  it('unmapped channels are counted, not scored; a skittle standing up is the referee setting the table', () => {
    const s = new ShotSegmenter(opts);
    expect(s.push(rail(5, 10))).toEqual([]);
    expect(s.push({ type: 'skittle', index: 0, state: 'up', ...stamp(20) })).toEqual([]);
    expect(s.unmappedHits).toBe(1);
    expect(s.inMotion).toBe(false);
    s.push({ type: 'skittle', index: 0, state: 'down', ...stamp(30) });
    const [done] = s.tick(2000);
    expect(done?.type === 'shot-complete' && done.events).toEqual([{ kind: 'skittle', skittle: 'king', by: null, t: 0 }]);
  });

  it('G-7 a cue strike while the balls still move ends that shot and marks the next as a moving-balls foul', () => {
    const s = new ShotSegmenter(opts);
    s.push(click(0));
    const out = s.strike(300);
    expect(out.map((o) => o.type)).toEqual(['shot-complete', 'shot-started']);
    s.push(rail(0, 400));
    const [done] = s.tick(3000);
    expect(done?.type === 'shot-complete' && done.events[0]).toEqual({ kind: 'foul', foul: 'moving-balls', by: 'shooter', t: 0 });
  });

  it('G-7 a camera’s strike seen late belongs to the shot its own vibration began; one long after is still a moving-balls foul', () => {
    const s = new ShotSegmenter(opts);
    s.push(vibration(60, 1000)); // the strike's bed vibration begins the shot
    s.push(click(1040)); // a contact before the camera's report
    expect(s.strike(1120, { at: 1067, lateMs: 115 })).toEqual([]); // the strike, seen at frame time 1067
    const [done] = s.end(2000, 'tracker');
    expect(done?.type === 'shot-complete' && done.events).toEqual([{ kind: 'ball', balls: [null, null], t: 40 }]);
    // The balls have been moving for a second: that strike is another shot, played on moving balls.
    s.push(click(3000));
    expect(s.strike(4100, { at: 4050, lateMs: 115 }).map((o) => o.type)).toEqual(['shot-complete', 'shot-started']);
    const [next] = s.end(5000, 'tracker');
    expect(next?.type === 'shot-complete' && next.events[0]).toEqual({ kind: 'foul', foul: 'moving-balls', by: 'shooter', t: 0 });
  });

  it('a camera’s report that comes after its shot ended neither starts a shot (strike) nor ends the next one (rest)', () => {
    const s = new ShotSegmenter(opts);
    s.push(vibration(60, 1000));
    s.push(click(1100));
    s.push(vibration(2, 1200));
    expect(s.tick(2300)).toHaveLength(1); // the sensors ended the shot before the camera's strike came
    expect(s.strike(2400, { at: 1067, lateMs: 115 })).toEqual([]);
    expect(s.inMotion).toBe(false);
    s.push(click(5000)); // the next shot
    expect(s.end(5100, 'tracker', 1800)).toEqual([]); // the first shot's rest, seen at 1800, comes late
    expect(s.inMotion).toBe(true);
    expect(s.end(7000, 'tracker', 6900)).toHaveLength(1);
  });

  it('a tracker’s strike taken back drops the shot it began only if the sensors heard nothing in it', () => {
    const s = new ShotSegmenter(opts);
    s.strike(100);
    s.push(vibration(40, 150)); // the bed shook (a knock on the table), no hit
    expect(s.withdraw()).toBe(true);
    expect(s.inMotion).toBe(false);
    expect(s.tick(5000)).toEqual([]); // nothing left to end
    s.strike(6000);
    s.push(click(6100));
    expect(s.withdraw()).toBe(false); // a click: something happened, the shot stands
    expect(s.end(6600, 'tracker')).toEqual([expect.objectContaining({ type: 'shot-complete', events: [expect.objectContaining({ kind: 'ball' })] })]);
    expect(s.withdraw()).toBe(false); // at rest: nothing to take back
  });

  it('the referee or a tracker can end a shot', () => {
    const s = new ShotSegmenter(opts);
    s.push(click(0));
    expect(s.end(200, 'tracker')).toEqual([expect.objectContaining({ type: 'shot-complete', endedBy: 'tracker' })]);
    expect(s.end(300, 'referee')).toEqual([]);
  });

  describe('cross-rail suppression (cross-talk through the frame)', () => {
    const x = { ...opts, crossRailMs: 4, crossRailRatio: 0.6 };
    const cushions = (s: ShotSegmenter) => {
      const [done] = s.tick(10_000);
      return done?.type === 'shot-complete' ? done.events.map((e) => (e.kind === 'cushion' ? [e.rail, e.t] : e.kind)) : [];
    };
    it('keeps the loudest rail hit and drops weaker echoes on other rails within the window', () => {
      const s = new ShotSegmenter(x);
      s.push(rail(0, 100, 200)); // head, the real hit
      s.push(rail(2, 100.6, 90)); // left rings
      s.push(rail(4, 101.1, 70)); // right rings
      s.push(rail(1, 103.5, 110)); // foot rings, still inside 4 ms
      expect(cushions(s)).toEqual([['head', 0]]);
      expect(s.crossRailEchoes).toBe(3);
    });
    it('an echo heard before the real hit gives way to it', () => {
      const s = new ShotSegmenter(x);
      s.push(rail(1, 100, 60));
      s.push(rail(0, 100.4, 210));
      expect(cushions(s)).toEqual([['head', 0.4]]);
    });
    it('hits of comparable strength are two contacts (a ball into a corner), and so are hits outside the window', () => {
      const s = new ShotSegmenter(x);
      s.push(rail(0, 100, 200));
      s.push(rail(2, 101, 170)); // corner: head then left
      s.push(rail(4, 300, 40)); // weak, but 200 ms later: a real contact
      expect(cushions(s)).toEqual([['head', 0], ['left', 1], ['right', 200]]);
      expect(s.crossRailEchoes).toBe(0);
    });
    it('is off with crossRailMs 0', () => {
      const s = new ShotSegmenter({ ...x, crossRailMs: 0 });
      s.push(rail(0, 100, 200));
      s.push(rail(2, 100.5, 50));
      expect(cushions(s)).toHaveLength(2);
    });
  });
});
