import { playsSkittles } from '../../hub/rules/catalogue.ts';
import type { PlayerView, ShotResult } from '../../hub/rules/view.ts';
import { html } from 'hono/html';
import type { Html } from './layout.ts';
import { messages, named, type Lang, type Messages } from '../i18n.ts';
import type { TableRecord, TableView } from '../store.ts';
import { skittlesSvg, timelineSvg } from './svg.ts';

const EN = messages('en');
export const VARIANT_NAMES: Record<string, string> = EN.variant;

export const variantName = (v: string | null, m: Messages = EN): string => (v === null ? m.noMatch : named(m.variant, v));
/** A skittle game (the state's `family`): the scoreboard shows the skittles, and no ball colours. */
export const isSkittles = (s: Pick<TableView, 'family'>): boolean => (s.family ? playsSkittles(s.family) : false);
/** A countdown game (the state's `scoring`): scores are what is left to write off (RULES §11). */
export const isCountdown = (s: Pick<TableView, 'scoring'>): boolean => s.scoring === 'countdown';

/** A table's display name: config `name` (published in the state), else "Table <id>". */
export const tableName = (s: TableView | null, table: string, m: Messages = EN): string => (s?.name ? s.name : m.table(table));

const BALL_OF = ['white', 'yellow'];

export function statusText(s: TableView, m: Messages = EN): string {
  switch (s.status) {
    case 'idle':
      return m.noMatch;
    case 'playing':
      return m.playing;
    case 'awaiting-referee':
      return m.refereeDecision;
    case 'finished':
      return s.winner ? m.wins(s.winner) : m.finished;
    case 'drawn':
      return m.drawn;
  }
}

/** A shot in plain words ("Foul: cue ball off the bed — 2 to Gus"); rule ids are for the console only. */
export function shotLine(shot: ShotResult, m: Messages = EN): string {
  const parts: string[] = [];
  if (shot.foul) {
    parts.push(m.shotFoul(named(m.foul, shot.foul)));
    if (shot.points < 0) parts.push(m.shotLoses(shot.shooter, -shot.points));
  } else parts.push(shot.points > 0 ? m.shotScores(shot.shooter, shot.points) : m.shotNoPoint(shot.shooter));
  for (const a of shot.awards ?? []) if (a.player !== shot.shooter && a.points !== 0) parts.push(m.shotTo(a.points, a.player));
  if (shot.ruling) parts.push(m.shotRuled);
  return parts.join(' — ');
}
/** Kept for callers of the old name. */
export const shotText = (shot: ShotResult): string => shotLine(shot, EN);

export function adjustmentLine(a: { player: string; delta: number; reason: string }, m: Messages = EN): string {
  return m.adjusted(a.player, a.delta, a.reason);
}

/** Rule ids (RULES.md: TC-1, SK5-15…) as chips; markers such as "referee" are said in words elsewhere. */
export function rulesChips(rules: readonly string[]): Html {
  return html`<span class="rules">${rules.filter((r) => /^[A-Z][A-Z0-9]*-/.test(r)).map((r) => html`<span class="rule">${r}</span>`)}</span>`;
}

/** What a set-up instruction names ("skittle:head", "red") in words. */
function itemName(item: string, m: Messages): string {
  const [kind, id] = item.includes(':') ? item.split(':', 2) as [string, string] : ['', item];
  if (kind === 'skittle') return named(m.skittle, id);
  return m.ball[id] ?? m.skittle[id] ?? named(m.rail, id);
}
const placeText = (to: string, m: Messages) => (to === 'on its spot' || to === 'its spot' ? m.onItsSpot : to);

function inningsLimit(s: TableView): number | null {
  const limit = s.match?.options.inningsLimit;
  return typeof limit === 'number' && limit > 0 ? limit : null;
}

/** Points per inning, newest last, from the shots the state carries (the last 20). */
export function inningsStrip(s: TableView, player: string): number[] {
  const innings: { shooter: string; points: number }[] = [];
  for (const x of s.shots) {
    const last = innings[innings.length - 1];
    if (last && last.shooter === x.shooter && !s.shots[s.shots.indexOf(x) - 1]?.turnPasses) last.points += Math.max(0, x.points);
    else innings.push({ shooter: x.shooter, points: Math.max(0, x.points) });
  }
  return innings.filter((i) => i.shooter === player).map((i) => i.points).slice(-8);
}

function playerCard(s: TableView, p: PlayerView, i: number, compact: boolean, m: Messages): Html {
  const active = s.turn === p.name && (s.status === 'playing' || s.status === 'awaiting-referee');
  const winner = s.winner === p.name;
  const skittles = isSkittles(s);
  const countdown = isCountdown(s);
  const ball = skittles ? null : i < 2 ? BALL_OF[i]! : active ? (s.cueBall ?? null) : null;
  const score = countdown ? Math.max(0, p.score) : p.score;
  const handicap = new Set(s.players.map((q) => q.target)).size > 1;
  const limit = inningsLimit(s);
  const needs = countdown ? null : Math.max(0, p.target - p.score);
  const adjusted = (s.adjustments ?? []).filter((a) => a.player === p.name).reduce((t, a) => t + a.delta, 0);
  const strip = compact ? [] : inningsStrip(s, p.name);
  // Celebrations: one point from the target (carom games), a run that ties the player's best of the match.
  const carom = !skittles && s.scoring === 'count-up';
  const matchPoint = carom && s.status === 'playing' && needs === 1;
  const highRun = active && p.run >= 3 && p.run === p.highRun;
  return html`<article class="player${active ? ' active' : ''}${winner ? ' winner' : ''}${highRun ? ' celebrate' : ''}" data-player="${p.name}"><div class="player-in">
  <div class="pname">${ball ? html`<span class="ball ball-${ball}" title="${named(m.ball, ball)}"></span>` : ''}<span class="name" title="${p.name}">${p.name}</span>${active ? html`<span class="turn-tag">${m.atTable}</span>` : ''}${winner ? html`<span class="turn-tag win">${m.winner}</span>` : ''}${matchPoint ? html`<span class="turn-tag mp">${m.matchPoint}</span>` : ''}${highRun ? html`<span class="turn-tag hr">${m.highRunTag(p.run)}</span>` : ''}</div>
  <div class="score" data-score="${score}">${score}</div>
  <div class="target">${countdown ? m.pointsLeft : m.ofTarget(p.target)}${handicap ? html` <span class="hc">${m.handicap}</span>` : ''}${adjusted !== 0 ? html` <span class="adj" title="${(s.adjustments ?? []).filter((a) => a.player === p.name).map((a) => adjustmentLine(a, m)).join('; ')}">${adjusted > 0 ? '+' : ''}${adjusted}</span>` : ''}${strip.length > 0 ? html`<ol class="strip" aria-label="${m.inningsHistory}">${strip.map((n) => html`<li class="${n > 0 ? 'pos' : ''}">${n}</li>`)}</ol>` : ''}</div>
  ${compact ? '' : html`<dl class="stats">
    <div><dt>${m.run}</dt><dd>${p.run}</dd></div>
    <div><dt>${m.innings}</dt><dd class="innings">${p.innings}${limit ? `/${limit}` : ''}</dd></div>
    ${countdown ? html`<div><dt>${m.highRun}</dt><dd>${p.highRun}</dd></div>` : html`<div><dt>${m.average}</dt><dd>${p.average === null ? '—' : p.average.toFixed(3)}</dd></div><div><dt>${m.needs}</dt><dd class="needs">${needs}</dd></div>`}
  </dl>`}
</div></article>`;
}

function lastShotLine(s: TableView, m: Messages): Html {
  const last = s.shots[s.shots.length - 1];
  const adj = (s.adjustments ?? []).at(-1);
  // The timeline shows the shot under review: the line says so rather than describe the one before.
  if (s.status === 'awaiting-referee') return html`<div class="lastshot review"><span class="ls-label">${m.lastShot}</span><span class="ls-text">${m.underReview}</span></div>`;
  if (adj && adj.afterShot >= s.shotCount) return html`<div class="lastshot adjust"><span class="ls-label">${m.lastShot}</span><span class="ls-text">${adjustmentLine(adj, m)}</span></div>`;
  if (!last) return html`<div class="lastshot empty">${m.noShotYet(s.turn ?? '')}</div>`;
  return html`<div class="lastshot ${last.foul ? 'foul' : last.points > 0 ? 'scored' : 'miss'}"><span class="ls-label">${m.lastShot}</span><span class="ls-text">${shotLine(last, m)}</span></div>`;
}

function fallenSkittles(rec: TableRecord): Set<string> {
  const fallen = new Set<string>();
  for (const e of rec.lastShot?.events ?? []) {
    const ev = e as { kind?: unknown; skittle?: unknown };
    if (ev.kind === 'skittle' && typeof ev.skittle === 'string') fallen.add(ev.skittle);
  }
  return fallen;
}

/** Artistic billiards: the figure being played and the attempt (state extension). */
function figureLine(s: TableView, m: Messages): Html {
  const f = s.figure as { number?: unknown; of?: unknown; id?: unknown; name?: unknown; value?: unknown } | null | undefined;
  if (!f || typeof f !== 'object') return html``;
  const attempt = typeof s.attempt === 'number' ? s.attempt : null;
  const of = typeof f.of === 'number' && f.of > 1 ? String(f.of) : '';
  return html`<div class="lastshot figure"><span class="ls-label">${m.figure(String(f.number ?? ''), of)}</span><span class="ls-text">${String(f.id ?? '')} ${String(f.name ?? '')}${typeof f.value === 'number' ? ` · ${f.value}` : ''}${attempt !== null ? ` · ${m.attempt(attempt)}` : ''}</span></div>`;
}

/** Balkline and free game (BK-1..3, FG-3): caroms made in the current zone against its limit. */
export function zoneLine(s: TableView, m: Messages): Html {
  const z = s.zone;
  if (!z) return html``;
  const text = z.zone === null ? m.zoneNone : z.zone === '?' ? m.zoneUnseen(z.count, z.limit) : m.zoneCount(z.count, z.limit);
  const full = z.zone !== null && z.count >= z.limit;
  return html`<div class="lastshot zone${full ? ' full' : ''}" data-count="${z.count}" data-limit="${z.limit}"><span class="ls-label">${m.zoneLabel(named(m.zoneName, z.name))}</span><span class="ls-text">${text}</span></div>`;
}

/** What a screen reader announces when the state changes: the score and the last shot. */
export function announcement(s: TableView | null | undefined, m: Messages = EN): string {
  if (!s || s.status === 'idle') return '';
  const score = s.players.map((p) => `${p.name} ${isCountdown(s) ? Math.max(0, p.score) : p.score}`).join(', ');
  const last = s.shots[s.shots.length - 1];
  return `${statusText(s, m)}. ${score}.${last ? ` ${m.lastShot}: ${shotLine(last, m)}.` : ''}`;
}

export interface ScoreboardOptions {
  compact?: boolean;
  lang?: Lang;
}

/** The live part of the scoreboard; the client swaps it in on every state change. */
export function scoreboardFragment(rec: TableRecord | undefined, table: string, o: ScoreboardOptions = {}): Html {
  const m = messages(o.lang ?? 'en');
  const s = rec?.state;
  if (!s) {
    return html`<div class="sb waiting"><div class="sb-head"><h1 class="table-name">${m.table(table)}</h1></div><p class="idle">${m.waitingForTable}</p></div>`;
  }
  const compact = o.compact === true;
  if (s.status === 'idle' || s.variant === null) {
    return html`<div class="sb idle-table" data-seq="${s.seq}" data-status="idle"><header class="sb-head"><h1 class="table-name">${tableName(s, table, m)}</h1><span class="badge">${m.noMatch}</span></header><p class="idle">${m.noMatchYet}</p></div>`;
  }
  if (compact) return lowerThird(s, table, m);
  const skittles = isSkittles(s);
  const banner =
    s.status === 'awaiting-referee'
      ? html`<div class="banner ref">${m.waitingReferee}</div>`
      : s.status === 'finished'
        ? html`<div class="banner end">${s.winner ? m.wins(s.winner) : m.finished}</div>`
        : s.status === 'drawn'
          ? html`<div class="banner end">${m.drawn}</div>`
          : '';
  // Shot events are not retained on the broker: after a restart the picture waits for the next shot.
  const noTimeline = s.shots.length > 0 ? m.timelineNext : m.noShotYet('');
  const instructions = (s.instructions ?? []) as readonly { item: string; to: string; rule: string }[];
  const events = rec.lastShot?.events ?? [];
  return html`<div class="sb ${skittles ? 'sb-skittles' : 'sb-carom'}" data-seq="${s.seq}" data-status="${s.status}" data-variant="${s.variant}">
  <header class="sb-head">
    <h1 class="table-name">${tableName(s, table, m)}</h1>
    <span class="variant">${variantName(s.variant, m)}</span>
    ${s.simulated ? html`<span class="badge sim">${m.simulated}</span>` : ''}
    ${matchClock(s, m)}
    <span class="badge status-${s.status}">${statusText(s, m)}</span>
  </header>
  ${banner}
  <section class="players n${s.players.length}">${s.players.map((p, i) => playerCard(s, p, i, false, m))}</section>
  <section class="detail">
    ${figureLine(s, m)}
    ${zoneLine(s, m)}
    ${lastShotLine(s, m)}
    ${skittles
      ? html`<div class="skittle-row"><figure class="skittles"><figcaption>${m.skittlesDown}: ${[...fallenSkittles(rec)].map((k) => named(m.skittle, k)).join(', ') || m.none}</figcaption>${skittlesSvg(s.variant, fallenSkittles(rec), m)}</figure>
      <div class="side">${instructions.length === 0 ? html`<div class="instructions none"><h2>${m.nothingToPlace}</h2></div>` : html`<div class="instructions"><h2>${m.setUp}</h2><ul>${instructions.map((x) => html`<li><strong>${itemName(x.item, m)}</strong> → ${placeText(x.to, m)}</li>`)}</ul></div>`}
      <figure class="timeline"><figcaption>${m.timeline}</figcaption>${timelineSvg(events, 'narrow', noTimeline, m)}</figure></div></div>`
      : html`${instructions.length > 0 ? html`<div class="lastshot place"><span class="ls-label">${m.place}</span>${instructions.map((x) => html`<span class="ls-text">${itemName(x.item, m)} → ${placeText(x.to, m)}</span>`)}</div>` : ''}
    <figure class="timeline"><figcaption>${m.timeline}</figcaption>${timelineSvg(events, 'wide', noTimeline, m)}${timelineSvg(events, 'narrow', noTimeline, m)}</figure>`}
  </section>
</div>`;
}

/** Time since the match started (the script keeps it ticking); none once it is over. */
function matchClock(s: TableView, m: Messages): Html {
  const since = typeof s.matchStartedAt === 'string' ? Date.parse(s.matchStartedAt) : NaN;
  if (!Number.isFinite(since) || (s.status !== 'playing' && s.status !== 'awaiting-referee')) return html``;
  return html`<span class="match-clock" data-since="${since}" title="${m.matchTime}" aria-label="${m.matchTime}">${clockText(Date.now() - since)}</span>`;
}

export function clockText(ms: number): string {
  const t = Math.max(0, Math.floor(ms / 1000));
  const hms = [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hms[0]! > 0 ? `${hms[0]}:${two(hms[1]!)}:${two(hms[2]!)}` : `${hms[1]}:${two(hms[2]!)}`;
}

/** The overlay: a one-line lower third, as broadcasters make them. */
function lowerThird(s: TableView, table: string, m: Messages): Html {
  const countdown = isCountdown(s);
  const limit = inningsLimit(s);
  const banner = s.status === 'finished' ? (s.winner ? m.wins(s.winner) : m.finished) : s.status === 'drawn' ? m.drawn : null;
  return html`<div class="sb compact lt" data-seq="${s.seq}" data-status="${s.status}" data-variant="${s.variant ?? ''}">
  <div class="lt-bar">
    <span class="lt-game">${variantName(s.variant, m)}${countdown ? '' : html` · ${m.ofTarget(s.players[0]?.target ?? 0)}`}</span>
    ${s.players.map((p) => {
      const active = s.turn === p.name && (s.status === 'playing' || s.status === 'awaiting-referee');
      return html`<span class="player lt-player${active ? ' active' : ''}${s.winner === p.name ? ' winner' : ''}" data-player="${p.name}"><span class="name">${p.name}</span><span class="score">${countdown ? Math.max(0, p.score) : p.score}</span><span class="lt-stats stat-run">${m.runShort} ${p.run}</span><span class="lt-stats stat-inn">${m.inningsShort} ${p.innings}${limit ? `/${limit}` : ''}</span>${countdown ? '' : html`<span class="lt-stats stat-avg">${m.avgShort} ${p.average === null ? '—' : p.average.toFixed(3)}</span>`}</span>`;
    })}
  </div>
  ${banner ? html`<div class="lt-note">${banner}</div>` : s.status === 'awaiting-referee' ? html`<div class="lt-note">${m.waitingReferee}</div>` : ''}
  <span class="sr-only">${m.table(table)}</span>
</div>`;
}
