// Referee console: every action is a CSRF-protected API call the server forwards to the hub over MQTT.
import { api, live, swap, toast } from './common.js';

const main = document.querySelector('main.referee');
const table = main.dataset.table;
const liveEl = document.getElementById('live');
const base = `/api/tables/${encodeURIComponent(table)}`;
let players = [];
let status = null;

async function send(path, body, done, button) {
  if (button) button.disabled = true;
  try {
    await api('POST', `${base}/${path}`, body);
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

live(`/events/${encodeURIComponent(table)}?view=referee`, {
  state: (msg) => {
    swap(liveEl, msg.html);
    fillPlayers(msg.state ? msg.state.players.map((p) => p.name) : []);
    status = msg.state ? msg.state.status : null;
  },
});

liveEl.addEventListener('click', (e) => {
  const b = e.target.closest('[data-action="ruling"]');
  if (!b) return;
  const referee = { ruling: b.dataset.ruling };
  if (b.dataset.option !== undefined) referee.option = Number(b.dataset.option);
  send('referee', { referee }, `Ruling sent: ${b.dataset.ruling}`, b);
});

const form = (id, handler) => {
  const f = document.getElementById(id);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    handler(new FormData(f), f.querySelector('button[type="submit"]'), f);
  });
};

form('start-form', (d, button) => {
  if ((status === 'playing' || status === 'awaiting-referee') && !confirm('A match is in progress on this table. Start a new one?')) return;
  const options = {};
  try {
    const extra = String(d.get('options') || '').trim();
    if (extra) Object.assign(options, JSON.parse(extra));
  } catch {
    toast('More options: not valid JSON', false);
    return;
  }
  const limit = String(d.get('inningsLimit') || '').trim();
  if (limit) options.inningsLimit = Number(limit);
  if (d.get('equalizingInning')) options.equalizingInning = true;
  const targets = String(d.get('targets') || '').trim();
  if (targets) options.targets = targets.split(/[,\s]+/).filter(Boolean).map(Number);
  const names = ['p1', 'p2', 'p3'].map((k) => String(d.get(k) || '').trim()).filter(Boolean);
  const body = { variant: d.get('variant'), players: names, target: Number(d.get('target')), options };
  send('match', body, `Match started: ${names.join(' v ')}`, button);
});

form('next-form', (d, button) => {
  const foul = d.get('foul');
  const declare = d.get('declare') || null;
  send('next-shot', { declare, fouls: foul ? [{ foul, by: d.get('by') }] : [] }, 'Set for the next shot', button);
});

form('adjust-form', (d, button, f) => {
  const referee = { action: 'adjust', player: d.get('player'), delta: Number(d.get('delta')), reason: String(d.get('reason') || '') };
  send('referee', { referee }, 'Score adjusted', button).then((ok) => ok && f.reset());
});

form('draw-form', (d, button) => {
  if (!confirm('Declare the match drawn?')) return;
  const reason = String(d.get('reason') || '').trim();
  send('referee', { referee: reason ? { action: 'draw', reason } : { action: 'draw' } }, 'Match drawn', button);
});

form('forfeit-form', (d, button) => {
  if (!confirm(`${d.get('player')} forfeits the match?`)) return;
  const reason = String(d.get('reason') || '').trim();
  const referee = { action: 'forfeit', player: d.get('player') };
  if (reason) referee.reason = reason;
  send('referee', { referee }, 'Forfeit recorded', button);
});

document.getElementById('undo').addEventListener('click', (e) => send('referee', { referee: { action: 'undo' } }, 'Undone', e.currentTarget));

// Manual shot entry: buttons append events in order.
const events = [];
const list = document.getElementById('manual-events');
function renderEvents() {
  list.replaceChildren(
    ...events.map((ev) => {
      const li = document.createElement('li');
      li.textContent = ev.kind === 'ball' ? `balls ${ev.balls.join('–')}` : ev.kind === 'cushion' ? `rail ${ev.rail}` : ev.kind === 'skittle' ? `skittle ${ev.skittle}` : `foul ${ev.foul}`;
      return li;
    }),
  );
}
document.querySelector('.builder').addEventListener('click', (e) => {
  const b = e.target.closest('[data-add]');
  if (!b) return;
  const kind = b.dataset.add;
  if (kind === 'ball') events.push({ kind, balls: [b.dataset.a, b.dataset.b] });
  if (kind === 'cushion') events.push({ kind, rail: b.dataset.rail });
  if (kind === 'skittle') events.push({ kind, skittle: b.dataset.skittle });
  if (kind === 'foul') events.push({ kind, foul: document.getElementById('manual-foul').value, by: 'shooter' });
  renderEvents();
});
document.getElementById('manual-clear').addEventListener('click', () => {
  events.length = 0;
  renderEvents();
});
document.getElementById('manual-send').addEventListener('click', async (e) => {
  const ok = await send('shot', { shot: { events: events.slice() } }, 'Shot entered', e.currentTarget);
  if (ok) {
    events.length = 0;
    renderEvents();
  }
});
