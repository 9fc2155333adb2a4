import { FOUL_KINDS, RAILS, SKITTLES, VARIANT_IDS } from '../../hub/rules/ids.ts';
import { h, type Html } from '../html.ts';
import type { TableRecord, TableView } from '../store.ts';
import { rulesChips, shotText, statusText, variantName } from './scoreboard.ts';
import type { LooseEvent } from './shot-event.ts';


function eventText(e: LooseEvent): string {
  const b = (v: unknown) => (typeof v === 'string' ? v : '?');
  switch (e.kind) {
    case 'ball':
      return `balls ${Array.isArray(e.balls) ? e.balls.map(b).join(' – ') : '?'}`;
    case 'cushion':
      return `${b(e.rail)} rail, ball ${b(e.ball)}`;
    case 'skittle':
      return `skittle ${b(e.skittle)} down, by ${b(e.by)}`;
    case 'foul':
      return `foul ${b(e.foul)} (${b(e.by)})`;
    default:
      return `${b(e.kind)}${e.ball !== undefined ? ` ${b(e.ball)}` : ''}`;
  }
}

/** The shot's events as evidence, the undetermined ones marked. */
function evidence(rec: TableRecord, unknown: ReadonlySet<number>): Html {
  const events = (rec.lastShot?.events ?? []).filter((e): e is LooseEvent => typeof e === 'object' && e !== null);
  if (events.length === 0) return h``;
  return h`<h3>The shot, as the sensors saw it</h3><ol class="evidence">${events.map(
    (e, i) => h`<li class="${unknown.has(i) ? 'unknown' : ''}"><span class="ev-t">${typeof e.t === 'number' ? `${(e.t / 1000).toFixed(2)} s` : ''}</span> ${eventText(e)}${unknown.has(i) ? h` <strong>← undetermined</strong>` : ''}</li>`,
  )}</ol>`;
}

function promptCard(s: TableView, rec: TableRecord): Html {
  const p = s.prompt;
  if (!p) return h``;
  return h`<section class="card prompt" id="prompt">
  <h2>Decision needed</h2>
  <p class="question">${p.question}</p>
  ${evidence(rec, new Set(p.facts.map((f) => f.event)))}
  ${p.facts.length > 0 ? h`<h3>Undetermined facts</h3><ul class="facts">${p.facts.map((f) => h`<li>Event ${f.event + 1} (${f.kind}): ${f.field} is one of <strong>${f.candidates.join(' / ')}</strong></li>`)}</ul>` : ''}
  ${p.rules.length > 0 ? h`<p>Rules: ${rulesChips(p.rules)}</p>` : ''}
  <div class="options">${p.options.map(
    (o) => h`<button type="button" class="btn option ruling-${o.ruling}" data-action="ruling" data-ruling="${o.ruling}" data-option="${o.index}">
      <span class="o-main">${o.ruling === 'score' ? 'Score' : o.ruling === 'no-score' ? 'No score' : 'Foul'}${o.points ? ` · ${o.points} ${o.points === 1 ? 'point' : 'points'}` : ''}${o.foul ? ` · ${o.foul}` : ''}</span>
      <span class="o-sub">${o.turnPasses ? 'turn passes' : 'player continues'}${o.assumption ? h` · if ${o.assumption}` : ''}</span>
      ${rulesChips(o.rules)}
    </button>`,
  )}</div>
</section>`;
}

/** The live part of the console: state, prompt, recent shots. */
export function refereeFragment(rec: TableRecord | undefined, table: string): Html {
  const s = rec?.state;
  if (!s || s.status === 'idle') return h`<section class="card" data-status="idle"><h2>Table ${table}</h2><p class="muted">No match on this table. Start one.</p></section>`;
  const next = s.nextShot;
  return h`<section class="card state" data-seq="${s.seq}" data-status="${s.status}">
  <h2>Table ${s.table} · ${variantName(s.variant)} <span class="badge status-${s.status}">${statusText(s)}</span>${s.simulated ? h` <span class="badge sim">SIMULATED</span>` : ''}</h2>
  <table class="score-table"><thead><tr><th></th><th>Player</th><th>Score</th><th>Target</th><th>Run</th><th>Inn.</th><th>Avg</th><th>HR</th></tr></thead>
  <tbody>${s.players.map((p) => h`<tr class="${s.turn === p.name ? 'active' : ''}"><td>${s.turn === p.name ? '▶' : ''}</td><td>${p.name}</td><td class="num big">${p.score}</td><td class="num">${p.target}</td><td class="num">${p.run}</td><td class="num">${p.innings}</td><td class="num">${p.average === null ? '—' : p.average.toFixed(3)}</td><td class="num">${p.highRun}</td></tr>`)}</tbody></table>
  ${(s.pendingShots ?? 0) > 0 ? h`<p class="pending">${s.pendingShots} shot${s.pendingShots === 1 ? '' : 's'} from the sensors waiting behind the open decision.</p>` : ''}
  ${next && (next.declare || next.fouls.length > 0) ? h`<p class="pending">Next shot: ${next.declare ? `declared ${next.declare}` : ''} ${next.fouls.map((f) => `${f.foul} (${f.by})`).join(', ')}</p>` : ''}
  <h3>Recent shots (${s.shotCount} in all)</h3>
  <ol class="shots" start="${Math.max(1, s.shotCount - s.shots.length + 1)}">${s.shots
    .slice(-8)
    .map((x) => h`<li class="${x.foul ? 'foul' : x.points > 0 ? 'scored' : ''}">${shotText(x)} ${rulesChips(x.rules)}${x.turnPasses ? ' · turn passes' : ''}</li>`)}</ol>
</section>
${promptCard(s, rec!)}`;
}

const options = (values: readonly string[], selected?: string) => values.map((v) => h`<option value="${v}"${v === selected ? ' selected' : ''}>${v}</option>`);

/** The forms of the console (static; the script fills player lists from the live state). */
export function refereeForms(table: string): Html {
  return h`<section class="card" id="start-card">
  <h2>Start a match</h2>
  <form id="start-form" class="form-grid">
    <label>Game <select name="variant">${VARIANT_IDS.map((v) => h`<option value="${v}"${v === 'three-cushion' ? ' selected' : ''}>${variantName(v)}</option>`)}</select></label>
    <label>Target <input name="target" type="number" min="1" max="100000" value="15" required></label>
    <label>Player 1 (breaks) <input name="p1" required maxlength="60" autocomplete="off"></label>
    <label>Player 2 <input name="p2" required maxlength="60" autocomplete="off"></label>
    <label>Player 3 (optional) <input name="p3" maxlength="60" autocomplete="off"></label>
    <label>Innings limit <input name="inningsLimit" type="number" min="1" placeholder="none"></label>
    <label>Handicap targets <input name="targets" placeholder="e.g. 30,20" autocomplete="off"></label>
    <label class="check"><input name="equalizingInning" type="checkbox"> Equalizing inning</label>
    <label class="wide">More options (JSON) <input name="options" placeholder='{"safetiesAllowed": false}' autocomplete="off"></label>
    <button class="btn primary" type="submit">Start match</button>
  </form>
</section>
<section class="card">
  <h2>Next shot</h2>
  <form id="next-form" class="form-grid">
    <label>Declaration <select name="declare"><option value="">none</option><option value="safety">safety</option><option value="carom">called carom</option></select></label>
    <label>Foul <select name="foul"><option value="">none</option>${options(FOUL_KINDS)}</select></label>
    <label>Foul by <select name="by"><option value="shooter">shooter</option><option value="opponent">opponent</option></select></label>
    <button class="btn" type="submit">Set for next shot</button>
  </form>
</section>
<section class="card">
  <h2>Enter a shot by hand</h2>
  <div class="builder">
    <div class="row"><span class="lbl">Balls</span>${['white', 'yellow', 'red'].flatMap((a, i, all) => all.slice(i + 1).map((b) => h`<button type="button" class="btn chip" data-add="ball" data-a="${a}" data-b="${b}">${a}–${b}</button>`))}${['one', 'two'].map((b) => h`<button type="button" class="btn chip" data-add="ball" data-a="cue" data-b="${b}">cue–${b}</button>`)}</div>
    <div class="row"><span class="lbl">Rails</span>${RAILS.map((r) => h`<button type="button" class="btn chip" data-add="cushion" data-rail="${r}">${r}</button>`)}</div>
    <div class="row"><span class="lbl">Skittles</span>${SKITTLES.map((k) => h`<button type="button" class="btn chip" data-add="skittle" data-skittle="${k}">${k}</button>`)}</div>
    <div class="row"><span class="lbl">Foul</span><select id="manual-foul">${options(FOUL_KINDS)}</select><button type="button" class="btn chip" data-add="foul">add foul</button></div>
    <ol id="manual-events" class="manual-events"></ol>
    <div class="row"><button type="button" class="btn" id="manual-clear">Clear</button><button type="button" class="btn primary" id="manual-send">Send shot</button></div>
  </div>
</section>
<section class="card">
  <h2>Corrections</h2>
  <div class="row"><button type="button" class="btn warn" id="undo">Undo last shot or ruling</button></div>
  <form id="adjust-form" class="form-grid">
    <label>Player <select name="player" class="player-select"></select></label>
    <label>Change <input name="delta" type="number" step="1" required placeholder="-1"></label>
    <label class="wide">Reason <input name="reason" required maxlength="200" placeholder="scorer error"></label>
    <button class="btn" type="submit">Adjust score</button>
  </form>
</section>
<section class="card">
  <h2>End the match</h2>
  <form id="draw-form" class="form-grid"><label class="wide">Reason <input name="reason" maxlength="200"></label><button class="btn warn" type="submit">Declare a draw</button></form>
  <form id="forfeit-form" class="form-grid"><label>Player who forfeits <select name="player" class="player-select"></select></label><label class="wide">Reason <input name="reason" maxlength="200"></label><button class="btn danger" type="submit">Forfeit</button></form>
</section>
<section class="card">
  <h2>Export the match log</h2>
  <div class="row"><a class="btn" href="/api/tables/${table}/export?format=jsonl" download>Download JSONL</a><a class="btn" href="/api/tables/${table}/export?format=csv" download>Download CSV</a></div>
</section>`;
}
