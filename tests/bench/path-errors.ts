import { createMatch, playTruth } from '../../hardware/simulator/match-helpers.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { clipTracker } from '../../hardware/simulator/video/clip-tracker.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { streamSeed } from '../../hardware/simulator/video/accuracy.ts';

/**
 * `npx tsx tests/bench/path-errors.ts VARIANT FPS SEED STREAMS`: how far the tracker's path
 * sightings lie from the physics' true centres, clear ones, edge-only ones (partial by the ball's
 * own colour just past its outline) and partial ones (something over the ball's edge) apart — the figures behind track fusion's allowances (hub/camera/track-fusion.ts).
 * Renders STREAMS streams of 10 match shots; prints p50/p99/p99.9/max in mm. `--by-speed`: each
 * kind apart by the ball's true speed then (m/s: at rest, below 0.3, 0.6, 1, 2, 4, above).
 */
const variant = process.argv[2] ?? 'carom';
const fps = Number(process.argv[3] ?? 30);
const seed = Number(process.argv[4] ?? 31337);
const streams = Number(process.argv[5] ?? 2);
const bySpeed = process.argv.includes('--by-speed');
const SPEED_BINS = [0.02, 0.3, 0.6, 1, 2, 4];
/** The bin of a speed in m/s: 'rest' below 0.02, '<x' below each bound, '>4' above. */
const speedBin = (v: number) => (v < SPEED_BINS[0]! ? 'rest' : `${SPEED_BINS.find((b) => v < b) === undefined ? '>4' : `<${SPEED_BINS.find((b) => v < b)}`}`);
const perStream = 10;
const errs: Record<string, number[]> = {};
const worst: string[] = [];
for (let st = 0; st < streams; st++) {
  const random = seededRandom(streamSeed(seed, variant, st));
  const setup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  let truth = createMatch(setup as never);
  const planner = new VideoShotPlanner(variant);
  let isBreak = true;
  for (let index = 0; index < perStream; index++) {
    let view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') { truth = createMatch(setup as never); isBreak = true; view = truth.view(); }
    const shot = planner.plan(view.cueBall!, isBreak, view.instructions, random);
    isBreak = false;
    const clip = makeClip({ ...shot, fps, width: 640, height: 360, seed: Math.floor(random() * 2 ** 31) });
    const tracker = clipTracker(clip, shot, planner, variant);
    for (let i = 0; i < clip.frameCount; i++) tracker.push(clip.frame(i), Math.round((i * 1000) / fps));
    tracker.finish();
    planner.rested(clip.timeline.result.balls);
    playTruth(truth, clip.truth.shot);
    const paths = tracker.lastShotPaths;
    if (!paths || paths.doubt) continue;
    for (const [id, samples] of Object.entries(paths.paths)) {
      for (const s of samples) {
        if (!s.at) continue;
        const ts = (s.t / 1000) - clip.strikeAt;
        const tb = (ts <= 0 ? shot.start : clip.timeline.ballsAt(ts)).find((b) => b.id === id);
        if (!tb || (tb as { gone?: boolean }).gone) continue;
        const e = Math.hypot(tb.p[0] - s.at[0], tb.p[1] - s.at[1]);
        const kind = s.clear ? 'clear' : s.edgeOnly ? 'edge' : 'partial';
        (errs[bySpeed ? `${kind} ${speedBin(Math.hypot(tb.v[0], tb.v[1]) / 1000)}` : kind] ??= []).push(e);
        if (e > 15) worst.push(`${s.clear ? 'C' : s.edgeOnly ? 'e' : 'p'} ${e.toFixed(1)} s${st}#${index} ${id} t=${s.t}`);
      }
    }
  }
}
const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]?.toFixed(1); };
for (const [k, xs] of Object.entries(errs).sort(([a], [b]) => a.localeCompare(b))) console.log(`${variant} ${fps} ${k}: n=${xs.length} p50 ${q(xs, 0.5)} p99 ${q(xs, 0.99)} p999 ${q(xs, 0.999)} max ${q(xs, 1)}`);
console.log(worst.slice(0, 30).join('\n'));
