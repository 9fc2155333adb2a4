import type { Adjustment } from '../rules/match.ts';
import type { MatchView } from '../rules/view.ts';

/** CONTRACT §1: a stored match is exported as its match-log lines, one per line. */
export function exportMatchLog(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

/**
 * CSV, inning by inning: one row per inning of a player, with the shots, points, fouls of
 * that inning and the score after it; a referee's score adjustment is a row of its own
 * (no inning number, its reason in `note`) where it was made, so every `score_after` is
 * the score the scoreboard showed. Rows come in the order they were completed. Names and
 * notes are quoted per RFC 4180.
 */
export function exportInningsCsv(view: MatchView, adjustments: readonly Adjustment[] = []): string {
  const rows: string[] = ['inning,player,shots,points,fouls,score_after,note'];
  const innings = new Map<string, number>();
  const countdown = view.scoring === 'countdown';
  const running = new Map<string, number>(view.players.map((p) => [p.name, countdown ? p.target : 0]));
  const add = (player: string, points: number) => running.set(player, (running.get(player) ?? 0) + (countdown ? -points : points));
  let current: { player: string; shots: number; points: number; fouls: number } | null = null;
  const flush = () => {
    if (!current) return;
    const n = (innings.get(current.player) ?? 0) + 1;
    innings.set(current.player, n);
    rows.push([n, csv(current.player), current.shots, current.points, current.fouls, running.get(current.player), ''].join(','));
    current = null;
  };
  // An adjustment changes the shown score itself (remaining or made), whatever the game.
  let nextAdjustment = 0;
  const adjustmentsAfter = (shots: number) => {
    for (; nextAdjustment < adjustments.length && adjustments[nextAdjustment]!.afterShot <= shots; nextAdjustment++) {
      const a = adjustments[nextAdjustment]!;
      running.set(a.player, (running.get(a.player) ?? 0) + a.delta);
      rows.push(['', csv(a.player), 0, a.delta, 0, running.get(a.player), csv(`referee adjustment: ${a.reason}`)].join(','));
    }
  };
  view.shots.forEach((shot, index) => {
    adjustmentsAfter(index);
    if (!current || current.player !== shot.shooter) {
      flush();
      current = { player: shot.shooter, shots: 0, points: 0, fouls: 0 };
    }
    current.shots += 1;
    current.points += shot.points;
    if (shot.foul) current.fouls += 1;
    add(shot.shooter, shot.points);
    for (const award of shot.awards ?? []) if (award.player !== shot.shooter) add(award.player, award.points);
    if (shot.turnPasses) flush();
  });
  adjustmentsAfter(view.shots.length);
  flush();
  return `${rows.join('\n')}\n`;
}

function csv(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
