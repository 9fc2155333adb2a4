import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { writeClipY4m } from '../../hardware/simulator/video/io.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { parseConfig } from '../../hub/config/load.ts';
import { Hub } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { createWebPanel, hashPassword } from '../../web/index.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npx tsx tests/camera/tracker-screenshot.ts`: the README's picture of `/tracker/:table`
 * (docs/img/tracker-page.jpg). Headless Debian Chromium with its fake camera fed a rendered
 * carom shot (.y4m), the page running the hub's own detector (hub/vision/ as browser
 * modules) and publishing as a tracker user to a real hub.
 */
const dir = mkdtempSync(join(tmpdir(), 'tracker-shot-'));
const planner = new VideoShotPlanner('carom');
const clip = makeClip({ ...planner.plan('white', true, [], seededRandom(3)), fps: 30, width: 640, height: 360, seed: 3 });
const y4m = join(dir, 'camera.y4m');
writeClipY4m(clip, y4m);
const parsed = parseConfig(
  JSON.stringify({
    hub: { id: 'club' },
    broker: { users: [{ username: 'tracker-north-1', passwordHash: hashPasswordSync('tracker-secret'), publish: ['billiards/tables/north-1/tracker'], subscribe: [] }] },
    tables: [{ id: 'north-1', source: { type: 'simulator' }, scoring: 'camera', defaultMatch: { variant: 'carom', players: ['Ana', 'Ben'], target: 10 } }],
  }),
);
if (!parsed.ok) throw new Error(parsed.error);
const hub = new Hub({ config: parsed.value, dataDir: dir, mqttPort: 0, mqttWsPort: 0, sourceFor: () => new ManualSource(false) });
await hub.start();
const panel = createWebPanel({ mqtt: hub.panelMqtt('web-tracker-shot'), port: 0, venue: { username: 'referee', passwordHash: await hashPassword('x-unused-x', { N: 1024 }) } });
const base = (await panel.start()).url;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`],
});
try {
  const page = await browser.newPage({ viewport: { width: 760, height: 700 } });
  await page.goto(`${base}/tracker/north-1`);
  await page.fill('input[name=corners]', clip.camera.corners.map((c) => `${c[0].toFixed(1)},${c[1].toFixed(1)}`).join(' '));
  await page.fill('input[name=k1]', clip.camera.spec.k1.toFixed(4));
  await page.fill('input[name=fov]', clip.camera.spec.hfovDeg.toFixed(1));
  await page.fill('input[name=broker]', hub.mqttWsUrl!);
  await page.fill('input[name=username]', 'tracker-north-1');
  await page.fill('input[name=password]', 'tracker-secret');
  await page.click('button[type=submit]');
  // Into the shot: the balls are moving.
  await page.waitForFunction(() => Number(document.getElementById('tracker-frames')?.textContent) >= 40, null, { timeout: 20_000 });
  const png = join(dir, 'tracker-page.png');
  await page.screenshot({ path: png });
  const out = join(REPO_ROOT, 'docs/img/tracker-page.jpg');
  const ff = spawnSync('ffmpeg', ['-y', '-v', 'error', '-i', png, '-q:v', '6', out], { encoding: 'utf8' });
  if (ff.status !== 0) throw new Error(`ffmpeg: ${ff.stderr}`);
  console.log(`${out}: ${Math.round(statSync(out).size / 1024)} KB`);
} finally {
  await browser.close();
  await panel.stop();
  await hub.stop();
}
