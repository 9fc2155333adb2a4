import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportInningsCsv } from '../../hub/store/export.ts';
import type { MatchInput } from '../../hub/rules/events.ts';
import { miss, newMatch, play, referee, threeCushionPoint } from '../rules/helpers.ts';

/** The CSV's rows as records (no quoted commas in these names). */
function parse(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.trimEnd().split('\n');
  const keys = header!.split(',');
  return lines.map((line) => {
    const cells = line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    return Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? '']));
  });
}

describe('CSV export, inning by inning', () => {
  it('a referee adjustment is a row of its own, and every later score_after includes it', () => {
    const match = newMatch('three-cushion', 40);
    // Ana scores, then misses (Ben's turn); the referee corrects Ana by +2; Ben scores, then misses.
    play(match, threeCushionPoint('white'), miss('white'));
    play(match, referee({ action: 'adjust', player: 'Ana', delta: 2, reason: 'miscounted, "by two"' }));
    const view = play(match, threeCushionPoint('yellow'), miss('yellow'));
    const rows = parse(exportInningsCsv(view, match.adjustmentLog));
    expect(rows).toEqual([
      { inning: '1', player: 'Ana', shots: '2', points: '1', fouls: '0', score_after: '1', note: '' },
      { inning: '', player: 'Ana', shots: '0', points: '2', fouls: '0', score_after: '3', note: '"referee adjustment: miscounted, ""by two"""' },
      { inning: '1', player: 'Ben', shots: '2', points: '1', fouls: '0', score_after: '1', note: '' },
    ]);
    expect(view.players.map((p) => p.score)).toEqual([3, 1]);
  });

  it('property: the last score_after of each player is the score the scoreboard shows, however adjustments fall among the shots', () => {
    const step = fc.oneof(
      fc.constant<'point'>('point'),
      fc.constant<'miss'>('miss'),
      fc.record({ player: fc.constantFrom('Ana', 'Ben'), delta: fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const match = newMatch('three-cushion', 1000);
        for (const s of steps) {
          const cue = match.view().cueBall!;
          const input: MatchInput = s === 'point' ? threeCushionPoint(cue) : s === 'miss' ? miss(cue) : referee({ action: 'adjust', player: s.player, delta: s.delta, reason: 'test' });
          expect(match.apply(input).ok).toBe(true);
        }
        const view = match.view();
        const last = new Map<string, number>();
        for (const row of parse(exportInningsCsv(view, match.adjustmentLog))) last.set(row.player!, Number(row.score_after));
        for (const p of view.players) expect(last.get(p.name) ?? 0).toBe(p.score);
      }),
    );
  });
});
