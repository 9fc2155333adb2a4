// Referee console: every action is a CSRF-protected API call the server forwards to the hub over MQTT.
import { api, live, swap, toast } from './common.js';

const main = document.querySelector('main.referee');
const table = main.dataset.table;
const lang = main.dataset.lang || 'en';
const t = JSON.parse(document.getElementById('i18n').textContent || '{}');
const liveEl = document.getElementById('live');
const base = `/api/tables/${encodeURIComponent(table)}`;
let players = [];
let status = null;
let current = null;

async function send(path, body, done, button) {
  if (button) button.disabled = true;
  try {
    await api('POST', path.startsWith('/') ? path : `${base}/${path}`, body);
    toast(done, true);
    return true;
  } catch (e) {
    toast(e.message, false);
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

function fillPlayers(names) {
  if (names.join('\n') === players.join('\n')) return;
  players = names;
  for (const select of document.querySelectorAll('select.player-select')) {
    const current = select.value;
    select.replaceChildren(...names.map((n) => new Option(n, n, false, n === current)));
  }
}

// The manual-entry chips follow the game: a match of a family with other balls or skittles reloads the forms.
const chipFamilies = document.querySelector('.builder').dataset.families.split(' ');

live(`/events/${encodeURIComponent(table)}?view=referee&lang=${lang}`, {
  state: (msg) => {
    const hadPrompt = Boolean(document.getElementById('prompt'));
    swap(liveEl, msg.html);
    current = msg.state;
    fillPlayers(msg.state ? msg.state.players.map((p) => p.name) : []);
    status = msg.state ? msg.state.status : null;
    const f = msg.state && msg.state.family;
    if (f && !chipFamilies.includes(f)) location.reload();
    updateUndo();
    // A new decision (at the top of the page already): put the keyboard on it.
    const prompt = document.getElementById('prompt');
    if (prompt && !hadPrompt) {
      const selected = prompt.querySelector('.option.selected') || prompt.querySelector('.option');
      if (selected) selected.focus({ preventScroll: true });
    }
  },
});

function sendRuling(b) {
  const referee = { ruling: b.dataset.ruling };
  if (b.dataset.option !== undefined) referee.option = Number(b.dataset.option);
  send('referee', { referee }, `${t.rulingSent}: ${b.querySelector('.o-text').textContent.trim()}`, b);
}

liveEl.addEventListener('click', (e) => {
  const b = e.target.closest('[data-action="ruling"]');
  if (b) sendRuling(b);
});

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
  if (e.target.closest && e.target.closest('input, select, textarea')) return;
  if (/^[1-9]$/.test(e.key)) {
    const b = prompt.querySelector(`.option[data-key="${e.key}"]`);
    if (b) {
      e.preventDefault();
      select(b);
    }
  } else if (e.key === 'Enter') {
    const b = prompt.querySelector('.option.selected');
    if (b) {
      e.preventDefault();
      sendRuling(b);
    }
  }
});

// Undo names what it takes back and asks once, in place.
const undoBtn = document.getElementById('undo');
const undoBox = document.getElementById('undo-confirm');
function undoWhat() {
  const card = liveEl.querySelector('.state');
  return card ? card.dataset.undo || '' : '';
}
function updateUndo() {
  const what = undoWhat();
  undoBtn.textContent = what ? `${t.confirmUndo}: ${what}` : undoBtn.dataset.nothing;
  undoBtn.disabled = !what;
  if (!what) undoBox.hidden = true;
}
undoBtn.addEventListener('click', () => {
  const what = undoWhat();
  if (!what) return toast(t.nothingToUndo, false);
  document.getElementById('undo-question').textContent = `${t.confirmUndo} ${what}?`;
  undoBox.hidden = false;
  document.getElementById('undo-yes').focus();
});
document.getElementById('undo-no').addEventListener('click', () => {
  undoBox.hidden = true;
});
document.getElementById('undo-yes').addEventListener('click', async (e) => {
  undoBox.hidden = true;
  await send('referee', { referee: { action: 'undo' } }, t.undone, e.currentTarget);
});
updateUndo();

const nextFixture = document.getElementById('next-fixture');
if (nextFixture) {
  nextFixture.addEventListener('click', async (e) => {
    if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
    const b = e.currentTarget;
    if (await send('/api/league/start-fixture', { fixture: b.dataset.fixture, table }, t.matchStarted, b)) b.hidden = true;
  });
}

const rematch = document.getElementById('rematch');
if (rematch) {
  rematch.addEventListener('click', (e) => {
    const setup = current && current.match;
    if (!setup) return;
    if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
    send('match', { variant: setup.variant, players: setup.players, target: setup.target, options: setup.options || {} }, `${t.matchStarted}: ${setup.players.join(' – ')}`, e.currentTarget);
  });
}

const form = (id, handler) => {
  const f = document.getElementById(id);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    handler(new FormData(f), f.querySelector('button[type="submit"]'), f);
  });
};

form('start-form', (d, button) => {
  if ((status === 'playing' || status === 'awaiting-referee') && !confirm(t.confirmRestart)) return;
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
  const referee = { action: 'forfeit', player: d.get('player') };
  if (reason) referee.reason = reason;
  send('referee', { referee }, t.forfeitDone, button);
});


// Manual shot entry: buttons append events in order.
const events = [];
const list = document.getElementById('manual-events');
function renderEvents() {
  list.replaceChildren(
    ...events.map((ev) => {
      const li = document.createElement('li');
      li.textContent = ev.label;
      return li;
    }),
  );
}
document.querySelector('.builder').addEventListener('click', (e) => {
  const b = e.target.closest('[data-add]');
  if (!b) return;
  const kind = b.dataset.add;
  const foulSelect = document.getElementById('manual-foul');
  const label = kind === 'foul' ? `${t.foulBy}: ${foulSelect.options[foulSelect.selectedIndex].text}` : b.textContent;
  if (kind === 'ball') events.push({ kind, balls: [b.dataset.a, b.dataset.b], label });
  if (kind === 'cushion') events.push({ kind, rail: b.dataset.rail, label });
  if (kind === 'skittle') events.push({ kind, skittle: b.dataset.skittle, label });
  if (kind === 'foul') events.push({ kind, foul: foulSelect.value, by: 'shooter', label });
  renderEvents();
});
document.getElementById('manual-clear').addEventListener('click', () => {
  events.length = 0;
  renderEvents();
});
document.getElementById('manual-send').addEventListener('click', async (e) => {
  const shot = events.map(({ label, ...ev }) => ev);
  const ok = await send('shot', { shot: { events: shot } }, t.shotEntered, e.currentTarget);
  if (ok) {
    events.length = 0;
    renderEvents();
  }
});
