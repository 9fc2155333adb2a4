// /tracker/:table (issue 16): the device camera → the detector → tracker messages over
// MQTT-over-WebSocket. The detector is a module exporting createFrameProcessor (the same
// FrameProcessor as the hub's camera worker: hub/camera/frame-processor.ts).
const root = document.getElementById('tracker');
const form = document.getElementById('tracker-form');
const status = document.getElementById('tracker-status');
const video = document.getElementById('tracker-video');
const say = (text) => (status.textContent = text);
const { table, base, processor: processorUrl } = root.dataset;
form.broker.value = localStorage.getItem('tracker.broker') ?? `ws://${location.hostname}:9001`;
form.username.value = localStorage.getItem('tracker.username') ?? `tracker-${table}`;

/**
 * RGBA pixels → yuv420p, full-range BT.601 with chroma averaged over 2×2 — as issue 15's
 * detector reads frames (hub/vision/frame.ts, frameFromRgb).
 */
export function rgbaToYuv420(rgba, width, height) {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  const out = new Uint8Array(width * height + 2 * cw * ch);
  const su = new Float32Array(cw * ch);
  const sv = new Float32Array(cw * ch);
  const sn = new Uint8Array(cw * ch);
  const clamp = (x) => (x < 0 ? 0 : x > 255 ? 255 : Math.round(x));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      const r = rgba[i], g = rgba[i + 1], b = rgba[i + 2];
      out[y * width + x] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
      const k = (y >> 1) * cw + (x >> 1);
      su[k] += -0.168736 * r - 0.331264 * g + 0.5 * b;
      sv[k] += 0.5 * r - 0.418688 * g - 0.081312 * b;
      sn[k] += 1;
    }
  }
  const u0 = width * height;
  for (let k = 0; k < cw * ch; k++) {
    out[u0 + k] = clamp(128 + su[k] / sn[k]);
    out[u0 + cw * ch + k] = clamp(128 + sv[k] / sn[k]);
  }
  return out;
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  form.querySelector('button').disabled = true;
  localStorage.setItem('tracker.broker', form.broker.value);
  localStorage.setItem('tracker.username', form.username.value);
  try {
    await run({ broker: form.broker.value, username: form.username.value, password: form.password.value, fps: Number(form.fps.value) || 30 });
  } catch (e) {
    say(`Stopped: ${e.message}`);
    form.querySelector('button').disabled = false;
  }
});

async function run({ broker, username, password, fps }) {
  say('Loading the detector…');
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
  const { default: mqtt } = await import('/static/vendor/mqtt.esm.js');
  const client = mqtt.connect(broker, { username, password, clientId: `tracker-${table}-${Math.random().toString(16).slice(2, 8)}`, reconnectPeriod: 2000 });
  await new Promise((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', (e) => reject(new Error(`broker: ${e.message}`)));
  });
  const topic = `${base}/tables/${table}/tracker`;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
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
    document.getElementById('tracker-frames').textContent = String(frames);
    document.getElementById('tracker-messages').textContent = String(messages);
  };
  let busy = false;
  setInterval(() => {
    if (busy) return; // a slow detector skips frames rather than queueing them
    busy = true;
    tick().catch((e) => say(`Error: ${e.message}`)).finally(() => (busy = false));
  }, 1000 / fps);
}
