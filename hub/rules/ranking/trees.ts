/**
 * A boosted ensemble of small regression trees, stored as data (ranking-model.json) and
 * evaluated here: the sum of the trees' leaves is the log-odds that an option is the truth.
 * Pure and deterministic; the fit lives with the simulator (hardware/simulator/fit-ranking.ts).
 *
 * A tree is flat: `nodes[k]` is either `[feature, threshold, left, right]` (go left when
 * x[feature] ≤ threshold) or `[value]` (a leaf). Node 0 is the root.
 */
export type TreeNode = readonly [number, number, number, number] | readonly [number];

export interface Ensemble {
  /** Starting log-odds (the share of truths among the options it was fitted on). */
  base: number;
  trees: readonly (readonly TreeNode[])[];
}

export function ensembleScore(ensemble: Ensemble, x: readonly number[]): number {
  let sum = ensemble.base;
  for (const nodes of ensemble.trees) {
    let k = 0;
    for (;;) {
      const node = nodes[k]!;
      if (node.length === 1) {
        sum += node[0];
        break;
      }
      k = x[node[0]]! <= node[1] ? node[2] : node[3];
    }
  }
  return sum;
}

/**
 * A model file is checked once when loaded: every split names a feature that exists and a
 * node inside its tree that comes after it (so evaluation always ends at a leaf).
 */
export function checkEnsemble(data: unknown, features: number, where: string): Ensemble {
  const e = data as { base?: unknown; trees?: unknown };
  if (typeof e !== 'object' || e === null || typeof e.base !== 'number' || !Array.isArray(e.trees)) throw new Error(`${where}: expected {base, trees}`);
  e.trees.forEach((nodes: unknown, t) => {
    if (!Array.isArray(nodes) || nodes.length === 0) throw new Error(`${where}: tree ${t} has no nodes`);
    nodes.forEach((node: unknown, k) => {
      const ok = Array.isArray(node) && node.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
        (node.length === 1 || (node.length === 4 && Number.isInteger(node[0]) && node[0] >= 0 && node[0] < features && node[2] > k && node[3] > k && node[2] < nodes.length && node[3] < nodes.length));
      if (!ok) throw new Error(`${where}: tree ${t} node ${k} must be [value] or [feature < ${features}, threshold, left > ${k}, right > ${k}]`);
    });
  });
  return e as Ensemble;
}
