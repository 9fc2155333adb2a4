import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CameraSource } from '../../hub/camera/camera-source.ts';
import { parseConfig } from '../../hub/config/load.ts';

/**
 * `npm run bench:camera`: the camera plumbing under a live-like load. CAMERAS sources (default
 * 4) each play a 1280×720 60 fps .y4m file at its own rate in a worker (read, cut, ring,
 * motion, a stand-in detector that reads every 4th luma sample and answers each frame), while
 * the hub's thread only receives messages. Figures: frame-to-message latency in the worker
 * (a frame's arrival to its message posted: queue and detector; p50/p99), frames processed and dropped, and the hub thread's event-loop delay p99 —
 * what the cameras cost the sensor events' latency. The detector's own time (issue 15) adds to
 * the latency; this is the rest of the 30 ms budget.
 */
const CAMERAS = Number(process.env.CAMERAS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const [W, H, FPS] = [1280, 720, 60];
if (!Number.isInteger(CAMERAS) || CAMERAS < 1 || !(SECONDS > 0)) throw new Error('CAMERAS must be a positive integer and BENCH_SECONDS > 0');

const dir = mkdtempSync(join(tmpdir(), 'bench-camera-'));
const file = join(dir, 'table.y4m');
const fd = openSync(file, 'w');
writeSync(fd, `YUV4MPEG2 W${W} H${H} F${FPS}:1 C420jpeg\n`);
const frame = Buffer.alloc(W * H * 1.5, 128);
for (let k = 0; k < FPS * SECONDS; k++) {
  frame.fill(40 + (k % 50), 0, W * H);
  writeSync(fd, 'FRAME\n');
  writeSync(fd, frame);
}
closeSync(fd);
const parsed = parseConfig(JSON.stringify({ tables: [{ id: 't', source: { type: 'simulator' }, camera: { file, width: W, height: H, fps: FPS } }] }));
if (!parsed.ok) throw new Error(parsed.error);
const latencies: number[] = [];
const loop = monitorEventLoopDelay({ resolution: 1 });
const processor = { module: fileURLToPath(new URL('./fixtures/every-frame-processor.ts', import.meta.url)) };
const sources = Array.from({ length: CAMERAS }, (_, i) => {
  let ended!: () => void;
  const done = new Promise<void>((r) => (ended = r));
  const source = new CameraSource({ table: `t${i}`, camera: parsed.value.tables[0]!.camera!, processor, realtime: true, now: () => performance.now(), onMessage: (_m, _b, ms) => latencies.push(ms), onEnded: ended, onError: (e) => console.error(e) });
  return { source, done };
});
loop.enable();
await Promise.all(sources.map((s) => s.source.start()));
await Promise.all(sources.map((s) => s.done));
await new Promise((r) => setTimeout(r, 1100)); // the last stats report
loop.disable();
const sorted = latencies.sort((a, b) => a - b);
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2);
const frames = sources.reduce((n, s) => n + s.source.stats.frames, 0);
const dropped = sources.reduce((n, s) => n + s.source.stats.dropped, 0);
console.log(`${CAMERAS} cameras × ${W}×${H} at ${FPS} fps for ${SECONDS} s: ${frames} frames processed (${CAMERAS * FPS * SECONDS} sent), ${dropped} dropped`);
console.log(`frame in the worker → message posted (queue + detector): p50 ${q(0.5)} ms, p99 ${q(0.99)} ms (${sorted.length} messages)`);
console.log(`hub thread event-loop delay: p50 ${(loop.percentile(50) / 1e6).toFixed(2)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(2)} ms, max ${(loop.max / 1e6).toFixed(2)} ms`);
await Promise.all(sources.map((s) => s.source.stop()));
rmSync(dir, { recursive: true, force: true });
