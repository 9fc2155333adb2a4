// @ts-check
// The camera calibration page (issue 16): a live frame of the table's camera, the four
// cushion-nose corners clicked on it (or found by the hub), the table's lines drawn
// through them (computed by the hub: hub/vision/table-lines.ts), and Save.
import { api, byId, one, pageJson } from './common.js';

/**
 * @typedef {import('../../hub/vision/table-lines.ts').OverlayLine} OverlayLine
 * @typedef {import('../../hub/vision/table-lines.ts').LineKind} LineKind
 * @typedef {[number, number][]} Corners image pixels, head-left, foot-left, foot-right, head-right
 * @typedef {{ clickNext: string, checking: string, fits: string, saved: string, searching: string, found: string,
 *   refused: string, current: string, none: string, labels: string[], names: string[] }} CalibrationWords
 *   web/pages/calibration.ts calibrationBody: the client's words, `clickNext` a template with `{name}`
 */

const main = one('main.calibration');
const table = main.dataset.table || '';
/** @type {CalibrationWords} */
const t = pageJson('i18n');
const img = byId('cal-frame', HTMLImageElement);
const canvas = byId('cal-overlay', HTMLCanvasElement);
const msg = byId('cal-msg');
const saveButton = byId('cal-save', HTMLButtonElement);
const base = `/api/tables/${encodeURIComponent(table)}`;
/** @type {Record<LineKind, string>} */
const COLOURS = { cushion: '#00e5ff', diamond: '#ffffff', spot: '#ffe600', zone: '#ff4fd8' };

let size = { width: 0, height: 0 };
/** @type {Corners} */
let corners = [];
/** @type {OverlayLine[] | null} */
let lines = null;

/** @param {unknown} e */
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/**
 * @param {string} text
 * @param {boolean} [ok]
 */
function say(text, ok = true) {
  msg.textContent = text;
  msg.className = `big-msg ${ok ? 'ok' : 'bad'}`;
}

function showCorners() {
  for (let k = 0; k < 4; k++) {
    const el = document.querySelector(`#cal-corner-${k} .cal-xy`);
    const c = corners[k];
    if (el) el.textContent = c ? `${Math.round(c[0])}, ${Math.round(c[1])}` : '–';
  }
  saveButton.disabled = !(corners.length === 4 && lines);
}

function draw() {
  canvas.width = size.width;
  canvas.height = size.height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('page: no 2d context on #cal-overlay');
  g.clearRect(0, 0, canvas.width, canvas.height);
  const px = Math.max(1, size.width / 640);
  g.lineJoin = 'round';
  let drawn = 0;
  for (const line of lines || []) {
    if (line.points.length < 2) continue;
    g.strokeStyle = COLOURS[line.kind] || '#fff';
    g.lineWidth = (line.kind === 'cushion' ? 2 : 1.5) * px;
    g.beginPath();
    line.points.forEach(([x, y], i) => (i === 0 ? g.moveTo(x, y) : g.lineTo(x, y)));
    if (line.closed) g.closePath();
    g.stroke();
    drawn += 1;
  }
  corners.forEach(([x, y], k) => {
    g.fillStyle = '#ff3b30';
    g.beginPath();
    g.arc(x, y, 4 * px, 0, 2 * Math.PI);
    g.fill();
    g.font = `${Math.round(12 * px)}px sans-serif`;
    g.fillStyle = '#ffffff';
    g.fillText(t.labels[k] ?? '', x + 6 * px, y - 6 * px);
  });
  canvas.dataset.lines = String(drawn);
  canvas.dataset.corners = String(corners.length);
}

async function check() {
  say(t.checking);
  try {
    const r = await api('POST', `${base}/calibration/preview`, { corners });
    lines = r.lines;
    say(t.fits);
  } catch (e) {
    lines = null;
    say(`${t.refused} ${errorText(e)}`, false);
  }
  showCorners();
  draw();
}

function prompt() {
  if (corners.length < 4) say(t.clickNext.replace('{name}', t.names[corners.length] ?? ''));
}

canvas.addEventListener('click', (e) => {
  if (corners.length >= 4) {
    corners = [];
    lines = null;
  }
  const rect = canvas.getBoundingClientRect();
  const x = ((e.clientX - rect.left) * size.width) / rect.width;
  const y = ((e.clientY - rect.top) * size.height) / rect.height;
  corners.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  showCorners();
  draw();
  if (corners.length === 4) void check();
  else prompt();
});

byId('cal-clear').addEventListener('click', () => {
  corners = [];
  lines = null;
  showCorners();
  draw();
  prompt();
});

byId('cal-reload').addEventListener('click', () => loadFrame());

byId('cal-find').addEventListener('click', async () => {
  say(t.searching);
  try {
    const r = await api('POST', `${base}/calibration/find`);
    corners = r.corners;
    lines = r.lines;
    say(t.found);
  } catch (e) {
    say(errorText(e), false);
  }
  showCorners();
  draw();
});

saveButton.addEventListener('click', async () => {
  try {
    const r = await api('PUT', `${base}/calibration`, { corners });
    corners = r.corners;
    lines = r.lines;
    say(t.saved);
    main.dataset.saved = String(Date.now());
  } catch (e) {
    say(`${t.refused} ${errorText(e)}`, false);
  }
  showCorners();
  draw();
});

function loadFrame() {
  img.src = `${base}/camera/frame.png?at=${Date.now()}`;
}
img.addEventListener('load', () => {
  byId('cal-noframe').hidden = true;
  main.dataset.frame = 'loaded';
});
img.addEventListener('error', () => {
  byId('cal-noframe').hidden = false;
  setTimeout(loadFrame, 2000);
});

async function start() {
  const view = await api('GET', `${base}/calibration`);
  size = { width: view.width, height: view.height };
  corners = view.corners || [];
  lines = view.lines;
  showCorners();
  draw();
  if (corners.length === 4) say(t.current);
  else {
    corners = [];
    say(`${t.none} ${t.clickNext.replace('{name}', t.names[0] ?? '')}`);
  }
  loadFrame();
  main.dataset.ready = '1';
}

start().catch((e) => say(errorText(e), false));
