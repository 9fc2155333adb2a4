import type { CommandHandlers, FixtureView, LeagueCommandName, LeagueState, TableState } from '../contract/mqtt.ts';
import type { MatchSetup } from '../rules/events.ts';
import { err, ok, type Result } from '../rules/result.ts';
import { toCsv } from './csv.ts';
import { roundRobin } from './fixtures.ts';
import { handicapTarget, rollingAverage } from './handicap.ts';
import { rankings, standings, teamStandings, type Played } from './standings.ts';
import type { LeagueStore } from './store.ts';
import type { Fixture, LeagueResult, Season, StandingRow, generateSchema, manualResultSchema } from './types.ts';
import type { z } from 'zod';

/** `billiards/league/state` and its fixtures: the contract's types (hub/contract/league.ts). */
export type { FixtureView, LeagueState };

export interface LeagueDeps {
  store: LeagueStore;
  iso: () => string;
  publish: (state: LeagueState) => void;
  /** Starts a match on a table of this hub (the table's own validation applies). */
  startMatch: (table: string, setup: MatchSetup) => Result<void>;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
}

/**
 * The house league: seasons, fixtures, results, standings. Commands change the store in
 * one transaction each (nothing half-applied), then the retained state is published.
 */
export class LeagueService {
  private updatedAt: string;

  constructor(private readonly deps: LeagueDeps) {
    this.updatedAt = deps.iso();
  }

  private changed(): void {
    this.deps.store.bumpSeq();
    this.updatedAt = this.deps.iso();
    this.deps.publish(this.state());
  }

  setup(season: Season): Result<Season> {
    const { store } = this.deps;
    if (store.fixtures(season.id).length > 0) return err(`season.id: season '${season.id}' already has fixtures; start a new season`);
    store.putSeason(season, this.deps.iso());
    this.changed();
    return ok(season);
  }

  generateFixtures(req: z.infer<typeof generateSchema>): Result<Fixture[]> {
    const { store } = this.deps;
    const season = store.seasons().find((s) => s.id === req.season);
    if (!season) return err(`season: no season '${req.season}'`);
    if (store.fixtures(season.id).length > 0) return err(`season: season '${season.id}' already has fixtures`);
    const start = Date.parse(`${req.startDate}T00:00:00Z`);
    if (Number.isNaN(start)) return err('startDate: not a date');
    const fixtures: Fixture[] = [];
    for (const round of roundRobin(season.players.map((p) => p.name), req.double)) {
      const date = new Date(start + (round.round - 1) * req.daysBetweenRounds * 86_400_000).toISOString().slice(0, 10);
      round.pairs.forEach((p, i) => fixtures.push({ id: `${season.id}-r${round.round}-${i + 1}`, season: season.id, round: round.round, date, home: p.home, away: p.away }));
    }
    store.atomically(() => store.addFixtures(fixtures));
    this.changed();
    return ok(fixtures);
  }

  /** The handicap targets of a fixture's players, or null when the season plays without handicap. */
  targets(season: Season, fixture: Fixture): Record<string, number> | null {
    const formula = season.handicap;
    if (!formula) return null;
    const history = this.playedIn(season.discipline).map((g) => ({ result: g.result, home: g.fixture.home, away: g.fixture.away }));
    const out: Record<string, number> = {};
    for (const name of [fixture.home, fixture.away]) {
      const declared = season.players.find((p) => p.name === name)?.averages?.[season.discipline];
      const average = rollingAverage(name, history, formula.lastMatches) ?? declared ?? null;
      out[name] = average === null ? season.target : handicapTarget(average, formula);
    }
    return out;
  }

  startFixture(table: string, fixtureId: string): Result<{ fixture: Fixture; setup: MatchSetup }> {
    const { store } = this.deps;
    const fixture = store.fixtures().find((f) => f.id === fixtureId);
    if (!fixture) return err(`fixture: no fixture '${fixtureId}'`);
    const season = store.seasons().find((s) => s.id === fixture.season)!;
    if (this.current().has(fixture.id)) return err(`fixture: '${fixture.id}' already has a result (correct it with league/result)`);
    const other = store.openLinks().find((l) => l.fixture === fixture.id && l.table !== table);
    if (other) return err(`fixture: '${fixture.id}' is being played on table ${other.table}`);
    const targets = this.targets(season, fixture);
    const options: Record<string, unknown> = {};
    if (targets) options.targets = targets;
    if (season.inningsLimit) options.inningsLimit = season.inningsLimit;
    const setup: MatchSetup = { variant: season.discipline, players: [fixture.home, fixture.away], target: season.target, ...(Object.keys(options).length > 0 ? { options } : {}) };
    const started = this.deps.startMatch(table, setup);
    if (!started.ok) return err(started.error);
    store.link(table, fixture.id, this.deps.iso());
    this.changed();
    return ok({ fixture, setup });
  }

  manualResult(req: z.infer<typeof manualResultSchema>): Result<LeagueResult> {
    const fixture = this.deps.store.fixtures().find((f) => f.id === req.fixture);
    if (!fixture) return err(`fixture: no fixture '${req.fixture}'`);
    if (req.winner === 'home' && req.home.score < req.away.score) return err('winner: home cannot win with the lower score');
    if (req.winner === 'away' && req.away.score < req.home.score) return err('winner: away cannot win with the lower score');
    for (const side of ['home', 'away'] as const) if (req[side].highRun > req[side].score) return err(`${side}.highRun: higher than the score`);
    const saved = this.deps.store.addResult({ fixture: fixture.id, source: 'manual', home: req.home, away: req.away, winner: req.winner, by: req.by, reason: req.reason, at: this.deps.iso(), table: null });
    this.changed();
    return ok(saved);
  }

  /** Every table state the hub publishes: a linked fixture's finished or drawn match becomes its result. */
  onTableState(state: TableState): void {
    const { store } = this.deps;
    const link = store.openLinks().find((l) => l.table === state.table);
    if (!link) return;
    const fixture = store.fixtures().find((f) => f.id === link.fixture);
    const players = state.match?.players ?? [];
    if (!fixture || players.length !== 2 || players[0] !== fixture.home || players[1] !== fixture.away) {
      // Another match was started on the table: the fixture is no longer being played there.
      store.endLink(link.id, this.deps.iso(), 'abandoned');
      this.changed();
      return;
    }
    if (state.status !== 'finished' && state.status !== 'drawn') return;
    const side = (name: string) => {
      const p = state.players.find((x) => x.name === name)!;
      return { score: p.score, innings: p.innings, highRun: p.highRun };
    };
    const winner = state.status === 'drawn' || state.winner === null ? 'draw' : state.winner === fixture.home ? 'home' : 'away';
    store.atomically(() => {
      store.addResult({ fixture: fixture.id, source: 'table', home: side(fixture.home), away: side(fixture.away), winner, by: `table ${state.table}`, reason: 'scored on the table', at: this.deps.iso(), table: state.table });
      store.endLink(link.id, this.deps.iso(), 'recorded');
    });
    this.deps.log?.('info', 'league result recorded from the table', { table: state.table, fixture: fixture.id });
    this.changed();
  }

  /** The result that counts for each fixture (the highest version). */
  private current(): Map<string, LeagueResult> {
    const out = new Map<string, LeagueResult>();
    for (const r of this.deps.store.allResults()) out.set(r.fixture, r);
    return out;
  }

  private playedIn(discipline: string, season?: string): Played[] {
    const seasons = new Set(this.deps.store.seasons().filter((s) => s.discipline === discipline && (season === undefined || s.id === season)).map((s) => s.id));
    const current = this.current();
    const fixtures = new Map(this.deps.store.fixtures().map((f) => [f.id, f]));
    // In the order the results were first entered, so "the last N matches" means what it says.
    const firstAt = new Map<string, number>();
    this.deps.store.allResults().forEach((r, i) => firstAt.has(r.fixture) || firstAt.set(r.fixture, i));
    return [...current.values()]
      .filter((r) => seasons.has(fixtures.get(r.fixture)?.season ?? ''))
      .sort((a, b) => firstAt.get(a.fixture)! - firstAt.get(b.fixture)!)
      .map((result) => ({ fixture: fixtures.get(result.fixture)!, result }));
  }

  standings(seasonId: string): Result<StandingRow[]> {
    const season = this.deps.store.seasons().find((s) => s.id === seasonId);
    if (!season) return err(`season: no season '${seasonId}'`);
    return ok(standings(season, this.playedIn(season.discipline, season.id)));
  }

  exportCsv(what: 'standings' | 'results', seasonId?: string): Result<string> {
    const seasons = this.deps.store.seasons().filter((s) => seasonId === undefined || s.id === seasonId);
    if (seasonId !== undefined && seasons.length === 0) return err(`season: no season '${seasonId}'`);
    if (what === 'standings') {
      const rows = seasons.flatMap((s) => standings(s, this.playedIn(s.discipline, s.id)).map((r) => [s.id, r.rank, r.player, r.team ?? '', r.played, r.won, r.drawn, r.lost, r.points, r.score, r.innings, r.average.toFixed(3), r.highRun]));
      return ok(toCsv(['season', 'rank', 'player', 'team', 'played', 'won', 'drawn', 'lost', 'points', 'score', 'innings', 'average', 'high_run'], rows));
    }
    const ids = new Set(seasons.map((s) => s.id));
    const fixtures = new Map(this.deps.store.fixtures().map((f) => [f.id, f]));
    const rows = this.deps.store
      .allResults()
      .filter((r) => ids.has(fixtures.get(r.fixture)?.season ?? ''))
      .map((r) => {
        const f = fixtures.get(r.fixture)!;
        return [f.season, f.round, f.date, r.fixture, r.version, f.home, r.home.score, r.home.innings, r.home.highRun, f.away, r.away.score, r.away.innings, r.away.highRun, r.winner, r.source, r.by, r.reason, r.at];
      });
    return ok(toCsv(['season', 'round', 'date', 'fixture', 'version', 'home', 'home_score', 'home_innings', 'home_high_run', 'away', 'away_score', 'away_innings', 'away_high_run', 'winner', 'source', 'by', 'reason', 'at'], rows));
  }

  state(): LeagueState {
    const { store } = this.deps;
    const today = this.deps.iso().slice(0, 10);
    const seasons = store.seasons();
    const fixtures = store.fixtures();
    const current = this.current();
    const links = store.openLinks();
    const view = (f: Fixture): FixtureView => {
      const link = links.find((l) => l.fixture === f.id);
      const result = current.get(f.id) ?? null;
      return { ...f, status: result ? 'played' : link ? 'playing' : 'scheduled', table: link?.table ?? result?.table ?? null, result };
    };
    const seasonViews = seasons.map((s) => {
      const own = fixtures.filter((f) => f.season === s.id);
      const byes = [...new Set(own.map((f) => f.round))].flatMap((round) => {
        const games = own.filter((f) => f.round === round);
        const playing = new Set(games.flatMap((f) => [f.home, f.away]));
        return s.players.filter((p) => !playing.has(p.name)).map((p) => ({ round, date: games[0]!.date, player: p.name }));
      });
      const rows = standings(s, this.playedIn(s.discipline, s.id));
      return { ...s, standings: rows, teamStandings: teamStandings(s.teams, rows), fixtureCount: own.length, playedCount: own.filter((f) => current.has(f.id)).length, fixtures: own.map(view), byes };
    });
    const disciplines = [...new Set(seasons.map((s) => s.discipline))];
    const byId = new Map(fixtures.map((f) => [f.id, f]));
    return {
      seq: store.seq(),
      updatedAt: this.updatedAt,
      today,
      seasons: seasonViews,
      rankings: Object.fromEntries(disciplines.map((d) => [d, rankings(this.playedIn(d))])),
      todayFixtures: fixtures.filter((f) => f.date === today || links.some((l) => l.fixture === f.id)).map(view),
      todayByes: seasonViews.flatMap((s) => s.byes.filter((b) => b.date === today).map((b) => ({ season: s.id, round: b.round, player: b.player }))),
      recentResults: [...current.values()]
        .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
        .slice(0, 12)
        .map((r) => ({ ...r, home_player: byId.get(r.fixture)?.home ?? '', away_player: byId.get(r.fixture)?.away ?? '', season: byId.get(r.fixture)?.season ?? '' })),
      live: links.map((l) => ({ table: l.table, fixture: l.fixture, home: byId.get(l.fixture)?.home ?? '', away: byId.get(l.fixture)?.away ?? '' })),
    };
  }

  /** The full audit trail of one fixture, oldest first. */
  history(fixture: string): LeagueResult[] {
    return this.deps.store.allResults().filter((r) => r.fixture === fixture);
  }
}

/** The MQTT commands, already validated by the contract's schemas, applied to the league. */
export function leagueCommands(league: LeagueService): CommandHandlers<Result<unknown>, LeagueCommandName> {
  return {
    'league/setup': (request) => league.setup(request.season),
    'league/generate-fixtures': (request) => league.generateFixtures(request),
    'league/start-fixture': (request) => league.startFixture(request.table, request.fixture),
    'league/result': (request) => league.manualResult(request),
    'league/export': (request) => {
      const csv = league.exportCsv(request.what, request.season);
      return csv.ok ? ok({ what: request.what, format: 'csv', content: csv.value }) : csv;
    },
  };
}
