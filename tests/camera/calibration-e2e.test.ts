import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, type Clip } from '../../hardware/simulator/video/clip.ts';
import { writeClipY4m } from '../../hardware/simulator/video/io.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { FFMPEG } from '../../hub/camera/ffmpeg.ts';
import type { ClipTracksFile } from '../../hub/camera/clip-tracks.ts';
import type { HubConfig } from '../../hub/config/schema.ts';
import { Hub } from '../../hub/hub.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { project } from '../../hub/vision/geometry.ts';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { componentMissing, executableExists } from '../support/components.ts';
import { englishWords, userVisibleText } from '../web/support/untranslated.ts';
import { testConfig, VENUE_PASSWORD } from '../hub/support.ts';

/**
 * Issue 16's calibration page and replay tracks, end to end in headless Chromium: a table's
 * camera plays a rendered video (the real detector in the camera's thread), the referee
 * clicks the four corners over the live frame where the renderer's camera put them, sees
 * the table's lines drawn through them, saves; the detector starts on them at once, and a
 * restart keeps them. Bad corners are refused with a reason and change nothing. A shot that
 * raises a prompt gets a replay clip with the detected tracks drawn over it.
 */
const PROCESSOR = fileURLToPath(new URL('../../hub/camera/vision-processor.ts', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const noChromium = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));
const noFfmpeg = componentMissing(`ffmpeg (${FFMPEG})`, executableExists(FFMPEG));
const realClock = { now: () => Date.now(), iso: () => new Date().toISOString() };
const W = 800;
const H = 450;

async function until(what: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

let browser: Browser;
let clip: Clip;
const dir = mkdtempSync(join(tmpdir(), 'calibration-e2e-'));
const video = join(dir, 'table.y4m');

beforeAll(async () => {
  if (noChromium) return;
  const shot = new VideoShotPlanner('carom').plan('white', true, [], seededRandom(3));
  clip = makeClip({ ...shot, fps: 30, width: W, height: H, seed: 3 });
  writeClipY4m(clip, video);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

let hub: Hub | null = null;
let panel: WebPanel | null = null;
afterEach(async () => {
  await panel?.stop();
  panel = null;
  await hub?.stop();
  hub = null;
});

async function start(config: HubConfig, dataDir: string, source: () => ManualSource = () => new ManualSource(false)): Promise<{ hub: Hub; base: string }> {
  const h = new Hub({
    config,
    dataDir,
    mqttPort: 0,
    clock: realClock,
    tickMs: 50,
    sourceFor: source,
    cameraProcessor: { module: PROCESSOR, options: { balls: 'carom', k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg } },
    cameraRealtime: false,
  });
  hub = h;
  await h.start();
  panel = createWebPanel({
    mqtt: h.panelMqtt(`web-calibration-${Date.now()}`),
    port: 0,
    venue: { username: 'referee', passwordHash: await hashPassword(VENUE_PASSWORD, { N: 1024 }) },
    clips: { list: (t: string) => h.cameras!.list(t), file: (t: string, id: string) => h.cameras!.clips.path(t, id), tracks: (t: string, id: string) => h.cameras!.clips.tracksPath(t, id) },
    camera: h.cameras!,
  });
  return { hub: h, base: (await panel.start()).url };
}

async function login(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.fill('input[name=username]', 'referee');
  await page.fill('input[name=password]', VENUE_PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(`${base}${path}`);
}

/** Pixels of the canvas near an RGB colour (the overlay only: the picture is another element). */
function countColour(page: Page, selector: string, rgb: [number, number, number], near: [number, number] | null = null, radius = 0): Promise<number> {
  return page.evaluate(
    ({ selector, rgb, near, radius }) => {
      const c = document.querySelector(selector) as HTMLCanvasElement;
      const g = c.getContext('2d')!;
      const [x0, y0, w, h] = near ? [Math.max(0, Math.round(near[0] - radius)), Math.max(0, Math.round(near[1] - radius)), 2 * radius + 1, 2 * radius + 1] : [0, 0, c.width, c.height];
      const d = g.getImageData(x0, y0, w, h).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 100 && Math.abs(d[i]! - rgb[0]) + Math.abs(d[i + 1]! - rgb[1]) + Math.abs(d[i + 2]! - rgb[2]) < 90) n += 1;
      return n;
    },
    { selector, rgb, near, radius },
  );
}

describe.skipIf(noChromium)('calibrating a table camera from the hardware page (issue 16)', () => {
  it('the referee clicks the four corners on the live frame, sees the lines fit, saves; it applies at once and survives a restart; bad corners are refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'calibration-hub-'));
    // No corners in the configuration: the camera runs (video, health) but the detector cannot start yet.
    const config = testConfig({ tables: [{ id: 't1', source: { type: 'simulator' }, scoring: 'camera', camera: { file: video, width: W, height: H, fps: 30 }, defaultMatch: { variant: 'balkline-47-2', players: ['Ana', 'Ben'], target: 50 } }] });
    const { hub: h, base } = await start(config, dataDir);
    await until(() => (h.cameras!.stats('t1')?.frames ?? 0) >= clip.frameCount);
    await until(() => h.cameras!.stats('t1')!.state !== 'no-video', 3000);
    expect(h.cameras!.stats('t1')!.detector).toBe(false);

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, base, '/hardware/t1');
    await page.click('a[href="/calibration/t1"]');
    await page.waitForURL(`${base}/calibration/t1`);
    await page.waitForSelector('main[data-ready="1"][data-frame="loaded"]');
    expect(await page.textContent('#cal-msg')).toMatch(/no corners yet/);

    // "Find automatically": the cloth's quadrilateral in the frame, within 3 px of the truth.
    const [found] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/calibration/find')), page.click('#cal-find')]);
    const auto = (await found.json()) as { corners: [number, number][] };
    auto.corners.forEach((p, k) => expect(dist(p, clip.camera.corners[k]!)).toBeLessThan(3));
    await page.waitForFunction(() => document.querySelector('#cal-msg')?.textContent?.startsWith('Corners found'));
    await page.click('#cal-clear');

    // Click where the renderer's camera shows the cushion noses, in the contract's order.
    const box = (await page.locator('#cal-overlay').boundingBox())!;
    for (const [x, y] of clip.camera.corners) await page.mouse.click(box.x + (x * box.width) / W, box.y + (y * box.height) / H);
    await page.waitForFunction(() => document.querySelector('#cal-msg')?.textContent?.includes('lines are drawn'));
    // The cushion line through the middle of the head-to-foot side, where the camera sees it (the lens bends it).
    const L = 2840;
    const Wt = 1420;
    const mid = project(clip.camera.pose, clip.camera.lens, [L / 2, 0, 0])!;
    expect(await countColour(page, '#cal-overlay', [0, 229, 255], [mid[0], mid[1]], 3)).toBeGreaterThan(0);
    // The centre spot ring (yellow) and the 47/2 balkline lines (magenta) are drawn too.
    const centre = project(clip.camera.pose, clip.camera.lens, [L / 2, Wt / 2, 0])!;
    expect(await countColour(page, '#cal-overlay', [255, 230, 0], [centre[0], centre[1]], 12)).toBeGreaterThan(3);
    const balk = project(clip.camera.pose, clip.camera.lens, [470, Wt / 2, 0])!;
    expect(await countColour(page, '#cal-overlay', [255, 79, 216], [balk[0], balk[1]], 3)).toBeGreaterThan(0);
    await page.screenshot({ path: join(tmpdir(), 'camera-calibration.png') });

    await page.click('#cal-save');
    await page.waitForFunction(() => document.querySelector('#cal-msg')?.textContent?.startsWith('Saved'));
    const file = join(dataDir, 'camera-calibration.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')).tables.t1.corners as [number, number][];
    saved.forEach((c, k) => expect(dist(c, clip.camera.corners[k]!)).toBeLessThan(1.5));
    // Live: the camera's detector starts on the new corners without a restart.
    await until(() => h.cameras!.stats('t1')!.detector === true, 5000);

    // Refused at the boundary or by the geometry, with the reason; the saved corners stay as they were.
    const before = readFileSync(file, 'utf8');
    const put = (body: unknown) =>
      page.evaluate(async (body) => {
        const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
        const res = await fetch('/api/tables/t1/calibration', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body });
        return { status: res.status, error: ((await res.json()) as { error?: string }).error ?? '' };
      }, JSON.stringify(body));
    const c = saved;
    expect(await put({ corners: c.slice(0, 3) })).toEqual({ status: 400, error: expect.stringMatching(/four corners/) });
    // NaN has no JSON spelling: it arrives as null.
    expect(await put({ corners: [[Number.NaN, 1], c[1], c[2], c[3]] })).toEqual({ status: 400, error: expect.stringMatching(/number/) });
    expect(await put({ corners: [c[0], c[2], c[1], c[3]] })).toEqual({ status: 400, error: expect.stringMatching(/convex quadrilateral/) });
    expect(await put({ corners: [[0, 0], [1, 1], [2, 2], [3, 3]] })).toEqual({ status: 400, error: expect.stringMatching(/convex|degenerate/) });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(h.cameras!.calibration('t1')!.corners).toEqual(saved);
    // The same refusal in the page: a self-intersecting click order is named, and Save stays off.
    await page.click('#cal-clear');
    for (const k of [0, 2, 1, 3]) await page.mouse.click(box.x + (clip.camera.corners[k]![0] * box.width) / W, box.y + (clip.camera.corners[k]![1] * box.height) / H);
    await page.waitForFunction(() => document.querySelector('#cal-msg')?.textContent?.includes('Not saved'));
    expect(await page.textContent('#cal-msg')).toMatch(/convex quadrilateral/);
    expect(await page.isDisabled('#cal-save')).toBe(true);
    // Unauthenticated: refused.
    expect((await fetch(`${base}/api/tables/t1/camera/frame.png`)).status).toBe(401);
    expect((await fetch(`${base}/api/tables/t1/calibration`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ corners: saved }) })).status).toBe(401);
    expect(errors).toEqual([]);
    await page.close();

    // A restart of the hub: the saved corners are laid over the configuration's (none) and the detector runs.
    await panel!.stop();
    panel = null;
    await h.stop();
    hub = null;
    const again = await start(config, dataDir);
    const view = again.hub.cameras!.calibration('t1')!;
    expect(view.corners).toEqual(saved);
    expect(view.source).toBe('saved');
    await until(() => again.hub.cameras!.stats('t1')?.detector === true, 10_000);

    // The page in Russian has no English words left (but the table's id, the brand, the login and the language switch).
    const ru = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await login(ru, again.base, '/calibration/t1');
    await ru.goto(`${again.base}/calibration/t1?lang=ru`);
    await ru.waitForSelector('main[data-ready="1"]');
    expect(await ru.textContent('#cal-msg')).toMatch(/действующие углы/);
    expect(englishWords(await ru.evaluate(userVisibleText), ['t1', 'Billiards', 'referee', 'English'])).toEqual([]);
    await ru.close();
  }, 180_000);

  it.skipIf(noFfmpeg)('a prompted shot’s replay clip shows the detected tracks over the video, in the balls’ colours', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'calibration-tracks-'));
    const corners = clip.camera.corners.map((c) => [c[0], c[1]] as [number, number]);
    // Scored by the sensors (the camera gives the clip): contacts the sensors cannot tell apart raise a prompt.
    const config = testConfig({ tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 400, scoring: 'sensors', camera: { file: video, width: W, height: H, fps: 30, corners, clipSeconds: 10 }, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 } }] });
    let source!: ManualSource;
    const { hub: h, base } = await start(config, dataDir, () => (source = new ManualSource(false)));
    await until(() => (h.cameras!.stats('t1')?.frames ?? 0) >= clip.frameCount, 60_000);
    const table = h.tables.get('t1')!;
    const now = Date.now();
    const at = (k: number) => ({ boardUs: 0, hubTime: now + k * 300, seq: 0 });
    source.emit({ type: 'click', amplitude: 90, ...at(0) });
    for (const channel of [0, 1, 2]) source.emit({ type: 'rail-hit', channel, amplitude: 90, ...at(channel + 1) });
    source.emit({ type: 'click', amplitude: 90, ...at(4) });
    await until(() => table.state().status === 'awaiting-referee');
    await until(() => h.cameras!.list('t1').length === 1, 30_000);
    const [written] = h.cameras!.list('t1');
    const tracks = JSON.parse(readFileSync(h.cameras!.clips.tracksPath('t1', written!.id)!, 'utf8')) as ClipTracksFile;
    expect(tracks.frames.length).toBeGreaterThan(30);
    const seen = tracks.frames.filter((f) => f && f.white);
    expect(seen.length).toBeGreaterThan(tracks.frames.length / 2);
    // The tracker's contacts are marked where the balls were (clip pixels: half size).
    expect(tracks.contacts.length).toBeGreaterThan(0);
    expect(tracks.contacts.every((c) => c.at === null || (c.at[0] >= 0 && c.at[0] <= tracks.width && c.at[1] >= 0 && c.at[1] <= tracks.height))).toBe(true);

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await login(page, base, '/referee/t1');
    await page.waitForSelector('#replay-clip video[data-tracks="shown"]', { timeout: 15_000 });
    await page.waitForSelector('canvas.replay-tracks[data-frame]');
    // Let the video play a little, then look at the overlay.
    await page.waitForFunction(() => (document.querySelector('#replay-clip video') as HTMLVideoElement).currentTime > 1, undefined, { timeout: 15_000 });
    for (const rgb of [[245, 245, 240], [242, 194, 48], [216, 52, 44]] as [number, number, number][]) expect(await countColour(page, 'canvas.replay-tracks', rgb)).toBeGreaterThan(5);
    await page.locator('#replay-clip').screenshot({ path: join(tmpdir(), 'replay-clip-tracks.png') });
    await page.close();
  }, 180_000);
});
