import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClip, type Clip } from '../../hardware/simulator/video/clip.ts';
import { writeClipY4m } from '../../hardware/simulator/video/io.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { tableFor } from '../../hardware/simulator/physics/table.ts';
import { skittleSetup } from '../../hub/track/skittle-setup.ts';
import { Hub } from '../../hub/hub.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { testConfig } from '../hub/support.ts';
import type { CameraConfig } from '../../hub/config/schema.ts';

const still = (id: string, p: readonly [number, number]) => ({ id, p: [p[0], p[1]] as [number, number], v: [0, 0] as [number, number], roll: [0, 0] as [number, number], side: 0 });

/**
 * Issue 15 inside issue 16's plumbing: a video rendered from a physics shot plays as a
 * table's camera (scoring `camera`), the real detector (hub/camera/vision-processor.ts)
 * runs in the camera's thread, and the hub scores the shot with no referee, with the
 * events the physics made.
 */
const PROCESSOR = fileURLToPath(new URL('../../hub/camera/vision-processor.ts', import.meta.url));
const realClock = { now: () => Date.now(), iso: () => new Date().toISOString() };
let hub: Hub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

async function until(what: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sig = (e: { kind: string; balls?: readonly (string | null)[]; rail?: string; ball?: string | null }) => (e.kind === 'ball' ? `ball:${e.balls!.map((b) => b ?? '?').sort().join('+')}` : `${e.kind}:${e.rail}:${e.ball ?? '?'}`);

/**
 * Plays a rendered clip as table t1's camera (scoring `camera`) through the real hub and
 * detector, the hub's settings as `npm start` gives them (the detector module alone) and the
 * camera's own `detector` settings as given; resolves once the table scored a shot, with the
 * table and that shot's events as the match log has them.
 */
async function scoreClip(clip: Clip, variant: string, detector: NonNullable<CameraConfig['detector']>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-vision-'));
  const file = join(dataDir, 'table.y4m');
  writeClipY4m(clip, file);
  const corners = clip.camera.corners.map((c) => [c[0], c[1]] as [number, number]);
  const config = testConfig({
    tables: [{ id: 't1', source: { type: 'simulator' }, scoring: 'camera', camera: { file, width: clip.camera.lens.width, height: clip.camera.lens.height, fps: clip.fps, corners, detector }, defaultMatch: { variant, players: ['Ana', 'Ben'], target: 120 } }],
  });
  hub = new Hub({ config, dataDir, mqttPort: 0, clock: realClock, tickMs: 50, sourceFor: () => new ManualSource(false), cameraProcessor: { module: PROCESSOR }, cameraRealtime: false });
  await hub.start();
  const table = hub.tables.get('t1')!;
  await until(() => table.counters.shots === 1, 60_000);
  const log = table.exportLog();
  if (!log.ok) throw new Error(log.error);
  const shotLine = log.value.split('\n').find((l) => l.startsWith('{"shot"'))!;
  return { table, events: JSON.parse(shotLine).shot.events as { kind: string; ball?: string; skittle?: string; maybe?: boolean }[] };
}

describe('a table camera with the real detector (issues 15 and 16)', () => {
  it('a rendered carom shot played as the camera is scored by the hub with no prompt, with the physics’ events', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-vision-'));
    const planner = new VideoShotPlanner('carom');
    const shot = planner.plan('white', true, [], seededRandom(3));
    const clip = makeClip({ ...shot, fps: 30, width: 800, height: 450, seed: 3 });
    const file = join(dataDir, 'table.y4m');
    writeClipY4m(clip, file);
    const corners = clip.camera.corners.map((c) => [c[0], c[1]] as [number, number]);
    const config = testConfig({
      tables: [{ id: 't1', source: { type: 'simulator' }, scoring: 'camera', camera: { file, width: 800, height: 450, fps: 30, corners }, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } }],
    });
    hub = new Hub({
      config,
      dataDir,
      mqttPort: 0,
      clock: realClock,
      tickMs: 50,
      sourceFor: () => new ManualSource(false),
      cameraProcessor: { module: PROCESSOR, options: { balls: 'carom', k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg } },
      cameraRealtime: false,
    });
    await hub.start();
    const table = hub.tables.get('t1')!;
    await until(() => table.counters.shots === 1, 60_000);
    const state = table.state();
    expect(state.prompt).toBeNull();
    expect(state.status).toBe('playing');
    const log = table.exportLog();
    expect(log.ok).toBe(true);
    const shotLine = (log.ok ? log.value : '').split('\n').find((l) => l.startsWith('{"shot"'))!;
    const scored = JSON.parse(shotLine).shot.events as { kind: string }[];
    expect(scored.map(sig)).toEqual(clip.truth.shot.events.map(sig));
    // A carom (the cue ball, white, met both object balls) scores 1 (G-14).
    const partners = new Set(clip.truth.shot.events.flatMap((e) => (e.kind === 'ball' && e.balls.includes('white') ? e.balls.filter((b) => b !== 'white') : [])));
    const caromMade = partners.has('yellow') && partners.has('red');
    expect(state.players[0]!.score).toBe(caromMade ? 1 : 0);
  }, 90_000);

  it('SK7P: on a pyramid table the hub\'s own camera sees the ball that went into a pocket (balls, skittles and table from the table\'s game)', async () => {
    const table = tableFor('skittles-7-pyramid');
    const size = { length: table.length, width: table.width };
    // The two whites on their spots (where the hub's detector expects them, skittle-setup.ts); the cue ball driven into the foot-right corner.
    const { initial } = skittleSetup(size);
    const cueAt: [number, number] = [2900, 1150];
    const start = [strike('cue', cueAt, { angle: Math.atan2(size.width - cueAt[1], size.length - cueAt[0]), speed: 1800, follow: 0.3, english: 0 }), still('one', initial.one), still('two', initial.two)];
    const clip = makeClip({ table, start, cueBall: 'cue', variant: 'skittles-7-pyramid', fps: 30, width: 800, height: 450, seed: 11, chalk: false, hoverCue: false });
    expect(clip.truth.shot.events.filter((e) => e.kind === 'pocket')).toMatchObject([{ ball: 'cue' }]);
    const { events } = await scoreClip(clip, 'skittles-7-pyramid', { k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg });
    expect(events.filter((e) => e.kind === 'pocket')).toMatchObject([{ kind: 'pocket', ball: 'cue' }]);
  }, 90_000);

  it('SK5-12, SK7C-3: the skittles the camera watches are the game\'s, where the game stands them (no fall of a skittle that is not there)', async () => {
    for (const [variant, seed] of [['skittles-5', 2], ['skittles-7-carom', 3]] as const) {
      const shot = new VideoShotPlanner(variant).plan('cue', true, [], seededRandom(seed));
      const clip = makeClip({ ...shot, fps: 30, width: 800, height: 450, seed, tail: 2 });
      const fell = clip.truth.shot.events.flatMap((e) => (e.kind === 'skittle' ? [e.skittle] : []));
      expect(fell.length, `${variant}: a shot that fells a skittle`).toBeGreaterThan(0);
      const { events } = await scoreClip(clip, variant, { k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg });
      expect(events.filter((e) => e.kind === 'skittle').map((e) => `${e.skittle}${e.maybe ? '?' : ''}`), variant).toEqual(fell);
      await hub!.stop();
      hub = null;
    }
  }, 180_000);

  it('SK5-12: five skittles started on a carom table (its default game carom): the camera\'s detector follows the game being played', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-vision-'));
    const shot = new VideoShotPlanner('skittles-5').plan('cue', true, [], seededRandom(2));
    // Played at its own pace, so the match can be started before the stroke.
    const clip = makeClip({ ...shot, fps: 30, width: 800, height: 450, seed: 2, lead: 2, tail: 2 });
    const fell = clip.truth.shot.events.flatMap((e) => (e.kind === 'skittle' ? [e.skittle] : []));
    const file = join(dataDir, 'table.y4m');
    writeClipY4m(clip, file);
    const corners = clip.camera.corners.map((c) => [c[0], c[1]] as [number, number]);
    const config = testConfig({
      tables: [{ id: 't1', source: { type: 'simulator' }, scoring: 'camera', camera: { file, width: 800, height: 450, fps: 30, corners, detector: { k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg } }, defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } }],
    });
    hub = new Hub({ config, dataDir, mqttPort: 0, clock: realClock, tickMs: 50, sourceFor: () => new ManualSource(false), cameraProcessor: { module: PROCESSOR } });
    await hub.start();
    const table = hub.tables.get('t1')!;
    expect(table.startMatch({ variant: 'skittles-5', players: ['Ana', 'Ben'], target: 60 }).ok).toBe(true);
    await until(() => table.counters.shots === 1, 60_000);
    const log = table.exportLog();
    if (!log.ok) throw new Error(log.error);
    const shotLine = log.value.split('\n').filter((l) => l.startsWith('{"shot"')).at(-1)!;
    const events = JSON.parse(shotLine).shot.events as { kind: string; skittle?: string; maybe?: boolean }[];
    expect(events.filter((e) => e.kind === 'skittle').map((e) => `${e.skittle}${e.maybe ? '?' : ''}`)).toEqual(fell);
  }, 90_000);
});
