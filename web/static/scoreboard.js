// @ts-check
// Scoreboard and overlay: live state, shot clock (?clock=40&ext=1&warn=10), spoken scores (?speak=1).
import { config, live, swap } from './common.js';

/**
 * The display's settings (web/routes/pages.ts): shot clock seconds, extensions, warning, speech.
 * @typedef {{ table: string, view: string, lang?: string, clock: number, ext: number, warn: number, speak: boolean, say?: { game: string, referee: string, toPlay: string } }} DisplayConfig
 * @typedef {import('./common.js').TableState} TableState
 */

/** @type {DisplayConfig} */
const cfg = config();
const liveEl = document.getElementById('live');
/** @type {TableState | null} */
let state = null;

const clockEl = document.getElementById('shotclock');
/** @type {Map<string, number>} extensions taken per player's turn */
const extensionsUsed = new Map();
/** @type {number | null} */
let clockStart = null;
let clockExtra = 0;

function clockKey() {
  return state && state.turn ? `${state.table}:${(state.match && state.match.players || []).join(',')}:${state.turn}` : null;
}

/**
 * @param {HTMLElement} parent
 * @param {string} selector
 * @param {string} value
 */
function text(parent, selector, value) {
  const el = parent.querySelector(selector);
  if (el) el.textContent = value;
}

function tick() {
  if (!clockEl) return;
  const running = state && state.status === 'playing' && clockStart !== null;
  clockEl.hidden = !running;
  document.body.classList.toggle('has-clock', Boolean(running));
  if (!running || clockStart === null) return;
  const elapsed = (Date.now() - clockStart) / 1000;
  const left = Math.max(0, Math.ceil(cfg.clock + clockExtra - elapsed));
  text(clockEl, '.sc-time', String(left));
  const key = clockKey();
  const used = key ? extensionsUsed.get(key) || 0 : 0;
  text(clockEl, '.sc-ext', cfg.ext > 0 ? `ext ${cfg.ext - used}` : '');
  clockEl.classList.toggle('warning', left > 0 && left <= cfg.warn);
  clockEl.classList.toggle('expired', left === 0);
}

function takeExtension() {
  const key = clockKey();
  if (!key || !cfg.ext) return;
  const used = extensionsUsed.get(key) || 0;
  if (used >= cfg.ext) return;
  extensionsUsed.set(key, used + 1);
  clockExtra += cfg.clock;
  tick();
}

if (clockEl) {
  setInterval(tick, 200);
  clockEl.addEventListener('click', takeExtension);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'e' || e.key === 'E') takeExtension();
  });
}

/**
 * @param {TableState | null} prev
 * @param {TableState} next
 */
function speak(prev, next) {
  if (!cfg.speak || !('speechSynthesis' in window) || !prev || !next) return;
  if (next.seq <= prev.seq) return;
  const parts = [];
  const say = cfg.say || { game: 'Game. {name} wins.', referee: 'Referee decision.', toPlay: '{name} to play.' };
  if (next.status === 'finished' && next.winner) parts.push(say.game.replace('{name}', next.winner));
  else if (next.status === 'awaiting-referee') parts.push(say.referee);
  for (const p of next.players) {
    const before = prev.players.find((q) => q.name === p.name);
    if (!before || before.score !== p.score) parts.push(`${p.name}, ${p.score}.`);
  }
  if (parts.length === 0 && next.turn && next.turn !== prev.turn) parts.push(say.toPlay.replace('{name}', next.turn));
  if (parts.length === 0) return;
  const u = new SpeechSynthesisUtterance(parts.join(' '));
  u.lang = cfg.lang === 'ru' ? 'ru-RU' : 'en-GB';
  u.rate = 0.95;
  window.speechSynthesis.speak(u);
}

/** @param {import('./common.js').StateMessage} msg */
function onState(msg) {
  const next = msg.state ?? null;
  if (msg.html !== undefined) swap(liveEl, msg.html);
  const announce = document.getElementById('announce');
  if (announce && typeof msg.say === 'string' && announce.textContent !== msg.say) announce.textContent = msg.say;
  const prev = state;
  state = next;
  if (!next) return;
  speak(prev, next);
  const started = next.lastShotEndedAt ? Date.parse(next.lastShotEndedAt) : null;
  const changedTurnOrShot = !prev || prev.lastShotEndedAt !== next.lastShotEndedAt || prev.turn !== next.turn;
  if (changedTurnOrShot) {
    clockStart = started !== null && Number.isFinite(started) ? started : next.shotCount === 0 ? Date.now() : null;
    clockExtra = 0;
  }
  tick();
}

live(`/events/${encodeURIComponent(cfg.table)}?view=${cfg.view}&lang=${cfg.lang || 'en'}`, { state: onState });

// The match clock: the server renders it, this keeps it ticking between state changes.
/** @param {number} ms */
function clockText(ms) {
  const t = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
setInterval(() => {
  for (const el of document.querySelectorAll('.match-clock[data-since]')) el.textContent = clockText(Date.now() - Number(el.getAttribute('data-since')));
}, 1000);
