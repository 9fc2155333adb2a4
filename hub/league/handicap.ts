import { avg, type HandicapFormula, type LeagueResult } from './types.ts';

/** The player's average over their last N results (newest last in `results`); null without any. */
export function rollingAverage(player: string, results: readonly { result: LeagueResult; home: string; away: string }[], lastMatches: number): number | null {
  const mine = results.filter((r) => r.home === player || r.away === player).slice(-lastMatches);
  if (mine.length === 0) return null;
  let score = 0;
  let innings = 0;
  for (const r of mine) {
    const side = r.home === player ? r.result.home : r.result.away;
    score += side.score;
    innings += side.innings;
  }
  return innings > 0 ? score / innings : null;
}

/** target = clamp(round(average × inningsPerMatch), min, max). */
export function handicapTarget(average: number, f: HandicapFormula): number {
  return Math.min(f.max, Math.max(f.min, Math.round(average * f.inningsPerMatch)));
}

export { avg };
