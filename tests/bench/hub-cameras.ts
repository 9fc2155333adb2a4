import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMatchVideo } from '../camera/match-video.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { benchHub, TABLES, type HubFigure } from './hub.ts';

/**
 * `npm run bench:camera:hub`: the hub of `npm run bench` (compiled `npm start`, 16 tables on
 * boards behind serial servers, the realistic 50 frames/s per table of sensor load) with 4 of
 * the tables also filmed: each plays a rendered 1280×720 60 fps match video (real physics
 * shots, hardware/simulator/video) as a live camera (`maxBacklogFrames: 2`: frames the
 * detector cannot take in time are dropped and counted, as from a USB camera), through the
 * real detector (hub/vision) in the camera's thread, each camera BENCH_CAMERA_STAGGER s (2.5) further into the video
 * than the last (a venue's tables are not in step; 0: all in step, their worst case). Beside it, the same hub without cameras.
 * Figures: the hub's event p99 (rail hit → MQTT subscriber), a camera frame's arrival → the
 * detector done with it and → the tracker message it ended, frames processed and dropped,
 * the hub process's CPU (all threads) and RSS. Medians of BENCH_RUNS (3) runs.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CAMERAS = Number(process.env.CAMERAS ?? 4);
/** Seconds between the cameras' starting points in the video (camera k from k × this): a venue's tables are not in step. 0: all in step, their worst case. */
const STAGGER = Number(process.env.BENCH_CAMERA_STAGGER ?? 2.5);
const [WIDTH, HEIGHT, FPS] = [1280, 720, 60];
if (!Number.isInteger(RUNS) || RUNS < 1 || !(SECONDS > 0) || !Number.isInteger(CAMERAS) || CAMERAS < 0 || CAMERAS > TABLES || !(STAGGER >= 0)) throw new Error('BENCH_RUNS ≥ 1, BENCH_SECONDS > 0, 0 ≤ CAMERAS ≤ BENCH_TABLES and BENCH_CAMERA_STAGGER ≥ 0');

// The video: a carom match of 5 shots, long enough to outlast a run (the hub's start-up, the warm-up, the measured seconds).
const dir = process.env.BENCH_CAMERA_DIR ?? join(tmpdir(), 'bench-hub-cameras');
mkdirSync(dir, { recursive: true });
const file = join(dir, `carom-${WIDTH}x${HEIGHT}-${FPS}.y4m`);
const rendered = Date.now();
const video = renderMatchVideo({ file, variant: 'carom', shots: 5, seed: 11, cameraSeed: 7, fps: FPS, width: WIDTH, height: HEIGHT, firstLead: 1, reuseFile: existsSync(file) });
const videoSeconds = video.frames / FPS;
console.log(`video: ${file}, ${video.frames} frames (${videoSeconds.toFixed(1)} s), ${(Date.now() - rendered) / 1000} s to render or reuse`);
if (videoSeconds - (CAMERAS - 1) * STAGGER < SECONDS + 8) console.warn(`note: the video (${videoSeconds.toFixed(1)} s) ends before the run does; the cameras go idle at the end`);

const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build failed');

const camera = {
  file,
  width: WIDTH,
  height: HEIGHT,
  fps: FPS,
  corners: video.corners,
  maxBacklogFrames: 2,
  detector: { balls: 'carom', table: video.table, k1: video.k1, fovDeg: video.fovDeg },
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const RATE = 50;

console.log(`\nHub with ${TABLES} tables at ${RATE} frames/s each, ${SECONDS} s measured per run, median of ${RUNS} runs (each run's figure in brackets)`);
// BENCH_BASELINE=0 skips the runs without cameras.
for (const cams of process.env.BENCH_BASELINE === '0' ? [CAMERAS] : [0, CAMERAS]) {
  const runs: HubFigure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchHub(RATE, SECONDS, TABLES, cams > 0 ? { tables: cams, camera, staggerSeconds: STAGGER } : undefined));
  const m = (f: (r: HubFigure) => number) => `${median(runs.map(f))} [${runs.map(f).join(', ')}]`;
  console.log(`\n${cams} cameras (${WIDTH}×${HEIGHT} at ${FPS} fps, real detector, ${STAGGER > 0 ? `starting ${STAGGER} s apart in the video` : 'all in step'}); load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} after:`);
  console.log(`  event p50 / p99 ms: ${m((r) => r.eventP50Ms)} / ${m((r) => r.eventP99Ms)}; hits sent/received ${m((r) => r.hits)} / ${m((r) => r.hitsReceived)}`);
  console.log(`  shots ended/scored ${m((r) => r.shots)} / ${m((r) => r.shotsScored)}; hub CPU % of one core ${m((r) => r.cpuPercent)}; RSS MB ${m((r) => r.rssMb)} (peak ${m((r) => r.hwmMb)})`);
  if (cams > 0) {
    const c = (f: (x: NonNullable<HubFigure['camera']>) => number) => m((r) => f(r.camera!));
    const offered = cams * FPS * SECONDS;
    console.log(`  camera frames processed ${c((x) => x.frames)} of ≈${offered} offered, dropped ${c((x) => x.dropped)}`);
    console.log(`  frame → detector done p50 / p99 ≤ ${c((x) => x.frameP50Ms)} / ${c((x) => x.frameP99Ms)} ms (histogram bucket bounds)`);
    console.log(`  frame → tracker message p50 / p99 ≤ ${c((x) => x.messageP50Ms)} / ${c((x) => x.messageP99Ms)} ms over ${c((x) => x.messages)} messages`);
  }
}
