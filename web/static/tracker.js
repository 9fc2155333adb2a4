// @ts-check
// /tracker/:table (issue 16): the device camera → the detector → tracker messages over
// MQTT-over-WebSocket. The detector is a module exporting createFrameProcessor (the same
// FrameProcessor as the hub's camera worker: hub/camera/frame-processor.ts).
import { byId, one } from './common.js';

/**
 * The detector's side of the seam (hub/camera/frame-processor.ts, restated here: that
 * module's types reach Node-only ones) and the part of mqtt.js's client this page uses.
 * @typedef {{ type: 'strike' } | { type: 'rest' } | { type: 'shot', shot: import('../../hub/rules/events.ts').Shot }} TrackerMessage
 * @typedef {{ width: number, height: number, format: 'yuv420p', data: Uint8Array, t: number }} VideoFrame
 * @typedef {{ push(frame: VideoFrame): TrackerMessage[] }} FrameProcessor
 * @typedef {{ createFrameProcessor(options: { width: number, height: number, fps: number, options?: unknown }): FrameProcessor | Promise<FrameProcessor> }} ProcessorModule
 * @typedef {{ once(event: string, listener: (e: Error) => void): unknown, publishAsync(topic: string, message: string, options: { qos: 0 | 1 | 2 }): Promise<unknown> }} MqttClient
 * @typedef {{ default: { connect(url: string, options: Record<string, unknown>): MqttClient } }} MqttModule
 */

/** mqtt.js's browser build (web/routes/tracker.ts). */
const MQTT_BROWSER_BUILD = '/static/vendor/mqtt.esm.js';

const root = byId('tracker');
const form = byId('tracker-form', HTMLFormElement);
const status = byId('tracker-status');
const video = byId('tracker-video', HTMLVideoElement);
/** @param {string} text */
const say = (text) => (status.textContent = text);
const { table = '', base = '', processor: processorUrl = '' } = root.dataset;
/** @param {string} name a field of the form */
const field = (name) => one(`#tracker-form [name="${name}"]`, HTMLInputElement);
field('broker').value = localStorage.getItem('tracker.broker') ?? `ws://${location.hostname}:9001`;
field('username').value = localStorage.getItem('tracker.username') ?? `tracker-${table}`;

/**
 * RGBA pixels → yuv420p, full-range BT.601 with chroma averaged over 2×2 — as issue 15's
 * detector reads frames (hub/vision/frame.ts, frameFromRgb).
 */
/**
 * @param {Uint8ClampedArray} rgba
 * @param {number} width
 * @param {number} height
 */
export function rgbaToYuv420(rgba, width, height) {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  const out = new Uint8Array(width * height + 2 * cw * ch);
  const su = new Float32Array(cw * ch);
  const sv = new Float32Array(cw * ch);
  const sn = new Uint8Array(cw * ch);
  /** @param {number} x */
  const clamp = (x) => (x < 0 ? 0 : x > 255 ? 255 : Math.round(x));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      const r = rgba[i] ?? 0, g = rgba[i + 1] ?? 0, b = rgba[i + 2] ?? 0;
      out[y * width + x] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
      const k = (y >> 1) * cw + (x >> 1);
      su[k] = (su[k] ?? 0) - 0.168736 * r - 0.331264 * g + 0.5 * b;
      sv[k] = (sv[k] ?? 0) + 0.5 * r - 0.418688 * g - 0.081312 * b;
      sn[k] = (sn[k] ?? 0) + 1;
    }
  }
  const u0 = width * height;
  for (let k = 0; k < cw * ch; k++) {
    const n = sn[k] || 1;
    out[u0 + k] = clamp(128 + (su[k] ?? 0) / n);
    out[u0 + cw * ch + k] = clamp(128 + (sv[k] ?? 0) / n);
  }
  return out;
}

const startButton = one('#tracker-form button', HTMLButtonElement);
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  startButton.disabled = true;
  localStorage.setItem('tracker.broker', field('broker').value);
  localStorage.setItem('tracker.username', field('username').value);
  try {
    await run({ broker: field('broker').value, username: field('username').value, password: field('password').value, fps: Number(field('fps').value) || 30 });
  } catch (e) {
    say(`Stopped: ${e instanceof Error ? e.message : String(e)}`);
    startButton.disabled = false;
  }
});

/** @param {{ broker: string, username: string, password: string, fps: number }} settings */
async function run({ broker, username, password, fps }) {
  say('Loading the detector…');
  /** @type {ProcessorModule} */
  let mod;
  try {
    mod = await import(processorUrl);
  } catch {
    throw new Error(`no detector at ${processorUrl}`);
  }
  say('Opening the camera…');
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: fps }, facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  await video.play();
  const width = video.videoWidth & ~1;
  const height = video.videoHeight & ~1;
  const processor = await mod.createFrameProcessor({ width, height, fps, options: {} });
  say('Connecting to the broker…');
  /** @type {MqttModule} */
  const { default: mqtt } = await import(MQTT_BROWSER_BUILD);
  const client = mqtt.connect(broker, { username, password, clientId: `tracker-${table}-${Math.random().toString(16).slice(2, 8)}`, reconnectPeriod: 2000 });
  await new Promise((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', (e) => reject(new Error(`broker: ${e.message}`)));
  });
  const topic = `${base}/tables/${table}/tracker`;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this browser cannot read video frames (no 2D canvas)');
  const start = performance.now();
  let frames = 0;
  let messages = 0;
  let strikeT = 0;
  say(`Tracking table ${table} at ${width}×${height}.`);
  root.dataset.running = 'true';
  const tick = async () => {
    ctx.drawImage(video, 0, 0, width, height);
    const t = performance.now() - start;
    const data = rgbaToYuv420(ctx.getImageData(0, 0, width, height).data, width, height);
    frames += 1;
    for (const m of processor.push({ width, height, format: 'yuv420p', data, t })) {
      if (m.type === 'strike') strikeT = t;
      // The detector counts event times on the frames' clock; the hub counts them from the strike (CONTRACT §1.2).
      const out = m.type === 'shot' ? { ...m, shot: { ...m.shot, events: m.shot.events.map((e) => (typeof e.t === 'number' ? { ...e, t: Math.max(0, Math.round(e.t - strikeT)) } : e)) } } : m;
      await client.publishAsync(topic, JSON.stringify(out), { qos: 1 });
      messages += 1;
    }
    byId('tracker-frames').textContent = String(frames);
    byId('tracker-messages').textContent = String(messages);
  };
  let busy = false;
  setInterval(() => {
    if (busy) return; // a slow detector skips frames rather than queueing them
    busy = true;
    tick().catch((e) => say(`Error: ${e.message}`)).finally(() => (busy = false));
  }, 1000 / fps);
}
