import { serveStatic } from '@hono/node-server/serve-static';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { layout } from '../pages/layout.ts';
import { detectorDefaults } from '../../hub/camera/detector-defaults.ts';
import { MATCH_TABLE } from '../../hub/rules/options.ts';
import { skittleSetup } from '../../hub/track/skittle-setup.ts';
import { jsonError, tableParam, type AppDeps, type Env } from './common.ts';

/**
 * `/tracker/:table` (issue 16): a phone or tablet above the table as the camera. The page
 * takes the device camera (getUserMedia), runs the hub's own detector on each frame
 * (hub/vision/'s VisionTracker, served as browser modules at /static/vision/ by
 * routes/vision.ts, calibrated from the table's corners in the camera's pixels) and
 * publishes its tracker messages over
 * MQTT-over-WebSocket with a tracker identity: a broker user allowed to publish on
 * `<base>/tables/<table>/tracker`. The page itself holds no secret; the broker login does.
 */
const MQTT_VENDOR_PATH = '/static/vendor/mqtt.esm.js';

/** mqtt.js's browser build, from the package the hub already depends on (null if this install lacks it). */
function mqttBrowserBuild(): string | null {
  try {
    return createRequire(import.meta.url).resolve('mqtt/dist/mqtt.esm');
  } catch {
    return null;
  }
}

/**
 * What the page's detector needs to know of the table's game (the match it shows, as the hub's
 * own cameras do: hub/camera/detector-defaults.ts): the balls, the table's size, and for a
 * skittle game where its skittles stand, where the whites start and the pockets.
 */
export function trackerDetector(match: { variant: string; options?: Record<string, unknown> } | undefined) {
  const game = detectorDefaults(match);
  const table = game.table ?? MATCH_TABLE;
  if (game.balls !== 'skittles') return { balls: 'carom' as const, table };
  const setup = skittleSetup(table, game.layout);
  return { balls: 'skittles' as const, table, skittles: setup.skittles, initial: setup.initial, ...(setup.pockets.length ? { pockets: setup.pockets } : {}) };
}

export function trackerRoutes(app: Hono<Env>, d: AppDeps): void {
  app.get('/tracker/:table', (c) => {
    const table = tableParam(c);
    const body = html`<main class="tracker" id="tracker" data-table="${table}" data-base="${d.options.baseTopic}" data-detector="${JSON.stringify(trackerDetector(d.store.get(table)?.state?.match ?? undefined))}">
  <h1>Tracker · table ${table}</h1>
  <form id="tracker-form" class="form-grid">
    <label>Broker (WebSocket) <input name="broker" required></label>
    <label>Tracker user <input name="username" required autocomplete="username"></label>
    <label>Password <input name="password" type="password" required autocomplete="current-password"></label>
    <label>Corners (x,y ×4, px) <input name="corners" required placeholder="101,82 699,80 712,371 88,374"></label>
    <label>Lens k1 <input name="k1" type="number" step="any" value="0"></label>
    <label>Field of view (°) <input name="fov" type="number" step="any" min="1" max="179" value="70"></label>
    <label>Frames per second <input name="fps" type="number" min="1" max="60" value="30"></label>
    <button type="submit" class="btn">Start</button>
  </form>
  <p id="tracker-status" class="muted" role="status">Not started.</p>
  <video id="tracker-video" playsinline muted autoplay></video>
  <dl id="tracker-stats"><dt>Game</dt><dd id="tracker-game">–</dd><dt>Frames</dt><dd id="tracker-frames">0</dd><dt>Messages</dt><dd id="tracker-messages">0</dd><dt>ms per frame</dt><dd id="tracker-ms">–</dd></dl>
</main>`;
    return c.html(layout({ title: `Tracker · table ${table}`, body, scripts: ['tracker.js'], nav: false }));
  });

  // What the page's detector needs for the game on the table now (the page follows the table's states and asks again when its game changes).
  app.get('/tracker/:table/detector', (c) => c.json(trackerDetector(d.store.get(tableParam(c))?.state?.match ?? undefined)));

  // Served like web/static/ (routes/static.ts: its type, no-cache with an ETag); a missing build falls through to the 404.
  const bundle = mqttBrowserBuild();
  if (bundle) app.get(MQTT_VENDOR_PATH, serveStatic({ path: bundle }));
  app.get(MQTT_VENDOR_PATH, () => jsonError(404, 'mqtt.js browser build not found'));
}
