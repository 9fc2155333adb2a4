import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../hub/rules/random.ts';
import type { TrackerMessage } from '../../hub/vision/tracker.ts';
import { clipTracker } from '../../hardware/simulator/video/clip-tracker.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';

/**
 * The vision pipeline's outputs on a fixed set of rendered clips, recorded once from the
 * code before a speed-up (tests/vision/fixtures/tracker-outputs.json.gz) and compared
 * with the code as it is now (equivalence.test.ts): a faster detector or tracker must say
 * the same things. Regenerate only when an output is meant to change:
 * `npx tsx tests/vision/equivalence.ts --write`.
 */
export interface EquivalenceCase {
  name: string;
  variant: string;
  fps: number;
  width: number;
  height: number;
  seed: number;
  chalk?: boolean;
  hoverCue?: boolean;
}

export const CASES: EquivalenceCase[] = [
  { name: 'bench three-cushion 720p60', variant: 'three-cushion', fps: 60, width: 1280, height: 720, seed: 4242, chalk: true, hoverCue: true },
  { name: 'three-cushion 720p30', variant: 'three-cushion', fps: 30, width: 1280, height: 720, seed: 102 },
  { name: 'carom 360p30', variant: 'carom', fps: 30, width: 640, height: 360, seed: 103 },
  { name: 'three-cushion 360p60', variant: 'three-cushion', fps: 60, width: 640, height: 360, seed: 104 },
  { name: 'skittles-5 720p30', variant: 'skittles-5', fps: 30, width: 1280, height: 720, seed: 105 },
  { name: 'skittles-7-pyramid 360p60', variant: 'skittles-7-pyramid', fps: 60, width: 640, height: 360, seed: 106 },
  { name: 'skittles-7-carom 360p30', variant: 'skittles-7-carom', fps: 30, width: 640, height: 360, seed: 107 },
  { name: 'carom 720p30 chalk and cue', variant: 'carom', fps: 30, width: 1280, height: 720, seed: 108, chalk: true, hoverCue: true },
];

export interface CaseOutput {
  /** Per frame: the messages pushed out, where each ball was seen, which were partial. */
  frames: { msgs: TrackerMessage[]; at: Record<string, [number, number] | null>; partial: string[] }[];
  finish: TrackerMessage[];
  /** lastShotPaths after each shot message (and after finish). */
  paths: unknown[];
}

export function runCase(c: EquivalenceCase): CaseOutput {
  const planner = new VideoShotPlanner(c.variant);
  const skittleGame = c.variant.startsWith('skittles');
  const shot = planner.plan(skittleGame ? 'cue' : 'white', true, [], seededRandom(c.seed));
  const clip = makeClip({ ...shot, fps: c.fps, width: c.width, height: c.height, seed: c.seed, ...(c.chalk !== undefined ? { chalk: c.chalk } : {}), ...(c.hoverCue !== undefined ? { hoverCue: c.hoverCue } : {}) });
  const tracker = clipTracker(clip, shot, planner, c.variant);
  const out: CaseOutput = { frames: [], finish: [], paths: [] };
  for (let i = 0; i < clip.frameCount; i++) {
    const msgs = tracker.push(clip.frame(i), Math.round((i * 1000) / c.fps));
    const obs = tracker.latest!;
    out.frames.push({ msgs: clone(msgs), at: clone(obs.at), partial: [...obs.partial].sort() });
    if (msgs.some((m) => m.type === 'shot')) out.paths.push(clone(tracker.lastShotPaths));
  }
  out.finish = clone(tracker.finish());
  if (out.finish.length) out.paths.push(clone(tracker.lastShotPaths));
  return out;
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

export const FIXTURE = fileURLToPath(new URL('./fixtures/tracker-outputs.json.gz', import.meta.url));

export function readFixture(): Record<string, CaseOutput> {
  return JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as Record<string, CaseOutput>;
}

/**
 * The first difference between two outputs, or null: numbers may differ by `tolerance`
 * (mm or ms), everything else (events, ids, message kinds, nulls) must be identical.
 */
export function firstDifference(a: unknown, b: unknown, tolerance: number, path = ''): string | null {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= tolerance ? null : `${path}: ${a} vs ${b}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return `${path}: keys ${ka.join(',')} vs ${kb.join(',')}`;
  for (const k of ka) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tolerance, `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--write')) {
  const all: Record<string, CaseOutput> = {};
  for (const c of CASES) {
    const t0 = performance.now();
    all[c.name] = runCase(c);
    console.log(`${c.name}: ${all[c.name]!.frames.length} frames, ${all[c.name]!.paths.length} shots, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  writeFileSync(FIXTURE, gzipSync(JSON.stringify(all), { level: 9 }));
  console.log(`wrote ${FIXTURE}`);
}
