import { describe, expect, it } from 'vitest';
import { promptViewSchema } from '../../hub/contract/table.ts';
import { ball, newMatch, play, rail, referee, shot } from './helpers.ts';

type View = ReturnType<typeof play>;

/** For each fact, the values some option's condition names (an option without a condition on it: every value). */
function coverage(v: View): Map<number, Set<string>> {
  const prompt = v.prompt!;
  const seen = new Map<number, Set<string>>();
  for (const fact of prompt.facts) {
    if (fact.event < 0) continue;
    const values = new Set<string>();
    for (const o of prompt.options) {
      const on = o.when?.find((w) => w.event === fact.event);
      for (const x of on ? on.values : fact.candidates) values.add(x);
    }
    seen.set(fact.event, values);
  }
  return seen;
}

describe('RULES §10: each prompt option names the sensor facts that lead to it (`when`)', () => {
  it('a basic-game carom whose second click is unknown: the point is "white met yellow", the rest is the other pairs', () => {
    const m = newMatch('carom');
    const v = play(m, shot({ ...ball('white', 'red'), t: 100 }, { ...rail('foot'), t: 600 }, { ...ball(null, null), t: 1400 }));
    expect(v.status).toBe('awaiting-referee');
    const prompt = v.prompt!;
    expect(promptViewSchema.parse(prompt)).toEqual(prompt);
    const fact = prompt.facts.find((f) => f.event === 2)!;
    expect(fact.field).toBe('balls');
    const score = prompt.options.find((o) => o.ruling === 'score')!;
    expect(score.when).toEqual([{ event: 2, kind: 'ball', field: 'balls', values: ['white+yellow'] }]);
    const noScore = prompt.options.find((o) => o.ruling === 'no-score')!;
    expect(noScore.when).toHaveLength(1);
    expect(noScore.when![0]!.values).not.toContain('white+yellow');
    // Together the options account for every reading.
    expect([...score.when![0]!.values, ...noScore.when![0]!.values].sort()).toEqual([...fact.candidates].sort());
  });

  it('three-cushion with every rail of an unknown ball: readings merged along the way keep their values', () => {
    const m = newMatch('three-cushion');
    const events = [ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball(null, null)].map((e, k) => ({ ...e, t: 200 + 400 * k }));
    const v = play(m, shot(...events));
    expect(v.status).toBe('awaiting-referee');
    const prompt = v.prompt!;
    expect(prompt.options.some((o) => o.when && o.when.length > 0)).toBe(true);
    for (const o of prompt.options) {
      for (const w of o.when ?? []) {
        const fact = prompt.facts.find((f) => f.event === w.event)!;
        expect(w.values.length).toBeGreaterThan(0);
        expect(w.values.length).toBeLessThan(fact.candidates.length);
        expect(fact.candidates).toEqual(expect.arrayContaining([...w.values]));
      }
    }
    // Every candidate value of every fact leads to some option.
    for (const [event, values] of coverage(v)) expect([...values].sort()).toEqual([...prompt.facts.find((f) => f.event === event)!.candidates].sort());
    // The option's condition does not change how it is ruled.
    const top = prompt.options[0]!;
    expect(play(m, referee({ ruling: top.ruling, option: top.index })).status).not.toBe('awaiting-referee');
  });

  it('five skittles: which ball felled the king decides the foul; each foul names its penalty to the opponent (`awards`)', () => {
    const m = newMatch('skittles-5', 60);
    const v = play(m, shot({ ...ball('cue', 'one'), t: 100 }, { kind: 'skittle', skittle: 'king', by: null, t: 500 }));
    expect(v.status).toBe('awaiting-referee');
    const options = v.prompt!.options;
    const byWhom = (foul: string) => options.find((o) => o.foul === foul)!;
    expect(byWhom('direct-knock-down').when).toEqual([{ event: 1, kind: 'skittle', field: 'by', values: ['one'] }]);
    expect(byWhom('illegal-knock-down').when).toEqual([{ event: 1, kind: 'skittle', field: 'by', values: ['cue'] }]);
    // "Could not tell" is no reading of the sensors: no condition, only its assumption.
    expect(byWhom('undetermined-feller').when).toBeUndefined();
    for (const o of options) expect(o.awards).toEqual([{ player: 1, points: expect.any(Number) }]);
  });
});
