import type { PlayerView, ShotResult } from '../../hub/rules/view.ts';
import { h, type Html } from '../html.ts';
import type { TableRecord, TableView } from '../store.ts';
import { skittlesSvg, timelineSvg } from './svg.ts';

export const VARIANT_NAMES: Record<string, string> = {
  carom: 'Carom',
  'one-cushion': 'One-cushion',
  'three-cushion': 'Three-cushion',
  'free-game': 'Free game',
  'balkline-47-1': 'Balkline 47/1',
  'balkline-47-2': 'Balkline 47/2',
  'balkline-71-2': 'Balkline 71/2',
  'balkline-74-2': 'Balkline 74/2',
  artistic: 'Artistic',
  'skittles-5': 'Five skittles',
  'skittles-7-pyramid': 'Seven skittles · pyramid',
  'skittles-7-carom': 'Seven skittles · carom',
};

export const variantName = (v: string | null): string => (v === null ? 'No match' : (VARIANT_NAMES[v] ?? v));
export const isSkittles = (v: string | null): boolean => v !== null && v.startsWith('skittles');
export const isCountdown = (v: string | null): boolean => v !== null && v.startsWith('skittles-7');

const BALL_OF = ['white', 'yellow'];

export function statusText(s: TableView): string {
  switch (s.status) {
    case 'idle':
      return 'No match';
    case 'playing':
      return 'Playing';
    case 'awaiting-referee':
      return 'Referee decision';
    case 'finished':
      return s.winner ? `${s.winner} wins` : 'Finished';
    case 'drawn':
      return 'Drawn';
  }
}

export function shotText(shot: ShotResult): string {
  const parts = [shot.shooter];
  if (shot.foul) parts.push(`foul (${shot.foul})`);
  else parts.push(shot.points === 1 ? '1 point' : `${shot.points} points`);
  for (const a of shot.awards ?? []) if (a.player !== shot.shooter) parts.push(`${a.points} to ${a.player}`);
  if (shot.ruling) parts.push(`referee: ${shot.ruling}`);
  return parts.join(' · ');
}

export function rulesChips(rules: readonly string[]): Html {
  return h`<span class="rules">${rules.map((r) => h`<span class="rule">${r}</span>`)}</span>`;
}

function playerCard(s: TableView, p: PlayerView, i: number, compact: boolean): Html {
  const active = s.turn === p.name && (s.status === 'playing' || s.status === 'awaiting-referee');
  const winner = s.winner === p.name;
  const skittles = isSkittles(s.variant);
  const ball = skittles ? null : i < 2 ? BALL_OF[i]! : active ? (s.cueBall ?? null) : null;
  const of = isCountdown(s.variant) ? `left of ${p.target}` : `of ${p.target}`;
  return h`<article class="player${active ? ' active' : ''}${winner ? ' winner' : ''}" data-player="${p.name}"><div class="player-in">
  <div class="pname">${ball ? h`<span class="ball ball-${ball}" title="${ball} ball"></span>` : ''}<span class="name">${p.name}</span>${active ? h`<span class="turn-tag">at table</span>` : ''}${winner ? h`<span class="turn-tag win">winner</span>` : ''}</div>
  <div class="score" data-score="${p.score}">${p.score}</div>
  <div class="target">${of}</div>
  ${compact ? '' : h`<dl class="stats">
    <div><dt>Run</dt><dd>${p.run}</dd></div>
    <div><dt>Innings</dt><dd>${p.innings}</dd></div>
    ${p.average === null ? '' : h`<div><dt>Average</dt><dd>${p.average.toFixed(3)}</dd></div>`}
    <div><dt>High run</dt><dd>${p.highRun}</dd></div>
  </dl>`}
</div></article>`;
}

function lastShotLine(s: TableView): Html {
  const last = s.shots[s.shots.length - 1];
  if (!last) return h`<div class="lastshot empty">No shot yet · ${s.turn ?? ''} breaks</div>`;
  return h`<div class="lastshot ${last.foul ? 'foul' : last.points > 0 ? 'scored' : 'miss'}"><span class="ls-label">Last shot</span><span class="ls-text">${shotText(last)}</span>${rulesChips(last.rules)}</div>`;
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
function figureLine(s: TableView): Html {
  const f = s.figure as { number?: unknown; of?: unknown; id?: unknown; name?: unknown; value?: unknown } | null | undefined;
  if (!f || typeof f !== 'object') return h``;
  const attempt = typeof s.attempt === 'number' ? s.attempt : null;
  return h`<div class="lastshot figure"><span class="ls-label">Figure ${String(f.number ?? '')} of ${String(f.of ?? '')}</span><span class="ls-text">${String(f.id ?? '')} ${String(f.name ?? '')}${typeof f.value === 'number' ? ` · ${f.value} points` : ''}${attempt !== null ? ` · attempt ${attempt} of 3` : ''}</span></div>`;
}

export interface ScoreboardOptions {
  compact?: boolean;
}

/** The live part of the scoreboard; the client swaps it in on every state change. */
export function scoreboardFragment(rec: TableRecord | undefined, table: string, o: ScoreboardOptions = {}): Html {
  const s = rec?.state;
  if (!s) {
    return h`<div class="sb waiting"><div class="sb-head"><span class="table-name">Table ${table}</span></div><p class="idle">Waiting for this table…</p></div>`;
  }
  const compact = o.compact === true;
  if (s.status === 'idle' || s.variant === null) {
    return h`<div class="sb idle-table" data-seq="${s.seq}" data-status="idle"><header class="sb-head"><span class="table-name">Table ${s.table}</span>${s.simulated ? h`<span class="badge sim">SIMULATED</span>` : ''}<span class="badge">No match</span></header><p class="idle">No match on this table yet.</p></div>`;
  }
  const skittles = isSkittles(s.variant);
  const banner =
    s.status === 'awaiting-referee'
      ? h`<div class="banner ref">Waiting for the referee's decision on the last shot</div>`
      : s.status === 'finished'
        ? h`<div class="banner end">${s.winner ?? 'Nobody'} wins${s.endRule ? h` · ${s.endRule}` : ''}</div>`
        : s.status === 'drawn'
          ? h`<div class="banner end">Drawn${s.endRule ? h` · ${s.endRule}` : ''}</div>`
          : '';
  // Shot events are not retained on the broker: after a restart the picture waits for the next shot.
  const noTimeline = s.shots.length > 0 ? 'The timeline appears with the next shot' : 'No shot yet';
  const instructions = (s.instructions ?? []) as readonly { item: string; to: string; rule: string }[];
  return h`<div class="sb ${skittles ? 'sb-skittles' : 'sb-carom'}${compact ? ' compact' : ''}" data-seq="${s.seq}" data-status="${s.status}">
  <header class="sb-head">
    <span class="table-name">Table ${s.table}</span>
    <span class="variant">${variantName(s.variant)}</span>
    ${s.simulated ? h`<span class="badge sim">SIMULATED</span>` : ''}
    <span class="badge status-${s.status}">${statusText(s)}</span>
  </header>
  ${banner}
  <section class="players n${s.players.length}">${s.players.map((p, i) => playerCard(s, p, i, compact))}</section>
  ${compact ? h`${figureLine(s)}${lastShotLine(s)}` : h`<section class="detail">
    ${figureLine(s)}
    ${lastShotLine(s)}
    ${skittles
      ? h`<div class="skittle-row"><figure class="skittles"><figcaption>Skittles down on the last shot: ${[...fallenSkittles(rec)].join(', ') || 'none'}</figcaption>${skittlesSvg(s.variant ?? '', fallenSkittles(rec))}</figure>
      <div class="side">${instructions.length === 0 ? h`<div class="instructions none"><h3>Set up: nothing to place</h3></div>` : h`<div class="instructions"><h3>Set up</h3><ul>${instructions.map((x) => h`<li><strong>${x.item}</strong> → ${x.to} <span class="rule">${x.rule}</span></li>`)}</ul></div>`}
      <figure class="timeline"><figcaption>Last shot timeline</figcaption>${timelineSvg(rec.lastShot?.events ?? [], 'narrow', noTimeline)}</figure></div></div>`
      : h`${instructions.length > 0 ? h`<div class="lastshot place"><span class="ls-label">Place</span>${instructions.map((x) => h`<span class="ls-text">${x.item} → ${x.to}</span><span class="rule">${x.rule}</span>`)}</div>` : ''}
    <figure class="timeline"><figcaption>Last shot timeline</figcaption>${timelineSvg(rec.lastShot?.events ?? [], 'wide', noTimeline)}${timelineSvg(rec.lastShot?.events ?? [], 'narrow', noTimeline)}</figure>`}
  </section>`}
</div>`;
}
