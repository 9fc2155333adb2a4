import type { Shot, ShotEvent } from '../../../hub/rules/events.ts';
import { createMatch, must } from '../match-helpers.ts';
import { Match } from '../../../hub/rules/match.ts';
import { seededRandom } from '../../../hub/rules/random.ts';
import type { ShotResult } from '../../../hub/rules/view.ts';
import { CAROM_TABLE, PYRAMID_TABLE, skittleSpots } from '../../../hub/rules/skittles/geometry.ts';
import { calibrate } from '../../../hub/vision/calibration.ts';
import { VisionTracker, type TrackerMessage } from '../../../hub/vision/tracker.ts';
import { makeClip } from './clip.ts';
import { VideoShotPlanner } from './shots.ts';

/**
 * Camera-alone accuracy: real matches played by the physics, each shot rendered as an
 * overhead camera films it, tracked from the frames alone, and the tracker's shot scored
 * by the engine beside the ground truth. Counts: exact event sequences, precision and
 * recall per event kind, the engine's decisions (correct / prompted / wrong) and the
 * error of the resting positions.
 */
export interface VisionAccuracy {
  variant: string;
  fps: number;
  shots: number;
  exact: number;
  correct: number;
  prompted: number;
  wrong: number;
  perKind: Record<string, { truth: number; found: number; matched: number }>;
  positionErrors: number[];
  nullFacts: number;
  wrongExamples: string[];
  frames: number;
  trackMs: number;
}

/** An event's identity for matching (ball pairs unordered, times ignored). */
function signature(e: ShotEvent): string {
  if (e.kind === 'ball') return `ball:${[...e.balls].map((b) => b ?? '?').sort().join('+')}`;
  if (e.kind === 'cushion') return `cushion:${e.rail}:${e.ball ?? '?'}`;
  if (e.kind === 'skittle') return `skittle:${e.skittle}:${e.by ?? '?'}`;
  return `${e.kind}:${'ball' in e ? e.ball : ''}`;
}

const outcome = (r: ShotResult) => JSON.stringify([r.points, r.foul, r.turnPasses, r.awards ?? []]);

export function measureVision(variant: string, shots: number, seed: number, fps: number, size: { width: number; height: number }): VisionAccuracy {
  const setup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  const acc: VisionAccuracy = { variant, fps, shots: 0, exact: 0, correct: 0, prompted: 0, wrong: 0, perKind: {}, positionErrors: [], nullFacts: 0, wrongExamples: [], frames: 0, trackMs: 0 };
  const random = seededRandom(seed);
  let truth = createMatch(setup);
  let seen = createMatch(setup);
  const planner = new VideoShotPlanner(variant);
  const skittleGame = variant.startsWith('skittles');
  const kind = (k: string) => (acc.perKind[k] ??= { truth: 0, found: 0, matched: 0 });
  let isBreak = true;
  while (acc.shots < shots) {
    const view = truth.view();
    const shot = planner.plan(view.cueBall!, isBreak, view.instructions, random);
    isBreak = false;
    const clip = makeClip({ ...shot, fps, width: size.width, height: size.height, seed: Math.floor(random() * 2 ** 31) });
    const cam = clip.camera;
    const cal = calibrate({ width: cam.lens.width, height: cam.lens.height, corners: cam.corners, table: { length: shot.table.length, width: shot.table.width }, k1: cam.spec.k1, fovDeg: cam.spec.hfovDeg });
    if (!cal.ok) throw new Error(cal.error);
    const st = shot.table.length > 3000 ? PYRAMID_TABLE : CAROM_TABLE;
    const skittles = skittleGame ? Object.entries(skittleSpots(st, shot.table.length > 3000 ? 'pyramid-seven' : 'carom-seven')).map(([id, at]) => ({ id, at: [at![0], at![1]] as [number, number], base: st.skittleBase, height: 60 })) : undefined;
    const initial = Object.fromEntries(shot.start.map((b) => [b.id, [b.p[0], b.p[1]] as [number, number]]));
    const tracker = new VisionTracker({ calibration: cal.value, balls: skittleGame ? 'skittles' : 'carom', ballRadius: shot.table.ballRadius, ...(skittles ? { skittles } : {}), initial });
    const messages: TrackerMessage[] = [];
    for (let i = 0; i < clip.frameCount; i++) {
      const frame = clip.frame(i);
      const t0 = performance.now();
      messages.push(...tracker.push(frame, Math.round((i * 1000) / fps)));
      acc.trackMs += performance.now() - t0;
      acc.frames += 1;
    }
    messages.push(...tracker.finish());
    planner.rested(clip.timeline.result.balls);
    const truthShot: Shot = clip.truth.shot;
    const shotMsgs = messages.filter((m) => m.type === 'shot');
    // One shot per video; none seen (or several) is a shot with no events and no positions.
    const camShot: Shot = shotMsgs.length === 1 && shotMsgs[0]!.type === 'shot' ? { events: shotMsgs[0]!.shot.events as ShotEvent[], positions: shotMsgs[0]!.shot.positions } : { events: [{ kind: 'ball', balls: [view.cueBall!, null] }] };
    acc.shots += 1;
    // Event sequence and per-kind precision/recall.
    const ts = truthShot.events.map(signature);
    const cs = camShot.events.map(signature);
    if (ts.length === cs.length && ts.every((s, i) => s === cs[i])) acc.exact += 1;
    const pool = [...ts];
    for (const s of ts) kind(s.split(':')[0]!).truth += 1;
    for (const s of cs) {
      kind(s.split(':')[0]!).found += 1;
      if (s.includes('?')) acc.nullFacts += 1;
      const k = pool.indexOf(s);
      if (k >= 0) {
        pool.splice(k, 1);
        kind(s.split(':')[0]!).matched += 1;
      }
    }
    for (const [id, p] of Object.entries(truthShot.positions ?? {})) {
      const q = camShot.positions?.[id];
      if (q) acc.positionErrors.push(Math.hypot(q[0] - p[0], q[1] - p[1]));
    }
    // The engine's decision from the camera against the truth.
    must(truth.apply({ kind: 'shot', shot: truthShot }));
    const known = truth.view();
    if (known.status === 'awaiting-referee') must(truth.apply({ kind: 'referee', referee: { ruling: known.prompt!.options[0]!.ruling, option: 0 } }));
    const expected = truth.view().shots.at(-1)!;
    const applied = seen.apply({ kind: 'shot', shot: camShot });
    const reset = () => {
      truth = createMatch(setup);
      seen = createMatch(setup);
      isBreak = true;
    };
    if (!applied.ok) {
      acc.wrong += 1;
      acc.wrongExamples.push(`refused: ${applied.error}`);
      reset();
      continue;
    }
    const sensed = seen.view();
    if (sensed.status === 'awaiting-referee') {
      acc.prompted += 1;
      const option = sensed.prompt!.options.find((o) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses);
      if (!option) {
        acc.wrong += 1;
        if (acc.wrongExamples.length < 5) acc.wrongExamples.push(`prompt without the truth: truth ${JSON.stringify(truthShot.events)} camera ${JSON.stringify(camShot.events)}`);
        reset();
        continue;
      }
      must(seen.apply({ kind: 'referee', referee: { ruling: option.ruling, option: option.index } }));
    } else if (outcome(sensed.shots.at(-1)!) === outcome(expected)) acc.correct += 1;
    else {
      acc.wrong += 1;
      if (acc.wrongExamples.length < 5) acc.wrongExamples.push(`truth ${JSON.stringify(truthShot.events)} camera ${JSON.stringify(camShot.events)}: camera ${outcome(sensed.shots.at(-1)!)} truth ${outcome(expected)}`);
      reset();
      continue;
    }
    const after = truth.view();
    if (after.status === 'finished' || after.status === 'drawn') reset();
  }
  return acc;
}


