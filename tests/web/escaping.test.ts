import { describe, expect, it } from 'vitest';
import { leagueStateSchema } from '../../hub/contract/league.ts';
import { hardwareBody } from '../../web/pages/hardware.ts';
import { htmlText, jsonBlock, layout, type Html } from '../../web/pages/layout.ts';
import { leagueAdminBody, leagueDisplayFragment, leagueResultsBody } from '../../web/pages/league.ts';
import { loginPage } from '../../web/pages/login.ts';
import { overviewFragment } from '../../web/pages/overview.ts';
import { refereeForms, refereeFragment } from '../../web/pages/referee.ts';
import { announcement, scoreboardFragment, tableName } from '../../web/pages/scoreboard.ts';
import { messages } from '../../web/i18n.ts';
import type { TableRecord } from '../../web/store.ts';
import { sampleState } from './support/states.ts';

/**
 * Names come from outside (a referee types the players, a venue names its tables and
 * seasons): every page that shows one escapes it, as hono/html's `html` does.
 */
const EVIL = `<script>alert("x")</script>'&`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';
const HOME = `Ana ${EVIL}`;
const AWAY = `Ben "quoted" 'single'`;

function shows(part: Html | string): string {
  const text = typeof part === 'string' ? part : htmlText(part);
  expect(text).not.toContain('<script>alert');
  expect(text).not.toContain(`"quoted"`);
  return text;
}

const players = [
  { name: HOME, score: 12, innings: 9, highRun: 4, average: 1.333, run: 2, target: 40 },
  { name: AWAY, score: 9, innings: 8, highRun: 3, average: 1.125, run: 0, target: 40 },
];
const rec = (over: Parameters<typeof sampleState>[1] = {}): TableRecord => ({
  table: '1',
  state: sampleState('1', { name: `Table ${EVIL}`, turn: HOME, players, match: { variant: 'three-cushion', players: [HOME, AWAY], target: 40, options: {} }, shots: [{ shooter: HOME, points: 1, foul: null, rules: ['TC-1'], turnPasses: false, cueBall: 'white' }], ...over }),
  availability: null,
  health: null,
  lastShot: null,
});

const fixture = (id: string, status: 'scheduled' | 'played' | 'playing') => ({
  id,
  season: 's1',
  round: 1,
  date: '2026-11-30',
  home: HOME,
  away: AWAY,
  status,
  table: status === 'playing' ? '1' : null,
  result: status === 'played' ? { fixture: id, version: 2, source: 'manual' as const, home: { score: 3, innings: 5, highRun: 2 }, away: { score: 1, innings: 5, highRun: 1 }, winner: 'home' as const, by: EVIL, reason: EVIL, at: '2026-11-30T20:00:00Z', table: null } : null,
});
const standing = (rank: number, player: string) => ({ rank, player, team: EVIL, played: 1, won: 1, drawn: 0, lost: 0, points: 2, score: 3, innings: 5, average: 0.6, highRun: 2 });
const league = leagueStateSchema.parse({
  seq: 1,
  updatedAt: '2026-11-30T20:00:00.000Z',
  today: '2026-11-30',
  seasons: [
    {
      id: 's1',
      name: `Winter ${EVIL}`,
      discipline: 'three-cushion',
      target: 3,
      points: { win: 2, draw: 1, loss: 0 },
      handicap: null,
      players: [{ name: HOME, team: EVIL }, { name: AWAY }],
      teams: [EVIL],
      standings: [standing(1, HOME), standing(2, AWAY)],
      fixtureCount: 3,
      playedCount: 1,
      fixtures: [fixture('f1', 'played'), fixture('f2', 'scheduled'), fixture('f3', 'playing')],
      byes: [{ round: 1, date: '2026-11-30', player: EVIL }],
      teamStandings: [{ rank: 1, team: EVIL, players: 2, played: 1, points: 2, score: 3, innings: 5, average: 0.6, highRun: 2 }],
    },
  ],
  rankings: { 'three-cushion': { byAverage: [{ player: HOME, matches: 1, average: 0.6, highRun: 2 }], byHighRun: [{ player: AWAY, matches: 1, average: 0.2, highRun: 1 }] } },
  todayFixtures: [fixture('f2', 'scheduled'), fixture('f3', 'playing')],
  todayByes: [{ season: 's1', round: 1, player: EVIL }],
  recentResults: [],
  live: [{ table: '1', fixture: 'f3', home: HOME, away: AWAY }],
});

describe('user-supplied names are escaped on every page that shows them', () => {
  const m = messages('en');

  it('scoreboard, overlay, spoken announcement and table name', () => {
    expect(shows(scoreboardFragment(rec(), '1'))).toContain(ESCAPED);
    expect(shows(scoreboardFragment(rec({ status: 'finished', winner: HOME }), '1'))).toContain(ESCAPED);
    expect(shows(scoreboardFragment(rec(), '1', { compact: true }))).toContain(ESCAPED);
    // Plain text (for textContent and the screen reader), not HTML: the names as typed.
    expect(announcement(rec().state, m)).toContain(HOME);
    expect(tableName(rec().state, '1', m)).toContain(EVIL);
  });

  it('overview and referee console', () => {
    expect(shows(overviewFragment([rec()], Date.now(), true))).toContain(ESCAPED);
    expect(shows(refereeFragment(rec(), '1'))).toContain(ESCAPED);
    expect(shows(refereeForms('1', rec(), 'en', fixture('f2', 'scheduled')))).toContain(ESCAPED);
  });

  it('hardware page, login page and the layout (title, user, CSRF token)', () => {
    expect(shows(hardwareBody('1', tableName(rec().state, '1', m), m))).toContain(ESCAPED);
    expect(shows(loginPage(`/x"><script>alert("x")</script>`, EVIL))).toContain(ESCAPED);
    const page = shows(layout({ title: EVIL, body: scoreboardFragment(rec(), '1'), user: EVIL, csrf: `"${EVIL}`, nav: true, path: `/?q=${EVIL}` }));
    expect(page).toContain(`<title>${ESCAPED}</title>`);
    expect(page).toContain(`<span class="who">${ESCAPED}</span>`);
  });

  it('league display, printable results and admin forms', () => {
    const tables = [rec()];
    const display = shows(leagueDisplayFragment(league, tables));
    for (const page of ['standings-s1', 'teams-s1', 'today', 'live', 'rankings-three-cushion']) expect(display).toContain(`data-page="${page}"`);
    expect(display).toContain(ESCAPED);
    expect(shows(leagueResultsBody(league))).toContain(ESCAPED);
    expect(shows(leagueAdminBody(league, ['1'], EVIL, { ok: EVIL, error: EVIL }))).toContain(ESCAPED);
  });

  it('JSON blocks cannot close their script tag', () => {
    const block = htmlText(jsonBlock('config', { table: EVIL }));
    expect(block.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(block.replace(/^<script[^>]*>|<\/script>$/g, ''))).toEqual({ table: EVIL });
  });
});

describe('league display', () => {
  it('marks its first page active, and only that one (composed, not patched)', () => {
    const display = htmlText(leagueDisplayFragment(league, [rec()]));
    const sections = [...display.matchAll(/<section class="([^"]*)" data-page="([^"]*)"/g)].map(([, cls, page]) => `${cls}:${page}`);
    expect(sections).toEqual(['lg-page active:standings-s1', 'lg-page:teams-s1', 'lg-page:today', 'lg-page:live', 'lg-page:rankings-three-cushion']);
    expect(htmlText(leagueDisplayFragment(null, []))).toContain('class="lg-page active"');
  });
});
