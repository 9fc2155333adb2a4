import { avg, type Fixture, type LeagueResult, type PointsScheme, type Season, type StandingRow } from './types.ts';

export interface Played {
  fixture: Fixture;
  result: LeagueResult;
}

interface Tally {
  played: number;
  won: number;
  drawn: number;
  lost: number;
  points: number;
  score: number;
  innings: number;
  highRun: number;
}
const empty = (): Tally => ({ played: 0, won: 0, drawn: 0, lost: 0, points: 0, score: 0, innings: 0, highRun: 0 });

function tally(players: readonly string[], games: readonly Played[], points: PointsScheme): Map<string, Tally> {
  const table = new Map(players.map((p) => [p, empty()]));
  for (const { fixture, result } of games) {
    for (const side of ['home', 'away'] as const) {
      const t = table.get(fixture[side]);
      if (!t) continue;
      const mine = result[side];
      t.played += 1;
      t.score += mine.score;
      t.innings += mine.innings;
      t.highRun = Math.max(t.highRun, mine.highRun);
      if (result.winner === 'draw') {
        t.drawn += 1;
        t.points += points.draw;
      } else if (result.winner === side) {
        t.won += 1;
        t.points += points.win;
      } else {
        t.lost += 1;
        t.points += points.loss;
      }
    }
  }
  return table;
}

/**
 * Standings: points, then head to head (points among the tied players in their own games),
 * then the general average, then the high run, then the name (for a stable order).
 */
export function standings(season: Pick<Season, 'players' | 'points'>, games: readonly Played[]): StandingRow[] {
  const names = season.players.map((p) => p.name);
  const all = tally(names, games, season.points);
  const byPoints = new Map<number, string[]>();
  for (const n of names) byPoints.set(all.get(n)!.points, [...(byPoints.get(all.get(n)!.points) ?? []), n]);
  const h2h = new Map<string, number>();
  for (const group of byPoints.values()) {
    if (group.length < 2) continue;
    const inGroup = new Set(group);
    const mutual = games.filter((g) => inGroup.has(g.fixture.home) && inGroup.has(g.fixture.away));
    const mini = tally(group, mutual, season.points);
    for (const n of group) h2h.set(n, mini.get(n)!.points);
  }
  const rows = names.map((n) => {
    const t = all.get(n)!;
    return { player: n, team: season.players.find((p) => p.name === n)?.team ?? null, ...t, average: avg(t.score, t.innings) };
  });
  rows.sort((a, b) => b.points - a.points || (h2h.get(b.player) ?? 0) - (h2h.get(a.player) ?? 0) || b.average - a.average || b.highRun - a.highRun || a.player.localeCompare(b.player));
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}

export interface RankingRow {
  player: string;
  matches: number;
  average: number;
  highRun: number;
}

/** Individual rankings of one discipline over every season played in it: by average, and by high run. */
export function rankings(games: readonly Played[]): { byAverage: RankingRow[]; byHighRun: RankingRow[] } {
  const rows = new Map<string, { matches: number; score: number; innings: number; highRun: number }>();
  for (const { fixture, result } of games) {
    for (const side of ['home', 'away'] as const) {
      const r = rows.get(fixture[side]) ?? { matches: 0, score: 0, innings: 0, highRun: 0 };
      r.matches += 1;
      r.score += result[side].score;
      r.innings += result[side].innings;
      r.highRun = Math.max(r.highRun, result[side].highRun);
      rows.set(fixture[side], r);
    }
  }
  const list = [...rows].map(([player, r]) => ({ player, matches: r.matches, average: avg(r.score, r.innings), highRun: r.highRun }));
  return {
    byAverage: [...list].sort((a, b) => b.average - a.average || b.highRun - a.highRun || a.player.localeCompare(b.player)),
    byHighRun: [...list].sort((a, b) => b.highRun - a.highRun || b.average - a.average || a.player.localeCompare(b.player)),
  };
}

export interface TeamRow {
  rank: number;
  team: string;
  players: number;
  played: number;
  points: number;
  score: number;
  innings: number;
  average: number;
  highRun: number;
}

/** Team standings: the sum of the team's players' points, then the team average, then the high run. */
export function teamStandings(teams: readonly string[], rows: readonly StandingRow[]): TeamRow[] {
  const out = teams.map((team) => {
    const mine = rows.filter((r) => r.team === team);
    const score = mine.reduce((a, r) => a + r.score, 0);
    const innings = mine.reduce((a, r) => a + r.innings, 0);
    return { team, players: mine.length, played: mine.reduce((a, r) => a + r.played, 0), points: mine.reduce((a, r) => a + r.points, 0), score, innings, average: avg(score, innings), highRun: Math.max(0, ...mine.map((r) => r.highRun)) };
  });
  out.sort((a, b) => b.points - a.points || b.average - a.average || b.highRun - a.highRun || a.team.localeCompare(b.team));
  return out.map((r, i) => ({ rank: i + 1, ...r }));
}
