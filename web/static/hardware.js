// @ts-check
// Hardware page: live sensor hits, amplitudes, thresholds sent to the board, guided tap test.
import { api, byId, live, one, pageJson, toast } from './common.js';

/** @typedef {Extract<import('./common.js').TableEvent, { type: 'sensor' }>} SensorEvent */

/** @type {import('../i18n.ts').Messages['hw']} the page's words, from the server (web/i18n.ts) */
const t = pageJson('i18n');
const main = one('main.hw');
const table = main.dataset.table || '';
/** @type {Map<number, number>} hits per channel */
const hits = new Map();
const log = byId('sensor-log');
/** @type {WeakMap<Element, ReturnType<typeof setTimeout>>} each lit element's pending switch-off */
const lit = new WeakMap();

/**
 * @param {Element | null} el
 * @param {number} [ms]
 */
function flash(el, ms = 400) {
  if (!el) return;
  el.classList.add('hit');
  clearTimeout(lit.get(el));
  lit.set(el, setTimeout(() => el.classList.remove('hit'), ms));
}

// Impact channels: 0–5 rail piezos (the hub says which rail), 6 ball contact.
/** @param {SensorEvent} ev */
function channelOf(ev) {
  if (typeof ev.channel === 'number') return ev.channel;
  if (ev.sensor === 'click') return 6;
  return null;
}

/**
 * @param {number | 'vibration'} id
 * @param {number} value
 */
function meter(id, value) {
  const bar = document.getElementById(`bar-${id}`);
  if (bar) bar.style.width = `${Math.min(100, (value / 255) * 100)}%`;
  const label = document.getElementById(`amp-${id}`);
  if (label) label.textContent = String(value);
}

// Tap test state: the rail being asked for, and the results.
const order = ['head', 'foot', 'left', 'right'];
let testIndex = -1;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let testTimer;
const msg = byId('taptest-msg');
const items = [...document.querySelectorAll('#taptest li')].filter((li) => li instanceof HTMLElement);

function ask() {
  clearTimeout(testTimer);
  document.querySelectorAll('.rail.expected').forEach((r) => r.classList.remove('expected'));
  if (testIndex >= order.length) {
    const failed = items.filter((li) => li.classList.contains('fail')).length;
    msg.textContent = failed === 0 ? t.passed : `${t.failed} ${failed}`;
    testIndex = -1;
    return;
  }
  const rail = order[testIndex];
  items.forEach((li, i) => li.classList.toggle('current', i === testIndex));
  document.getElementById(`rail-${rail}`)?.classList.add('expected');
  msg.textContent = `${t.tapNow} ${items[testIndex]?.dataset.name}…`;
  testTimer = setTimeout(() => result(false, t.noHit), 10_000);
}

/**
 * @param {boolean} pass
 * @param {string} detail
 */
function result(pass, detail) {
  const li = items[testIndex];
  if (!li) return;
  li.classList.remove('current');
  li.classList.add(pass ? 'pass' : 'fail');
  setState(li, pass ? `${t.ok} (${detail})` : `${t.failedWord}: ${detail}`);
  testIndex += 1;
  ask();
}

/**
 * A rail's line of the tap test: what happened to it.
 * @param {HTMLElement} li
 * @param {string} text
 */
function setState(li, text) {
  const state = li.querySelector('.tt-state');
  if (state) state.textContent = text;
}

byId('taptest-start').addEventListener('click', () => {
  items.forEach((li) => {
    li.classList.remove('pass', 'fail');
    setState(li, t.notTested);
  });
  testIndex = 0;
  ask();
});

// Calibration from data: amplitudes per channel while recording noise, and of tap-test knocks.
/** @type {Map<number, number[]>} amplitudes per channel while recording noise */
const noise = new Map();
/** @type {Map<number, number[]>} amplitudes per channel of tap-test knocks */
const knocks = new Map();
/** @type {number | null} */
let noiseSince = null;
let noiseMs = 0;
const noiseButton = byId('noise-record');
noiseButton.addEventListener('click', () => {
  if (noiseSince === null) {
    noise.clear();
    noiseMs = 0;
    noiseSince = Date.now();
    noiseButton.textContent = t.stopRecording;
  } else {
    noiseMs = Date.now() - noiseSince;
    noiseSince = null;
    noiseButton.textContent = t.recordNoise;
  }
});

/**
 * @param {Map<number, number[]>} map
 * @param {number} ch
 * @param {number} amplitude
 */
function note(map, ch, amplitude) {
  const list = map.get(ch) ?? [];
  list.push(amplitude);
  map.set(ch, list);
}

/**
 * @param {string} id
 * @param {string} text
 */
function show(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
}

/**
 * Threshold per channel: at least twice the loudest noise (the firmware's onset level is
 * half the threshold) and at least 15, below 70 % of the softest knock. The false-hit
 * rate is the recorded noise hits at or above it, per hour of recording.
 */
function propose() {
  const ms = noiseSince === null ? noiseMs : Date.now() - noiseSince;
  for (let ch = 0; ch <= 6; ch++) {
    const n = noise.get(ch) || [];
    const k = knocks.get(ch) || [];
    const peak = n.length ? Math.max(...n) : 0;
    const softest = k.length ? Math.min(...k) : null;
    show(`noise-${ch}`, n.length ? String(peak) : '0');
    show(`knock-${ch}`, softest === null ? '–' : String(softest));
    if (softest === null) continue; // no knock seen: keep the channel's setting
    const low = Math.max(15, 2 * peak);
    const high = Math.floor(0.7 * softest);
    const value = Math.min(255, low <= high ? low : high);
    const above = n.filter((a) => a >= value).length;
    show(`proposal-${ch}`, low <= high ? String(value) : `${value} (${t.noCleanGap})`);
    show(`rate-${ch}`, ms > 0 ? `${above} ${t.inSeconds} ${(ms / 1000).toFixed(0)} s ≈ ${Math.round((above * 3_600_000) / ms)}/h` : `${above}`);
    const input = document.querySelector(`input[name="threshold-${ch}"]`);
    if (input instanceof HTMLInputElement) input.value = String(value);
  }
}
byId('propose').addEventListener('click', propose);

/** @param {import('./common.js').TableEvent} ev */
function onEvent(ev) {
  if (ev.type !== 'sensor') return;
  const ch = channelOf(ev);
  if (ch !== null && typeof ev.amplitude === 'number') {
    if (noiseSince !== null) note(noise, ch, ev.amplitude);
    else if (testIndex >= 0) note(knocks, ch, ev.amplitude);
  }
  if (ev.sensor === 'rail-hit' && ev.rail) flash(document.getElementById(`rail-${ev.rail}`));
  if (ev.sensor === 'click') flash(document.getElementById('ball-click'));
  if (ev.sensor === 'skittle' && ev.skittle) flash(document.getElementById(`sk-${ev.skittle}`), ev.state === 'down' ? 1500 : 250);
  if (ch !== null) {
    hits.set(ch, (hits.get(ch) || 0) + 1);
    const count = document.getElementById(`hits-${ch}`);
    if (count) count.textContent = String(hits.get(ch));
    if (typeof ev.amplitude === 'number') meter(ch, ev.amplitude);
  }
  if (ev.sensor === 'vibration' && typeof ev.level === 'number') meter('vibration', ev.level);
  const li = document.createElement('li');
  const parts = [new Date(ev.at).toLocaleTimeString(), ev.sensor, ev.rail, ev.skittle, ev.state, ch !== null ? `ch${ch}` : null, typeof ev.amplitude === 'number' ? `amp ${ev.amplitude}` : null, typeof ev.level === 'number' ? `level ${ev.level}` : null];
  li.textContent = parts.filter((p) => p !== null && p !== undefined && p !== '').join(' ');
  log.prepend(li);
  while (log.children.length > 50) log.lastElementChild?.remove();
  if (testIndex >= 0 && ev.sensor === 'rail-hit') {
    const want = order[testIndex];
    if (ev.rail === want) result(true, `${t.channel} ${ch}${typeof ev.amplitude === 'number' ? `, ${t.amplitude} ${ev.amplitude}` : ''}`);
    else result(false, `${t.cameAs} ${ev.rail || '?'} (${t.channel} ${ch})`);
  }
}

/** Which of the hub's settings the board has acknowledged since it last booted (table health `board`). */
/** @param {import('./common.js').StateMessage} msg */
function onState(msg) {
  showScoring(msg && msg.health && msg.health.scoring);
  const b = msg && msg.health && msg.health.board;
  const el = document.getElementById('board-settings');
  if (!b || !el) return;
  const pending = b.unconfirmed.length ? ` ${t.notInForce} ${b.unconfirmed.join(', ')}.` : '';
  el.textContent =
    t.boardSettings.replace('{boot}', String(b.bootId ?? '?')).replace('{confirmed}', String(b.confirmed)).replace('{pending}', String(b.pending)).replace('{rejected}', String(b.rejected)).replace('{unsupported}', String(b.unsupported)) + pending;
  el.className = b.pending || b.rejected ? 'warn' : 'muted';
}

/**
 * Who scores this table (health `scoring`); camera alone is flagged: the board's hits decide nothing.
 * @param {unknown} mode
 */
function showScoring(mode) {
  const el = document.getElementById('scoring-mode');
  if (!el || typeof mode !== 'string') return;
  el.hidden = false;
  el.textContent = t.scoring.replace('{mode}', t[/** @type {`mode-${'sensors' | 'tracker' | 'camera' | 'camera+sensors'}`} */ (`mode-${mode}`)] || mode) + (mode === 'camera' ? ` — ${t.cameraAlone}` : '');
  el.className = mode === 'camera' ? 'warn' : 'muted';
}

live(`/events/${encodeURIComponent(table)}`, { event: onEvent, state: onState });

const tf = byId('thresholds-form', HTMLFormElement);
tf.addEventListener('submit', async (e) => {
  e.preventDefault();
  const d = new FormData(tf);
  const channels = [0, 1, 2, 3, 4, 5, 6].map((channel) => ({
    channel,
    threshold: Number(d.get(`threshold-${channel}`)),
    refractoryMs: Number(d.get(`refractory-${channel}`)),
  }));
  const button = one('#thresholds-form button', HTMLButtonElement);
  button.disabled = true;
  try {
    await api('POST', `/api/tables/${encodeURIComponent(table)}/thresholds`, { channels });
    toast(t.sent, true);
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), false);
  } finally {
    button.disabled = false;
  }
});
