import { writeFileSync } from 'node:fs';
import { createMatch, must } from './match-helpers.ts';
import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import type { BallId } from '../../hub/rules/ids.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';
import { candidateKeys, initialTrack, MIN_SUPPORT, modelGroup, stepTrack, type LikelihoodModel, type Track } from '../../hub/rules/likelihood.ts';
import { Match } from '../../hub/rules/match.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { variantById } from '../../hub/rules/variants/index.ts';
import { candidateReadings, type ResolvedEvent } from '../../hub/rules/worlds.ts';
import { sensorView } from './accuracy.ts';
import { PhysicsTable } from './physics/planner.ts';

/**
 * Fits the likelihood model (hub/rules/likelihood.ts) on the physics simulator's shots: for
 * every event the sensors leave open, every reading the engine would consider is a candidate,
 * and the model counts, per feature key, how often a candidate was the truth. The seeds here
 * are never the accuracy bench's (2026), so the bench measures the ranking on shots it was
 * not fitted on.
 *
 * `npm run fit:likelihood` rewrites hub/rules/likelihood-model.json.
 */
export const FIT_SEEDS = [101, 202, 303] as const;
export const FIT_SHOTS_PER_SEED = 700;
export const MODEL_VERSION = 2;
/** A specific key is stored only if its share of truths differs from its fallback's by this much. */
export const SHARE_TOLERANCE = 0.02;
const share = (c: readonly [number, number]) => (c[0] + 0.5) / (c[1] + 1);

export function fitLikelihood(variants: readonly string[] = VARIANT_IDS, seeds: readonly number[] = FIT_SEEDS, shotsPerSeed = FIT_SHOTS_PER_SEED): LikelihoodModel {
  const counts: Record<string, [number, number]> = {};
  const parents = new Map<string, string>();
  // Games the simulator plays alike share their counts (likelihood.ts modelGroup): each group is fitted once.
  for (const variant of variants.filter((v) => modelGroup(v) === v)) {
    for (const seed of seeds) {
      forEachPlannedShot(variant, seed, shotsPerSeed, (shot, cueBall) => countShot(counts, parents, variant, shot, cueBall));
    }
  }
  // Keys seen too rarely are never consulted (likelihood.ts falls back to a coarser one), and a key
  // whose share is within SHARE_TOLERANCE of the coarser key the lookup would fall back to adds
  // nothing: neither is stored. Coarse keys are settled first, so a key is compared with what
  // the lookup would really use in its place.
  const kept = new Set<string>();
  const depth = (key: string) => key.split('|').length;
  for (const key of Object.keys(counts).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1))) {
    if (counts[key]![1] < MIN_SUPPORT) continue;
    let parent = parents.get(key);
    while (parent !== undefined && !kept.has(parent)) parent = parents.get(parent);
    if (parent === undefined || Math.abs(share(counts[key]!) - share(counts[parent]!)) >= SHARE_TOLERANCE) kept.add(key);
  }
  const sorted = Object.fromEntries([...kept].sort().map((key) => [key, counts[key]!]));
  return {
    version: MODEL_VERSION,
    description: `fitted by hardware/simulator/fit-likelihood.ts on ${shotsPerSeed} physics shots per seed (${seeds.join(', ')}) per game`,
    counts: sorted,
  };
}

/** Plays matches with the physics planner (as the accuracy bench does), handing each shot's ground truth over. */
export function forEachPlannedShot(variant: string, seed: number, shots: number, visit: (shot: Shot, cueBall: BallId) => void): void {
  const setup = { variant, players: ['Ana', 'Ben'], target: variant === 'artistic' ? 1 : 100_000, options: variant === 'artistic' ? { figures: 12 } : {} };
  const random = seededRandom(seed);
  const physics = new PhysicsTable(variant);
  let match = createMatch(setup);
  for (let k = 0; k < shots; k++) {
    let view = match.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      match = createMatch(setup);
      view = match.view();
    }
    const figure = (view as { figure?: { sequence: string[] } | null }).figure?.sequence;
    const { shot } = physics.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions, ...(figure ? { figure } : {}) });
    visit(shot, view.cueBall as BallId);
    must(match.apply({ kind: 'shot', shot }));
    const after = match.view();
    if (after.status === 'awaiting-referee') must(match.apply({ kind: 'referee', referee: { ruling: after.prompt!.options[0]!.ruling, option: 0 } }));
  }
}

/** Walks the true reading of a shot, counting every candidate of each event the sensors leave open. */
function countShot(counts: Record<string, [number, number]>, parents: Map<string, string>, variant: string, shot: Shot, cueBall: BallId): void {
  const balls = variantById(variant)!.balls;
  const seen = sensorView(shot).events;
  let moving = 1 << balls.indexOf(cueBall);
  let track: Track = initialTrack(balls.length);
  shot.events.forEach((event, index) => {
    if (event.kind === 'foul') return;
    const amplitude = event.kind === 'ball' || event.kind === 'cushion' ? event.amplitude : undefined;
    const truth = resolve(event, index);
    const open = seen[index]! as Exclude<ShotEvent, { kind: 'foul' }>;
    const candidates = candidateReadings(open, index, moving, balls);
    if (candidates.length > 1) {
      for (const c of candidates) {
        const hit = sameReading(c, truth);
        const chain = candidateKeys(variant, track, c, event.t, balls, cueBall, amplitude);
        chain.forEach((key, k) => k + 1 < chain.length && parents.set(key, chain[k + 1]!));
        for (const key of chain) {
          const entry = (counts[key] ??= [0, 0]);
          entry[1] += 1;
          if (hit) entry[0] += 1;
        }
      }
    }
    track = stepTrack(track, truth, event.t, balls, cueBall, amplitude);
    for (const b of ballsOf(truth)) moving |= 1 << balls.indexOf(b);
  });
}

function resolve(event: Exclude<ShotEvent, { kind: 'foul' }>, index: number): ResolvedEvent {
  if (event.kind === 'ball') return { kind: 'ball', balls: event.balls as [BallId, BallId], index };
  if (event.kind === 'skittle') return { kind: 'skittle', skittle: event.skittle, by: event.by as BallId, index };
  if (event.kind === 'cushion') return { kind: 'cushion', rail: event.rail, ball: event.ball as BallId, index };
  return { kind: event.kind, ball: event.ball as BallId, index };
}

function ballsOf(e: ResolvedEvent): BallId[] {
  return e.kind === 'ball' ? [...e.balls] : [e.kind === 'skittle' ? e.by : e.ball];
}

function sameReading(a: ResolvedEvent, b: ResolvedEvent): boolean {
  if (a.kind === 'ball' && b.kind === 'ball') return [...a.balls].sort().join() === [...b.balls].sort().join();
  return JSON.stringify(ballsOf(a)) === JSON.stringify(ballsOf(b));
}



if (import.meta.url === `file://${process.argv[1]}`) {
  const model = fitLikelihood();
  const out = new URL('../../hub/rules/likelihood-model.json', import.meta.url);
  writeFileSync(out, `${JSON.stringify(model, null, 0).replace(/\],"/g, '],\n"')}\n`);
  console.log(`wrote ${out.pathname}: version ${model.version}, ${Object.keys(model.counts).length} keys`);
}
