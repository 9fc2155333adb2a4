import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { mkdir, open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { TrackerMessage } from '../pipeline/tracker.ts';
import { FFMPEG, captureArgs, clipArgs } from './ffmpeg.ts';
import { frameBytes, type CameraPaths, type CreateFrameProcessor, type FrameProcessor, type ProcessorSpec } from './frame-processor.ts';
import { FramePool } from './frame-pool.ts';
import { FrameRing } from './frame-ring.ts';
import { MotionMeter, detectionState } from './motion.ts';
import { RawFrameSplitter, Y4mReader } from './y4m.ts';
import { applyMask, tableMask, type TableMask } from '../vision/table-mask.ts';
import { frameFromI420, frameToRgb } from '../vision/frame.ts';
import { encodePng } from '../vision/png.ts';
import { deflateSync } from 'node:zlib';
import { findTableCorners } from '../vision/find-corners.ts';
import { ClipTracks } from './clip-tracks.ts';

/**
 * The camera's own thread: it runs the capture (ffmpeg, or the y4m reader for a .y4m file),
 * cuts the byte stream into frames, feeds the detector, keeps the replay ring and measures
 * frame rate, drops and motion. Frames never cross to the hub's thread; tracker messages,
 * stats and clip results do.
 */
export interface WorkerConfig {
  device?: string;
  file?: string;
  width: number;
  height: number;
  fps: number;
  corners?: [number, number][];
  /** A file plays at its own frame rate (live-like) instead of as fast as it decodes. */
  realtime: boolean;
  /** A file: from this second on. */
  startSeconds?: number;
  processor: ProcessorSpec | null;
  clipSeconds: number;
  ringBytes: number;
  /** Frames waiting before the oldest are dropped unprocessed to stay live; null: never (a file read as fast as it decodes). */
  maxBacklog: number | null;
}

export type ToWorker =
  | { type: 'clip'; id: string; path: string; tracksPath?: string }
  | { type: 'stop' }
  /** The latest frame as a PNG (the calibration page). */
  | { type: 'snapshot'; id: string }
  /** New corners: the detector and the mask are rebuilt on them (the old ones stay if that fails). */
  | { type: 'calibrate'; id: string; corners: [number, number][] }
  /** New detector settings (another game on the table: its balls, skittles, size): the detector is rebuilt with them on the corners in use. */
  | { type: 'detector'; id: string; options: unknown }
  /** "Find automatically": the corners from the newest frame (hub/vision/find-corners.ts), off the hub's thread. */
  | { type: 'find'; id: string; table: { length: number; width: number }; k1: number; near: [number, number][] | null };

export interface CameraStats {
  frames: number;
  dropped: number;
  /** Frames per second over the last second. */
  fps: number;
  motion: number;
  state: ReturnType<typeof detectionState>;
  /** ms the detector took on the last frame. */
  processMs: number;
  /** A detector is running (false: none configured, or it could not start — no corners yet). */
  detector: boolean;
}

export type FromWorker =
  | { type: 'started'; wallMs: number; width: number; height: number; fps: number }
  | { type: 'tracker'; message: TrackerMessage; t: number; latencyMs: number; paths?: CameraPaths }
  | { type: 'stats'; stats: CameraStats; frameLatencies: number[] }
  | { type: 'clip'; id: string; ok: boolean; path: string; error?: string; frames: number }
  | { type: 'error'; error: string }
  /** The detector could not start (no corners yet, say): the video runs on without it. */
  | { type: 'no-detector'; error: string }
  | { type: 'ended' }
  | { type: 'snapshot'; id: string; ok: boolean; png?: Uint8Array; width: number; height: number; error?: string }
  | { type: 'calibrated'; id: string; ok: boolean; error?: string }
  | { type: 'found'; id: string; ok: boolean; corners?: [number, number][]; error?: string };

const cfg = workerData as WorkerConfig;
const post = (m: FromWorker) => parentPort!.postMessage(m);
const size = frameBytes(cfg.width, cfg.height);
let processor: FrameProcessor | null = null;
/** Outside the calibrated table, blanked before the detector and the motion meter (hub/vision/table-mask.ts). */
let mask: TableMask | null = cfg.corners ? tableMask(cfg.width, cfg.height, cfg.corners) : null;
/** The corners the detector runs on (the config's, or the last calibration's). */
let cornersInUse = cfg.corners;
/** The newest frame as it came (the calibration page shows it), and a buffer for its masked copy. */
let latest: Uint8Array | null = null;
let masked: Uint8Array | null = null;
const tracks = new ClipTracks(Math.ceil(cfg.clipSeconds * cfg.fps) + 1);
const ring = new FrameRing({ width: cfg.width, height: cfg.height, fps: cfg.fps, seconds: cfg.clipSeconds, maxBytes: cfg.ringBytes });
const motion = new MotionMeter(cfg.width, cfg.height);
const stats: CameraStats = { frames: 0, dropped: 0, fps: 0, motion: 0, state: 'no-video', processMs: 0, detector: false };
let inShot = false;
let startWall = 0;
let lastArrival = -Infinity;
let child: ChildProcess | null = null;
let stopped = false;
const arrivals: number[] = [];
/** Each processed frame's arrival → detector done (ms), since the last stats report. */
let frameLatencies: number[] = [];
const queue: { data: Uint8Array; t: number; at: number }[] = [];
let draining = false;
/** Frame buffers used again (frame-pool.ts): a frame goes back when it is dropped, or when a newer one has been processed. */
let pool: FramePool | null = null;
const release = (frame: Uint8Array) => pool?.give(frame);
/** Frames a file read as fast as it decodes (no backlog limit) gets ahead of the detector by. */
const FILE_AHEAD = 4;
/** The "FRAME\n" line before each frame of a .y4m file. */
const FRAME_LINE_BYTES = 6;
/** Idle buffers worth keeping: those waiting, the newest, and the one being filled. */
const poolKeep = () => (cfg.maxBacklog ?? FILE_AHEAD) + 3;
/** Set while the file reader waits for the queue to shorten. */
let onDrained: (() => void) | null = null;

/**
 * The hub's own thread must win over video: this thread and its ffmpeg run at a lower
 * scheduling priority (nice 10). On Linux a thread has its own nice value, found through
 * /proc/thread-self; elsewhere the thread keeps the hub's priority.
 */
const NICE = 10;
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, NICE);
  } catch {
    // not Linux, or not allowed: the thread runs at the hub's priority
  }
}

async function buildProcessor(corners: [number, number][] | undefined): Promise<FrameProcessor | null> {
  if (!cfg.processor) return null;
  const url = /^[a-z]+:/.test(cfg.processor.module) ? cfg.processor.module : pathToFileURL(cfg.processor.module).href;
  const mod = (await import(url)) as { createFrameProcessor?: CreateFrameProcessor };
  if (typeof mod.createFrameProcessor !== 'function') throw new Error(`camera: ${cfg.processor.module} does not export createFrameProcessor`);
  return mod.createFrameProcessor({ width: cfg.width, height: cfg.height, fps: cfg.fps, ...(corners ? { corners } : {}), options: cfg.processor.options });
}

async function main(): Promise<void> {
  lowerPriority();
  if (cfg.processor) {
    try {
      processor = await buildProcessor(cfg.corners);
    } catch (e) {
      // Without a detector the video still runs: health, clips and the calibration page's frame (which may fix the corners).
      post({ type: 'no-detector', error: (e as Error).message });
    }
  }
  const statsTimer = setInterval(() => {
    const now = performance.now();
    while (arrivals.length > 0 && now - arrivals[0]! > 1000) arrivals.shift();
    stats.fps = arrivals.length;
    stats.state = stats.frames === 0 ? 'no-video' : detectionState(inShot, stats.motion, processor !== null);
    stats.detector = processor !== null;
    post({ type: 'stats', stats: { ...stats }, frameLatencies });
    frameLatencies = [];
  }, 1000);
  parentPort!.on('message', (m: ToWorker) => {
    if (m.type === 'clip') void writeClip(m.id, m.path, m.tracksPath);
    else if (m.type === 'snapshot') snapshot(m.id);
    else if (m.type === 'calibrate') void recalibrate(m.id, m.corners);
    else if (m.type === 'detector') void redetect(m.id, m.options);
    else if (m.type === 'find') find(m);
    else if (m.type === 'stop') {
      stopped = true;
      clearInterval(statsTimer);
      child?.kill('SIGTERM');
      process.exit(0); // ends this thread only
    }
  });
  if (cfg.file && cfg.file.endsWith('.y4m')) void readY4m(cfg.file);
  else runFfmpeg();
}

/** Y4M files need no ffmpeg: read them here, paced at their frame rate when live-like. */
async function readY4m(path: string): Promise<void> {
  const reader = new Y4mReader();
  // Chunks of one frame record ("FRAME\n" and the planes) from the first record on: each frame
  // is then a view of the chunk it came in, never copied (the header is fed first, on its own),
  // and the chunk goes back to the pool with its frame.
  let headerBytes: Buffer;
  try {
    headerBytes = y4mHeaderLine(path);
  } catch (e) {
    return post({ type: 'error', error: `camera: ${(e as Error).message}` });
  }
  try {
    reader.push(headerBytes);
  } catch (e) {
    return post({ type: 'error', error: (e as Error).message });
  }
  const records = (pool = new FramePool(size + FRAME_LINE_BYTES, poolKeep()));
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (e) {
    return post({ type: 'error', error: `camera: ${(e as Error).message}` });
  }
  // From a second on: the frame records are all one size after the header (a FRAME line with
  // parameters there is named by the reader as not a FRAME line).
  const h0 = reader.header!;
  let position = headerBytes.length + Math.round((cfg.startSeconds ?? 0) * h0.fps) * (size + FRAME_LINE_BYTES);
  const fileBytes = cfg.startSeconds ? await file.stat().then((st) => st.size, () => Infinity) : Infinity;
  if (position >= fileBytes) {
    await file.close().catch(() => undefined);
    const lasts = (fileBytes - headerBytes.length) / (size + FRAME_LINE_BYTES) / h0.fps;
    return post({ type: 'error', error: `camera: ${path} has no frame at second ${cfg.startSeconds} (it lasts ${lasts.toFixed(1)} s)` });
  }
  let index = 0;
  try {
    while (!stopped) {
      // A file read as fast as it decodes waits for the detector instead of queueing the whole file.
      while (cfg.maxBacklog === null && queue.length >= FILE_AHEAD && !stopped) await new Promise<void>((resolve) => (onDrained = resolve));
      const chunk = records.take();
      const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) {
        records.give(chunk);
        break;
      }
      position += bytesRead;
      let frames: Uint8Array[];
      try {
        frames = reader.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      } catch (e) {
        return post({ type: 'error', error: (e as Error).message });
      }
      // The reader still holds part of the chunk (a record not where expected): it is never lent
      // again. A chunk no frame is a view of goes back now; one a frame is a view of, with it.
      if (reader.buffered > 0) records.forget(chunk);
      else if (!frames.some((f) => f.buffer === chunk.buffer)) records.give(chunk);
      const h = reader.header!;
      if (h.width !== cfg.width || h.height !== cfg.height) {
        return post({ type: 'error', error: `camera: ${path} is ${h.width}x${h.height}, the config says ${cfg.width}x${cfg.height}` });
      }
      for (const f of frames) {
        const t = (index++ * 1000) / h.fps;
        // A file played as a live camera (a backlog limit): a frame whose time passed while this
        // thread was kept from the CPU came and went, as a device's would; dropped and counted.
        if (cfg.realtime && cfg.maxBacklog !== null && startWall !== 0 && Date.now() - (startWall + t) > (cfg.maxBacklog * 1000) / h.fps) {
          stats.dropped += 1;
          release(f);
        } else arrive(f, t);
      }
      if (cfg.realtime && frames.length > 0) {
        // Pace: wait until the last frame's time has come.
        const due = startWall + ((index - 1) * 1000) / h.fps - Date.now();
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      }
    }
  } catch (e) {
    return post({ type: 'error', error: `camera: ${(e as Error).message}` });
  } finally {
    await file.close().catch(() => undefined);
  }
  await finish();
}

/** The file's first line (its YUV4MPEG2 header), newline included; all of its first KiB when it has none (the reader then says what is wrong). */
function y4mHeaderLine(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const n = readSync(fd, head, 0, head.length, 0);
    const nl = head.subarray(0, n).indexOf(0x0a);
    return head.subarray(0, nl < 0 ? n : nl + 1);
  } finally {
    closeSync(fd);
  }
}

function runFfmpeg(): void {
  const frames = (pool = new FramePool(size, poolKeep()));
  const splitter = new RawFrameSplitter(size, () => frames.take());
  let index = 0;
  child = spawn(FFMPEG, captureArgs({ ...cfg, realtime: cfg.realtime }), { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid) {
    try {
      setPriority(child.pid, NICE);
    } catch {
      // keeps the hub's priority
    }
  }
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  child.stdout!.on('data', (chunk: Buffer) => {
    // A device's frames are timed as they arrive; a file's by its frame rate.
    for (const f of splitter.push(chunk)) arrive(f, cfg.device ? Date.now() - (startWall || Date.now()) : (index++ * 1000) / cfg.fps);
  });
  child.on('error', (e) => post({ type: 'error', error: `camera: cannot run ${FFMPEG} (${e.message})` }));
  child.on('close', (code) => {
    if (!stopped && code !== 0) post({ type: 'error', error: `camera: ffmpeg exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}` });
    void finish();
  });
}

function arrive(data: Uint8Array, t: number): void {
  const now = Date.now();
  if (startWall === 0) {
    startWall = now - t;
    post({ type: 'started', wallMs: startWall, width: cfg.width, height: cfg.height, fps: cfg.fps });
  }
  arrivals.push(performance.now());
  // A live source that skipped frames (the device or ffmpeg dropped them) shows as a gap.
  const interval = 1000 / cfg.fps;
  if (cfg.device && lastArrival > -Infinity && t - lastArrival > 1.5 * interval) stats.dropped += Math.round((t - lastArrival) / interval) - 1;
  lastArrival = t;
  queue.push({ data, t, at: performance.now() });
  if (cfg.maxBacklog !== null) while (queue.length > cfg.maxBacklog) (release(queue.shift()!.data), (stats.dropped += 1)); // stay live: the oldest go
  drain();
}

/** Processes queued frames one per turn of the event loop, so stop and clip requests get in. */
function drain(): void {
  if (draining) return;
  draining = true;
  setImmediate(() => {
    draining = false;
    const f = queue.shift();
    if (!f) return;
    process1(f);
    if (queue.length < FILE_AHEAD && onDrained) {
      const resolve = onDrained;
      onDrained = null;
      resolve();
    }
    if (queue.length > 0) drain();
  });
}

function process1(f: { data: Uint8Array; t: number; at: number }): void {
  stats.frames += 1;
  // The newest frame stays for the calibration page; the one before it is read no more.
  if (latest && latest !== f.data) release(latest);
  latest = f.data;
  ring.push(f.data, f.t);
  // The replay ring keeps the whole picture; the detector and the motion meter see the table only.
  let data = f.data;
  if (mask) {
    if (!masked || masked.length !== f.data.length) masked = new Uint8Array(f.data.length);
    masked.set(f.data);
    applyMask(mask, masked);
    data = masked;
  }
  stats.motion = motion.push(data);
  if (!processor) return void frameLatencies.push(Math.round((performance.now() - f.at) * 100) / 100);
  const started = performance.now();
  let messages: TrackerMessage[];
  try {
    messages = processor.push({ width: cfg.width, height: cfg.height, format: 'yuv420p', data, t: f.t });
  } catch (e) {
    post({ type: 'error', error: `camera: the detector failed on a frame: ${(e as Error).message}` });
    return;
  }
  const done = performance.now();
  stats.processMs = done - started;
  tracks.frame(f.t, processor.positions?.() ?? null);
  frameLatencies.push(Math.round((done - f.at) * 100) / 100);
  for (const message of messages) {
    if (message.type === 'shot') tracks.contacts(message.shot.events);
    if (message.type === 'strike') inShot = true;
    if (message.type === 'rest') inShot = false;
    // A shot goes with its paths (track fusion in the hub), when the detector keeps them.
    const paths = message.type === 'shot' ? processor.shotPaths?.() : null;
    post({ type: 'tracker', message, t: f.t, latencyMs: done - f.at, ...(paths ? { paths } : {}) });
  }
}

async function finish(): Promise<void> {
  while (queue.length > 0) process1(queue.shift()!);
  if (!stopped) post({ type: 'ended' });
}

/** The newest frame, whole (not masked), as a PNG. */
function snapshot(id: string): void {
  if (!latest) return post({ type: 'snapshot', id, ok: false, width: cfg.width, height: cfg.height, error: 'no video yet' });
  try {
    const png = encodePng(cfg.width, cfg.height, frameToRgb(frameFromI420(cfg.width, cfg.height, latest)), (raw) => deflateSync(raw, { level: 3 }));
    parentPort!.postMessage({ type: 'snapshot', id, ok: true, png, width: cfg.width, height: cfg.height } satisfies FromWorker);
  } catch (e) {
    post({ type: 'snapshot', id, ok: false, width: cfg.width, height: cfg.height, error: (e as Error).message });
  }
}

function find(m: Extract<ToWorker, { type: 'find' }>): void {
  if (!latest) return post({ type: 'found', id: m.id, ok: false, error: 'no video yet' });
  try {
    const r = findTableCorners(frameFromI420(cfg.width, cfg.height, latest), { table: m.table, k1: m.k1, near: m.near });
    post(r.ok ? { type: 'found', id: m.id, ok: true, corners: r.corners.map(([x, y]) => [x, y] as [number, number]) } : { type: 'found', id: m.id, ok: false, error: r.error });
  } catch (e) {
    post({ type: 'found', id: m.id, ok: false, error: (e as Error).message });
  }
}

/** New corners, live: a new detector on them replaces the old one only once it is built. */
function recalibrate(id: string, corners: [number, number][]): Promise<void> {
  return rebuild(id, corners, cfg.processor?.options);
}

/** New detector settings, live, on the corners in use (another game on the table). */
function redetect(id: string, options: unknown): Promise<void> {
  if (!cfg.processor) return Promise.resolve(post({ type: 'calibrated', id, ok: false, error: 'no detector on this camera' }));
  return rebuild(id, cornersInUse, options);
}

/** A detector on these corners and settings replaces the running one once built; if it cannot be built, the old one (and its mask and settings) stay. */
async function rebuild(id: string, corners: [number, number][] | undefined, options: unknown): Promise<void> {
  const before = cfg.processor?.options;
  if (cfg.processor) cfg.processor.options = options;
  try {
    processor = await buildProcessor(corners);
    inShot = false;
    if (corners) mask = tableMask(cfg.width, cfg.height, corners);
    cornersInUse = corners;
    tracks.clear();
    post({ type: 'calibrated', id, ok: true });
  } catch (e) {
    if (cfg.processor) cfg.processor.options = before;
    post({ type: 'calibrated', id, ok: false, error: (e as Error).message });
  }
}

async function writeClip(id: string, path: string, tracksPath?: string): Promise<void> {
  const frames = ring.snapshot();
  if (frames.length === 0) return post({ type: 'clip', id, ok: false, path, error: 'no video yet', frames: 0 });
  const partial = `${path}.part`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await new Promise<void>((resolve, reject) => {
      const enc = spawn(FFMPEG, clipArgs(ring.width, ring.height, ring.fps, partial), { stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      enc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-1000)));
      enc.on('error', reject);
      enc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${err.trim().split('\n').at(-1) ?? ''}`))));
      enc.stdin!.on('error', () => undefined);
      for (const f of frames) enc.stdin!.write(f.data);
      enc.stdin!.end();
    });
    // The tracks first: a clip the console can see has its tracks beside it already.
    if (tracksPath) await writeFile(tracksPath, JSON.stringify(tracks.forClip(frames.map((f) => f.t), ring.fps, ring.width / cfg.width, ring.width, ring.height)));
    await rename(partial, path);
    post({ type: 'clip', id, ok: true, path, frames: frames.length });
  } catch (e) {
    post({ type: 'clip', id, ok: false, path, error: (e as Error).message, frames: frames.length });
  }
}

main().catch((e) => post({ type: 'error', error: (e as Error).message }));
