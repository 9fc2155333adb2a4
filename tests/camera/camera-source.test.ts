import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CameraSource } from '../../hub/camera/camera-source.ts';
import { FFMPEG } from '../../hub/camera/ffmpeg.ts';
import { FramePool } from '../../hub/camera/frame-pool.ts';
import { FrameRing } from '../../hub/camera/frame-ring.ts';
import { MotionMeter } from '../../hub/camera/motion.ts';
import { RawFrameSplitter, Y4mReader } from '../../hub/camera/y4m.ts';
import { parseConfig } from '../../hub/config/load.ts';
import type { CameraConfig } from '../../hub/config/schema.ts';
import type { TrackerMessage } from '../../hub/pipeline/tracker.ts';
import { componentMissing, executableExists } from '../support/components.ts';

const STUB = fileURLToPath(new URL('./fixtures/stub-processor.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'camera-'));
const noFfmpeg = componentMissing(`ffmpeg (${FFMPEG})`, executableExists(FFMPEG));

/**
 * The camera's thread reports its counts about once a second: waits for a report that shows
 * `done`, at most 10 s (a fixed 1.1 s wait failed on a loaded machine, the report late).
 */
async function statsReport(done: () => boolean): Promise<void> {
  for (const until = Date.now() + 10_000; !done() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
}

function cameraConfig(extra: Record<string, unknown>): CameraConfig {
  const parsed = parseConfig(JSON.stringify({ tables: [{ id: 't1', source: { type: 'simulator' }, camera: { width: 160, height: 120, fps: 30, clipSeconds: 2, ...extra } }] }));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value.tables[0]!.camera!;
}

/** Synthesised yuv420p frames: a grey field with a bright square that moves from frame `from` on. */
function syntheticY4m(frames: number, from: number): Buffer {
  const [w, h] = [160, 120];
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`)];
  for (let k = 0; k < frames; k++) {
    const f = Buffer.alloc(w * h * 1.5, 128);
    f.fill(60, 0, w * h);
    const x0 = 10 + Math.max(0, k - from) * 3;
    for (let y = 50; y < 62; y++) f.fill(235, y * w + Math.min(x0, w - 12), y * w + Math.min(x0, w - 12) + 12);
    parts.push(Buffer.from('FRAME\n'), f);
  }
  return Buffer.concat(parts);
}

describe('y4m and raw frames', () => {
  it('the reader cuts a stream into frames whatever the chunk boundaries', () => {
    const bytes = syntheticY4m(5, 0);
    for (const chunk of [1, 7, 1000, bytes.length]) {
      const reader = new Y4mReader();
      const frames: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += chunk) frames.push(...reader.push(bytes.subarray(i, i + chunk)));
      expect(reader.header).toEqual({ width: 160, height: 120, fps: 30 });
      expect(frames.map((f) => f.length)).toEqual([28800, 28800, 28800, 28800, 28800]);
    }
  });

  it('refuses what is not 4:2:0 YUV4MPEG2, by name', () => {
    expect(() => new Y4mReader().push(Buffer.from('RIFF0000\n'))).toThrow(/not a YUV4MPEG2/);
    expect(() => new Y4mReader().push(Buffer.from('YUV4MPEG2 W10 H10 F30:1 C444\n'))).toThrow(/not 4:2:0/);
    expect(() => new Y4mReader().push(Buffer.from('YUV4MPEG2 W10 F30:1\n'))).toThrow(/W and H/);
  });

  it('raw frames of a known size come out whole from any chunking', () => {
    const s = new RawFrameSplitter(6);
    expect(s.push(Buffer.from([1, 2, 3, 4]))).toEqual([]);
    expect(s.push(Buffer.from([5, 6, 7, 8, 9, 10, 11, 12, 13]))).toEqual([new Uint8Array([1, 2, 3, 4, 5, 6]), new Uint8Array([7, 8, 9, 10, 11, 12])]);
  });

  it('raw frames come in pooled buffers, used again once given back, never while lent', () => {
    const pool = new FramePool(6, 2);
    const s = new RawFrameSplitter(6, () => pool.take());
    const [a, b] = s.push(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    expect([...a!]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...b!]).toEqual([7, 8, 9, 10, 11, 12]);
    expect(pool.outstanding).toBe(3); // two frames and the one being filled
    pool.give(a!);
    pool.give(a!); // twice: harmless
    pool.give(new Uint8Array(6)); // not the pool's: ignored
    expect(pool.idle).toBe(1);
    // The next frame after the one being filled reuses a's buffer; b is untouched.
    const [c, d] = s.push(Buffer.from([21, 22, 23, 24, 25, 26, 31, 32, 33, 34, 35, 36]));
    expect(d!.buffer).toBe(a!.buffer);
    expect([...c!]).toEqual([21, 22, 23, 24, 25, 26]);
    expect([...d!]).toEqual([31, 32, 33, 34, 35, 36]);
    expect([...b!]).toEqual([7, 8, 9, 10, 11, 12]);
    // A buffer forgotten (someone else may read it) never comes back.
    pool.forget(b!);
    pool.give(b!);
    expect(pool.idle).toBe(0);
    // At most `keep` idle buffers are held.
    for (const f of [c!, d!]) pool.give(f);
    expect(pool.idle).toBe(2);
    const three = [pool.take(), pool.take(), pool.take()];
    for (const f of three) pool.give(f);
    expect(pool.idle).toBe(2);
    expect(() => new RawFrameSplitter(6, () => new Uint8Array(5))).toThrow(/5 bytes for frames of 6/);
  });

  it('the replay ring keeps the last seconds at half size within its byte budget', () => {
    const ring = new FrameRing({ width: 160, height: 120, fps: 30, seconds: 2, maxBytes: 20 * 80 * 60 * 1.5 });
    expect(ring.maxBytes).toBeLessThanOrEqual(20 * 80 * 60 * 1.5);
    for (let k = 0; k < 100; k++) ring.push(new Uint8Array(28800).fill(k), (k * 1000) / 30);
    const kept = ring.snapshot();
    expect(kept[0]!.data.length).toBe(80 * 60 * 1.5);
    expect(kept.at(-1)!.data[0]).toBe(99);
    expect(kept.at(-1)!.t - kept[0]!.t).toBeGreaterThan(1800); // ≈ 2 s kept, at a lower frame rate
    expect(ring.fps).toBe(10);
  });

  it('the replay ring keeps 30 frames a second of a 60 fps camera, and a snapshot is its own copy', () => {
    const ring = new FrameRing({ width: 160, height: 120, fps: 60, seconds: 1, maxBytes: 2 ** 24 });
    expect(ring.fps).toBe(30);
    for (let k = 0; k < 120; k++) ring.push(new Uint8Array(28800).fill(k), (k * 1000) / 60);
    const kept = ring.snapshot();
    expect(kept).toHaveLength(30);
    expect(kept.at(-1)!.data[0]).toBe(118);
    // The ring goes on (reusing its buffers): what was handed out stays as it was.
    for (let k = 120; k < 200; k++) ring.push(new Uint8Array(28800).fill(k), (k * 1000) / 60);
    expect(kept.at(-1)!.data[0]).toBe(118);
    expect(kept.map((f) => f.data[0])).toEqual(Array.from({ length: 30 }, (_, i) => 60 + 2 * i));
  });

  it('the motion meter sees a moving square and not a still frame', () => {
    const bytes = syntheticY4m(12, 6);
    const frames = new Y4mReader().push(bytes);
    const m = new MotionMeter(160, 120, 2);
    const levels = frames.map((f) => m.push(f));
    expect(Math.max(...levels.slice(0, 6))).toBe(0);
    expect(Math.min(...levels.slice(7))).toBeGreaterThan(0);
  });
});

describe('camera source: frames off the main thread, through the detector (issue 16)', () => {
  let source: CameraSource | null = null;
  afterEach(async () => {
    await source?.stop();
    source = null;
  });

  async function run(camera: CameraConfig, extraOptions: Record<string, unknown> = {}): Promise<{ messages: { m: TrackerMessage; timeBase: number }[]; source: CameraSource }> {
    const messages: { m: TrackerMessage; timeBase: number }[] = [];
    const errors: string[] = [];
    let ended: () => void = () => undefined;
    const done = new Promise<void>((r) => (ended = r));
    source = new CameraSource({
      table: 't1',
      camera,
      processor: { module: STUB, options: { strikeAt: 5, contacts: [10, 20, 30], restAfter: 40, ...extraOptions } },
      realtime: false,
      now: () => 5_000_000 + Date.now(),
      onMessage: (m, timeBase) => messages.push({ m, timeBase }),
      onError: (e) => errors.push(e),
      onEnded: ended,
    });
    await source.start();
    await done;
    expect(errors).toEqual([]);
    return { messages, source };
  }

  it('a .y4m file (no ffmpeg needed): every frame reaches the detector and its messages the hub', async () => {
    const file = join(dir, 'moving.y4m');
    writeFileSync(file, syntheticY4m(60, 10));
    const { messages, source: s } = await run(cameraConfig({ file }));
    expect(messages.map((x) => x.m.type)).toEqual(['strike', 'shot', 'rest']);
    const shot = messages[1]!.m;
    expect(shot.type === 'shot' && shot.shot.events.map((e) => e.t)).toEqual([367, 700, 1033]);
    expect(Math.abs(messages[0]!.timeBase - (5_000_000 + Date.now()))).toBeLessThan(10_000);
    await statsReport(() => s.stats.frames === 60);
    expect(s.stats.frames).toBe(60);
    expect(s.stats.dropped).toBe(0);
  });

  it('frames read into pooled buffers reach the detector whole and in order, FRAME lines with parameters too', async () => {
    // Each frame's second byte is its index; frames 7 and 30 have FRAME parameters, so their
    // records are longer than the reader's chunks (a frame then spans chunks: copied, not pooled).
    const [w, h] = [160, 120];
    const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`)];
    for (let k = 0; k < 120; k++) {
      const f = Buffer.alloc(w * h * 1.5, 128);
      f[1] = k % 256;
      parts.push(Buffer.from(k === 7 || k === 30 ? 'FRAME Ixyz\n' : 'FRAME\n'), f);
    }
    const file = join(dir, 'stamped.y4m');
    writeFileSync(file, Buffer.concat(parts));
    const { messages, source: s } = await run(cameraConfig({ file }), { stamped: true });
    expect(messages.map((x) => x.m.type)).toEqual(['strike', 'shot', 'rest']);
    await statsReport(() => s.stats.frames === 120);
    expect(s.stats.frames).toBe(120);
  });

  it('a .y4m file played from a second on (fileStartSeconds): the frames before it are skipped; past its end is an error naming the file', async () => {
    const file = join(dir, 'from-a-second.y4m');
    writeFileSync(file, syntheticY4m(120, 60)); // 4 s at 30 fps; the square moves from 2 s on
    const { messages, source: s } = await run(cameraConfig({ file, fileStartSeconds: 1 }));
    expect(messages.map((x) => x.m.type)).toEqual(['strike', 'shot', 'rest']);
    await statsReport(() => s.stats.frames === 90);
    expect(s.stats.frames).toBe(90);
    await s.stop();
    const errors: string[] = [];
    source = new CameraSource({ table: 't1', camera: cameraConfig({ file, fileStartSeconds: 9 }), processor: null, realtime: false, now: Date.now, onMessage: () => undefined, onError: (e) => errors.push(e) });
    await expect(source.start()).rejects.toThrow(/from-a-second\.y4m has no frame at second 9 \(it lasts 4\.0 s\)/);
  });

  it('fileStartSeconds is for a file only: with a device the configuration is refused, naming it', () => {
    const parsed = parseConfig(JSON.stringify({ tables: [{ id: 't1', source: { type: 'simulator' }, camera: { device: '/dev/video0', fileStartSeconds: 3 } }] }));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/fileStartSeconds is for a file, not a device/);
  });

  it.skipIf(noFfmpeg)('ffmpeg plays a file from a second on (-ss before -i): the frames before it are skipped', async () => {
    const { captureArgs } = await import('../../hub/camera/ffmpeg.ts');
    expect(captureArgs({ file: 'a.mp4', width: 320, height: 240, fps: 30, realtime: true, startSeconds: 2.5 }).slice(0, 10).join(' ')).toBe('-hide_banner -loglevel error -nostdin -re -ss 2.5 -i a.mp4 -an');
    const file = join(dir, 'testsrc-3s.mp4');
    execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=30:duration=3', '-pix_fmt', 'yuv420p', '-y', file]);
    const { source: s } = await run(cameraConfig({ file, fileStartSeconds: 1 }));
    await statsReport(() => Math.abs(s.stats.frames - 60) <= 1);
    expect(Math.abs(s.stats.frames - 60)).toBeLessThanOrEqual(1); // 2 of its 3 seconds
  });

  it.skipIf(noFfmpeg)('a video file in another format goes through ffmpeg, and a clip of the last seconds is written', async () => {
    const file = join(dir, 'testsrc.mp4');
    execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30:duration=2', '-pix_fmt', 'yuv420p', '-y', file]);
    const { messages, source: s } = await run(cameraConfig({ file }));
    expect(messages.map((x) => x.m.type)).toEqual(['strike', 'shot', 'rest']);
    const clip = await s.clip(join(dir, 'clips', 'shot-1.mp4'));
    expect(clip).toMatchObject({ ok: true, frames: 60 }); // the last 2 s at 30 fps
    expect(statSync(clip.path).size).toBeGreaterThan(1000);
    expect(readFileSync(clip.path).subarray(4, 8).toString()).toBe('ftyp');
  });

  it.skipIf(noFfmpeg)('ffmpeg capture args for a V4L2 device name the device, size and rate', async () => {
    const { captureArgs } = await import('../../hub/camera/ffmpeg.ts');
    expect(captureArgs({ device: '/dev/video2', width: 1280, height: 720, fps: 60 }).join(' ')).toBe(
      '-hide_banner -loglevel error -nostdin -f v4l2 -framerate 60 -video_size 1280x720 -i /dev/video2 -an -vf scale=1280:720 -f rawvideo -pix_fmt yuv420p -',
    );
  });

  it('a missing file is an error naming it, before any frame', async () => {
    source = new CameraSource({ table: 't1', camera: cameraConfig({ file: join(dir, 'nope.y4m') }), processor: null, now: Date.now, onMessage: () => undefined });
    await expect(source.start()).rejects.toThrow(/nope\.y4m/);
  });
});
