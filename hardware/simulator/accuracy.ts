import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import { createMatch, must } from './match-helpers.ts';
import { Match, type EngineConfig } from '../../hub/rules/match.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import type { MatchView, PromptView, ShotResult } from '../../hub/rules/view.ts';
import { PhysicsTable } from './physics/planner.ts';
import { planScriptedShot } from './planner.ts';

/**
 * Scores the same planned shots twice: with every fact known (a tracker's view, the ground
 * truth) and as a given sensor set sees them, and counts for the sensor reading how many
 * shots it decided as the truth says, how many it put to the referee, and how many it
 * decided wrongly (must be none).
 */
export type SensorSet = 'sensors' | 'tracker' | 'candidates' | 'maybe';
/** `physics`: the event-driven simulator plays real matches; `scripted`: random plausible event sequences. */
export type PlannerKind = 'physics' | 'scripted';

export interface AccuracyCount {
  variant: string;
  shots: number;
  correct: number;
  prompted: number;
  wrong: number;
  /** Prompts whose most likely option (the first) was the truth. */
  top1: number;
  /** Sum over prompts of Σ (likelihood − [option is the truth])². */
  brier: number;
  /** The first wrong decisions, for the report. */
  wrongExamples: string[];
}

/** What the cushion piezos, the click channel and the tilt switches tell: no ball ids, no positions. */
export function sensorView(shot: Shot): Shot {
  return {
    events: shot.events.map((e) => {
      if (e.kind === 'cushion') return { ...e, ball: null };
      if (e.kind === 'ball') return { ...e, balls: [null, null] };
      if (e.kind === 'skittle') return { ...e, by: null };
      return e;
    }),
  };
}

/**
 * The sensors' view with `candidates` on every unknown id, as a camera's paths give them: the
 * truth and each other ball (pair) with even odds — any superset of the truth a sound camera
 * may leave (the candidates extension, docs/contract.md).
 */
export function candidateView(shot: Shot, balls: readonly string[], random: () => number): Shot {
  const pairs = balls.flatMap((x, i) => balls.slice(i + 1).map((y) => [x, y] as [string, string]));
  const some = <T>(truth: T, all: readonly T[], same: (a: T, b: T) => boolean) => all.filter((x) => same(x, truth) || random() < 0.5);
  const samePair = (a: readonly [string, string], b: readonly [string, string]) => a.includes(b[0]) && a.includes(b[1]);
  return {
    events: shot.events.map((e) => {
      if (e.kind === 'cushion' && e.ball !== null) return { ...e, ball: null, candidates: some(e.ball, balls, (a, b) => a === b) };
      if (e.kind === 'skittle' && e.by !== null) return { ...e, by: null, candidates: some(e.by, balls, (a, b) => a === b) };
      if (e.kind === 'ball' && e.balls[0] !== null && e.balls[1] !== null) return { ...e, balls: [null, null], candidates: some([e.balls[0], e.balls[1]] as [string, string], pairs, samePair) };
      return e;
    }),
  };
}

/**
 * The tracker's view (every id known) with `maybe` events, as a camera that is unsure of what
 * it saw states them (docs/contract.md): some true events marked maybe, and near misses that did
 * not happen — a ball pair, a rail, a skittle — put in as maybe between the events at random.
 */
export function maybeView(shot: Shot, balls: readonly string[], random: () => number): Shot {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const rails = ['head', 'foot', 'left', 'right'] as const;
  const skittles = [...new Set(shot.events.flatMap((e) => (e.kind === 'skittle' ? [e.skittle] : [])))];
  const events: ShotEvent[] = [];
  for (const e of shot.events) {
    if (random() < 0.25) {
      const t = e.t;
      const [a, b] = [pick(balls), pick(balls)];
      const fake: ShotEvent = random() < 0.5 && a !== b ? { kind: 'ball', balls: [a, b], maybe: true } : random() < 0.7 || skittles.length === 0 ? { kind: 'cushion', rail: pick(rails), ball: a, maybe: true } : { kind: 'skittle', skittle: pick(skittles), by: a, maybe: true };
      events.push(t === undefined ? fake : { ...fake, t });
    }
    events.push((e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle') && random() < 0.3 ? { ...e, maybe: true } : e);
  }
  return { ...shot, events };
}

const outcome = (r: ShotResult) => JSON.stringify([r.points, r.foul, r.turnPasses, r.awards ?? []]);

/** Called for each prompt the sensor reading raised, with the option that is the truth. */
export type PromptVisitor = (prompt: PromptView, truth: PromptView['options'][number], shot: Shot) => void;

export function measureAccuracy(variant: string, shots: number, seed: number, sensors: SensorSet, planner: PlannerKind = 'physics', config: EngineConfig = {}, onPrompt?: PromptVisitor): AccuracyCount {
  const setup = { variant, players: ['Ana', 'Ben'], target: variant === 'artistic' ? 1 : 100_000, options: variant === 'artistic' ? { figures: 12 } : {} };
  const count: AccuracyCount = { variant, shots: 0, correct: 0, prompted: 0, wrong: 0, top1: 0, brier: 0, wrongExamples: [] };
  const random = seededRandom(seed);
  // The candidates' own draws: the planner plays the same shots whichever reading is measured.
  const candidateRandom = seededRandom(seed ^ 0x5eed);
  let truth = createMatch(setup);
  let seen = createMatch(setup, config);
  const physics = new PhysicsTable(variant);
  while (count.shots < shots) {
    let view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      truth = createMatch(setup);
      seen = createMatch(setup, config);
      view = truth.view();
    }
    const figure = (view as MatchView & { figure?: { sequence: string[] } }).figure?.sequence;
    const ctx = { variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, ...(figure ? { figure } : {}) };
    const { shot } = planner === 'physics' ? physics.plan({ ...ctx, instructions: view.instructions }) : planScriptedShot(ctx);
    must(truth.apply({ kind: 'shot', shot }));
    const known = truth.view();
    if (known.status === 'awaiting-referee') must(truth.apply({ kind: 'referee', referee: { ruling: known.prompt!.options[0]!.ruling, option: 0 } }));
    const expected = truth.view().shots.at(-1)!;
    const balls = variant.startsWith('skittles') ? ['cue', 'one', 'two'] : ['white', 'yellow', 'red'];
    must(seen.apply({ kind: 'shot', shot: sensors === 'tracker' ? shot : sensors === 'candidates' ? candidateView(shot, balls, candidateRandom) : sensors === 'maybe' ? maybeView(shot, balls, candidateRandom) : sensorView(shot) }));
    count.shots += 1;
    const sensed = seen.view();
    if (sensed.status === 'awaiting-referee') {
      count.prompted += 1;
      const option = sensed.prompt!.options.find((o) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses);
      if (!option) {
        count.wrong += 1; // the truth is not even offered: as bad as a wrong decision
        if (count.wrongExamples.length < 3) count.wrongExamples.push(`prompt without the truth: ${JSON.stringify(shot.events)}`);
        truth = createMatch(setup);
        seen = createMatch(setup, config);
        continue;
      }
      const options = sensed.prompt!.options;
      onPrompt?.(sensed.prompt!, option, shot);
      if (options[0] === option) count.top1 += 1;
      count.brier += options.reduce((sum, o) => sum + (o.likelihood - (o === option ? 1 : 0)) ** 2, 0);
      must(seen.apply({ kind: 'referee', referee: { ruling: option.ruling, option: option.index } }));
    } else if (outcome(sensed.shots.at(-1)!) === outcome(expected)) count.correct += 1;
    else {
      count.wrong += 1;
      if (count.wrongExamples.length < 3) count.wrongExamples.push(`${JSON.stringify(shot.events)}: sensed ${outcome(sensed.shots.at(-1)!)} truth ${outcome(expected)}`);
      truth = createMatch(setup); // start both again in step
      seen = createMatch(setup, config);
    }
  }
  return count;
}


