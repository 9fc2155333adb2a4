import type { MatchView } from '../rules/view.ts';

/** CONTRACT §1: a stored match is exported as its match-log lines, one per line. */
export function exportMatchLog(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

/**
 * CSV, inning by inning: one row per inning of a player, with the shots, points, fouls of
 * that inning and the score after it. Names are quoted per RFC 4180.
 */
export function exportInningsCsv(view: MatchView): string {
  const rows: string[] = ['inning,player,shots,points,fouls,score_after'];
  const innings = new Map<string, number>();
  const running = new Map<string, number>(view.players.map((p) => [p.name, view.variant.startsWith('skittles-7') ? p.target : 0]));
  const countdown = view.variant.startsWith('skittles-7');
  let current: { player: string; shots: number; points: number; fouls: number } | null = null;
  const flush = () => {
    if (!current) return;
    const n = (innings.get(current.player) ?? 0) + 1;
    innings.set(current.player, n);
    rows.push([n, csv(current.player), current.shots, current.points, current.fouls, running.get(current.player)].join(','));
    current = null;
  };
  for (const shot of view.shots) {
    if (!current || current.player !== shot.shooter) {
      flush();
      current = { player: shot.shooter, shots: 0, points: 0, fouls: 0 };
    }
    current.shots += 1;
    current.points += shot.points;
    if (shot.foul) current.fouls += 1;
    running.set(shot.shooter, (running.get(shot.shooter) ?? 0) + (countdown ? -shot.points : shot.points));
    for (const award of shot.awards ?? []) {
      if (award.player !== shot.shooter) running.set(award.player, (running.get(award.player) ?? 0) + (countdown ? -award.points : award.points));
    }
    if (shot.turnPasses) flush();
  }
  flush();
  return `${rows.join('\n')}\n`;
}

function csv(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
