import { calibrate, type Calibration } from '../../hub/vision/calibration.ts';
import type { Ball } from '../../hardware/simulator/physics/ball.ts';
import { caromTable } from '../../hardware/simulator/physics/table.ts';
import { makeClip, type Clip, type ClipSpec } from '../../hardware/simulator/video/clip.ts';
import { createMatch, playTruth } from '../../hardware/simulator/match-helpers.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { clipTracker } from '../../hardware/simulator/video/clip-tracker.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { streamSeed } from '../../hardware/simulator/video/accuracy.ts';
import type { TrackerMessage } from '../../hub/vision/tracker.ts';

export const CAROM = caromTable();

export const still = (id: string, p: [number, number]): Ball => ({ id, p, v: [0, 0], roll: [0, 0], side: 0 });

/** A clip with the balls given (a moving cue ball or none), small frames to keep tests quick. */
export function clipOf(start: Ball[], spec: Partial<ClipSpec> = {}): Clip {
  return makeClip({ table: CAROM, start, cueBall: start[0]!.id, variant: 'carom', fps: 30, width: 800, height: 450, seed: 7, chalk: false, hoverCue: false, ...spec });
}

/** The calibration the track command would get: corners, lens and field of view of the clip's camera. */
export function calibrationOf(clip: Clip): Calibration {
  const c = clip.camera;
  const cal = calibrate({ width: c.lens.width, height: c.lens.height, corners: c.corners, table: { length: CAROM.length, width: CAROM.width }, k1: c.spec.k1, fovDeg: c.spec.hfovDeg });
  if (!cal.ok) throw new Error(cal.error);
  return cal.value;
}

export const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

/** Shot `index` of a held-out stream as `accuracy:vision` renders it (the shots before it played at a tiny size to reach it), through the tracker. */
export function streamShot(seed: number, variant: string, stream: number, index: number, fps: number) {
  const setup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  const random = seededRandom(streamSeed(seed, variant, stream));
  const planner = new VideoShotPlanner(variant);
  const truth = createMatch(setup);
  for (let i = 0; i < index; i++) {
    const shot = planner.plan(truth.view().cueBall!, i === 0, truth.view().instructions, random);
    const clip = makeClip({ ...shot, fps: 30, width: 64, height: 36, seed: Math.floor(random() * 2 ** 31) });
    planner.rested(clip.timeline.result.balls);
    playTruth(truth, clip.truth.shot);
  }
  const shot = planner.plan(truth.view().cueBall!, index === 0, truth.view().instructions, random);
  const clip = makeClip({ ...shot, fps, width: 640, height: 360, seed: Math.floor(random() * 2 ** 31) });
  const tracker = clipTracker(clip, shot, planner, variant);
  const messages: TrackerMessage[] = [];
  for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), Math.round((i * 1000) / clip.fps)));
  messages.push(...tracker.finish());
  return { clip, tracker, messages };
}
