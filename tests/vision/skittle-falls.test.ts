import { describe, expect, it } from 'vitest';
import type { TrackSample } from '../../hub/vision/contacts.ts';
import { calibrate } from '../../hub/vision/calibration.ts';
import { fallEvents, SkittleWatch } from '../../hub/vision/skittle-falls.ts';
import { VisionTracker, type TrackerMessage } from '../../hub/vision/tracker.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { tableFor } from '../../hardware/simulator/physics/table.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { still, streamShot } from './helpers.ts';

/**
 * Skittle falls timed by the frames in which the skittle went down (issue 15): placed at the
 * nearest pass of any ball, a fall landed before the contact that really caused it and a legal
 * shot became an illegal knock-down (SK7P-4/5).
 */
const dt = 1000 / 30;
const R = 34;
const line = (from: [number, number], v: [number, number], n: number): TrackSample[] => Array.from({ length: n }, (_, k) => ({ t: k * dt, at: [from[0] + v[0] * k * dt, from[1] + v[1] * k * dt] as [number, number] }));

describe('skittle falls: timing and feller', () => {
  const skittle = { skittle: 'spot1', at: [1000, 900] as [number, number], base: 26 };

  it('a ball that passed close before the skittle fell is not its feller; the ball that reached it in the frames it fell is', () => {
    // `one` grazes the skittle's base at ~100 ms and runs on; `cue` reaches it at ~386 ms, between the frames showing it up and down.
    const tracks = new Map([
      ['one', line([1000 - 300, 900 - 50], [3, 0], 30)],
      ['cue', line([1000 - 1200, 900 + 20], [3, 0], 30)],
    ]);
    const [f] = fallEvents({ falls: [{ ...skittle, upT: 11 * dt, downT: 12 * dt }], tracks, ballRadius: R, dt });
    expect(f!.by).toBe('cue');
    // The cue's centre comes to R + 13 from the skittle at x = 1000 − √(47² − 20²) ≈ 957.5.
    const touch = (957.5 - (1000 - 1200)) / 3;
    expect(Math.abs(f!.t - touch)).toBeLessThan(2);
  });

  it('two balls in reach while it fell, or one out of sight near it: the feller is unknown', () => {
    const both = new Map([
      ['one', line([1000 - 1200, 900 - 45], [3, 0], 30)],
      ['cue', line([1000 - 1200, 900 + 45], [3, 0], 30)],
    ]);
    expect(fallEvents({ falls: [{ ...skittle, upT: 12 * dt, downT: 14 * dt }], tracks: both, ballRadius: R, dt })[0]!.by).toBeNull();
    const hidden = line([1000 - 1200, 900 - 45], [3, 0], 30).map((s, k) => (k >= 11 && k <= 15 ? { t: s.t, at: null } : s));
    const one = new Map([
      ['one', hidden],
      ['cue', line([1000 - 1200, 900 + 40], [3, 0], 30)],
    ]);
    expect(fallEvents({ falls: [{ ...skittle, upT: 12 * dt, downT: 14 * dt }], tracks: one, ballRadius: R, dt })[0]!.by).toBeNull();
  });
});

describe('skittle watch', () => {
  it('one stray down reading does not fell a skittle; two in a row do, timed at the first', () => {
    const w = new SkittleWatch();
    w.observe('up', 0, false);
    w.observe('down', 33, true);
    w.observe('up', 67, true);
    expect(w.state).toBe(true);
    w.observe('down', 100, true);
    w.observe('down', 133, true);
    expect(w.state).toBe(false);
    expect(w.downT).toBe(100);
    expect(w.upT).toBe(67);
  });

  it('during a shot a fallen skittle stays down whatever is read over its spot (a cue carried over it); between shots two standing readings set it up again', () => {
    const w = new SkittleWatch();
    w.observe('up', 0, false);
    w.observe('down', 100, true);
    w.observe('down', 133, true);
    w.observe('up', 2000, true);
    w.observe('up', 2033, true);
    expect(w.state).toBe(false);
    w.observe('up', 5000, false);
    expect(w.state).toBeNull();
    w.observe('up', 5033, false);
    expect(w.state).toBe(true);
  });

  it('a skittle felled in the first frames, before the strike was recognised, stood when the shot began', () => {
    const w = new SkittleWatch();
    w.observe('up', 600, false);
    w.observe('down', 633, false);
    w.observe('down', 667, false);
    expect(w.standingAt(667, dt)).toBe(true);
    const before = new SkittleWatch();
    before.observe('down', 0, false);
    expect(before.standingAt(667, dt)).toBe(false);
  });
});

describe('skittle falls: rendered', () => {
  /** The cue ball struck from beside spot1 into it, on the pyramid table, and a tracker for the clip. */
  const spot1Shot = () => {
    const table = tableFor('skittles-7-pyramid');
    const spot1 = table.skittles.find((s) => s.id === 'spot1')!;
    const from: [number, number] = [spot1.at[0] + 30, spot1.at[1] + 60];
    const start = [strike('cue', from, { angle: Math.atan2(-1, -0.6), speed: 2200, follow: 0, english: 0 }), still('one', [2500, 500]), still('two', [2800, 1300])];
    const clip = makeClip({ table, start, cueBall: 'cue', variant: 'skittles-7-pyramid', fps: 30, width: 800, height: 450, seed: 3, chalk: false, hoverCue: false });
    const c = clip.camera;
    const cal = calibrate({ width: c.lens.width, height: c.lens.height, corners: c.corners, table: { length: table.length, width: table.width }, k1: c.spec.k1, fovDeg: c.spec.hfovDeg });
    if (!cal.ok) throw new Error(cal.error);
    const skittles = table.skittles.map((s) => ({ id: s.id, at: [s.at[0], s.at[1]] as [number, number], base: 2 * s.radius, height: 60 }));
    const tracker = () => new VisionTracker({ calibration: cal.value, balls: 'skittles', ballRadius: table.ballRadius, skittles, initial: { cue: from, one: [2500, 500], two: [2800, 1300] } });
    return { spot1, clip, tracker };
  };

  it('a skittle the cue ball fells right after the strike is reported, by the cue ball, within a frame', { timeout: 60_000 }, () => {
    const { clip, tracker: track } = spot1Shot();
    const truth = clip.truth.shot.events.find((e) => e.kind === 'skittle');
    expect(truth).toMatchObject({ skittle: 'spot1', by: 'cue' });
    expect(truth!.t!).toBeLessThan(60);
    const tracker = track();
    const messages: TrackerMessage[] = [];
    for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), (i * 1000) / clip.fps));
    messages.push(...tracker.finish());
    const shot = messages.find((m) => m.type === 'shot');
    if (shot?.type !== 'shot') throw new Error('no shot');
    const falls = shot.shot.events.filter((e) => e.kind === 'skittle');
    expect(falls).toHaveLength(clip.truth.shot.events.filter((e) => e.kind === 'skittle').length);
    const fall = falls.find((e) => e.kind === 'skittle' && e.skittle === 'spot1');
    expect(fall).toMatchObject({ by: 'cue' });
    expect(Math.abs(fall!.t - (clip.strikeAt * 1000 + truth!.t!))).toBeLessThan(dt);
  });

  it('a skittle read down before the shot (a blue sleeve over its spot reads as cloth) that a ball then reaches is a maybe fall, not nothing (held-out seed 19191, pyramid 60 fps s10 #8)', { timeout: 60_000 }, () => {
    const { spot1, clip, tracker: track } = spot1Shot();
    const read = (misread: boolean) => {
      const tracker = track();
      // Until the strike, spot1 reads as bare cloth, as under the sleeve of that held-out shot.
      const detector = (tracker as unknown as { detector: { objectShare: (f: unknown, at: readonly [number, number], h: number, r: number) => number } }).detector;
      const share = detector.objectShare.bind(detector);
      let now = 0;
      detector.objectShare = (f, at, h, r) => (misread && now < clip.strikeAt * 1000 && at[0] === spot1.at[0] && at[1] === spot1.at[1] ? 0 : share(f, at, h, r));
      const messages: TrackerMessage[] = [];
      for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), (now = (i * 1000) / clip.fps)));
      messages.push(...tracker.finish());
      const shot = messages.find((m) => m.type === 'shot');
      if (shot?.type !== 'shot') throw new Error('no shot');
      return shot.shot.events.filter((e) => e.kind === 'skittle' && e.skittle === 'spot1');
    };
    expect(read(false)).toEqual([expect.objectContaining({ by: 'cue' })]);
    const misread = read(true);
    expect(misread).toHaveLength(1);
    expect(misread[0]).toMatchObject({ maybe: true });
  });

  it('two skittles felled onto each other\'s spots both read standing: the one a ball reached beside a neighbour a ball reached is a maybe fall, not nothing (held-out seed 21215, five skittles 30 fps s37 #0)', { timeout: 90_000 }, () => {
    const { clip, messages } = streamShot(21215, 'skittles-5', 37, 0, 30);
    // The truth: ball one felled the foot skittle, then the king and the head skittle 350 ms apart.
    expect(clip.truth.shot.events.filter((e) => e.kind === 'skittle').map((e) => e.kind === 'skittle' && e.skittle)).toEqual(['foot', 'king', 'head', 'left']);
    const shot = messages.find((m) => m.type === 'shot');
    const falls = shot?.type === 'shot' ? shot.shot.events.filter((e) => e.kind === 'skittle') : [];
    // The camera saw neither go down; the head skittle's fall had been left out altogether.
    expect(falls).toContainEqual(expect.objectContaining({ skittle: 'king', maybe: true }));
    expect(falls).toContainEqual(expect.objectContaining({ skittle: 'head', by: 'one', maybe: true }));
  });
});
