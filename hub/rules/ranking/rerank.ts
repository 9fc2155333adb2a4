import type { ShotEvent } from '../events.ts';
import { modelGroup } from '../likelihood.ts';
import { evidenceVector, FEATURES, shotFeatures } from './evidence.ts';
import { checkEnsemble, ensembleScore, type Ensemble } from './trees.ts';
import fitted from './ranking-model.json' with { type: 'json' };

/**
 * Ranking a prompt's options by the whole shot's evidence (issue 14). The per-event model
 * (likelihood.ts) weighs each unknown fact by its own event; this second stage reads the
 * shot as a whole — the per-event model's shares, what each option means, and the sensor
 * trace (evidence.ts) — with a boosted tree ensemble per game group, fitted on the physics
 * simulator's prompts (`npm run fit:ranking`). It only orders the options and states their
 * likelihood; the referee still decides. The per-event share is read rounded as a prompt states
 * it, as the fit saw it. Options that are no reading of the sensors ("could
 * not tell", base share 0) keep 0.
 */
export interface RankingModel {
  version: number;
  description: string;
  /** Feature names in vector order: a model fitted on other features is refused at load. */
  features: readonly string[];
  /** Per game group (likelihood.ts modelGroup): the ensemble giving each option's log-odds of being the truth. */
  groups: Readonly<Record<string, Ensemble>>;
}

export function checkRankingModel(data: unknown): RankingModel {
  const m = data as Partial<RankingModel>;
  if (typeof m !== 'object' || m === null || !Number.isInteger(m.version) || typeof m.description !== 'string' || !Array.isArray(m.features) || typeof m.groups !== 'object' || m.groups === null) {
    throw new Error('ranking model: expected {version, description, features, groups}');
  }
  if (m.features.join() !== FEATURES.join()) throw new Error(`ranking model: fitted on other features (${m.features.length} vs ${FEATURES.length} today): refit with npm run fit:ranking`);
  for (const [group, e] of Object.entries(m.groups)) checkEnsemble(e, FEATURES.length, `ranking model group '${group}'`);
  return m as RankingModel;
}

export const RANKING_MODEL: RankingModel = checkRankingModel(fitted);

export interface RankedOption<O> {
  outcome: O;
  likelihood: number;
  points: number;
  foul: boolean;
  turnPasses: boolean;
}

/**
 * The options re-weighed by the group's ensemble, most likely first (ties keep the order they
 * came in). Without an ensemble for the game, or with one option, they come back as they are.
 */
export function rerank<O>(model: RankingModel | null, variantId: string, events: readonly ShotEvent[], ranked: readonly RankedOption<O>[]): RankedOption<O>[] {
  const ensemble = model?.groups[modelGroup(variantId)];
  const readings = ranked.filter((r) => r.likelihood > 0);
  if (!ensemble || readings.length < 2) return [...ranked];
  const shot = shotFeatures(events);
  const odds = ranked.map((r, rank) => {
    if (r.likelihood <= 0) return 0;
    const x = evidenceVector({ points: r.points, foul: r.foul, turnPasses: r.turnPasses, base: Math.round(r.likelihood * 1000) / 1000, options: readings.length, rank }, shot);
    return 1 / (1 + Math.exp(-ensembleScore(ensemble, x)));
  });
  const total = odds.reduce((a, b) => a + b, 0);
  return ranked
    .map((r, k) => ({ r: { ...r, likelihood: total > 0 ? odds[k]! / total : r.likelihood }, k }))
    .sort((a, b) => b.r.likelihood - a.r.likelihood || a.k - b.k)
    .map(({ r }) => r);
}
