import type { FixtureView, LeagueState } from '../../hub/league/service.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';
import { html } from 'hono/html';
import type { Html } from './layout.ts';
import type { TableRecord } from '../store.ts';
import { messages, type Messages } from '../i18n.ts';
import { tableName, variantName } from './scoreboard.ts';

const EN = messages('en');

type SeasonView = LeagueState['seasons'][number];

function standingsTable(s: SeasonView, m: Messages, limit = 99): Html {
  return html`<table class="lg-standings">
<thead><tr><th class="num">#</th><th>${m.lgPlayer}</th><th class="num">${m.lgP}</th><th class="num">${m.lgW}</th><th class="num">${m.lgD}</th><th class="num">${m.lgL}</th><th class="num">${m.lgPts}</th><th class="num">${m.avgShort}</th><th class="num">${m.hrShort}</th></tr></thead>
<tbody>${s.standings.slice(0, limit).map(
    (r) => html`<tr><td class="num">${r.rank}</td><td class="pn">${r.player}${r.team ? html` <span class="muted">${r.team}</span>` : ''}</td><td class="num">${r.played}</td><td class="num">${r.won}</td><td class="num">${r.drawn}</td><td class="num">${r.lost}</td><td class="num pts">${r.points}</td><td class="num">${r.average.toFixed(3)}</td><td class="num">${r.highRun}</td></tr>`,
  )}</tbody></table>`;
}

function fixtureLine(f: FixtureView, m: Messages): Html {
  const r = f.result;
  return html`<li class="lg-fixture status-${f.status}"><span class="lg-home">${f.home}</span><span class="lg-score">${r ? `${r.home.score} – ${r.away.score}` : m.lgVs}</span><span class="lg-away">${f.away}</span><span class="lg-where">${f.status === 'playing' ? m.table(f.table ?? '') : f.status === 'played' ? m.lgPlayedWord : m.lgRound(f.round)}</span></li>`;
}

function liveMatches(state: LeagueState, tables: readonly TableRecord[], m: Messages): Html {
  const playing = tables.filter((t) => t.state && (t.state.status === 'playing' || t.state.status === 'awaiting-referee'));
  if (playing.length === 0) return html`<p class="lg-empty">${m.lgNoMatchNow}</p>`;
  return html`<div class="lg-live">${playing.map((t) => {
    const s = t.state!;
    const link = state.live.find((l) => l.table === t.table);
    return html`<article class="lg-table${link ? ' league' : ''}"><header><span>${tableName(s, t.table, m)}</span><span class="muted">${link ? m.lgLeague : variantName(s.variant, m)}</span></header>
<ul>${s.players.map((p) => html`<li class="${s.turn === p.name ? 'turn' : ''}"><span class="pn">${p.name}</span><span class="ps">${p.score}</span><span class="pt">/ ${p.target}</span></li>`)}</ul></article>`;
  })}</div>`;
}

/** One page of the club TV: its id (`?page=`, the script's rotation) and its content. */
interface TvPage {
  id: string;
  body: Html;
}

/** The club TV: pages the script rotates every ~10 s (standings per season, today's fixtures, live tables, rankings). */
export function leagueDisplayFragment(state: LeagueState | null, tables: readonly TableRecord[], m: Messages = EN): Html {
  if (!state || state.seasons.length === 0) return html`<section class="lg-page active"><h1>${m.lgHouse}</h1><p class="lg-empty">${m.lgNone}</p></section>`;
  const pages: TvPage[] = state.seasons.map((s) => ({
    id: `standings-${s.id}`,
    body: html`<h1>${s.name} <span class="muted">${variantName(s.discipline, m)} · ${m.lgPlayedOf(s.playedCount, s.fixtureCount)}</span></h1>${standingsTable(s, m, 12)}`,
  }));
  for (const s of state.seasons.filter((x) => (x.teamStandings ?? []).length > 0)) {
    pages.push({
      id: `teams-${s.id}`,
      body: html`<h1>${s.name} <span class="muted">${m.lgTeams}</span></h1><table class="lg-standings"><thead><tr><th class="num">#</th><th>${m.lgTeam}</th><th class="num">${m.lgPlayers}</th><th class="num">${m.lgP}</th><th class="num">${m.lgPts}</th><th class="num">${m.avgShort}</th><th class="num">${m.hrShort}</th></tr></thead><tbody>${s.teamStandings.map(
        (r) => html`<tr><td class="num">${r.rank}</td><td class="pn">${r.team}</td><td class="num">${r.players}</td><td class="num">${r.played}</td><td class="num pts">${r.points}</td><td class="num">${r.average.toFixed(3)}</td><td class="num">${r.highRun}</td></tr>`,
      )}</tbody></table>`,
    });
  }
  pages.push({
    id: 'today',
    body: html`<h1>${m.lgToday} <span class="muted">${state.today}</span></h1>${
      state.todayFixtures.length > 0 ? html`<ul class="lg-fixtures">${state.todayFixtures.map((f) => fixtureLine(f, m))}</ul>` : html`<p class="lg-empty">${m.lgNoneToday}</p>`
    }${(state.todayByes ?? []).length > 0 ? html`<p class="lg-bye">${m.lgBye}: ${state.todayByes.map((b) => b.player).join(', ')}</p>` : ''}`,
  });
  pages.push({ id: 'live', body: html`<h1>${m.lgOnTables}</h1>${liveMatches(state, tables, m)}` });
  for (const [discipline, r] of Object.entries(state.rankings)) {
    pages.push({
      id: `rankings-${discipline}`,
      body: html`<h1>${m.lgRankings} <span class="muted">${variantName(discipline, m)}</span></h1><div class="lg-two">
<div><h2>${m.average}</h2><ol class="lg-rank">${r.byAverage.slice(0, 10).map((x) => html`<li><span class="pn">${x.player}</span><span class="num">${x.average.toFixed(3)}</span></li>`)}</ol></div>
<div><h2>${m.highRun}</h2><ol class="lg-rank">${r.byHighRun.slice(0, 10).map((x) => html`<li><span class="pn">${x.player}</span><span class="num">${x.highRun}</span></li>`)}</ol></div></div>`,
    });
  }
  // The first page shows until the script rotates (and without the script).
  return html`${pages.map((p, i) => html`<section class="lg-page${i === 0 ? ' active' : ''}" data-page="${p.id}">${p.body}</section>`)}`;
}

/** The printable results: standings and every fixture by round, per season. */
export function leagueResultsBody(state: LeagueState | null, m: Messages = EN): Html {
  if (!state || state.seasons.length === 0) return html`<main class="lg-print"><h1>${m.lgResults}</h1><p>${m.lgNone}</p></main>`;
  return html`<main class="lg-print"><p class="no-print"><a href="/api/league/standings.csv">${m.lgStandingsCsv}</a> · <a href="/api/league/results.csv">${m.lgResultsCsv}</a></p>${state.seasons.map((s) => {
    const rounds = [...new Set(s.fixtures.map((f) => f.round))];
    return html`<section class="lg-season"><h1>${s.name}</h1><p class="muted">${variantName(s.discipline, m)} · ${m.lgSeasonLine(String((s as { target?: number }).target ?? ''), s.points.win, s.points.draw, s.points.loss, state.updatedAt.slice(0, 16).replace('T', ' '))}</p>
<h2>${m.lgStandings}</h2>${standingsTable(s, m)}
<h2>${m.lgResultsH}</h2><table class="lg-results"><thead><tr><th>${m.lgRoundH}</th><th>${m.lgDate}</th><th>${m.lgHome}</th><th class="num">${m.score}</th><th class="num">${m.inningsShort}</th><th class="num">${m.hrShort}</th><th>${m.lgAway}</th><th class="num">${m.score}</th><th class="num">${m.inningsShort}</th><th class="num">${m.hrShort}</th><th>${m.lgNote}</th></tr></thead><tbody>
${rounds.map((round) =>
  s.fixtures
    .filter((f) => f.round === round)
    .map((f) => {
      const r = f.result;
      return html`<tr><td>${f.round}</td><td>${f.date}</td><td class="${r?.winner === 'home' ? 'won' : ''}">${f.home}</td><td class="num">${r?.home.score ?? ''}</td><td class="num">${r?.home.innings ?? ''}</td><td class="num">${r?.home.highRun ?? ''}</td><td class="${r?.winner === 'away' ? 'won' : ''}">${f.away}</td><td class="num">${r?.away.score ?? ''}</td><td class="num">${r?.away.innings ?? ''}</td><td class="num">${r?.away.highRun ?? ''}</td><td>${r ? (r.version > 1 ? m.lgCorrected(r.version, r.reason) : r.source === 'table' ? m.table(r.table ?? '') : m.lgEnteredBy(r.by)) : f.status === 'playing' ? m.lgPlaying : ''}</td></tr>`;
    }).concat((s.byes ?? []).filter((b) => b.round === round).map((b) => html`<tr class="bye"><td>${b.round}</td><td>${b.date}</td><td colspan="9" class="muted">${m.lgBye}: ${b.player}</td></tr>`)),
)}</tbody></table></section>`;
  })}</main>`;
}

/** The console's league forms (plain forms with the CSRF token; no script needed). */
export function leagueAdminBody(state: LeagueState | null, tables: readonly string[], csrf: string, message: { ok?: string; error?: string }, m: Messages = EN): Html {
  const seasons = state?.seasons ?? [];
  const fixtures = seasons.flatMap((s) => s.fixtures);
  const open = fixtures.filter((f) => f.status !== 'played');
  const token = html`<input type="hidden" name="csrf" value="${csrf}">`;
  const fixtureOptions = (list: readonly FixtureView[]) => list.map((f) => html`<option value="${f.id}">${f.id}: ${f.home} – ${f.away} (${f.date})</option>`);
  return html`<main class="lg-admin"><h1>${m.lgAdmin}</h1>
${message.ok ? html`<p class="toast ok" role="status">${message.ok}</p>` : ''}${message.error ? html`<p class="toast bad" role="alert">${message.error}</p>` : ''}
<section class="card"><h2>${m.lgNewSeason}</h2><form method="post" action="/league/admin/setup" class="lg-form">${token}
<label>${m.lgSeasonId}<input name="id" required pattern="[A-Za-z0-9_\\-]{1,40}" placeholder="winter-26"></label>
<label>${m.lgName}<input name="name" required placeholder="${m.lgNamePh}"></label>
<label>${m.lgDiscipline}<select name="discipline">${VARIANT_IDS.map((v) => html`<option value="${v}">${variantName(v, m)}</option>`)}</select></label>
<label>${m.target}<input name="target" type="number" min="1" value="30" required></label>
<label>${m.lgInningsOpt}<input name="inningsLimit" type="number" min="1"></label>
<label>${m.lgPointsWdl}<span class="lg-row"><input name="win" aria-label="${m.lgPointsWin}" type="number" min="0" value="2"><input name="draw" aria-label="${m.lgPointsDraw}" type="number" min="0" value="1"><input name="loss" aria-label="${m.lgPointsLoss}" type="number" min="0" value="0"></span></label>
<label>${m.lgHandicap}<span class="lg-row"><input name="hInnings" aria-label="${m.lgHInnings}" type="number" min="1" placeholder="25"><input name="hMin" aria-label="${m.lgHMin}" type="number" min="1" placeholder="10"><input name="hMax" aria-label="${m.lgHMax}" type="number" min="1" placeholder="80"><input name="hLast" aria-label="${m.lgHLast}" type="number" min="1" placeholder="5"></span></label>
<label>${m.lgTeamsLabel}<textarea name="teams" rows="2"></textarea></label>
<label><span>${m.lgPlayersLabel}</span><textarea name="players" rows="6" required></textarea></label>
<button class="btn primary" type="submit">${m.lgSetUp}</button></form></section>
<section class="card"><h2>${m.lgGenerate}</h2><form method="post" action="/league/admin/generate" class="lg-form">${token}
<label>${m.lgSeason}<select name="season">${seasons.map((s) => html`<option value="${s.id}">${s.name}</option>`)}</select></label>
<label>${m.lgFirstRound}<input name="startDate" type="date" required></label>
<label>${m.lgDaysBetween}<input name="daysBetweenRounds" type="number" min="0" value="7"></label>
<label class="check"><input name="double" type="checkbox" value="1"> ${m.lgDouble}</label>
<button class="btn primary" type="submit">${m.lgGenerateBtn}</button></form></section>
<section class="card"><h2>${m.lgStartFixture}</h2><form method="post" action="/league/admin/start" class="lg-form">${token}
<label>${m.lgFixture}<select name="fixture">${fixtureOptions(open)}</select></label>
<label>${m.table('')}<select name="table">${tables.map((t) => html`<option value="${t}">${m.table(t)}</option>`)}</select></label>
<button class="btn primary" type="submit">${m.lgStartBtn}</button></form></section>
<section class="card"><h2>${m.lgEnterResult}</h2><form method="post" action="/league/admin/result" class="lg-form">${token}
<label>${m.lgFixture}<select name="fixture">${fixtureOptions(fixtures)}</select></label>
<label>${m.lgHomeLine}<span class="lg-row"><input name="homeScore" aria-label="${m.lgHomeScore}" type="number" min="0" required><input name="homeInnings" aria-label="${m.lgHomeInnings}" type="number" min="0" required><input name="homeHighRun" aria-label="${m.lgHomeHighRun}" type="number" min="0" required></span></label>
<label>${m.lgAwayLine}<span class="lg-row"><input name="awayScore" aria-label="${m.lgAwayScore}" type="number" min="0" required><input name="awayInnings" aria-label="${m.lgAwayInnings}" type="number" min="0" required><input name="awayHighRun" aria-label="${m.lgAwayHighRun}" type="number" min="0" required></span></label>
<label>${m.lgWinner}<select name="winner"><option value="home">${m.lgHome}</option><option value="away">${m.lgAway}</option><option value="draw">${m.lgDraw}</option></select></label>
<label>${m.lgReasonAudit}<input name="reason" required></label>
<button class="btn warn" type="submit">${m.lgSave}</button></form></section>
<p><a href="/league">${m.lgDisplay}</a> · <a href="/league/results">${m.lgPrintable}</a></p></main>`;
}
