import type { FixtureView, LeagueState } from '../../hub/league/service.ts';
import { VARIANT_IDS } from '../../hub/rules/ids.ts';
import { h, raw, type Html } from '../html.ts';
import type { TableRecord } from '../store.ts';
import { variantName } from './scoreboard.ts';

type SeasonView = LeagueState['seasons'][number];

function standingsTable(s: SeasonView, limit = 99): Html {
  return h`<table class="lg-standings">
<thead><tr><th class="num">#</th><th>Player</th><th class="num">P</th><th class="num">W</th><th class="num">D</th><th class="num">L</th><th class="num">Pts</th><th class="num">Avg</th><th class="num">HR</th></tr></thead>
<tbody>${s.standings.slice(0, limit).map(
    (r) => h`<tr><td class="num">${r.rank}</td><td class="pn">${r.player}${r.team ? h` <span class="muted">${r.team}</span>` : ''}</td><td class="num">${r.played}</td><td class="num">${r.won}</td><td class="num">${r.drawn}</td><td class="num">${r.lost}</td><td class="num pts">${r.points}</td><td class="num">${r.average.toFixed(3)}</td><td class="num">${r.highRun}</td></tr>`,
  )}</tbody></table>`;
}

function fixtureLine(f: FixtureView): Html {
  const r = f.result;
  return h`<li class="lg-fixture status-${f.status}"><span class="lg-home">${f.home}</span><span class="lg-score">${r ? `${r.home.score} – ${r.away.score}` : 'vs'}</span><span class="lg-away">${f.away}</span><span class="lg-where">${f.status === 'playing' ? `table ${f.table}` : f.status === 'played' ? 'played' : `round ${f.round}`}</span></li>`;
}

function liveMatches(state: LeagueState, tables: readonly TableRecord[]): Html {
  const playing = tables.filter((t) => t.state && (t.state.status === 'playing' || t.state.status === 'awaiting-referee'));
  if (playing.length === 0) return h`<p class="lg-empty">No match on the tables right now.</p>`;
  return h`<div class="lg-live">${playing.map((t) => {
    const s = t.state!;
    const link = state.live.find((l) => l.table === t.table);
    return h`<article class="lg-table${link ? ' league' : ''}"><header><span>Table ${t.table}</span><span class="muted">${link ? 'League' : variantName(s.variant)}</span></header>
<ul>${s.players.map((p) => h`<li class="${s.turn === p.name ? 'turn' : ''}"><span class="pn">${p.name}</span><span class="ps">${p.score}</span><span class="pt">/ ${p.target}</span></li>`)}</ul></article>`;
  })}</div>`;
}

/** The club TV: pages the script rotates every ~10 s (standings per season, today's fixtures, live tables, rankings). */
export function leagueDisplayFragment(state: LeagueState | null, tables: readonly TableRecord[]): Html {
  if (!state || state.seasons.length === 0) return h`<section class="lg-page active"><h1>House league</h1><p class="lg-empty">No league has been set up yet.</p></section>`;
  const pages: Html[] = state.seasons.map(
    (s) => h`<section class="lg-page" data-page="standings-${s.id}"><h1>${s.name} <span class="muted">${variantName(s.discipline)} · ${s.playedCount}/${s.fixtureCount} played</span></h1>${standingsTable(s, 12)}</section>`,
  );
  for (const s of state.seasons.filter((x) => (x.teamStandings ?? []).length > 0)) {
    pages.push(
      h`<section class="lg-page" data-page="teams-${s.id}"><h1>${s.name} <span class="muted">teams</span></h1><table class="lg-standings"><thead><tr><th class="num">#</th><th>Team</th><th class="num">Players</th><th class="num">P</th><th class="num">Pts</th><th class="num">Avg</th><th class="num">HR</th></tr></thead><tbody>${s.teamStandings.map(
        (r) => h`<tr><td class="num">${r.rank}</td><td class="pn">${r.team}</td><td class="num">${r.players}</td><td class="num">${r.played}</td><td class="num pts">${r.points}</td><td class="num">${r.average.toFixed(3)}</td><td class="num">${r.highRun}</td></tr>`,
      )}</tbody></table></section>`,
    );
  }
  pages.push(
    h`<section class="lg-page" data-page="today"><h1>Today's fixtures <span class="muted">${state.today}</span></h1>${
      state.todayFixtures.length > 0 ? h`<ul class="lg-fixtures">${state.todayFixtures.map(fixtureLine)}</ul>` : h`<p class="lg-empty">No fixtures today.</p>`
    }${(state.todayByes ?? []).length > 0 ? h`<p class="lg-bye">Bye: ${state.todayByes.map((b) => b.player).join(', ')}</p>` : ''}</section>`,
  );
  pages.push(h`<section class="lg-page" data-page="live"><h1>On the tables</h1>${liveMatches(state, tables)}</section>`);
  for (const [discipline, r] of Object.entries(state.rankings)) {
    pages.push(
      h`<section class="lg-page" data-page="rankings-${discipline}"><h1>Rankings <span class="muted">${variantName(discipline)}</span></h1><div class="lg-two">
<div><h2>Average</h2><ol class="lg-rank">${r.byAverage.slice(0, 10).map((x) => h`<li><span class="pn">${x.player}</span><span class="num">${x.average.toFixed(3)}</span></li>`)}</ol></div>
<div><h2>High run</h2><ol class="lg-rank">${r.byHighRun.slice(0, 10).map((x) => h`<li><span class="pn">${x.player}</span><span class="num">${x.highRun}</span></li>`)}</ol></div></div></section>`,
    );
  }
  // The first page shows until the script rotates (and without the script).
  return raw(h`${pages}`.value.replace('class="lg-page"', 'class="lg-page active"'));
}

/** The printable results: standings and every fixture by round, per season. */
export function leagueResultsBody(state: LeagueState | null): Html {
  if (!state || state.seasons.length === 0) return h`<main class="lg-print"><h1>League results</h1><p>No league has been set up yet.</p></main>`;
  return h`<main class="lg-print"><p class="no-print"><a href="/api/league/standings.csv">Standings CSV</a> · <a href="/api/league/results.csv">Results CSV</a></p>${state.seasons.map((s) => {
    const rounds = [...new Set(s.fixtures.map((f) => f.round))];
    return h`<section class="lg-season"><h1>${s.name}</h1><p class="muted">${variantName(s.discipline)} · target ${String((s as { target?: number }).target ?? '')} · points ${s.points.win}/${s.points.draw}/${s.points.loss} (win/draw/loss) · as of ${state.updatedAt.slice(0, 16).replace('T', ' ')}</p>
<h2>Standings</h2>${standingsTable(s)}
<h2>Results</h2><table class="lg-results"><thead><tr><th>Round</th><th>Date</th><th>Home</th><th class="num">Score</th><th class="num">Inn.</th><th class="num">HR</th><th>Away</th><th class="num">Score</th><th class="num">Inn.</th><th class="num">HR</th><th>Note</th></tr></thead><tbody>
${rounds.map((round) =>
  s.fixtures
    .filter((f) => f.round === round)
    .map((f) => {
      const r = f.result;
      return h`<tr><td>${f.round}</td><td>${f.date}</td><td class="${r?.winner === 'home' ? 'won' : ''}">${f.home}</td><td class="num">${r?.home.score ?? ''}</td><td class="num">${r?.home.innings ?? ''}</td><td class="num">${r?.home.highRun ?? ''}</td><td class="${r?.winner === 'away' ? 'won' : ''}">${f.away}</td><td class="num">${r?.away.score ?? ''}</td><td class="num">${r?.away.innings ?? ''}</td><td class="num">${r?.away.highRun ?? ''}</td><td>${r ? (r.version > 1 ? `corrected (v${r.version}): ${r.reason}` : r.source === 'table' ? `table ${r.table ?? ''}` : `entered by ${r.by}`) : f.status === 'playing' ? 'playing' : ''}</td></tr>`;
    }).concat((s.byes ?? []).filter((b) => b.round === round).map((b) => h`<tr class="bye"><td>${b.round}</td><td>${b.date}</td><td colspan="9" class="muted">Bye: ${b.player}</td></tr>`)),
)}</tbody></table></section>`;
  })}</main>`;
}

/** The console's league forms (plain forms with the CSRF token; no script needed). */
export function leagueAdminBody(state: LeagueState | null, tables: readonly string[], csrf: string, message: { ok?: string; error?: string }): Html {
  const seasons = state?.seasons ?? [];
  const fixtures = seasons.flatMap((s) => s.fixtures);
  const open = fixtures.filter((f) => f.status !== 'played');
  const token = h`<input type="hidden" name="csrf" value="${csrf}">`;
  const fixtureOptions = (list: readonly FixtureView[]) => list.map((f) => h`<option value="${f.id}">${f.id}: ${f.home} – ${f.away} (${f.date})</option>`);
  return h`<main class="lg-admin"><h1>League administration</h1>
${message.ok ? h`<p class="toast ok" role="status">${message.ok}</p>` : ''}${message.error ? h`<p class="toast bad" role="alert">${message.error}</p>` : ''}
<section class="card"><h2>New season</h2><form method="post" action="/league/admin/setup" class="lg-form">${token}
<label>Season id<input name="id" required pattern="[A-Za-z0-9_\\-]{1,40}" placeholder="winter-26"></label>
<label>Name<input name="name" required placeholder="Winter league"></label>
<label>Discipline<select name="discipline">${VARIANT_IDS.map((v) => h`<option value="${v}">${variantName(v)}</option>`)}</select></label>
<label>Target<input name="target" type="number" min="1" value="30" required></label>
<label>Innings limit (optional)<input name="inningsLimit" type="number" min="1"></label>
<label>Points win / draw / loss<span class="lg-row"><input name="win" aria-label="Points for a win" type="number" min="0" value="2"><input name="draw" aria-label="Points for a draw" type="number" min="0" value="1"><input name="loss" aria-label="Points for a loss" type="number" min="0" value="0"></span></label>
<label>Handicap: innings per match, min, max, last N matches (empty: no handicap)<span class="lg-row"><input name="hInnings" aria-label="Handicap: innings per match" type="number" min="1" placeholder="25"><input name="hMin" aria-label="Handicap: minimum" type="number" min="1" placeholder="10"><input name="hMax" aria-label="Handicap: maximum" type="number" min="1" placeholder="80"><input name="hLast" aria-label="Handicap: last N matches" type="number" min="1" placeholder="5"></span></label>
<label>Teams (one a line, optional)<textarea name="teams" rows="2"></textarea></label>
<label><span>Players: one a line, <code>name; team; average</code> (team and average optional)</span><textarea name="players" rows="6" required></textarea></label>
<button class="btn primary" type="submit">Set up the season</button></form></section>
<section class="card"><h2>Generate fixtures</h2><form method="post" action="/league/admin/generate" class="lg-form">${token}
<label>Season<select name="season">${seasons.map((s) => h`<option value="${s.id}">${s.name}</option>`)}</select></label>
<label>First round on<input name="startDate" type="date" required></label>
<label>Days between rounds<input name="daysBetweenRounds" type="number" min="0" value="7"></label>
<label class="check"><input name="double" type="checkbox" value="1"> Home and away (double round robin)</label>
<button class="btn primary" type="submit">Generate</button></form></section>
<section class="card"><h2>Start a fixture on a table</h2><form method="post" action="/league/admin/start" class="lg-form">${token}
<label>Fixture<select name="fixture">${fixtureOptions(open)}</select></label>
<label>Table<select name="table">${tables.map((t) => h`<option value="${t}">Table ${t}</option>`)}</select></label>
<button class="btn primary" type="submit">Start the match</button></form></section>
<section class="card"><h2>Enter or correct a result</h2><form method="post" action="/league/admin/result" class="lg-form">${token}
<label>Fixture<select name="fixture">${fixtureOptions(fixtures)}</select></label>
<label>Home: score, innings, high run<span class="lg-row"><input name="homeScore" aria-label="Home score" type="number" min="0" required><input name="homeInnings" aria-label="Home innings" type="number" min="0" required><input name="homeHighRun" aria-label="Home high run" type="number" min="0" required></span></label>
<label>Away: score, innings, high run<span class="lg-row"><input name="awayScore" aria-label="Away score" type="number" min="0" required><input name="awayInnings" aria-label="Away innings" type="number" min="0" required><input name="awayHighRun" aria-label="Away high run" type="number" min="0" required></span></label>
<label>Winner<select name="winner"><option value="home">Home</option><option value="away">Away</option><option value="draw">Draw</option></select></label>
<label>Reason (kept in the audit trail)<input name="reason" required></label>
<button class="btn warn" type="submit">Save the result</button></form></section>
<p><a href="/league">League display</a> · <a href="/league/results">Printable results</a></p></main>`;
}
