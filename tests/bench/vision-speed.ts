import { calibrate } from '../../hub/vision/calibration.ts';
import type { Frame } from '../../hub/vision/frame.ts';
import { VisionTracker } from '../../hub/vision/tracker.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';

/**
 * `npm run bench:vision`: frames per second of the whole vision pipeline (detector,
 * tracker, contact analysis at the end of each shot) on 1280×720 frames of a rendered
 * shot, on one core (Node runs it on one thread). BENCH_RUNS runs (default 5) of
 * BENCH_SECONDS each (default 2); the median is reported, with the multiple of real time at
 * 30 and 60 fps, the CPU time per frame and a Raspberry Pi 4 estimate.
 */
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
if (!Number.isInteger(runs) || runs < 1) throw new Error('BENCH_RUNS must be a positive integer');
if (!(seconds > 0)) throw new Error('BENCH_SECONDS must be a positive number');
const [width, height] = (process.env.VISION_SIZE ?? '1280x720').split('x').map(Number) as [number, number];

const planner = new VideoShotPlanner('three-cushion');
const shot = planner.plan('white', true, [], seededRandom(4242));
const clip = makeClip({ ...shot, fps: 60, width, height, seed: 4242, chalk: true, hoverCue: true });
const n = Math.min(clip.frameCount, 240);
const frames: Frame[] = [];
for (let i = 0; i < n; i++) frames.push(clip.frame(i));
const cal = calibrate({ width, height, corners: clip.camera.corners, table: { length: shot.table.length, width: shot.table.width }, k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg });
if (!cal.ok) throw new Error(cal.error);

const rates: number[] = [];
// CPU time per frame beside the wall-clock rate: on a shared machine it moves far less.
const cpuMs: number[] = [];
for (let r = 0; r < runs; r++) {
  const cpu0 = process.cpuUsage();
  let tracker = new VisionTracker({ calibration: cal.value, balls: 'carom' });
  let count = 0;
  const t0 = performance.now();
  let i = 0;
  while (performance.now() - t0 < seconds * 1000) {
    tracker.push(frames[i]!, (count * 1000) / 60);
    count += 1;
    i += 1;
    if (i === frames.length) {
      tracker.finish();
      tracker = new VisionTracker({ calibration: cal.value, balls: 'carom' });
      i = 0;
    }
  }
  rates.push(count / ((performance.now() - t0) / 1000));
  const cpu = process.cpuUsage(cpu0);
  cpuMs.push((cpu.user + cpu.system) / 1000 / count);
}
cpuMs.sort((a, b) => a - b);
rates.sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)]!;
// Raspberry Pi 4 (Cortex-A72, 1.5 GHz): V8 runs single-threaded scalar JavaScript 4–6× slower
// than one core of a current x86 server; we divide by 5 (see docs/vision.md).
const PI4_FACTOR = 5;
console.log(`vision pipeline, ${width}x${height}, one core: median ${median.toFixed(0)} frames/s over ${runs} runs of ${seconds} s (min ${rates[0]!.toFixed(0)}, max ${rates.at(-1)!.toFixed(0)})`);
console.log(`  ${(median / 30).toFixed(1)}x real time at 30 fps, ${(median / 60).toFixed(1)}x at 60 fps; ${(1000 / median).toFixed(2)} ms per frame`);
console.log(`  CPU time: median ${cpuMs[Math.floor(cpuMs.length / 2)]!.toFixed(2)} ms per frame (the process's user + system time; min ${cpuMs[0]!.toFixed(2)}, max ${cpuMs.at(-1)!.toFixed(2)})`);
console.log(`  Raspberry Pi 4 estimate: ~${(median / PI4_FACTOR).toFixed(0)} frames/s (this machine / ${PI4_FACTOR})`);
