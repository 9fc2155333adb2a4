// @ts-check
// Referee console: every action is a CSRF-protected API call the server forwards to the hub over MQTT.
import { api, byId, live, one, pageJson, swap, toast } from './common.js';

/** @typedef {import('./common.js').TableState} TableState */

const main = one('main.referee');
const table = main.dataset.table || '';
const lang = main.dataset.lang || 'en';
/** @type {import('../i18n.ts').Messages['client']} the console's words, from the server (web/i18n.ts) */
const t = pageJson('i18n');
const liveEl = byId('live');
const base = `/api/tables/${encodeURIComponent(table)}`;
/** @type {string[]} */
let players = [];
/** @type {TableState['status'] | null} */
let status = null;
/** @type {TableState | null} */
let current = null;

/**
 * A console command; says how it went in the toast.
 * @param {string} path the table's API route (`referee`, `shot`…) or an absolute path
 * @param {unknown} body
 * @param {string} done what the toast says when it went through
 * @param {HTMLButtonElement | null} [button] disabled while the request runs
 * @returns {Promise<boolean>}
 */
async function send(path, body, done, button) {
  if (button) button.disabled = true;
  try {
    await api('POST', path.startsWith('/') ? path : `${base}/${path}`, body);
    toast(done, true);
    return true;
  } catch (e) {
    toast(e instanceof Error ? e.message : String(e), false);
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

/** @param {string[]} names */
function fillPlayers(names) {
  if (names.join('\n') === players.join('\n')) return;
  players = names;
  for (const select of document.querySelectorAll('select.player-select')) {
    if (!(select instanceof HTMLSelectElement)) continue;
    const current = select.value;
    select.replaceChildren(...names.map((n) => new Option(n, n, false, n === current)));
  }
}

// The manual-entry chips follow the game: a match of a family with other balls or skittles reloads the forms.
const builder = one('.builder');
const chipFamilies = (builder.dataset.families || '').split(' ');

live(`/events/${encodeURIComponent(table)}?view=referee&lang=${lang}`, {
  state: (msg) => {
    const hadPrompt = Boolean(document.getElementById('prompt'));
    swap(liveEl, msg.html);
    current = msg.state ?? null;
    fillPlayers(current ? current.players.map((p) => p.name) : []);
    status = current ? current.status : null;
    const f = current && current.family;
    if (f && !chipFamilies.includes(f)) location.reload();
    updateUndo();
    // A new decision (at the top of the page already): put the keyboard on it.
    const prompt = document.getElementById('prompt');
    if (prompt && !hadPrompt) {
      const selected = prompt.querySelector('.option.selected') || prompt.querySelector('.option');
      if (selected instanceof HTMLButtonElement) selected.focus({ preventScroll: true });
    }
  },
});

/**
 * One of the prompt's answers (web/pages/referee.ts: `data-ruling`, `data-option`).
 * @param {HTMLButtonElement} b
 */
function sendRuling(b) {
  /** @type {{ ruling: string | undefined, option?: number }} */
  const referee = { ruling: b.dataset.ruling };
  if (b.dataset.option !== undefined) referee.option = Number(b.dataset.option);
  send('referee', { referee }, `${t.rulingSent}: ${(b.querySelector('.o-text')?.textContent || '').trim()}`, b);
}

/**
 * The button an event happened in, if it is one matching the selector.
 * @param {Event} e
 * @param {string} selector
 * @returns {HTMLButtonElement | null}
 */
function buttonOf(e, selector) {
  const b = e.target instanceof Element ? e.target.closest(selector) : null;
  return b instanceof HTMLButtonElement ? b : null;
}

liveEl.addEventListener('click', (e) => {
  const b = buttonOf(e, '[data-action="ruling"]');
  if (b) sendRuling(b);
});

/** @param {HTMLButtonElement} b */
function select(b) {
  for (const o of document.querySelectorAll('#prompt .option')) {
    o.classList.toggle('selected', o === b);
    o.setAttribute('aria-pressed', o === b ? 'true' : 'false');
  }
  b.focus({ preventScroll: true });
}

// 1, 2, 3… choose an answer; Enter sends the chosen one. Not while typing in a form.
document.addEventListener('keydown', (e) => {
  const prompt = document.getElementById('prompt');
  if (!prompt || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target instanceof Element && e.target.closest('input, select, textarea')) return;
  if (/^[1-9]$/.test(e.key)) {
    const b = prompt.querySelector(`.option[data-key="${e.key}"]`);
    if (b instanceof HTMLButtonElement) {
      e.preventDefault();
      select(b);
    }
  } else if (e.key === 'Enter') {
    const b = prompt.querySelector('.option.selected');
    if (b instanceof HTMLButtonElement) {
      e.preventDefault();
      sendRuling(b);
    }
  }
});

// Undo names what it takes back and asks once, in place.
const undoBtn = byId('undo', HTMLButtonElement);
const undoBox = byId('undo-confirm');
function undoWhat() {
  const card = liveEl.querySelector('.state');
  return (card && card.getAttribute('data-undo')) || '';
}
function updateUndo() {
  const what = undoWhat();
  undoBtn.textContent = what ? `${t.confirmUndo}: ${what}` : undoBtn.dataset.nothing || '';
  undoBtn.disabled = !what;
  if (!what) undoBox.hidden = true;
}
undoBtn.addEventListener('click', () => {
  const what = undoWhat();
  if (!what) return toast(t.nothingToUndo, false);
  byId('undo-question').textContent = `${t.confirmUndo} ${what}?`;
  undoBox.hidden = false;
  byId('undo-yes').focus();
});
byId('undo-no').addEventListener('click', () => {
  undoBox.hidden = true;
});
const undoYes = byId('undo-yes', HTMLButtonElement);
undoYes.addEventListener('click', async () => {
  undoBox.hidden = true;
  await send('referee', { referee: { action: 'undo' } }, t.undone, undoYes);
});
updateUndo();

const nextFixture = document.getElementById('next-fixture');
if (nextFixture instanceof HTMLButtonElement) {
  nextFixture.addEventListener('click', async () => {
    if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
    const b = nextFixture;
    if (await send('/api/league/start-fixture', { fixture: b.dataset.fixture, table }, t.matchStarted, b)) b.hidden = true;
  });
}

const rematch = document.getElementById('rematch');
if (rematch instanceof HTMLButtonElement) {
  rematch.addEventListener('click', () => {
    const setup = current && current.match;
    if (!setup) return;
    if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
    send('match', { variant: setup.variant, players: setup.players, target: setup.target, options: setup.options || {} }, `${t.matchStarted}: ${setup.players.join(' – ')}`, rematch);
  });
}

/**
 * A console form: its fields go to the handler instead of a page load.
 * @param {string} id
 * @param {(data: FormData, button: HTMLButtonElement | null, form: HTMLFormElement) => void} handler
 */
const form = (id, handler) => {
  const f = byId(id, HTMLFormElement);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    const button = f.querySelector('button[type="submit"]');
    handler(new FormData(f), button instanceof HTMLButtonElement ? button : null, f);
  });
};

form('start-form', (d, button) => {
  if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
  /** @type {Record<string, unknown>} */
  const options = {};
  try {
    const extra = String(d.get('options') || '').trim();
    if (extra) Object.assign(options, JSON.parse(extra));
  } catch {
    toast(t.badJson, false);
    return;
  }
  const limit = String(d.get('inningsLimit') || '').trim();
  if (limit) options.inningsLimit = Number(limit);
  if (d.get('equalizingInning')) options.equalizingInning = true;
  const targets = String(d.get('targets') || '').trim();
  if (targets) options.targets = targets.split(/[,\s]+/).filter(Boolean).map(Number);
  const names = ['p1', 'p2', 'p3'].map((k) => String(d.get(k) || '').trim()).filter(Boolean);
  const body = { variant: d.get('variant'), players: names, target: Number(d.get('target')), options };
  send('match', body, `${t.matchStarted}: ${names.join(' – ')}`, button);
});

form('next-form', (d, button) => {
  const foul = d.get('foul');
  const declare = d.get('declare') || null;
  send('next-shot', { declare, fouls: foul ? [{ foul, by: d.get('by') }] : [] }, t.nextShotSaved, button);
});

form('adjust-form', (d, button, f) => {
  const referee = { action: 'adjust', player: d.get('player'), delta: Number(d.get('delta')), reason: String(d.get('reason') || '') };
  send('referee', { referee }, t.adjusted, button).then((ok) => ok && f.reset());
});

form('draw-form', (d, button) => {
  if (!confirm(t.confirmDraw)) return;
  const reason = String(d.get('reason') || '').trim();
  send('referee', { referee: reason ? { action: 'draw', reason } : { action: 'draw' } }, t.drawnDone, button);
});

form('forfeit-form', (d, button) => {
  if (!confirm(`${d.get('player')} ${t.confirmForfeit}`)) return;
  const reason = String(d.get('reason') || '').trim();
  /** @type {{ action: 'forfeit', player: FormDataEntryValue | null, reason?: string }} */
  const referee = { action: 'forfeit', player: d.get('player') };
  if (reason) referee.reason = reason;
  send('referee', { referee }, t.forfeitDone, button);
});


// Manual shot entry: buttons append events in order.
/** @type {({ label: string } & Record<string, unknown>)[]} the shot's events so far, each with what its chip said */
const events = [];
const list = byId('manual-events');
function renderEvents() {
  list.replaceChildren(
    ...events.map((ev) => {
      const li = document.createElement('li');
      li.textContent = ev.label;
      return li;
    }),
  );
}
builder.addEventListener('click', (e) => {
  const b = buttonOf(e, '[data-add]');
  if (!b) return;
  const kind = b.dataset.add;
  const foulSelect = byId('manual-foul', HTMLSelectElement);
  const label = kind === 'foul' ? `${t.foulBy}: ${foulSelect.options[foulSelect.selectedIndex]?.text ?? ''}` : b.textContent || '';
  if (kind === 'ball') events.push({ kind, balls: [b.dataset.a, b.dataset.b], label });
  if (kind === 'cushion') events.push({ kind, rail: b.dataset.rail, label });
  if (kind === 'skittle') events.push({ kind, skittle: b.dataset.skittle, label });
  if (kind === 'foul') events.push({ kind, foul: foulSelect.value, by: 'shooter', label });
  renderEvents();
});
byId('manual-clear').addEventListener('click', () => {
  events.length = 0;
  renderEvents();
});
const manualSend = byId('manual-send', HTMLButtonElement);
manualSend.addEventListener('click', async () => {
  const shot = events.map(({ label, ...ev }) => ev);
  const ok = await send('shot', { shot: { events: shot } }, t.shotEntered, manualSend);
  if (ok) {
    events.length = 0;
    renderEvents();
  }
});
