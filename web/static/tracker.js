// @ts-check
// /tracker/:table (issue 16): the device camera → the detector → tracker messages over
// MQTT-over-WebSocket. The detector is the hub's own (hub/vision/: VisionTracker, as the hub's
// camera worker runs it through hub/camera/vision-processor.ts), loaded as browser modules.
import { byId, one } from './common.js';

/**
 * The part of mqtt.js's client this page uses, and the detector's modules (hub/vision/, served
 * as browser modules by web/routes/vision.ts: the same code the hub's camera worker runs).
 * @typedef {{ once(event: string, listener: (e: Error) => void): unknown, publishAsync(topic: string, message: string, options: { qos: 0 | 1 | 2 }): Promise<unknown> }} MqttClient
 * @typedef {{ default: { connect(url: string, options: Record<string, unknown>): MqttClient } }} MqttModule
 * @typedef {typeof import('../../hub/vision/tracker.ts')} TrackerModule
 * @typedef {typeof import('../../hub/vision/calibration.ts')} CalibrationModule
 * @typedef {typeof import('../../hub/vision/frame.ts')} FrameModule
 * @typedef {new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<VideoFrame> }} MediaStreamTrackProcessorCtor Chromium's (not in every browser, nor in TypeScript's DOM library)
 */

/** hub/vision/ as browser modules (web/routes/vision.ts). */
const VISION = '/static/vision/';
/** mqtt.js's browser build (web/routes/tracker.ts). */
const MQTT_BROWSER_BUILD = '/static/vendor/mqtt.esm.js';

const root = byId('tracker');
const form = byId('tracker-form', HTMLFormElement);
const status = byId('tracker-status');
const video = byId('tracker-video', HTMLVideoElement);
/** @param {string} text */
const say = (text) => (status.textContent = text);
const { table = '', base = '', detector: detectorJson = '{}' } = root.dataset;
/**
 * The table's game as the detector needs it (web/routes/tracker.ts, trackerDetector): carom
 * balls or the skittle set with where the skittles stand, the table's size, the pockets.
 * @type {{ balls?: 'carom' | 'skittles', table?: { length: number, width: number }, skittles?: { id: string, at: [number, number], base: number, height: number }[], initial?: Record<string, [number, number]>, pockets?: { at: [number, number], radius: number }[] }}
 */
let game = JSON.parse(detectorJson);
/** @param {typeof game} g what the detector is set for, shown on the page */
const gameText = (g) => `${g.balls ?? 'carom'}${g.skittles ? ` (${g.skittles.length} skittles)` : ''} · ${g.table?.length ?? 2840} × ${g.table?.width ?? 1420} mm`;
byId('tracker-game').textContent = gameText(game);
/** @param {string} name a field of the form */
const field = (name) => one(`#tracker-form [name="${name}"]`, HTMLInputElement);
field('broker').value = localStorage.getItem('tracker.broker') ?? `ws://${location.hostname}:9001`;
field('username').value = localStorage.getItem('tracker.username') ?? `tracker-${table}`;
for (const name of ['corners', 'k1', 'fov']) field(name).value = localStorage.getItem(`tracker.${table}.${name}`) ?? field(name).value;

const startButton = one('#tracker-form button', HTMLButtonElement);
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  startButton.disabled = true;
  localStorage.setItem('tracker.broker', field('broker').value);
  localStorage.setItem('tracker.username', field('username').value);
  for (const name of ['corners', 'k1', 'fov']) localStorage.setItem(`tracker.${table}.${name}`, field(name).value);
  try {
    await run({
      broker: field('broker').value,
      username: field('username').value,
      password: field('password').value,
      fps: Number(field('fps').value) || 30,
      corners: field('corners').value,
      k1: Number(field('k1').value) || 0,
      fovDeg: Number(field('fov').value) || undefined,
    });
  } catch (e) {
    say(`Stopped: ${e instanceof Error ? e.message : String(e)}`);
    startButton.disabled = false;
  }
});

/** @param {{ broker: string, username: string, password: string, fps: number, corners: string, k1: number, fovDeg: number | undefined }} settings */
async function run({ broker, username, password, fps, corners: cornersText, k1, fovDeg }) {
  say('Loading the detector…');
  /** @type {[TrackerModule, CalibrationModule, FrameModule]} */
  let vision;
  try {
    vision = await Promise.all([import(`${VISION}tracker.js`), import(`${VISION}calibration.js`), import(`${VISION}frame.js`)]);
  } catch {
    throw new Error(`no detector at ${VISION}`);
  }
  const [{ VisionTracker }, { calibrate, parseCorners }, { frameFromRgb, frameFromI420 }] = vision;
  const corners = parseCorners(cornersText);
  if (!corners.ok) throw new Error(`corners: ${corners.error}`);
  say('Connecting to the broker…');
  /** @type {MqttModule} */
  const { default: mqtt } = await import(MQTT_BROWSER_BUILD);
  const client = mqtt.connect(broker, { username, password, clientId: `tracker-${table}-${Math.random().toString(16).slice(2, 8)}`, reconnectPeriod: 2000 });
  await new Promise((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', (e) => reject(new Error(`broker: ${e.message}`)));
  });
  say('Opening the camera…');
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: fps }, facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  await video.play();
  const width = video.videoWidth & ~1;
  const height = video.videoHeight & ~1;
  // The corners are the cushion noses in the camera's pixels (as the hub's config `camera.corners`).
  /** The detector for a game (web/routes/tracker.ts, trackerDetector): calibrated on its table's size. @param {typeof game} g */
  const detectorFor = (g) => {
    const cal = calibrate({ width, height, corners: corners.value, table: g.table ?? { length: 2840, width: 1420 }, k1, ...(fovDeg !== undefined ? { fovDeg } : {}) });
    if (!cal.ok) throw new Error(`corners: ${cal.error}`);
    return new VisionTracker({
      calibration: cal.value,
      balls: g.balls ?? 'carom',
      ...(g.skittles ? { skittles: g.skittles } : {}),
      ...(g.initial ? { initial: g.initial } : {}),
      ...(g.pockets ? { pockets: g.pockets } : {}),
    });
  };
  let tracker = detectorFor(game);
  /** Another game started on the table: its detector, put in place between shots. @type {typeof game | null} */
  let nextGame = null;
  let moving = false;
  followGame((g) => (nextGame = g));
  const topic = `${base}/tables/${table}/tracker`;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this browser cannot read video frames (no 2D canvas)');
  let start = -1;
  let frames = 0;
  let messages = 0;
  let strikeT = 0;
  let busyMs = 0;
  const period = 1000 / (stream.getVideoTracks()[0]?.getSettings().frameRate || fps);
  /** Publishing runs behind the frames, in order, so a slow broker does not stall the camera. */
  let sending = Promise.resolve();
  say(`Tracking table ${table} at ${width}×${height}.`);
  root.dataset.running = 'true';
  /**
   * @param {number} at the frame's capture time (ms, any origin)
   * @param {CanvasImageSource} image the frame
   * @param {import('../../hub/vision/frame.ts').Frame} [yuv] the frame as the camera gave it, when the browser hands that out
   */
  const onFrame = (at, image, yuv) => {
    if (start < 0) start = at;
    // On the camera's frame grid: a camera exposes at a steady rate and its stamps jitter with the load of the
    // device that receives them; the tracker's speeds want the exposure times (a dropped frame stays a gap).
    const t = Math.round((at - start) / period) * period;
    const began = performance.now();
    let frame = yuv;
    if (!frame) {
      ctx.drawImage(image, 0, 0, width, height);
      frame = frameFromRgb(width, height, ctx.getImageData(0, 0, width, height).data, 4);
    }
    frames += 1;
    if (nextGame && !moving) {
      tracker = detectorFor(nextGame);
      game = nextGame;
      nextGame = null;
      byId('tracker-game').textContent = gameText(game);
    }
    const found = tracker.push(frame, t);
    tracker.trail.length = 0; // a live camera runs for hours: the whole-video trail (for overlays of files) is not kept
    for (const m of found) {
      if (m.type === 'strike') (strikeT = t), (moving = true);
      if (m.type === 'rest') moving = false;
      // The detector counts event times on the frames' clock; the hub counts them from the strike (CONTRACT §1.2).
      const out = m.type === 'shot' ? { ...m, shot: { ...m.shot, events: m.shot.events.map((e) => ({ ...e, t: Math.max(0, Math.round(e.t - strikeT)) })) } } : m;
      sending = sending
        .then(() => client.publishAsync(topic, JSON.stringify(out), { qos: 1 }))
        .then(() => {
          byId('tracker-messages').textContent = String(++messages);
        })
        .catch((e) => {
          say(`Error: ${e instanceof Error ? e.message : String(e)}`);
        });
    }
    busyMs += performance.now() - began;
    byId('tracker-frames').textContent = String(frames);
    byId('tracker-ms').textContent = (busyMs / frames).toFixed(1);
  };
  // Each frame the camera delivers, stamped with its capture time (the tracker's speeds and the events' times come from
  // these stamps). Where the browser hands out the camera's frames themselves (MediaStreamTrackProcessor), every one;
  // else each frame the video element shows (requestVideoFrameCallback); else a timer.
  /** @type {MediaStreamTrackProcessorCtor | undefined} */
  const Processor = /** @type {any} */ (globalThis).MediaStreamTrackProcessor;
  const track = stream.getVideoTracks()[0];
  /**
   * The camera's own YUV 4:2:0 (I420 or NV12), as the hub's detector reads it, with no round trip through RGB (whose
   * range and matrix are the browser's choice); null for another layout (then the canvas's RGB).
   * @param {VideoFrame} vf
   */
  const planes = async (vf) => {
    if (vf.format !== 'I420' && vf.format !== 'NV12') return undefined;
    const rect = { x: 0, y: 0, width, height };
    const buf = new Uint8Array(vf.allocationSize({ rect }));
    const layout = await vf.copyTo(buf, { rect });
    const cw = width >> 1, ch = height >> 1;
    const out = new Uint8Array(width * height + 2 * cw * ch);
    const [yl, ul, vl] = layout;
    if (!yl || !ul) return undefined;
    for (let r = 0; r < height; r++) out.set(buf.subarray(yl.offset + r * yl.stride, yl.offset + r * yl.stride + width), r * width);
    const u0 = width * height, v0 = u0 + cw * ch;
    for (let r = 0; r < ch; r++) {
      if (vf.format === 'I420' && vl) {
        out.set(buf.subarray(ul.offset + r * ul.stride, ul.offset + r * ul.stride + cw), u0 + r * cw);
        out.set(buf.subarray(vl.offset + r * vl.stride, vl.offset + r * vl.stride + cw), v0 + r * cw);
      } else {
        for (let c = 0; c < cw; c++) {
          out[u0 + r * cw + c] = buf[ul.offset + r * ul.stride + 2 * c] ?? 128;
          out[v0 + r * cw + c] = buf[ul.offset + r * ul.stride + 2 * c + 1] ?? 128;
        }
      }
    }
    return frameFromI420(width, height, out);
  };
  /** @param {unknown} e */
  const fail = (e) => say(`Error: ${e instanceof Error ? e.message : String(e)}`);
  if (Processor && track) {
    const reader = new Processor({ track }).readable.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done || !value) break;
      try {
        onFrame(value.timestamp / 1000, value, await planes(value));
      } catch (e) {
        fail(e);
      } finally {
        value.close();
      }
    }
  } else if ('requestVideoFrameCallback' in video) {
    /** @type {VideoFrameRequestCallback} */
    const next = (now, meta) => {
      try {
        onFrame(meta.captureTime ?? meta.expectedDisplayTime ?? now, video);
      } catch (e) {
        fail(e);
      }
      video.requestVideoFrameCallback(next);
    };
    video.requestVideoFrameCallback(next);
  } else {
    setInterval(() => onFrame(performance.now(), video), 1000 / fps);
  }
}

/**
 * The game on the table, followed while the page runs: the table's states (its SSE stream,
 * states only); when its match changes game, what the detector needs for it (balls, table,
 * skittles, pockets) is fetched and handed to `use`.
 * @param {(g: typeof game) => void} use
 */
function followGame(use) {
  let seen = '';
  const events = new EventSource(`/events/${encodeURIComponent(table)}?view=state`);
  events.addEventListener('state', async (ev) => {
    const match = JSON.parse(/** @type {MessageEvent} */ (ev).data)?.state?.match;
    if (!match) return;
    const key = JSON.stringify({ variant: match.variant, table: match.options?.table ?? null });
    if (key === seen) return;
    seen = key;
    const r = await fetch(`/tracker/${encodeURIComponent(table)}/detector`);
    if (!r.ok) return;
    const next = await r.json();
    // Another carom game on the same table needs no new detector (a new one would forget where the balls lie).
    if (JSON.stringify(next) !== JSON.stringify(game)) use(next);
  });
}
