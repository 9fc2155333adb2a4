import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TrackerMessage } from '../pipeline/tracker.ts';
import type { CameraConfig } from '../config/schema.ts';
import type { CameraPaths, ProcessorSpec } from './frame-processor.ts';
import type { CameraStats, FromWorker, ToWorker, WorkerConfig } from './frame-worker.ts';

/**
 * A table's camera, seen from the hub's thread: a worker (frame-worker.ts) does the capture,
 * the detector, the replay ring and the measurements; this side gets tracker messages with
 * the hub time their `t` counts from, stats for health and /metrics, and clips on request.
 */
export interface CameraSourceOptions {
  table: string;
  camera: CameraConfig;
  /** The detector; null: video, health and clips only. */
  processor: ProcessorSpec | null;
  /** A file plays at its own frame rate (default) or as fast as it decodes (tests, benchmarks). */
  realtime?: boolean;
  /** Hub clock (ms) and wall clock, to put the worker's times on the hub's clock. */
  now: () => number;
  /** A detector message, the hub time of the source's t = 0, the worker's latency, and the frame's t. */
  onMessage: (message: TrackerMessage, timeBase: number, latencyMs: number, frameT: number, paths?: CameraPaths) => void;
  /** Each stats report (about once a second), with each frame's latency since the last (arrival → detector done, ms). */
  onStats?: (stats: CameraStats, frameLatencies: number[]) => void;
  onError?: (error: string) => void;
  onEnded?: () => void;
}

export interface ClipResult {
  ok: boolean;
  path: string;
  frames: number;
  error?: string;
}

export class CameraSource {
  private worker: Worker | null = null;
  /** Hub time of the source's t = 0 (null before the first frame). */
  timeBase: number | null = null;
  stats: CameraStats = { frames: 0, dropped: 0, fps: 0, motion: 0, state: 'no-video', processMs: 0, detector: false };
  /** Messages from the detector, all told. */
  messages = 0;
  private readonly clips = new Map<string, (r: ClipResult) => void>();
  private readonly replies = new Map<string, (m: Extract<FromWorker, { type: 'snapshot' | 'calibrated' | 'found' }>) => void>();
  private clipSeq = 0;
  private started: Promise<void> | null = null;

  constructor(private readonly opts: CameraSourceOptions) {}

  /** Resolves at the first frame; rejects if the source fails before one. */
  start(): Promise<void> {
    if (this.started) return this.started;
    const { camera } = this.opts;
    const data: WorkerConfig = {
      ...(camera.device ? { device: camera.device } : {}),
      ...(camera.file ? { file: camera.file } : {}),
      ...(camera.fileStartSeconds ? { startSeconds: camera.fileStartSeconds } : {}),
      width: camera.width,
      height: camera.height,
      fps: camera.fps,
      ...(camera.corners ? { corners: camera.corners.map(([x, y]) => [x, y] as [number, number]) } : {}),
      realtime: this.opts.realtime ?? true,
      processor: this.opts.processor,
      clipSeconds: camera.clipSeconds,
      ringBytes: 64 * 1024 * 1024,
      maxBacklog: camera.maxBacklogFrames ?? (camera.device ? 2 : (this.opts.realtime ?? true) ? Math.ceil(camera.fps / 2) : null),
    };
    this.worker = spawnWorker(data);
    this.started = new Promise((resolve, reject) => {
      let first = true;
      this.worker!.on('message', (m: FromWorker) => {
        if (m.type === 'started') {
          this.timeBase = this.opts.now() - (Date.now() - m.wallMs);
          first = false;
          resolve();
        } else if (m.type === 'tracker') {
          this.messages += 1;
          this.opts.onMessage(m.message, this.timeBase ?? this.opts.now(), m.latencyMs, m.t, m.paths);
        } else if (m.type === 'stats') {
          this.stats = m.stats;
          this.opts.onStats?.(m.stats, m.frameLatencies);
        }
        else if (m.type === 'clip') {
          this.clips.get(m.id)?.({ ok: m.ok, path: m.path, frames: m.frames, ...(m.error ? { error: m.error } : {}) });
          this.clips.delete(m.id);
        } else if (m.type === 'error') {
          if (first) reject(new Error(m.error));
          this.opts.onError?.(m.error);
        } else if (m.type === 'snapshot' || m.type === 'calibrated' || m.type === 'found') {
          this.replies.get(m.id)?.(m);
          this.replies.delete(m.id);
        } else if (m.type === 'no-detector') this.opts.onError?.(m.error);
        else if (m.type === 'ended') this.opts.onEnded?.();
      });
      this.worker!.on('error', (e) => {
        if (first) reject(e);
        this.opts.onError?.(`camera worker: ${e.message}`);
      });
    });
    return this.started;
  }

  /** Writes the last seconds of video to `path` (an .mp4), and the detected tracks to `tracksPath`. */
  clip(path: string, tracksPath?: string): Promise<ClipResult> {
    if (!this.worker) return Promise.resolve({ ok: false, path, frames: 0, error: 'camera not started' });
    const id = String(++this.clipSeq);
    return new Promise((resolve) => {
      this.clips.set(id, resolve);
      this.worker!.postMessage({ type: 'clip', id, path, ...(tracksPath ? { tracksPath } : {}) } satisfies ToWorker);
    });
  }

  /** The newest frame as a PNG. */
  async snapshot(): Promise<{ ok: true; png: Uint8Array; width: number; height: number } | { ok: false; error: string }> {
    const m = await this.ask({ type: 'snapshot', id: String(++this.clipSeq) });
    if (m.type !== 'snapshot' || !m.ok || !m.png) return { ok: false, error: m.error ?? 'no frame' };
    return { ok: true, png: m.png, width: m.width, height: m.height };
  }

  /** New corners for the running detector and mask. */
  async recalibrate(corners: [number, number][]): Promise<{ ok: true } | { ok: false; error: string }> {
    const m = await this.ask({ type: 'calibrate', id: String(++this.clipSeq), corners });
    return m.ok ? { ok: true } : { ok: false, error: m.error ?? 'not applied' };
  }

  /** New detector settings for the running camera (another game on the table), on the corners in use. */
  async redetect(options: unknown): Promise<{ ok: true } | { ok: false; error: string }> {
    const m = await this.ask({ type: 'detector', id: String(++this.clipSeq), options });
    return m.ok ? { ok: true } : { ok: false, error: m.error ?? 'not applied' };
  }

  /** The table's corners found in the newest frame. */
  async findCorners(table: { length: number; width: number }, k1: number, near: [number, number][] | null): Promise<{ ok: true; corners: [number, number][] } | { ok: false; error: string }> {
    const m = await this.ask({ type: 'find', id: String(++this.clipSeq), table, k1, near });
    return m.type === 'found' && m.ok && m.corners ? { ok: true, corners: m.corners } : { ok: false, error: m.error ?? 'not found' };
  }

  private ask(message: Extract<ToWorker, { type: 'snapshot' | 'calibrate' | 'detector' | 'find' }>): Promise<Extract<FromWorker, { type: 'snapshot' | 'calibrated' | 'found' }>> {
    const worker = this.worker;
    const fail = (error: string) => ({ type: 'calibrated' as const, id: message.id, ok: false, error });
    if (!worker) return Promise.resolve(fail('camera not started'));
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.replies.delete(message.id), resolve(fail('the camera did not answer within 10 s'))), 10_000);
      this.replies.set(message.id, (m) => (clearTimeout(timer), resolve(m)));
      worker.postMessage(message satisfies ToWorker);
    });
  }

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (!w) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    w.postMessage({ type: 'stop' } satisfies ToWorker);
    const timer = setTimeout(() => void w.terminate(), 2000);
    await exited;
    clearTimeout(timer);
    for (const [id, resolve] of this.clips) resolve({ ok: false, path: '', frames: 0, error: `camera stopped (clip ${id})` });
    this.clips.clear();
    for (const [id, resolve] of this.replies) resolve({ type: 'calibrated', id, ok: false, error: 'camera stopped' });
    this.replies.clear();
  }
}

/**
 * The compiled hub (dist/) runs frame-worker.js directly. From source (tests, `tsx`) the
 * worker first registers tsx's loader: Node 20 does not pass `--import tsx` on to workers.
 */
function spawnWorker(data: WorkerConfig): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./frame-worker.js', import.meta.url), { workerData: data });
  // require.resolve finds the CommonJS build of tsx's API; its ESM twin sits beside it.
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const target = new URL('./frame-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(target)}); }).catch((e) => { require('node:worker_threads').parentPort.postMessage({ type: 'error', error: 'camera worker: ' + e.message }); })`;
  return new Worker(boot, { eval: true, workerData: data });
}
