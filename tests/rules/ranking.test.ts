import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitBoosted, quantileCuts } from '../../hardware/simulator/boosting.ts';
import { collectPrompts, fitRanking, serialise } from '../../hardware/simulator/fit-ranking.ts';
import { FEATURES, SHOT_FEATURES, shotFeatures } from '../../hub/rules/ranking/evidence.ts';
import { checkRankingModel, RANKING_MODEL, rerank, type RankingModel } from '../../hub/rules/ranking/rerank.ts';
import { checkEnsemble, ensembleScore, type Ensemble } from '../../hub/rules/ranking/trees.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { Match } from '../../hub/rules/match.ts';
import { ball, newMatch, play, rail, shot } from './helpers.ts';

const RAILS = ['head', 'foot', 'left', 'right'] as const;
const BALLS = ['white', 'yellow', 'red', null] as const;
const sensorEvent: fc.Arbitrary<ShotEvent> = fc.oneof(
  fc.record({ kind: fc.constant('ball' as const), balls: fc.tuple(fc.constantFrom(...BALLS), fc.constantFrom(...BALLS)), t: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }), amplitude: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('cushion' as const), rail: fc.constantFrom(...RAILS), ball: fc.constantFrom(...BALLS), t: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }), amplitude: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('off-table' as const), ball: fc.constantFrom(...BALLS) }),
  fc.record({ kind: fc.constant('foul' as const), foul: fc.constant('push' as const), by: fc.constant('shooter' as const) }),
).map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as ShotEvent);

const blank = (e: ShotEvent): ShotEvent =>
  e.kind === 'ball' ? { ...e, balls: [null, null] } : e.kind === 'cushion' || e.kind === 'off-table' || e.kind === 'pocket' ? { ...e, ball: null } : e.kind === 'skittle' ? { ...e, by: null } : e;

describe('whole-shot evidence for the ranking (issue 14)', () => {
  it('any shot gives a vector of the stated length, finite, and blind to ball ids (the sensors give none)', () => {
    fc.assert(
      fc.property(fc.array(sensorEvent, { maxLength: 30 }), (events) => {
        const f = shotFeatures(events);
        expect(f).toHaveLength(SHOT_FEATURES.length);
        expect(f.every(Number.isFinite)).toBe(true);
        expect(shotFeatures(events.map(blank))).toEqual(f);
      }),
    );
  });
});

describe('boosted trees (ranking/trees.ts, fitted by hardware/simulator/boosting.ts)', () => {
  const tiny: Ensemble = { base: 0.5, trees: [[[0, 10, 1, 2], [1], [-1]], [[1, 0, 1, 2], [0.25], [[0.5][0]!]]] };

  it('a score is the base plus one leaf per tree (x ≤ threshold goes left)', () => {
    expect(ensembleScore(tiny, [10, 0])).toBeCloseTo(0.5 + 1 + 0.25);
    expect(ensembleScore(tiny, [11, 1])).toBeCloseTo(0.5 - 1 + 0.5);
  });

  it('a model file with a split to a missing feature or an earlier node is refused, naming tree and node', () => {
    expect(() => checkEnsemble({ base: 0, trees: [[[5, 1, 1, 2], [0], [0]]] }, 2, 'g')).toThrow(/g: tree 0 node 0/);
    expect(() => checkEnsemble({ base: 0, trees: [[[0], [0, 1, 0, 1]]] }, 2, 'g')).toThrow(/tree 0 node 1/);
    expect(() => checkEnsemble({ trees: [] }, 2, 'g')).toThrow(/base, trees/);
  });

  it('quantile cuts are sorted, distinct and below the largest value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 300 }), fc.integer({ min: 2, max: 40 }), (values, bins) => {
        const cuts = quantileCuts(values, bins);
        expect(cuts.length).toBeLessThan(bins);
        for (let k = 1; k < cuts.length; k++) expect(cuts[k]!).toBeGreaterThan(cuts[k - 1]!);
        expect(cuts.every((c) => c < Math.max(...values))).toBe(true);
      }),
    );
  });

  it('learns a rule that needs two features and is deterministic', () => {
    // Truth: x0 > 3 and x1 ≤ 2 (an interaction one split cannot express), 2 % of labels flipped.
    const rows: number[][] = [];
    const labels: number[] = [];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const x = [Math.floor(next() * 8), Math.floor(next() * 5), next()];
      rows.push(x);
      labels.push((x[0]! > 3 && x[1]! <= 2) !== next() < 0.02 ? 1 : 0);
    }
    const options = { trees: 40, depth: 3, learningRate: 0.3, minLeaf: 10, lambda: 1, bins: 16 };
    const model = fitBoosted(rows, labels, options);
    const right = rows.filter((x, i) => (ensembleScore(model, x) > 0 ? 1 : 0) === ((x[0]! > 3 && x[1]! <= 2) ? 1 : 0)).length;
    expect(right / rows.length).toBeGreaterThan(0.99);
    expect(fitBoosted(rows, labels, options)).toEqual(model);
  });
});

describe('prompt options re-ranked by the whole shot (ranking/rerank.ts)', () => {
  const outcome = (name: string) => ({ name });
  const options = [
    { outcome: outcome('point'), likelihood: 0.6, points: 1, foul: false, turnPasses: false },
    { outcome: outcome('no point'), likelihood: 0.4, points: 0, foul: false, turnPasses: true },
    { outcome: outcome('could not tell'), likelihood: 0, points: 0, foul: true, turnPasses: true },
  ];
  // A one-tree model: an option that passes the turn gets +2 log-odds.
  const model: RankingModel = { version: 3, description: 'test', features: FEATURES, groups: { carom: { base: 0, trees: [[[2, 0.5, 1, 2], [0], [2]]] } } };

  it('the ensemble reorders the readings; likelihoods sum to 1; an answer that is no reading stays 0 and last', () => {
    const ranked = rerank(model, 'free-game', [ball(null, null), rail('foot')], options);
    expect(ranked.map((r) => r.outcome.name)).toEqual(['no point', 'point', 'could not tell']);
    expect(ranked.reduce((a, r) => a + r.likelihood, 0)).toBeCloseTo(1);
    expect(ranked[2]!.likelihood).toBe(0);
  });

  it('a game without an ensemble keeps the per-event ranking', () => {
    expect(rerank(model, 'skittles-5', [], options)).toEqual(options);
    expect(rerank(null, 'carom', [], options)).toEqual(options);
  });

  it('the shipped model is versioned data fitted on today\'s features; another feature list is refused', () => {
    expect(RANKING_MODEL.version).toBeGreaterThanOrEqual(3);
    for (const group of ['carom', 'one-cushion', 'three-cushion']) expect(Object.keys(RANKING_MODEL.groups)).toContain(group);
    expect(RANKING_MODEL.features).toEqual(FEATURES);
    expect(() => checkRankingModel({ ...RANKING_MODEL, features: ['x'] })).toThrow(/other features/);
  });

  it('in a match: the referee is asked the same question, only the order and likelihoods change', () => {
    const events = [ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball(null, null)].map((e, k) => ({ ...e, t: 200 + 400 * k, amplitude: 60 - 8 * k }));
    const ranked = play(newMatch('carom'), shot(...events));
    const perEvent = play((Match.create({ variant: 'carom', players: ['Ana', 'Ben'], target: 10 }, { ranking: false }) as { value: Match }).value, shot(...events));
    expect(ranked.status).toBe('awaiting-referee');
    const key = (o: { points: number; foul: unknown; turnPasses: boolean }) => `${o.points}/${String(o.foul)}/${o.turnPasses}`;
    expect(ranked.prompt!.options.map(key).sort()).toEqual(perEvent.prompt!.options.map(key).sort());
    expect(ranked.prompt!.options.reduce((a, o) => a + o.likelihood, 0)).toBeCloseTo(1, 2);
  });
});

describe('fitting the ranking on the simulator (hardware/simulator/fit-ranking.ts)', () => {
  it('collects one row per reading of each sensor-only prompt, with the truth marked once, and fits a model the hub accepts', () => {
    const data = collectPrompts('carom', [404], 60);
    expect(data.prompts.length).toBeGreaterThan(10);
    for (const p of data.prompts) {
      expect(p.to - p.from).toBeGreaterThanOrEqual(2);
      expect(data.labels.slice(p.from, p.to).reduce((a, b) => a + b, 0)).toBe(1);
      expect(data.labels[p.truth]).toBe(1);
    }
    expect(data.rows.every((r) => r.length === FEATURES.length)).toBe(true);
    const ensemble = fitBoosted(data.rows, data.labels, { trees: 5, depth: 2, learningRate: 0.3, minLeaf: 5, lambda: 1, bins: 8 });
    const model = { version: 3, description: 'small', features: FEATURES, groups: { carom: ensemble } };
    expect(checkRankingModel(JSON.parse(serialise(model)))).toBeTruthy();
  });

  it('refuses to fit on the bench\'s seed (the figures must be on shots the model never saw)', () => {
    expect(() => fitRanking(1, [2026])).toThrow(/bench seed/);
  });
});
