import { describe, expect, it } from 'vitest';
import { checkModel, LIKELIHOOD_MODEL } from '../../hub/rules/likelihood.ts';
import { ball, newMatch, play, rail, referee, shot } from './helpers.ts';

describe('prompt options ranked by likelihood (issue 14)', () => {
  it('the shipped model is versioned data, checked when loaded', () => {
    expect(LIKELIHOOD_MODEL.version).toBeGreaterThanOrEqual(1);
    expect(Object.keys(LIKELIHOOD_MODEL.counts).length).toBeGreaterThan(100);
    expect(() => checkModel({ version: 1, description: 'x', counts: { 'carom|ball|cue-new': [5, 3] } })).toThrow(/counts\['carom\|ball\|cue-new'\]/);
    expect(() => checkModel({ counts: {} })).toThrow(/version/);
  });

  it('each option carries a likelihood; they sum to 1 and come most likely first; the referee still decides', () => {
    const m = newMatch('three-cushion');
    const events = [ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball(null, null)].map((e, k) => ({ ...e, t: 200 + 400 * k }));
    const v = play(m, shot(...events));
    expect(v.status).toBe('awaiting-referee');
    const options = v.prompt!.options;
    expect(options.map((o) => o.index)).toEqual(options.map((_, k) => k));
    const likelihoods = options.map((o) => o.likelihood);
    expect(likelihoods.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect([...likelihoods].sort((a, b) => b - a)).toEqual(likelihoods);
    // Deterministic: the same shot ranks the same way.
    expect(play(newMatch('three-cushion'), shot(...events)).prompt).toEqual(v.prompt);
    // The least likely option is still the referee's to choose.
    const last = options.at(-1)!;
    const ruled = play(m, referee({ ruling: last.ruling, option: last.index }));
    expect(ruled.shots.at(-1)).toMatchObject({ points: last.points, foul: last.foul });
  });
});
