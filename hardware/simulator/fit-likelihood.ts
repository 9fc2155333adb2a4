import { writeFileSync } from 'node:fs';
import { createMatch, must } from './match-helpers.ts';
import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import type { BallId } from '../../hub/rules/ids.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';
import { candidateKeys, initialTrack, MIN_SUPPORT, stepTrack, type LikelihoodModel, type Track } from '../../hub/rules/likelihood.ts';
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
export const MODEL_VERSION = 1;

export function fitLikelihood(variants: readonly string[] = VARIANT_IDS, seeds: readonly number[] = FIT_SEEDS, shotsPerSeed = FIT_SHOTS_PER_SEED): LikelihoodModel {
  const counts: Record<string, [number, number]> = {};
  for (const variant of variants) {
    for (const seed of seeds) {
      forEachPlannedShot(variant, seed, shotsPerSeed, (shot, cueBall) => countShot(counts, variant, shot, cueBall));
    }
  }
  // Keys seen too rarely are never consulted (likelihood.ts falls back to a coarser one): not stored.
  const sorted = Object.fromEntries(Object.entries(counts).filter(([, c]) => c[1] >= MIN_SUPPORT).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
function countShot(counts: Record<string, [number, number]>, variant: string, shot: Shot, cueBall: BallId): void {
  const balls = variantById(variant)!.balls;
  const seen = sensorView(shot).events;
  let moving = 1 << balls.indexOf(cueBall);
  let track: Track = initialTrack(balls.length);
  shot.events.forEach((event, index) => {
    if (event.kind === 'foul') return;
    const truth = resolve(event, index);
    const open = seen[index]! as Exclude<ShotEvent, { kind: 'foul' }>;
    const candidates = candidateReadings(open, index, moving, balls);
    if (candidates.length > 1) {
      for (const c of candidates) {
        const hit = sameReading(c, truth);
        for (const key of candidateKeys(variant, track, c, event.t, balls, cueBall)) {
          const entry = (counts[key] ??= [0, 0]);
          entry[1] += 1;
          if (hit) entry[0] += 1;
        }
      }
    }
    track = stepTrack(track, truth, event.t, balls, cueBall);
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
