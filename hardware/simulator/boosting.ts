import type { Ensemble, TreeNode } from '../../hub/rules/ranking/trees.ts';

/**
 * Gradient-boosted regression trees for a binary label (logistic loss), the fitting side of
 * hub/rules/ranking/trees.ts. Histogram splits: each feature is cut at up to `bins` quantiles of
 * the training values once, so finding a split costs one pass over a node's rows per feature.
 * Deterministic: no sampling, ties broken by feature order.
 */
export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  /** L2 penalty on leaf values (XGBoost's λ). */
  lambda: number;
  bins: number;
}

export const DEFAULT_BOOSTING: BoostingOptions = { trees: 200, depth: 4, learningRate: 0.1, minLeaf: 20, lambda: 1, bins: 32 };

export function fitBoosted(rows: readonly (readonly number[])[], labels: readonly number[], options: BoostingOptions = DEFAULT_BOOSTING): Ensemble {
  const n = rows.length;
  if (n === 0 || labels.length !== n) throw new Error('fitBoosted: need as many labels as rows, and at least one');
  const features = rows[0]!.length;
  const cuts = Array.from({ length: features }, (_, j) => quantileCuts(rows.map((r) => r[j]!), options.bins));
  // binned[i * features + j]: the bin of row i's feature j (value ≤ cuts[j][bin], or past the last cut).
  const binned = new Uint8Array(n * features);
  for (let i = 0; i < n; i++) for (let j = 0; j < features; j++) binned[i * features + j] = binOf(rows[i]![j]!, cuts[j]!);
  const share = labels.reduce((a, b) => a + b, 0) / n;
  const clamped = Math.min(Math.max(share, 1e-6), 1 - 1e-6);
  const base = Math.log(clamped / (1 - clamped));
  const score = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: TreeNode[][] = [];
  for (let t = 0; t < options.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-score[i]!));
      g[i] = p - labels[i]!;
      h[i] = Math.max(p * (1 - p), 1e-9);
    }
    const nodes: TreeNode[] = [];
    const leafOf = new Int32Array(n);
    grow(nodes, Int32Array.from({ length: n }, (_, i) => i), options.depth, { binned, features, cuts, g, h, options, leafOf });
    for (let i = 0; i < n; i++) score[i] = score[i]! + (nodes[leafOf[i]!] as readonly [number])[0];
    trees.push(nodes);
  }
  return { base, trees };
}

interface Grow {
  binned: Uint8Array;
  features: number;
  cuts: number[][];
  g: Float64Array;
  h: Float64Array;
  options: BoostingOptions;
  leafOf: Int32Array;
}

/** Adds the subtree for `rows` at the end of `nodes`; returns its index. Leaves record which rows they hold. */
function grow(nodes: TreeNode[], rows: Int32Array, depth: number, s: Grow): number {
  const { g, h, options } = s;
  let G = 0;
  let H = 0;
  for (const i of rows) {
    G += g[i]!;
    H += h[i]!;
  }
  const at = nodes.length;
  const split = depth > 0 && rows.length >= 2 * options.minLeaf ? bestSplit(rows, G, H, s) : null;
  if (!split) {
    nodes.push([(-G / (H + options.lambda)) * options.learningRate]);
    for (const i of rows) s.leafOf[i] = at;
    return at;
  }
  const { feature, bin } = split;
  const left = rows.filter((i) => s.binned[i * s.features + feature]! <= bin);
  const right = rows.filter((i) => s.binned[i * s.features + feature]! > bin);
  nodes.push([feature, s.cuts[feature]![bin]!, 0, 0]);
  const l = grow(nodes, left, depth - 1, s);
  const r = grow(nodes, right, depth - 1, s);
  nodes[at] = [feature, s.cuts[feature]![bin]!, l, r];
  return at;
}

function bestSplit(rows: Int32Array, G: number, H: number, s: Grow): { feature: number; bin: number } | null {
  const { binned, features, cuts, g, h, options } = s;
  const { lambda, minLeaf } = options;
  const parent = (G * G) / (H + lambda);
  let best: { feature: number; bin: number; gain: number } | null = null;
  const hg = new Float64Array(options.bins + 1);
  const hh = new Float64Array(options.bins + 1);
  const hc = new Int32Array(options.bins + 1);
  for (let j = 0; j < features; j++) {
    const bins = cuts[j]!.length;
    if (bins === 0) continue;
    hg.fill(0);
    hh.fill(0);
    hc.fill(0);
    for (const i of rows) {
      const b = binned[i * features + j]!;
      hg[b] = hg[b]! + g[i]!;
      hh[b] = hh[b]! + h[i]!;
      hc[b] = hc[b]! + 1;
    }
    let gl = 0;
    let hl = 0;
    let cl = 0;
    for (let b = 0; b < bins; b++) {
      gl += hg[b]!;
      hl += hh[b]!;
      cl += hc[b]!;
      if (cl < minLeaf || rows.length - cl < minLeaf) continue;
      const gr = G - gl;
      const hr = H - hl;
      const gain = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda) - parent;
      if (gain > 1e-9 && (best === null || gain > best.gain)) best = { feature: j, bin: b, gain };
    }
  }
  return best;
}

/** Up to `bins` distinct cut values: quantiles of the values (a value ≤ cut k is in bin k). */
export function quantileCuts(values: readonly number[], bins: number): number[] {
  const sorted = Float64Array.from(values).sort();
  const cuts = new Set<number>();
  for (let k = 1; k < bins; k++) cuts.add(sorted[Math.min(sorted.length - 1, Math.floor((k * sorted.length) / bins))]!);
  // The largest value is no cut: nothing lies beyond it to split off.
  cuts.delete(sorted[sorted.length - 1]!);
  return [...cuts].sort((a, b) => a - b);
}

function binOf(v: number, cuts: readonly number[]): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cuts[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
