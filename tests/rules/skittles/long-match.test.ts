import { describe, expect, it } from 'vitest';
import { replayLog } from '../../../hub/matchlog/replay.ts';

/** A 10,000-shot match replays whole; its speed is measured by `npm run bench`, not here. */
export function log(variant: string, shots: number): string {
  const lines = [JSON.stringify({ match: { variant, players: ['Ana', 'Ben'], target: 100_000 } })];
  const patterns = [
    [{ kind: 'ball', balls: ['cue', 'one'] }, { kind: 'cushion', rail: 'left', ball: 'one' }, { kind: 'skittle', skittle: 'head', by: 'one' }],
    [{ kind: 'ball', balls: ['cue', 'one'] }, { kind: 'ball', balls: ['cue', 'two'] }],
    [{ kind: 'ball', balls: ['cue', null] }, { kind: 'cushion', rail: 'foot', ball: null }],
    [{ kind: 'cushion', rail: 'right', ball: 'cue' }],
  ];
  for (let i = 0; i < shots; i++) lines.push(JSON.stringify({ shot: { events: patterns[i % patterns.length] } }));
  return lines.join('\n');
}

describe('long matches', () => {
  for (const variant of ['skittles-5', 'skittles-7-pyramid', 'skittles-7-carom']) {
    it(`${variant}: 10,000 shots replay to the end`, () => {
      const result = replayLog(log(variant, 10_000));
      if (!result.ok) throw new Error(`line ${result.line}: ${result.error}`);
      expect(result.view.shots.length).toBe(10_000);
    });
  }
});
