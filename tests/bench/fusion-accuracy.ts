import { fuseShot } from '../../hub/camera/fusion.ts';
import { createMatch, must, playTruth, replay } from '../../hardware/simulator/match-helpers.ts';
import type { MatchInput, MatchSetup, Shot } from '../../hub/rules/events.ts';
import { Match } from '../../hub/rules/match.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import type { MatchView, ShotResult } from '../../hub/rules/view.ts';
import { DEFAULT_CAMERA, views, type CameraModel } from '../../hardware/simulator/camera-view.ts';
import { PhysicsTable } from '../../hardware/simulator/physics/planner.ts';

/**
 * Camera + sensors against camera alone and sensors alone (issue 16): the physics planner
 * plays real matches; each true shot is seen by the sensors and by a synthetic camera
 * (camera-view.ts) at the given frame rate, and each reading is scored in a match of its
 * own kept in step with the truth. Per reading: decided as the truth, prompted (the truth
 * among the options, then chosen), wrong.
 */
export interface ReadingCount {
  correct: number;
  prompted: number;
  wrong: number;
  /** Five skittles with `undeterminedFellerIsFoul`: a foul because the feller is unknown — the venue's rule (SK5-5), not a mistake. */
  unknownFeller: number;
  wrongExamples: string[];
}

/** One camera to measure: its frame rate and how often it loses a contact or an id. */
export interface CameraSetup {
  label: string;
  model: CameraModel;
}

export interface CameraAccuracy {
  label: string;
  camera: ReadingCount;
  fused: ReadingCount;
  /** Fusion's own tally: sensor contacts given ids, left unknown, camera contacts not placed. */
  identified: number;
  unknown: number;
  unmatchedCamera: number;
}

export interface FusionAccuracy {
  variant: string;
  shots: number;
  sensors: ReadingCount;
  cameras: CameraAccuracy[];
}

const outcome = (r: ShotResult) => JSON.stringify([r.points, r.foul, r.turnPasses, r.awards ?? []]);
const count = (): ReadingCount => ({ correct: 0, prompted: 0, wrong: 0, unknownFeller: 0, wrongExamples: [] });

export const CAMERAS: readonly CameraSetup[] = [30, 60].flatMap((fps) => [
  { label: `${fps} fps, clear view`, model: { fps, hide: 0.01, unknownId: 0.01, hiddenAtRest: 0.01, clockErrorMs: 4 } },
  { label: `${fps} fps, busy table`, model: { fps, ...DEFAULT_CAMERA } },
]);

/** The same physics shots, read by the sensors alone and by each camera alone and fused with the sensors. */
export function measureFusion(variant: string, shots: number, seed: number, cameras: readonly CameraSetup[] = CAMERAS): FusionAccuracy {
  const setup: MatchSetup = { variant, players: ['Ana', 'Ben'], target: variant === 'artistic' ? 1 : 100_000, options: variant === 'artistic' ? { figures: 12 } : {} };
  const random = seededRandom(seed);
  const seeing = seededRandom(seed ^ 0x5eed);
  const physics = new PhysicsTable(variant);
  const result: FusionAccuracy = { variant, shots: 0, sensors: count(), cameras: cameras.map((c) => ({ label: c.label, camera: count(), fused: count(), identified: 0, unknown: 0, unmatchedCamera: 0 })) };
  const counts = [result.sensors, ...result.cameras.flatMap((c) => [c.camera, c.fused])];
  let log: MatchInput[] = [];
  let truth = createMatch(setup);
  let seen = counts.map(() => createMatch(setup));
  while (result.shots < shots) {
    let view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      log = [];
      truth = createMatch(setup);
      seen = counts.map(() => createMatch(setup));
      view = truth.view();
    }
    const figure = (view as MatchView & { figure?: { sequence: string[] } }).figure?.sequence;
    const { shot } = physics.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions, ...(figure ? { figure } : {}) });
    const inputs = playTruth(truth, shot);
    const expected = truth.view().shots.at(-1)!;
    const readings: Shot[] = [];
    cameras.forEach((c, k) => {
      const v = views(shot, c.model, seeing);
      const fused = fuseShot(v.sensors, v.camera, { offsetMs: v.offsetMs, toleranceMs: v.toleranceMs });
      const tally = result.cameras[k]!;
      tally.identified += fused.identified;
      tally.unknown += fused.unknown;
      tally.unmatchedCamera += fused.unmatchedCamera;
      if (k === 0) readings.push(v.sensors);
      readings.push(v.camera, fused.shot);
    });
    result.shots += 1;
    readings.forEach((reading, k) => {
      if (!judge(seen[k]!, reading, expected, counts[k]!, shot)) seen[k] = replay(setup, [...log, ...inputs]); // out of step: start again from the truth
    });
    log.push(...inputs);
  }
  return result;
}

/** Scores one reading of the shot and counts the decision; false when the match left the truth's path. */
function judge(match: Match, reading: Shot, expected: ShotResult, tally: ReadingCount, truth: Shot): boolean {
  const applied = match.apply({ kind: 'shot', shot: reading });
  if (!applied.ok) {
    tally.wrong += 1; // the engine refused the reading (an impossible sequence): no usable decision
    note(tally, `refused: ${applied.error}`);
    return false;
  }
  const sensed = match.view();
  if (sensed.status === 'awaiting-referee') {
    const option = sensed.prompt!.options.find((o) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses);
    if (!option) {
      tally.wrong += 1; // the truth is not even offered: as bad as a wrong decision
      note(tally, `prompt without the truth: ${JSON.stringify(reading.events)}`);
      return false;
    }
    tally.prompted += 1;
    must(match.apply({ kind: 'referee', referee: { ruling: option.ruling, option: option.index } }));
    return true;
  }
  if (outcome(sensed.shots.at(-1)!) === outcome(expected)) {
    tally.correct += 1;
    return true;
  }
  if (sensed.shots.at(-1)!.foul === 'undetermined-feller') {
    tally.unknownFeller += 1; // SK5-5 with undeterminedFellerIsFoul: decided by the venue's rule, not asked
    return false;
  }
  tally.wrong += 1;
  note(tally, `${JSON.stringify(reading.events)} (truth ${JSON.stringify(truth.events)}): ${outcome(sensed.shots.at(-1)!)} vs ${outcome(expected)}`);
  return false;
}

function note(count: ReadingCount, example: string): void {
  if (count.wrongExamples.length < 3) count.wrongExamples.push(example);
}



