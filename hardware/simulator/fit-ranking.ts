import { writeFileSync } from 'node:fs';
import { measureAccuracy } from './accuracy.ts';
import { DEFAULT_BOOSTING, fitBoosted } from './boosting.ts';
import { FIT_SEEDS as LIKELIHOOD_SEEDS } from './fit-likelihood.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';
import { modelGroup } from '../../hub/rules/likelihood.ts';
import { evidenceVector, FEATURES, shotFeatures } from '../../hub/rules/ranking/evidence.ts';
import type { RankingModel } from '../../hub/rules/ranking/rerank.ts';
import type { Ensemble } from '../../hub/rules/ranking/trees.ts';
import { sensorView } from './accuracy.ts';

/**
 * Fits the whole-shot ranking (hub/rules/ranking/) on the physics simulator's prompts: every
 * shot the sensors alone leave to the referee (with the per-event model's ranking, the
 * whole-shot stage off) gives one row per option — its evidence and whether it is the truth.
 * One boosted ensemble per game group. The seeds are neither the per-event model's nor the
 * accuracy bench's (2026), so `npm run accuracy` measures the ranking on shots it never saw.
 *
 * `npm run fit:ranking` rewrites hub/rules/ranking/ranking-model.json (RANKING_SHOTS per seed).
 */
export const RANKING_SEEDS = [404, 505, 606, 707, 808, 909, 1010, 1111] as const;
export const RANKING_VERSION = 3;

export interface PromptRows {
  rows: number[][];
  labels: number[];
  /** Per prompt, the rows it gave (for top-1 on a held-out part). */
  prompts: { from: number; to: number; truth: number }[];
}

export function collectPrompts(variant: string, seeds: readonly number[], shots: number): PromptRows {
  const out: PromptRows = { rows: [], labels: [], prompts: [] };
  for (const seed of seeds) {
    measureAccuracy(variant, shots, seed, 'sensors', 'physics', { ranking: false }, (prompt, truth, shot) => {
      const readings = prompt.options.filter((o) => o.likelihood > 0);
      if (readings.length < 2) return;
      const evidence = shotFeatures(sensorView(shot).events);
      const from = out.rows.length;
      prompt.options.forEach((o, rank) => {
        if (o.likelihood <= 0) return;
        out.rows.push(evidenceVector({ points: o.points, foul: o.foul !== null, turnPasses: o.turnPasses, base: o.likelihood, options: readings.length, rank }, evidence));
        out.labels.push(o === truth ? 1 : 0);
      });
      out.prompts.push({ from, to: out.rows.length, truth: from + prompt.options.filter((o) => o.likelihood > 0).indexOf(truth) });
    });
  }
  return out;
}

export function fitRanking(shotsPerSeed: number, seeds: readonly number[] = RANKING_SEEDS, log: (line: string) => void = () => {}): RankingModel {
  if (seeds.some((s) => s === 2026 || (LIKELIHOOD_SEEDS as readonly number[]).includes(s))) throw new Error('ranking seeds must not be the bench seed or the per-event model seeds');
  const groups: Record<string, Ensemble> = {};
  for (const variant of VARIANT_IDS.filter((v) => modelGroup(v) === v)) {
    const data = collectPrompts(variant, seeds, shotsPerSeed);
    if (data.prompts.length < 50) {
      log(`${variant}: ${data.prompts.length} prompts, too few to fit: left to the per-event model`);
      continue;
    }
    groups[variant] = fitBoosted(data.rows, data.labels, DEFAULT_BOOSTING);
    log(`${variant}: ${data.prompts.length} prompts, ${data.rows.length} options`);
  }
  const { trees, depth, learningRate } = DEFAULT_BOOSTING;
  return {
    version: RANKING_VERSION,
    description: `fitted by hardware/simulator/fit-ranking.ts on the sensor-only prompts of ${shotsPerSeed} physics shots per seed (${seeds.join(', ')}) per game group; ${trees} trees of depth ${depth}, learning rate ${learningRate}`,
    features: FEATURES,
    groups,
  };
}

/** Trees as compact JSON: leaf values and thresholds to 5 significant digits. */
export function serialise(model: RankingModel): string {
  const round = (v: number) => Number(v.toPrecision(5));
  const groups = Object.fromEntries(
    Object.entries(model.groups).map(([g, e]) => [g, { base: round(e.base), trees: e.trees.map((t) => t.map((n) => (n.length === 1 ? [round(n[0])] : [n[0], round(n[1]), n[2], n[3]]))) }]),
  );
  return `${JSON.stringify({ ...model, groups }).replace(/\]\],\[\[/g, ']],\n[[')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shots = Number(process.env.RANKING_SHOTS ?? 3000);
  const model = fitRanking(shots, RANKING_SEEDS, (line) => console.log(line));
  const out = new URL('../../hub/rules/ranking/ranking-model.json', import.meta.url);
  writeFileSync(out, serialise(model));
  console.log(`wrote ${out.pathname}: version ${model.version}, groups ${Object.keys(model.groups).join(', ')}`);
}
