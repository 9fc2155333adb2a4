import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, type Clip } from '../../hardware/simulator/video/clip.ts';
import { writeClipY4m } from '../../hardware/simulator/video/io.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { parseConfig } from '../../hub/config/load.ts';
import { Hub } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { createWebPanel, hashPassword, type WebPanel } from '../../web/index.ts';
import { componentMissing, executableExists } from '../support/components.ts';

/**
 * `/tracker/:table` in headless Chromium with a fake camera fed a rendered physics shot
 * (.y4m, issue 16): the page runs the hub's own detector (hub/vision/, served as browser
 * modules), publishes its tracker messages over MQTT-over-WebSocket as a tracker user, and
 * the hub scores the shot with no prompt, with the events the physics made.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = componentMissing('Debian chromium at /usr/bin/chromium', executableExists(CHROMIUM));

const sig = (e: { kind: string; balls?: readonly (string | null)[]; rail?: string; ball?: string | null }) => (e.kind === 'ball' ? `ball:${e.balls!.map((b) => b ?? '?').sort().join('+')}` : `${e.kind}:${e.rail}:${e.ball ?? '?'}`);

describe.skipIf(skip)('the tracker page publishes a phone camera’s shots (issue 16)', () => {
  let hub: Hub;
  let panel: WebPanel;
  let browser: Browser;
  let skittlesBrowser: Browser;
  let skittlesClip: Clip;
  let base = '';
  const dir = mkdtempSync(join(tmpdir(), 'tracker-page-'));
  let clip: Clip;
  let corners = '';

  beforeAll(async () => {
    const parsed = parseConfig(
      JSON.stringify({
        hub: { id: 'club' },
        broker: {
          users: ['t1', 't2', 't3'].map((t) => ({ username: `tracker-${t}`, passwordHash: hashPasswordSync('tracker-secret'), publish: [`billiards/tables/${t}/tracker`], subscribe: [] })),
        },
        tables: [
          { id: 't1', source: { type: 'simulator' }, scoring: 'camera', defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } },
          // A five-skittle table: the page's detector takes the game's balls, skittles and table from the hub (web/routes/tracker.ts).
          { id: 't2', source: { type: 'simulator' }, scoring: 'camera', defaultMatch: { variant: 'skittles-5', players: ['Ana', 'Ben'], target: 60 } },
          // A carom table on which five skittles are then played.
          { id: 't3', source: { type: 'simulator' }, scoring: 'camera', defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } },
        ],
      }),
    );
    if (!parsed.ok) throw new Error(parsed.error);
    hub = new Hub({ config: parsed.value, dataDir: dir, mqttPort: 0, mqttWsPort: 0, sourceFor: () => new ManualSource(false) });
    await hub.start();
    panel = createWebPanel({ mqtt: hub.panelMqtt('web-tracker-test'), port: 0, venue: { username: 'referee', passwordHash: await hashPassword('x-unused-x', { N: 1024 }) } });
    base = (await panel.start()).url;
    // A carom shot as the table's camera sees it; the aiming before the strike is long enough for the page to be tracking by then.
    const planned = new VideoShotPlanner('carom').plan('white', true, [], seededRandom(3));
    clip = makeClip({ ...planned, fps: 30, width: 800, height: 450, seed: 3, lead: 1.5, tail: 3 });
    const y4m = join(dir, 'camera.y4m');
    writeClipY4m(clip, y4m);
    corners = clip.camera.corners.map((c) => `${c[0].toFixed(1)},${c[1].toFixed(1)}`).join(' ');
    browser = await cameraBrowser(y4m);
    // A five-skittle break that fells a skittle, for the second table's phone.
    const skittleShot = new VideoShotPlanner('skittles-5').plan('cue', true, [], seededRandom(2));
    skittlesClip = makeClip({ ...skittleShot, fps: 30, width: 800, height: 450, seed: 2, lead: 1.5, tail: 3 });
    const skittlesY4m = join(dir, 'skittles.y4m');
    writeClipY4m(skittlesClip, skittlesY4m);
    skittlesBrowser = await cameraBrowser(skittlesY4m);
  }, 60_000);

  /** Headless Chromium whose camera plays this video (Chromium's fake capture device). */
  const cameraBrowser = (y4m: string) =>
    chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`],
    });

  /** Opens /tracker/<table> in a browser, starts it with the clip's corners and lens as the table's tracker user, and waits for the hub to score a shot. */
  async function track(on: Browser, tableId: string, shotClip: Clip) {
    const page = await on.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/tracker/${tableId}`);
    await page.fill('input[name=corners]', shotClip.camera.corners.map((c) => `${c[0].toFixed(1)},${c[1].toFixed(1)}`).join(' '));
    await page.fill('input[name=k1]', String(shotClip.camera.spec.k1));
    await page.fill('input[name=fov]', String(shotClip.camera.spec.hfovDeg));
    await page.fill('input[name=broker]', hub.mqttWsUrl!);
    await page.fill('input[name=username]', `tracker-${tableId}`);
    await page.fill('input[name=password]', 'tracker-secret');
    await page.click('button[type=submit]');
    const table = hub.tables.get(tableId)!;
    const deadline = Date.now() + 60_000;
    while (table.counters.shots < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const log = table.exportLog();
    const shotLine = (log.ok ? log.value : '').split('\n').find((l) => l.startsWith('{"shot"'));
    const shot = shotLine ? (JSON.parse(shotLine).shot as { events: { kind: string; t: number; maybe?: true; skittle?: string }[] }) : null;
    return { page, errors, table, shot };
  }

  afterAll(async () => {
    await browser?.close();
    await skittlesBrowser?.close();
    await panel?.stop();
    await hub?.stop();
  });

  it('runs the real detector on the camera, publishes as the tracker user, and the hub scores the physics’ shot with no prompt', async () => {
    const { page, errors, table, shot: read } = await track(browser, 't1', clip);
    const status = await page.textContent('#tracker-status');
    expect(errors).toEqual([]);
    expect(status).toMatch(/^Tracking table t1 at 800×450/);
    expect(Number(await page.textContent('#tracker-frames'))).toBeGreaterThan(60);
    expect(table.counters.shots).toBe(1);
    const state = table.state();
    expect(state.prompt).toBeNull();
    expect(state.status).toBe('playing');
    const shot = read!;
    // The events the physics made, by ids and kinds, in order (the camera sees them at its frame
    // rate). A browser starved of CPU skips frames, and then the camera may state as `maybe` what
    // it cannot make sure of — a maybe cushion added (seen once in CI under a doubled load), or a
    // true cushion only maybe (seen with the accuracy run beside it) — allowed only because the
    // shot was still scored with no prompt (above): every event of the physics is there, in order,
    // and what it states for sure is the physics' (nothing made up).
    const truth = clip.truth.shot.events.map(sig);
    const inOrder = (part: readonly string[], whole: readonly string[]) => part.every(((k) => (x: string) => (k = whole.indexOf(x, k) + 1) > 0)(0));
    expect(inOrder(truth, shot.events.map(sig)), `${JSON.stringify(shot.events)} has every event of ${JSON.stringify(truth)}`).toBe(true);
    const sure = shot.events.filter((e) => !e.maybe).map(sig);
    expect(inOrder(sure, truth), `${JSON.stringify(sure)} states only events of ${JSON.stringify(truth)}`).toBe(true);
    expect(sure.length).toBeGreaterThanOrEqual(truth.length - 1);
    // Event times as the hub takes them: from the strike (the page rebases the detector's frame clock).
    const ts = shot.events.map((e) => e.t);
    expect(ts[0]).toBeGreaterThanOrEqual(0);
    expect(ts.every((t, i) => i === 0 || t >= ts[i - 1]!)).toBe(true);
    const partners = new Set(clip.truth.shot.events.flatMap((e) => (e.kind === 'ball' && e.balls.includes('white') ? e.balls.filter((b) => b !== 'white') : [])));
    expect(state.players[0]!.score).toBe(partners.has('yellow') && partners.has('red') ? 1 : 0);
    await page.screenshot({ path: join(tmpdir(), 'tracker-page.png') });
  }, 90_000);

  it('SK5-12: on a five-skittle table the page watches the game\'s skittles and states the fall the physics made', async () => {
    const { page, errors, table, shot } = await track(skittlesBrowser, 't2', skittlesClip);
    expect(errors).toEqual([]);
    expect(await page.textContent('#tracker-status')).toMatch(/^Tracking table t2/);
    expect(table.counters.shots).toBe(1);
    const fell = skittlesClip.truth.shot.events.flatMap((e) => (e.kind === 'skittle' ? [e.skittle] : []));
    expect(fell.length).toBeGreaterThan(0);
    // The carom detector the page ran before saw no skittle at all, and five skittles have no spot skittles to read as fallen.
    expect(shot!.events.filter((e) => e.kind === 'skittle').map((e) => e.skittle)).toEqual(fell);
  }, 90_000);

  it('SK5-12: five skittles started on a carom table while its page runs: the page\'s detector follows the game', async () => {
    const page = await skittlesBrowser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/tracker/t3`);
    expect(await page.textContent('#tracker-game')).toBe('carom · 2840 × 1420 mm');
    await page.fill('input[name=corners]', skittlesClip.camera.corners.map((c) => `${c[0].toFixed(1)},${c[1].toFixed(1)}`).join(' '));
    await page.fill('input[name=broker]', hub.mqttWsUrl!);
    await page.fill('input[name=username]', 'tracker-t3');
    await page.fill('input[name=password]', 'tracker-secret');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.getElementById('tracker-status')?.textContent?.startsWith('Tracking'), null, { timeout: 20_000 });
    expect(hub.tables.get('t3')!.startMatch({ variant: 'skittles-5', players: ['Ana', 'Ben'], target: 60 }).ok).toBe(true);
    // Put in place between shots: at once when the balls rest, after the shot when one is on.
    await page.waitForFunction(() => document.getElementById('tracker-game')?.textContent?.startsWith('skittles'), null, { timeout: 30_000 });
    expect(await page.textContent('#tracker-game')).toBe('skittles (5 skittles) · 2840 × 1420 mm');
    const detector = (await (await fetch(`${base}/tracker/t3/detector`)).json()) as { balls: string; skittles: { id: string }[] };
    expect(detector.balls).toBe('skittles');
    expect(detector.skittles.map((k) => k.id).sort()).toEqual(['foot', 'head', 'king', 'left', 'right']);
    expect(errors).toEqual([]);
  }, 90_000);

  it('a wrong tracker password is refused and says so on the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/tracker/t1`);
    await page.fill('input[name=corners]', corners);
    await page.fill('input[name=broker]', hub.mqttWsUrl!);
    await page.fill('input[name=password]', 'wrong');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.getElementById('tracker-status')?.textContent?.startsWith('Stopped'), null, { timeout: 10_000 });
    expect(await page.textContent('#tracker-status')).toMatch(/broker/i);
  });
});
