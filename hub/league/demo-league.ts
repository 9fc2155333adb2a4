import type { TableState } from '../contract/mqtt.ts';
import type { LeagueService } from './service.ts';
import type { Season } from './types.ts';
import { DEFAULT_VARIANT, type VariantId } from '../rules/catalogue.ts';

/**
 * The demo's house league (`npm start` with no configuration): simulated players whose
 * fixtures are played, one after another, on the simulated tables, so the league display
 * has standings, today's fixtures and live matches from the first minute.
 */
export const DEMO_SEASON_ID = 'house-demo';
/** The game the demo league plays: the catalogue's default, the one the demo's first tables play. */
export const DEMO_DISCIPLINE: VariantId = DEFAULT_VARIANT;

export function demoSeason(): Season {
  return {
    id: DEMO_SEASON_ID,
    name: 'House league (demo)',
    discipline: DEMO_DISCIPLINE,
    target: 8,
    inningsLimit: 25,
    points: { win: 2, draw: 1, loss: 0 },
    handicap: null,
    players: ['Ana', 'Ben', 'Cleo', 'Dan'].map((name) => ({ name })),
    teams: [],
  };
}

export class DemoLeague {
  private starting = false;

  constructor(
    private readonly league: LeagueService,
    /** The tables the league plays on. */
    private readonly tables: readonly string[],
    private readonly today: () => string,
    private readonly log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void,
  ) {}

  /** Sets the season up and draws its fixtures, all for today, once (the league store keeps them across restarts). */
  ensureSeason(): void {
    if (this.league.state().seasons.some((s) => s.id === DEMO_SEASON_ID)) return;
    const setup = this.league.setup(demoSeason());
    if (!setup.ok) return this.log?.('error', 'demo league: season refused', { error: setup.error });
    const drawn = this.league.generateFixtures({ season: DEMO_SEASON_ID, startDate: this.today(), daysBetweenRounds: 0, double: true });
    if (!drawn.ok) this.log?.('error', 'demo league: fixtures refused', { error: drawn.error });
  }

  /**
   * After each table state (and after the league has read it): a league table that is free
   * (no match yet, or a fresh one the simulator just restarted) starts the next fixture.
   */
  onTableState(state: TableState): void {
    if (this.starting || !this.tables.includes(state.table)) return;
    const free = state.status === 'idle' || (state.status === 'playing' && state.shotCount === 0);
    if (!free) return;
    const league = this.league.state();
    if (league.live.some((l) => l.table === state.table)) return;
    const season = league.seasons.find((s) => s.id === DEMO_SEASON_ID);
    const next = season?.fixtures.find((f) => f.status === 'scheduled');
    if (!next) return;
    // startFixture starts the match, whose state comes back here before the link is stored.
    this.starting = true;
    try {
      const started = this.league.startFixture(state.table, next.id);
      if (!started.ok) this.log?.('warn', 'demo league: fixture not started', { table: state.table, fixture: next.id, error: started.error });
    } finally {
      this.starting = false;
    }
  }
}
