import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FFMPEG } from '../../hub/camera/ffmpeg.ts';
import { Hub } from '../../hub/hub.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';
import { chromium } from 'playwright-core';
import { componentMissing, executableExists } from '../support/components.ts';
import { testConfig, VENUE_PASSWORD } from '../hub/support.ts';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';

/**
 * The hub with a table camera from a video file (issue 16): the worker's detector (a stub
 * here — the real one is issue 15's) drives the table, its shot is fused with the sensors'
 * events, health and /metrics show the camera, and a prompted shot gets a replay clip.
 */
const STUB = fileURLToPath(new URL('./fixtures/stub-processor.ts', import.meta.url));
const noFfmpeg = componentMissing(`ffmpeg (${FFMPEG})`, executableExists(FFMPEG));
const CHROMIUM = '/usr/bin/chromium';
const noChromium = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));

function y4m(frames: number): Buffer {
  const [w, h] = [160, 120];
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 C420jpeg\n`)];
  for (let k = 0; k < frames; k++) {
    const f = Buffer.alloc(w * h * 1.5, 128);
    f.fill(60 + (k % 8), 0, w * h);
    parts.push(Buffer.from('FRAME\n'), f);
  }
  return Buffer.concat(parts);
}

const realClock = { now: () => Date.now(), iso: () => new Date().toISOString() };
let hub: Hub | null = null;
let panel: WebPanel | null = null;
afterEach(async () => {
  await panel?.stop();
  panel = null;
  await hub?.stop();
  hub = null;
});

async function startHub(scoring: string, pairWaitMs: number, stub: Record<string, unknown> = {}): Promise<{ hub: Hub; source: ManualSource; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-camera-'));
  const file = join(dataDir, 'table.y4m');
  writeFileSync(file, y4m(75));
  const config = testConfig({
    tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 400, scoring, camera: { file, width: 160, height: 120, fps: 30, pairWaitMs, clipSeconds: 2 }, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 } }],
  });
  let source!: ManualSource;
  hub = new Hub({
    config,
    dataDir,
    mqttPort: 0,
    clock: realClock,
    tickMs: 50,
    sourceFor: () => (source = new ManualSource(false)),
    cameraProcessor: { module: STUB, options: { strikeAt: 5, contacts: [10, 20, 30], restAfter: 40, ...stub } },
  });
  await hub.start();
  return { hub, source, dataDir };
}

const until = async (what: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('a table camera\'s detector and the table\'s game', () => {
  it('a camera pinned to carom balls on a five-skittle table says so at start (the camera\'s own setting is used)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-camera-'));
    const file = join(dataDir, 'table.y4m');
    writeFileSync(file, y4m(5));
    const logged: { level: string; message: string; fields?: unknown }[] = [];
    const config = testConfig({
      tables: [{ id: 't1', source: { type: 'simulator' }, scoring: 'camera', camera: { file, width: 160, height: 120, fps: 30, detector: { balls: 'carom' } }, defaultMatch: { variant: 'skittles-5', players: ['Ana', 'Ben'], target: 60 } }],
    });
    hub = new Hub({ config, dataDir, mqttPort: 0, clock: realClock, tickMs: 50, sourceFor: () => new ManualSource(false), cameraProcessor: { module: STUB, options: {} }, log: (level, message, fields) => logged.push({ level, message, fields }) });
    await hub.start();
    expect(logged).toContainEqual({ level: 'warn', message: "camera detector set for carom balls, but the table's game plays skittles: the camera's own setting is used", fields: { table: 't1', variant: 'skittles-5' } });
  });
});

describe('a table camera in the hub (issue 16)', () => {
  it('camera+sensors: the camera file and the sensor events score one fused shot; health and /metrics show the camera', async () => {
    const { hub: h, source } = await startHub('camera+sensors', 3000);
    const table = h.tables.get('t1')!;
    await until(() => table.shotEndDue !== null); // the camera's strike started the shot
    const base = h.cameras!.timeBase('t1')!;
    // The piezos: the three rail hits just before the frames the camera sees them in (10, 20, 30 → t 367, 700, 1033).
    const hit = (channel: number, at: number): SensorEvent => ({ type: 'rail-hit', channel, amplitude: 100, boardUs: 0, hubTime: base + at, seq: 0 });
    source.emit(hit(0, 350));
    source.emit(hit(1, 690));
    source.emit(hit(2, 1020));
    await until(() => table.counters.shots === 1);
    expect(table.pairing!.counts).toMatchObject({ fused: 1, identified: 3, unknown: 0 });
    const log = table.exportLog();
    expect(log.ok && log.value).toContain('"rail":"head","ball":"white"');
    await until(() => (table.healthView().camera?.frames ?? 0) === 75);
    expect(table.healthView().camera).toMatchObject({ frames: 75, dropped: 0 });
    expect(h.metrics()).toMatch(/billiards_camera_frames_total\{table="t1"\} 75/);
    expect(h.metrics()).toMatch(/billiards_camera_state\{table="t1",state="table-clear"\} 1/);
  });

  it('scoring: camera scores the camera’s own shot, its event times counted from the strike', async () => {
    const { hub: h } = await startHub('camera', 3000);
    const table = h.tables.get('t1')!;
    await until(() => table.counters.shots === 1);
    const log = table.exportLog();
    // Contacts at frames 10, 20, 30 (t 367, 700, 1033 on the video's clock), the strike at frame 5 (167).
    expect(log.ok && log.value).toContain('{"kind":"cushion","rail":"head","ball":"white","t":200}');
    expect(table.healthView().camera?.state).toBeDefined();
  });

  it('scoring: camera, RULES §10: a ball seen away first that is not the cue ball, no contact of it seen, is asked about (the hub knows the cue ball, the tracker does not)', async () => {
    // The white (Ana's cue ball) out of sight from the strike; the red seen leaving its place
    // first; three cushions of the white, then white–yellow. Read as the tracker gives it, no
    // point (the red untouched); if the hidden white struck the red first, a point (TC-1).
    const { hub: h } = await startHub('camera', 3000, { hiddenCueBall: true });
    const table = h.tables.get('t1')!;
    await until(() => table.counters.prompts === 1);
    const log = table.exportLog();
    expect(log.ok && log.value).toContain('"balls":["red",null]');
  });

  it.skipIf(noFfmpeg)('a shot that raises a prompt gets a replay clip of the last seconds', async () => {
    const { hub: h, source } = await startHub('camera+sensors', 100);
    const table = h.tables.get('t1')!;
    await until(() => (table.healthView().camera?.frames ?? 0) >= 60);
    // Contacts the camera did not report: the sensors alone cannot tell the balls, so the referee is asked.
    const now = Date.now();
    // 300 ms apart: a ball needs at least that long from the head rail to the foot rail (hub/rules/bounds.ts).
    const at = (k: number) => ({ boardUs: 0, hubTime: now + k * 300, seq: 0 });
    source.emit({ type: 'click', amplitude: 90, ...at(0) });
    for (const channel of [0, 1, 2]) source.emit({ type: 'rail-hit', channel, amplitude: 90, ...at(channel + 1) });
    source.emit({ type: 'click', amplitude: 90, ...at(4) });
    await until(() => table.state().status === 'awaiting-referee');
    await until(() => h.cameras!.list('t1').length === 1);
    const [clip] = h.cameras!.list('t1');
    expect(clip!.id).toMatch(/-prompt-shot\d+$/);
    expect(readFileSync(h.cameras!.clips.path('t1', clip!.id)!).subarray(4, 8).toString()).toBe('ftyp');

    // The referee console shows it beside the prompt; the clip is for logged-in users only.
    panel = createWebPanel({
      mqtt: h.panelMqtt('web-camera-test'),
      port: 0,
      venue: { username: 'referee', passwordHash: await hashPassword(VENUE_PASSWORD, { N: 1024 }) },
      clips: { list: (t: string) => h.cameras!.list(t), file: (t: string, id: string) => h.cameras!.clips.path(t, id) },
    });
    const base = (await panel.start()).url;
    expect((await fetch(`${base}/api/tables/t1/clips`)).status).toBe(401);
    expect((await fetch(`${base}/api/tables/t1/clips/${clip!.id}`)).status).toBe(401);
    if (noChromium) return;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/referee/t1`);
      await page.fill('input[name=username]', 'referee');
      await page.fill('input[name=password]', VENUE_PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL(`${base}/referee/t1`);
      await page.waitForSelector('#prompt');
      const video = await page.waitForSelector('#replay-clip video', { state: 'visible', timeout: 10_000 });
      expect(await video.getAttribute('src')).toBe(`/api/tables/t1/clips/${clip!.id}`);
      const status = await page.evaluate(async (src) => (await fetch(src)).status, `/api/tables/t1/clips/${clip!.id}`);
      expect(status).toBe(200);
      await page.screenshot({ path: join(tmpdir(), 'replay-clip-console.png') });
    } finally {
      await browser.close();
    }
  });
});

describe('camera health in the venue overview', () => {
  it('shows the frame rate, the detection state and the drops of a table with a camera', async () => {
    const { overviewFragment } = await import('../../web/pages/overview.ts');
    const health = { table: 't1', link: 'up' as const, lastHeartbeatAt: null, framesDropped: 0, boardResets: 0, alerts: [], camera: { fps: 60, frames: 1200, dropped: 3, state: 'hand-on-table' as const, motion: 7.5, clips: 0 } };
    const html = overviewFragment([{ table: 't1', state: null, availability: null, health, lastShot: null }], Date.now(), true).toString();
    expect(html).toContain('60 fps · hand on table · 3 dropped');
  });
});
