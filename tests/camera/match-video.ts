import { closeSync, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { createMatch, must } from '../../hardware/simulator/match-helpers.ts';
import type { PhysicsPlannedShot } from '../../hardware/simulator/physics/planner.ts';
import type { MatchSetup, ShotEvent } from '../../hub/rules/events.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import type { ShotResult } from '../../hub/rules/view.ts';
import { encodeY4mFrame, encodeY4mHeader } from '../../hub/vision/y4m.ts';

/**
 * A short match as one overhead video, with the physics' truth of every shot: the physics
 * planner plays the match (each shot's cue ball, break and instructions from the engine
 * fed the true events), each shot is rendered as a clip (aiming, the shot, rest) and the
 * clips are joined into one .y4m. One seed for every clip, so the camera, the lens and
 * the light stay the same all match; each clip starts where the last one's balls came to
 * rest. The sensor trace of the same shots is `strikeAtMs + e.t` for each true event.
 */
export interface VideoShot {
  /** Video time (ms from the first frame) of the cue strike. */
  strikeAtMs: number;
  /** Video time at which the shot's clip ends. */
  endMs: number;
  truth: PhysicsPlannedShot;
  /** The engine's decision with every fact known. */
  expected: ShotResult;
}

export interface MatchVideo {
  file: string;
  variant: string;
  setup: MatchSetup;
  width: number;
  height: number;
  fps: number;
  corners: [number, number][];
  k1: number;
  fovDeg: number;
  table: { length: number; width: number };
  shots: VideoShot[];
  frames: number;
}

export interface MatchVideoSpec {
  file: string;
  variant: string;
  shots: number;
  /** Plans the shots (strokes, execution error). */
  seed: number;
  /** The camera, light and player (one for the whole video). */
  cameraSeed: number;
  fps: number;
  width: number;
  height: number;
  /** Seconds of a still table before the first aim (time to line the sensors up with the video). */
  firstLead?: number;
  /** Keep the frames of an existing file (the same spec rendered before): only the physics runs. */
  reuseFile?: boolean;
}

export function renderMatchVideo(spec: MatchVideoSpec): MatchVideo {
  const setup: MatchSetup = { variant: spec.variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  const truth = createMatch(setup);
  const planner = new VideoShotPlanner(spec.variant);
  const random = seededRandom(spec.seed);
  const reuse = spec.reuseFile === true && existsSync(spec.file);
  // Written under another name and renamed when whole: a file that exists is a complete video.
  const fd = openSync(reuse ? spec.file : `${spec.file}.part`, reuse ? 'r' : 'w');
  const shots: VideoShot[] = [];
  let frames = 0;
  let camera: MatchVideo['corners'] | null = null;
  let lens = { k1: 0, fovDeg: 60 };
  try {
    if (!reuse) writeSync(fd, encodeY4mHeader({ width: spec.width, height: spec.height, fpsNum: spec.fps, fpsDen: 1, colour: '420jpeg' }));
    for (let k = 0; k < spec.shots; k++) {
      const view = truth.view();
      const shot = planner.plan(view.cueBall!, k === 0, view.instructions, random);
      const lead = k === 0 ? (spec.firstLead ?? 2) : 0.8;
      const clip = makeClip({ ...shot, fps: spec.fps, width: spec.width, height: spec.height, seed: spec.cameraSeed, lead, tail: 1.2 });
      camera ??= clip.camera.corners.map((c) => [c[0], c[1]] as [number, number]);
      lens = { k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg };
      const startMs = (frames * 1000) / spec.fps;
      if (!reuse) for (let i = 0; i < clip.frameCount; i++) writeSync(fd, encodeY4mFrame(clip.frame(i)));
      frames += clip.frameCount;
      planner.rested(clip.timeline.result.balls);
      must(truth.apply({ kind: 'shot', shot: clip.truth.shot }));
      const known = truth.view();
      if (known.status === 'awaiting-referee') must(truth.apply({ kind: 'referee', referee: { ruling: known.prompt!.options[0]!.ruling, option: 0 } }));
      shots.push({ strikeAtMs: startMs + lead * 1000, endMs: (frames * 1000) / spec.fps, truth: clip.truth, expected: truth.view().shots.at(-1)! });
    }
  } finally {
    closeSync(fd);
  }
  if (!reuse) renameSync(`${spec.file}.part`, spec.file);
  return { file: spec.file, variant: spec.variant, setup, width: spec.width, height: spec.height, fps: spec.fps, corners: camera!, ...lens, table: { length: planner.table.length, width: planner.table.width }, shots, frames };
}

/** An event's identity for comparing readings (ball pairs unordered, times ignored). */
export function signature(e: ShotEvent): string {
  if (e.kind === 'ball') return `ball:${[...e.balls].map((b) => b ?? '?').sort().join('+')}`;
  if (e.kind === 'cushion') return `cushion:${e.rail}:${e.ball ?? '?'}`;
  if (e.kind === 'skittle') return `skittle:${e.skittle}:${e.by ?? '?'}`;
  return `${e.kind}:${'ball' in e ? e.ball : ''}`;
}
