import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub } from '../../hub/hub.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import type { Frame } from '../../hub/vision/frame.ts';
import { VisionTracker, type TrackerMessage } from '../../hub/vision/tracker.ts';
import { encodeY4mFrame, encodeY4mHeader } from '../../hub/vision/y4m.ts';
import type { Clip } from '../../hardware/simulator/video/clip.ts';
import { testConfig } from '../hub/support.ts';
import { CAROM, calibrationOf, clipOf, still } from '../vision/helpers.ts';

/**
 * A knock on the camera's mount (someone leaning on the lamp rail, a door slammed) shifts the
 * whole image for a few frames: every ball "leaves" its place and comes back. The detector
 * struck a shot and reported one with made-up contacts it was not sure of; the hub scored it
 * (camera alone: a prompt about nothing; camera + sensors, whose sensors heard nothing: an
 * empty shot, a miss that was not). Now the tracker takes such a strike back (a rest with no
 * shot) and the hub drops the shot the strike began.
 */
const PROCESSOR = fileURLToPath(new URL('../../hub/camera/vision-processor.ts', import.meta.url));
const FPS = 30;
const KNOCK = { from: 45, frames: 4, dx: 4, dy: 2 };

/** The image moved by (dx, dy) pixels, edges repeated (the camera's view, moved). */
function shifted(f: Frame, dx: number, dy: number): Frame {
  const move = (plane: Uint8Array, w: number, h: number, sx: number, sy: number) => {
    const out = new Uint8Array(plane.length);
    for (let j = 0; j < h; j++) {
      const from = Math.min(h - 1, Math.max(0, j - sy)) * w;
      for (let i = 0; i < w; i++) out[j * w + i] = plane[from + Math.min(w - 1, Math.max(0, i - sx))]!;
    }
    return out;
  };
  const [cw, ch] = [(f.width + 1) >> 1, (f.height + 1) >> 1];
  return { width: f.width, height: f.height, y: move(f.y, f.width, f.height, dx, dy), u: move(f.u, cw, ch, dx >> 1, dy >> 1), v: move(f.v, cw, ch, dx >> 1, dy >> 1) };
}

/** A still carom table (no player), seen for 3.5 s; the knock at 1.5 s. */
function knockedVideo(): { clip: Clip; frames: Frame[] } {
  const clip = clipOf([still('white', [700, 700]), still('yellow', [1500, 400]), still('red', [2100, 1000])], { seed: 5, player: false, width: 640, height: 360, lead: 1.5, tail: 2 });
  const frames = Array.from({ length: clip.frameCount }, (_, i) => {
    const f = clip.frame(i);
    return i >= KNOCK.from && i < KNOCK.from + KNOCK.frames ? shifted(f, KNOCK.dx, KNOCK.dy) : f;
  });
  return { clip, frames };
}

let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

async function until(what: () => boolean, ms: number, label: string): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out: ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a knock on the camera is not a shot', () => {
  const video = knockedVideo();

  it('the tracker strikes at the knock, then takes it back: a rest with no shot', () => {
    const tracker = new VisionTracker({ calibration: calibrationOf(video.clip), balls: 'carom' });
    const messages: TrackerMessage[] = [];
    video.frames.forEach((f, i) => messages.push(...tracker.push(f, Math.round((i * 1000) / FPS))));
    messages.push(...tracker.finish());
    expect(messages).toEqual([{ type: 'strike' }, { type: 'rest' }]);
  }, 60_000);

  it('a real stroke on the same table is still a shot (the white leaves its place, touches nothing)', () => {
    const clip = clipOf([{ ...still('white', [700, 700]), v: [900, 150] }, still('yellow', [1500, 400]), still('red', [2100, 1000])], { seed: 5, player: false, width: 640, height: 360 });
    const tracker = new VisionTracker({ calibration: calibrationOf(clip), balls: 'carom' });
    const messages: TrackerMessage[] = [];
    for (let i = 0; i < clip.frameCount; i++) messages.push(...tracker.push(clip.frame(i), Math.round((i * 1000) / FPS)));
    messages.push(...tracker.finish());
    expect(messages.map((m) => m.type)).toEqual(['strike', 'shot', 'rest']);
    const shot = messages[1]!.type === 'shot' ? messages[1]!.shot : null;
    expect(shot!.events.filter((e) => !e.maybe)).toEqual([]);
    expect(Math.hypot(shot!.positions.white![0] - 700, shot!.positions.white![1] - 700)).toBeGreaterThan(100);
  }, 60_000);

  it('in the hub (camera, and camera + sensors with sensors that heard nothing): no shot scored, no prompt, the withdrawn strike counted in /metrics', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'camera-knock-'));
    const file = join(dataDir, 'knock.y4m');
    writeFileSync(file, Buffer.concat([encodeY4mHeader({ width: 640, height: 360, fpsNum: FPS, fpsDen: 1, colour: '420jpeg' }), ...video.frames.map(encodeY4mFrame)]));
    const cam = video.clip.camera;
    const camera = {
      file,
      width: 640,
      height: 360,
      fps: FPS,
      corners: cam.corners.map((c) => [c[0], c[1]]),
      pairWaitMs: 1500,
      maxBacklogFrames: 600,
      detector: { balls: 'carom', table: { length: CAROM.length, width: CAROM.width }, k1: cam.spec.k1, fovDeg: cam.spec.hfovDeg },
    };
    const table = (id: string, scoring: string) => ({ id, source: { type: 'simulator' }, quietWindowMs: 400, scoring, camera, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 } });
    hub = new Hub({
      config: testConfig({ tables: [table('cam', 'camera'), table('fused', 'camera+sensors')] }),
      dataDir,
      mqttPort: 0,
      clock: { now: () => Date.now(), iso: () => new Date().toISOString() },
      tickMs: 50,
      sourceFor: () => new ManualSource(false),
      cameraProcessor: { module: PROCESSOR },
      cameraRealtime: true,
    });
    await hub.start();
    const withdrawn = (id: string) => Number(new RegExp(`billiards_strikes_withdrawn_total\\{table="${id}"\\} (\\d+)`).exec(hub!.metrics())?.[1] ?? NaN);
    await until(() => withdrawn('cam') === 1 && withdrawn('fused') === 1, 30_000, 'both cameras took their strike back');
    // Past the pairing's wait and the segmenter's quiet window: nothing is scored later either.
    await new Promise((r) => setTimeout(r, 2000));
    for (const id of ['cam', 'fused']) {
      const state = hub.tables.get(id)!.state();
      expect(state.status, id).toBe('playing');
      expect(state.shotCount, id).toBe(0);
      expect(state.turn, id).toBe('Ana');
    }
    expect(hub.tables.get('fused')!.pairing!.counts).toMatchObject({ fused: 0, sensorsAlone: 0, cameraAlone: 0 });
  }, 60_000);
});
