import { FOUL_KINDS, RAILS } from '../../hub/rules/ids.ts';
import { CATALOGUE, DEFAULT_VARIANT, GAME_FAMILIES, gameEntry, VARIANT_IDS, type GameEntry } from '../../hub/rules/catalogue.ts';
import { html } from 'hono/html';
import type { Html } from './layout.ts';
import { messages, named, type Lang, type Messages } from '../i18n.ts';
import type { TableRecord, TableView } from '../store.ts';
import { adjustmentLine, rulesChips, shotLine, statusText, tableName, variantName } from './scoreboard.ts';
import type { LooseEvent } from './shot-event.ts';

type PromptOption = NonNullable<TableView['prompt']>['options'][number] & { likelihood?: number };
type Condition = NonNullable<PromptOption['when']>[number];
type Fact = { event: number; kind: string; field: string; candidates: string[] };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const seconds = (e: LooseEvent | undefined, m: Messages) => (e && typeof e.t === 'number' && e.t > 0 ? m.atTime((e.t / 1000).toFixed(2)) : '');

/** One event of the shot in words ("white hit the foot rail"), "(maybe)" when the camera could not tell it happened. */
function eventText(e: LooseEvent, m: Messages, cueBall: string | null = null): string {
  const text = eventWords(e, m, cueBall);
  return e.maybe === true ? `${text} ${m.maybeMark}` : text;
}

function eventWords(e: LooseEvent, m: Messages, cueBall: string | null): string {
  const ball = (v: unknown) => (str(v) ? named(m.ball, str(v) === cueBall ? 'cue' : str(v)!) : m.unknownBall);
  switch (e.kind) {
    case 'ball': {
      const [a, b] = Array.isArray(e.balls) ? e.balls : [];
      return m.evBalls(ball(a), ball(b));
    }
    case 'cushion':
      return m.evRail(named(m.rail, str(e.rail) ?? '?'), ball(e.ball));
    case 'skittle':
      return m.evSkittle(named(m.skittle, str(e.skittle) ?? '?'), ball(e.by));
    case 'foul':
      return m.evFoul(named(m.foul, str(e.foul) ?? '?'));
    default:
      return str(e.kind) ?? '?';
  }
}

function shotEvents(rec: TableRecord): LooseEvent[] {
  const shot = rec.promptShot ?? rec.lastShot;
  return (shot?.events ?? []).filter((e): e is LooseEvent => typeof e === 'object' && e !== null);
}

/** A maybe event's "did not happen" (hub/rules/worlds.ts DID_NOT_HAPPEN) in words, by the fact's field. */
const NONE = 'none';
const noneText = (field: string, m: Messages, kind?: unknown) => (field === 'balls' ? m.noneBalls : field === 'by' ? m.noneFelled : kind === 'pocket' || kind === 'off-table' ? m.noneGone : m.noneRail);

/** The prompt as one question a referee would ask: about the first undetermined contact, in its context. */
export function plainQuestion(facts: readonly Fact[], events: readonly LooseEvent[], m: Messages, cueBall: string | null = null): string {
  const onEvents = facts.filter((f) => f.event >= 0 && f.event < events.length);
  const f = onEvents[0];
  if (!f) return `${m.qHowEnd} ${facts.length > 0 ? m.qDepends : m.qTooMany}`;
  const e = events[f.event]!;
  const prev = events.slice(0, f.event).reverse().find((p) => !(p.kind === 'cushion' && p.ball == null) && p.kind !== 'foul');
  const after = prev ? m.qAfter(eventText(prev, m, cueBall)) : '';
  // The candidates end the question: "…: white or red?" (ball pairs come as "white+red").
  const choices = ` ${m.qChoices(f.candidates.map((c) => (c === NONE ? noneText(f.field, m, e.kind) : c.split('+').map((b) => named(m.ball, b === cueBall ? 'cue' : b)).join(` ${m.and} `))))}`;
  if (f.field === 'by') return `${m.qWhichFelled(named(m.skittle, str(e.skittle) ?? '?'))}${choices}`;
  if (f.field === 'balls') return `${m.qWhichBalls(seconds(e, m) + after)}${choices}`;
  if (e.kind === 'cushion') return `${m.qWhichBall(m.qHitRail(named(m.rail, str(e.rail) ?? '?')), `${seconds(e, m)}${after}`)}${choices}`;
  return `${m.qWhichBall(eventText(e, m, cueBall), seconds(e, m))}${choices}`;
}

const capital = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** The fact a prompt asks about: the first one on an event (plainQuestion words it). */
const askedFact = (facts: readonly Fact[], events: readonly LooseEvent[]) => facts.find((f) => f.event >= 0 && f.event < events.length);

/**
 * The condition of an option in the referee's words, from the engine's `when`: the fact the
 * question asks alone ("The cue ball"), any other with its event ("the red hit the head rail
 * at 1.60 s"). Null when the option names no fact.
 */
export function optionCondition(o: PromptOption, facts: readonly Fact[], events: readonly LooseEvent[], cueBall: string | null, m: Messages, shown?: ReadonlySet<number>): string | null {
  const when = ((o.when ?? []) as readonly Condition[]).filter((c) => !shown || shown.has(c.event));
  if (when.length === 0) return null;
  const ballName = (b: string) => m.theBall(named(m.ball, b === cueBall ? 'cue' : b));
  const pair = (v: string) => v.split('+').map(ballName).join(` ${m.and} `);
  const asked = askedFact(facts, events);
  const ordered = [...when].sort((a, b) => (a.event === asked?.event ? -1 : b.event === asked?.event ? 1 : a.event - b.event));
  const parts = ordered.map((c) => {
    const balls = c.values.map((v) => (v === NONE ? noneText(c.field, m, events[c.event]?.kind) : c.field === 'balls' ? pair(v) : ballName(v))).join(` ${m.or} `);
    if (c.event === asked?.event) return balls;
    const e = events[c.event];
    if (!e) return balls;
    if (c.field === 'balls') return c.values.map((v) => (v === NONE ? noneText(c.field, m) : m.evBalls(...(v.split('+').map(ballName) as [string, string])))).join(` ${m.or} `) + seconds(e, m);
    if (c.field === 'by') return m.evSkittle(named(m.skittle, str(e.skittle) ?? '?'), balls);
    if (e.kind === 'cushion') return m.evRail(named(m.rail, str(e.rail) ?? '?'), balls) + seconds(e, m);
    return `${balls}${seconds(e, m)}`;
  });
  return capital(parts.join('; '));
}

/**
 * Which facts each button names: the asked one, and others only where options alike on the asked
 * one differ on them (so a button stays one line where the question's fact tells them apart).
 */
export function shownFacts(options: readonly PromptOption[], facts: readonly Fact[], events: readonly LooseEvent[]): ReadonlySet<number>[] {
  const asked = askedFact(facts, events)?.event;
  const valuesOn = (o: PromptOption, event: number) => JSON.stringify(o.when?.find((c) => c.event === event)?.values ?? null);
  return options.map((o) => {
    const alike = options.filter((x) => x !== o && asked !== undefined && valuesOn(x, asked) === valuesOn(o, asked));
    const shown = new Set<number>(asked === undefined ? (o.when ?? []).map((c) => c.event) : [asked]);
    for (const c of o.when ?? []) if (alike.some((x) => valuesOn(x, c.event) !== valuesOn(o, c.event))) shown.add(c.event);
    return shown;
  });
}

/** What choosing an option does, in the referee's words: "Ana scores 1, the run goes on". */
export function optionResult(o: PromptOption, s: TableView, m: Messages): string {
  const shooter = s.turn ?? '';
  const i = s.players.findIndex((p) => p.name === shooter);
  const next = s.players.length > 1 && i >= 0 ? s.players[(i + 1) % s.players.length]!.name : shooter;
  const turn = o.turnPasses ? m.outTurnTo(next) : m.outRunGoesOn;
  // Points to others (a penalty credited to the opponent): "5 points to Ben".
  const given = (o.awards ?? []).filter((a) => a.points > 0 && s.players[a.player]).map((a) => `${m.outAwards(a.points, s.players[a.player]!.name)}, `).join('');
  if (o.ruling === 'score') return `${m.outScores(shooter, o.points)}, ${given}${turn}`;
  if (o.ruling === 'no-score') return `${m.outNoPoint}, ${given}${turn}`;
  const loss = o.points < 0 ? `${m.outLoses(shooter, -o.points)}, ` : '';
  return `${m.outFoul(named(m.foul, o.foul ?? 'referee'))}, ${loss}${given}${turn}`;
}

/** Options most likely first when the hub weighs them (`likelihood`, 0..1); the engine's order otherwise. */
export function orderedOptions(options: readonly PromptOption[]): { options: PromptOption[]; weighed: boolean } {
  const weighed = options.some((o) => typeof o.likelihood === 'number' && Number.isFinite(o.likelihood));
  if (!weighed) return { options: [...options], weighed };
  const like = (o: PromptOption) => (typeof o.likelihood === 'number' && Number.isFinite(o.likelihood) ? o.likelihood : -1);
  return { options: [...options].sort((a, b) => like(b) - like(a)), weighed };
}

function promptCard(s: TableView, rec: TableRecord, m: Messages): Html {
  const p = s.prompt;
  if (!p) return html``;
  const events = shotEvents(rec);
  const facts = p.facts as Fact[];
  const unknown = new Set(facts.map((f) => f.event));
  const { options, weighed } = orderedOptions(p.options as PromptOption[]);
  const shown = shownFacts(options, facts, events);
  return html`<section class="card prompt" id="prompt" aria-labelledby="prompt-q" data-weighed="${weighed ? '1' : '0'}">
  <p class="prompt-kicker">${m.decisionNeeded}</p>
  <h2 id="prompt-q" class="question">${plainQuestion(facts, events, m, s.cueBall)}</h2>
  <div class="options" role="group" aria-labelledby="prompt-q">${options.map((o, k) => {
    const condition = optionCondition(o, facts, events, s.cueBall, m, shown[k]) ?? (o.assumption ? m.ifCondition(o.assumption) : null);
    const selected = weighed && k === 0;
    return html`<button type="button" class="btn option ruling-${o.ruling}${selected ? ' selected' : ''}" data-action="ruling" data-ruling="${o.ruling}" data-option="${o.index}" data-key="${k + 1}" aria-pressed="${selected ? 'true' : 'false'}">
      <kbd>${k + 1}</kbd><span class="o-text">${condition ? html`<span class="o-cond">${condition}</span> — ` : ''}<span class="o-result">${optionResult(o, s, m)}</span></span>${typeof o.likelihood === 'number' ? html`<span class="o-like">${m.likely(Math.round(o.likelihood * 100))}</span>` : ''}
    </button>`;
  })}</div>
  <p class="muted keys">${m.keysHint(options.length)}</p>
  <details class="evidence-box"><summary>${m.theSensorsSaw}</summary>
    ${events.length > 0 ? html`<ol class="evidence">${events.map((e, i) => html`<li class="${unknown.has(i) ? 'unknown' : ''}"><span class="ev-t">${typeof e.t === 'number' ? `${(e.t / 1000).toFixed(2)} s` : ''}</span> ${eventText(e, m, s.cueBall)}${unknown.has(i) ? html` <strong>← ${m.undetermined}</strong>` : ''}</li>`)}</ol>` : ''}
    ${p.rules.length > 0 ? html`<p>${m.rules}: ${rulesChips(p.rules)}</p>` : ''}
    <ul class="option-rules">${options.map((o, k) => html`<li>${k + 1}: ${rulesChips(o.rules)}</li>`)}</ul>
  </details>
</section>`;
}

/** What undo would take back, in words: the console names it on the button and asks once. */
export function undoTarget(s: TableView, m: Messages): string | null {
  const last = s.shots[s.shots.length - 1];
  const adj = (s.adjustments ?? []).at(-1);
  if (adj && adj.afterShot >= s.shotCount) return m.undoAdjust(adjustmentLine(adj, m));
  if (s.status === 'awaiting-referee') return m.undoPending;
  if (!last) return null;
  if (last.ruling) return m.undoRuling;
  return m.undoShot(shotLine(last, m));
}

/** The recent shots with the adjustments between them, newest last. */
function shotList(s: TableView, m: Messages): Html {
  const first = s.shotCount - s.shots.length;
  const adjustments = s.adjustments ?? [];
  const items: Html[] = [];
  for (const a of adjustments) if (a.afterShot <= first) items.push(html`<li class="adjust" value="${Math.max(1, a.afterShot)}">${adjustmentLine(a, m)}</li>`);
  s.shots.forEach((x, i) => {
    const n = first + i + 1;
    items.push(html`<li class="${x.foul ? 'foul' : x.points > 0 ? 'scored' : ''}" value="${n}">${shotLine(x, m)} ${rulesChips(x.rules)}</li>`);
    for (const a of adjustments) if (a.afterShot === n) items.push(html`<li class="adjust" value="${n}">${adjustmentLine(a, m)}</li>`);
  });
  return html`<ol class="shots">${items.slice(-10)}</ol>`;
}

/** The live part of the console: the open decision first, then the score and the recent shots. */
export function refereeFragment(rec: TableRecord | undefined, table: string, lang: Lang = 'en'): Html {
  const m = messages(lang);
  const s = rec?.state;
  if (!s || s.status === 'idle') return html`<section class="card" data-status="idle" data-variant=""><h2>${tableName(s ?? null, table, m)}</h2><p class="muted">${m.noMatchStart}</p></section>`;
  const next = s.nextShot;
  const undo = undoTarget(s, m);
  return html`${promptCard(s, rec!, m)}<section class="card state" data-seq="${s.seq}" data-status="${s.status}" data-variant="${s.variant ?? ''}" data-undo="${undo ?? ''}">
  <h2>${tableName(s, table, m)} · ${variantName(s.variant, m)} <span class="badge status-${s.status}">${statusText(s, m)}</span></h2>
  <table class="score-table"><thead><tr><th><span class="sr-only">${m.atTable}</span></th><th>${m.player}</th><th>${m.score}</th><th>${m.target}</th><th>${m.runShort}</th><th>${m.inningsShort}</th><th>${m.avgShort}</th><th>${m.hrShort}</th></tr></thead>
  <tbody>${s.players.map((p) => html`<tr class="${s.turn === p.name ? 'active' : ''}"><td>${s.turn === p.name ? '▶' : ''}</td><td>${p.name}</td><td class="num big">${p.score}</td><td class="num">${p.target}</td><td class="num">${p.run}</td><td class="num">${p.innings}</td><td class="num">${p.average === null ? '—' : p.average.toFixed(3)}</td><td class="num">${p.highRun}</td></tr>`)}</tbody></table>
  ${(s.pendingShots ?? 0) > 0 ? html`<p class="pending">${m.pendingShots(s.pendingShots)}</p>` : ''}
  ${next && (next.declare || next.fouls.length > 0) ? html`<p class="pending">${m.nextShotSet([next.declare ? m.declared(next.declare === 'safety' ? m.declSafety : m.declCarom) : '', ...next.fouls.map((f) => `${named(m.foul, f.foul)} (${f.by === 'shooter' ? m.byShooter : m.byOpponent})`)].filter(Boolean).join(', '))}</p>` : ''}
  <h3>${m.recentShots(s.shotCount)}</h3>
  ${shotList(s, m)}
</section>`;
}

const options = (values: readonly string[], dict: Record<string, string>, selected?: string) => values.map((v) => html`<option value="${v}"${v === selected ? ' selected' : ''}>${named(dict, v)}</option>`);

/** The ball pairs of a game, for the manual entry's chips (white–yellow, white–red, yellow–red). */
const ballPairs = (balls: readonly string[]): [string, string][] => balls.flatMap((a, i) => balls.slice(i + 1).map((b): [string, string] => [a, b]));

/** Families whose games all have this game's balls and skittles: the manual entry's chips serve them unchanged. */
function sameChipFamilies(game: GameEntry): string[] {
  const same = (x: GameEntry) => x.balls.join() === game.balls.join() && x.skittles.join() === game.skittles.join();
  return GAME_FAMILIES.filter((f) => VARIANT_IDS.every((id) => CATALOGUE[id].family !== f || same(CATALOGUE[id])));
}

/** The forms of the console, filled from the table's current match; the script keeps them in step with the live state. */
export function refereeForms(table: string, rec: TableRecord | undefined, lang: Lang = 'en', nextFixture: { id: string; home: string; away: string } | null = null): Html {
  const m = messages(lang);
  const s = rec?.state ?? null;
  const setup = s?.match ?? null;
  const variant = setup?.variant ?? s?.variant ?? DEFAULT_VARIANT;
  const game = gameEntry(variant) ?? CATALOGUE[DEFAULT_VARIANT];
  const players = setup?.players ?? [];
  const inningsLimit = typeof setup?.options.inningsLimit === 'number' ? String(setup.options.inningsLimit) : '';
  return html`<section class="card" id="corrections">
  <h2>${m.corrections}</h2>
  <div class="row"><button type="button" class="btn warn" id="undo" data-nothing="${m.undoNothing}">${m.undoNothing}</button></div>
  <div class="row undo-confirm" id="undo-confirm" hidden><span id="undo-question"></span><button type="button" class="btn danger" id="undo-yes">${m.client.confirmUndo}</button><button type="button" class="btn" id="undo-no">${m.cancel}</button></div>
  <form id="adjust-form" class="form-grid">
    <label>${m.player} <select name="player" class="player-select">${players.map((p) => html`<option value="${p}">${p}</option>`)}</select></label>
    <label>${m.change} <input name="delta" type="number" step="1" required placeholder="-1"></label>
    <label class="wide">${m.reason} <input name="reason" required maxlength="200" placeholder="${m.reasonPlaceholder}"></label>
    <button class="btn" type="submit">${m.adjustScore}</button>
  </form>
</section>
<section class="card" id="start-card">
  <h2>${m.startMatch}</h2>
  ${setup ? html`<div class="row"><button type="button" class="btn primary" id="rematch">${m.rematch(`${setup.players.join(' – ')} · ${variantName(setup.variant, m)} · ${setup.target}`)}</button></div>` : ''}
  ${nextFixture ? html`<div class="row"><button type="button" class="btn" id="next-fixture" data-fixture="${nextFixture.id}">${m.nextFixture(`${nextFixture.home} – ${nextFixture.away}`)}</button></div>` : ''}
  <form id="start-form" class="form-grid">
    <label>${m.game} <select name="variant">${VARIANT_IDS.map((v) => html`<option value="${v}"${v === variant ? ' selected' : ''}>${variantName(v, m)}</option>`)}</select></label>
    <label>${m.target} <input name="target" type="number" min="1" max="100000" value="${String(setup?.target ?? 15)}" required></label>
    <label>${m.player1} <input name="p1" required maxlength="60" autocomplete="off" value="${players[0] ?? ''}"></label>
    <label>${m.player2} <input name="p2" required maxlength="60" autocomplete="off" value="${players[1] ?? ''}"></label>
    <label>${m.player3} <input name="p3" maxlength="60" autocomplete="off" value="${players[2] ?? ''}"></label>
    <label>${m.inningsLimit} <input name="inningsLimit" type="number" min="1" placeholder="${m.noLimit}" value="${inningsLimit}"></label>
    <label>${m.handicapTargets} <input name="targets" placeholder="30,20" autocomplete="off"></label>
    <label class="check"><input name="equalizingInning" type="checkbox"${setup?.options.equalizingInning === true ? ' checked' : ''}> ${m.equalizingInning}</label>
    <label class="wide">${m.moreOptions} <input name="options" placeholder='{"safetiesAllowed": false}' autocomplete="off"></label>
    <button class="btn" type="submit">${m.startButton}</button>
  </form>
</section>
<section class="card">
  <h2>${m.nextShotTitle}</h2>
  <form id="next-form" class="form-grid">
    <label>${m.declaration} <select name="declare"><option value="">${m.declNone}</option><option value="safety">${m.declSafety}</option><option value="carom">${m.declCarom}</option></select></label>
    <label>${m.foulLabel} <select name="foul"><option value="">${m.declNone}</option>${options(FOUL_KINDS, m.foul)}</select></label>
    <label>${m.foulBy} <select name="by"><option value="shooter">${m.byShooter}</option><option value="opponent">${m.byOpponent}</option></select></label>
    <button class="btn" type="submit">${m.setNextShot}</button>
  </form>
</section>
<section class="card">
  <h2>${m.manualTitle}</h2>
  <div class="builder" data-variant="${variant}" data-families="${sameChipFamilies(game).join(' ')}">
    <div class="row"><span class="lbl">${m.ballsRow}</span>${ballPairs(game.balls).map(([a, b]) => html`<button type="button" class="btn chip" data-add="ball" data-a="${a}" data-b="${b}">${named(m.ball, a)}–${named(m.ball, b)}</button>`)}</div>
    <div class="row"><span class="lbl">${m.railsRow}</span>${RAILS.map((r) => html`<button type="button" class="btn chip" data-add="cushion" data-rail="${r}">${named(m.rail, r)}</button>`)}</div>
    ${game.skittles.length > 0 ? html`<div class="row"><span class="lbl">${m.skittlesRow}</span>${game.skittles.map((k) => html`<button type="button" class="btn chip" data-add="skittle" data-skittle="${k}">${named(m.skittle, k)}</button>`)}</div>` : ''}
    <div class="row"><label class="inline-label">${m.foulLabel} <select id="manual-foul">${options(FOUL_KINDS, m.foul)}</select></label><button type="button" class="btn chip" data-add="foul">${m.addFoul}</button></div>
    <ol id="manual-events" class="manual-events"></ol>
    <div class="row"><button type="button" class="btn" id="manual-clear">${m.clear}</button><button type="button" class="btn primary" id="manual-send">${m.sendShot}</button></div>
  </div>
</section>
<section class="card">
  <h2>${m.endMatch}</h2>
  <form id="draw-form" class="form-grid"><label class="wide">${m.reason} <input name="reason" maxlength="200"></label><button class="btn warn" type="submit">${m.declareDraw}</button></form>
  <form id="forfeit-form" class="form-grid"><label>${m.forfeiter} <select name="player" class="player-select">${players.map((p) => html`<option value="${p}">${p}</option>`)}</select></label><label class="wide">${m.reason} <input name="reason" maxlength="200"></label><button class="btn danger" type="submit">${m.forfeit}</button></form>
</section>
<section class="card">
  <h2>${m.exportTitle}</h2>
  <div class="row"><a class="btn" href="/api/tables/${table}/export?format=jsonl" download>${m.downloadJsonl}</a><a class="btn" href="/api/tables/${table}/export?format=csv" download>${m.downloadCsv}</a></div>
</section>`;
}
