import type { BallId, Rail, SkittleId } from './ids.ts';
import type { ShotEvent } from './events.ts';

/**
 * RULES §10: every fact is known, inferred by a stated rule, or undetermined. This module
 * turns a shot's events, some with unknown balls, into every physically possible reading
 * ("world") and folds each through a variant's scanner. Readings that end in the same
 * scanner state are merged, so the work stays small however many facts are unknown.
 *
 * The stated inference rule: a ball at rest does not move until something hits it. So a
 * rail or a skittle can only be struck by a ball already moving, and two balls can only
 * meet if at least one of them is moving. At the start of a shot only the cue ball moves,
 * which gives the two inferences RULES §10 names: rails before the first ball contact are
 * the cue ball's, and the first ball contact involves the cue ball.
 */

export type ResolvedEvent =
  | { kind: 'ball'; balls: readonly [BallId, BallId]; index: number }
  | { kind: 'cushion'; rail: Rail; ball: BallId; index: number }
  | { kind: 'skittle'; skittle: SkittleId; by: BallId; index: number }
  | { kind: 'pocket'; ball: BallId; index: number }
  | { kind: 'off-table'; ball: BallId; index: number };

/** A variant's view of one shot, built event by event. `key` must identify the state exactly. */
export interface Scanner<S> {
  init(): S;
  step(state: S, event: ResolvedEvent): S;
  key(state: S): string;
  /**
   * When present, `step` may change the state it is given and return it; the enumerator
   * then clones a state before stepping it in more than one reading. (One reading, the
   * common case, allocates nothing per event.)
   */
  clone?(state: S): S;
}

/** A fact the sensors left open, with every value some reading gave it. */
export interface UndeterminedFact {
  /** The event's index; -1 for a fact no event carries (`kind: 'unobserved'`). */
  event: number;
  /** `unobserved`: a fact outside the events (where the balls lay, how a white was set moving). */
  kind: ShotEvent['kind'] | 'unobserved';
  field: 'ball' | 'balls' | 'by' | 'assumption';
  candidates: string[];
}

export interface World<S> {
  state: S;
  /** The value each unknown took in this reading: event index → value. */
  assumed: ReadonlyMap<number, string>;
}

export interface Enumeration<S> {
  worlds: World<S>[];
  undetermined: UndeterminedFact[];
  /** Unknowns that a stated rule settled (event index → value): shown as evidence. */
  inferred: ReadonlyMap<number, string>;
  /** The readings grew past the limit: the caller must not decide automatically. */
  overflow: boolean;
}

const WORLD_LIMIT = 4096;
const NO_ASSUMPTIONS: ReadonlyMap<number, string> = new Map();

/**
 * A branch's assumptions as a list sharing its tail with the branch it came from: taking
 * one more costs one cell, where copying a map would cost the whole history (a shot of
 * many rail hits, each of an unknown ball, would be quadratic in allocation).
 */
interface Assumption {
  index: number;
  value: string;
  earlier: Assumption | null;
}

interface Branch<S> {
  moving: number;
  state: S;
  assumed: Assumption | null;
}

function assumptionMap(last: Assumption | null): ReadonlyMap<number, string> {
  if (last === null) return NO_ASSUMPTIONS;
  const cells: Assumption[] = [];
  for (let a: Assumption | null = last; a !== null; a = a.earlier) cells.push(a);
  return new Map(cells.reverse().map((a) => [a.index, a.value]));
}


export function enumerateWorlds<S>(
  events: readonly ShotEvent[],
  balls: readonly BallId[],
  cueBall: BallId,
  scanner: Scanner<S>,
): Enumeration<S> {
  // Fast path: every fact known, one reading, nothing to merge (the common case with a tracker).
  if (events.every(isKnown)) {
    let state = scanner.init();
    for (let index = 0; index < events.length; index++) {
      const resolved = resolveKnown(events[index]!, index);
      if (resolved) state = scanner.step(state, resolved);
    }
    return { worlds: [{ state, assumed: NO_ASSUMPTIONS }], undetermined: [], inferred: NO_ASSUMPTIONS, overflow: false };
  }

  let branches: Branch<S>[] = [{ moving: bitOf(balls, cueBall), state: scanner.init(), assumed: null }];
  const candidatesSeen = new Map<number, { kind: ShotEvent['kind']; field: UndeterminedFact['field']; values: Set<string> }>();
  let anyUnknown = false;
  let overflow = false;

  events.forEach((event, index) => {
    if (event.kind === 'foul') return;
    const next: Branch<S>[] = [];
    // A ball this event names as moving must have been set moving by an earlier contact: readings
    // in which it lay still are dropped. If no reading has it moving, the events are incomplete
    // (a contact the sensors missed): all readings are kept and the variant judges that case.
    const needs = movingNeeded(event, balls);
    const consistent = needs === 0 ? branches : branches.filter((b) => (b.moving & needs) !== 0);
    for (const branch of consistent.length > 0 ? consistent : branches) {
      const options = readings(event, index, branch.moving, balls);
      for (const [k, option] of options.entries()) {
        if (option.unknown) {
          anyUnknown = true;
          let seen = candidatesSeen.get(index);
          if (!seen) candidatesSeen.set(index, (seen = { kind: event.kind, field: option.field, values: new Set() }));
          for (const v of option.alternatives) seen.values.add(v);
        }
        const assumed = option.unknown ? { index, value: option.label, earlier: branch.assumed } : branch.assumed;
        next.push({
          moving: branch.moving | option.sets,
          state: scanner.step(scanner.clone && k < options.length - 1 ? scanner.clone(branch.state) : branch.state, option.event),
          assumed,
        });
      }
    }
    branches = anyUnknown ? merge(next, scanner) : next;
    if (branches.length > WORLD_LIMIT) {
      overflow = true;
      branches = branches.slice(0, WORLD_LIMIT);
    }
  });

  const undetermined: UndeterminedFact[] = [];
  const inferred = new Map<number, string>();
  for (const [event, seen] of candidatesSeen) {
    const candidates = [...seen.values];
    if (candidates.length > 1) undetermined.push({ event, kind: seen.kind, field: seen.field, candidates });
    else inferred.set(event, candidates[0]!);
  }
  undetermined.sort((a, b) => a.event - b.event);
  return {
    worlds: branches.map((b) => ({ state: b.state, assumed: assumptionMap(b.assumed) })),
    undetermined,
    inferred,
    overflow,
  };
}

/** Balls of which at least one must already move for the event to happen (0: no condition beyond the readings'). */
function movingNeeded(event: Exclude<ShotEvent, { kind: 'foul' }>, balls: readonly BallId[]): number {
  if (event.kind === 'ball') {
    const [a, b] = event.balls;
    return a !== null && b !== null ? bitOf(balls, a as BallId) | bitOf(balls, b as BallId) : 0;
  }
  const known = event.kind === 'skittle' ? event.by : event.ball;
  return known === null ? 0 : bitOf(balls, known as BallId);
}

function isKnown(event: ShotEvent): boolean {
  switch (event.kind) {
    case 'ball':
      return event.balls[0] !== null && event.balls[1] !== null;
    case 'skittle':
      return event.by !== null;
    case 'foul':
      return true;
    default:
      return event.ball !== null;
  }
}

/** The event as the scanner sees it, when every ball in it is known. */
function resolveKnown(event: ShotEvent, index: number): ResolvedEvent | null {
  switch (event.kind) {
    case 'ball':
      return { kind: 'ball', balls: event.balls as [BallId, BallId], index };
    case 'cushion':
      return { kind: 'cushion', rail: event.rail, ball: event.ball as BallId, index };
    case 'skittle':
      return { kind: 'skittle', skittle: event.skittle, by: event.by as BallId, index };
    case 'pocket':
    case 'off-table':
      return { kind: event.kind, ball: event.ball as BallId, index };
    case 'foul':
      return null;
  }
}

function bitOf(balls: readonly BallId[], ball: BallId): number {
  return 1 << balls.indexOf(ball);
}

function merge<S>(branches: Branch<S>[], scanner: Scanner<S>): Branch<S>[] {
  if (branches.length < 2) return branches;
  const byKey = new Map<string, Branch<S>>();
  for (const b of branches) {
    const key = `${b.moving}|${scanner.key(b.state)}`;
    if (!byKey.has(key)) byKey.set(key, b);
  }
  return [...byKey.values()];
}

interface Reading {
  event: ResolvedEvent;
  /** Balls set moving by this event. */
  sets: number;
  unknown: boolean;
  field: UndeterminedFact['field'];
  label: string;
  alternatives: string[];
}

function readings(event: Exclude<ShotEvent, { kind: 'foul' }>, index: number, moving: number, balls: readonly BallId[]): Reading[] {
  if (event.kind === 'ball') return ballReadings(event.balls, index, moving, balls);
  const field: UndeterminedFact['field'] = event.kind === 'skittle' ? 'by' : 'ball';
  const known = event.kind === 'skittle' ? event.by : event.ball;
  if (known !== null) {
    const b = known as BallId;
    return [{ event: resolveKnown(event, index)!, sets: bitOf(balls, b), unknown: false, field, label: b, alternatives: [] }];
  }
  const movers = balls.filter((b) => (moving & bitOf(balls, b)) !== 0);
  return movers.map((b) => ({
    event: resolveKnown(event.kind === 'skittle' ? { ...event, by: b } : { ...event, ball: b }, index)!,
    sets: bitOf(balls, b),
    unknown: true,
    field,
    label: b,
    alternatives: movers,
  }));
}

function ballReadings(pairIn: readonly [string | null, string | null], index: number, moving: number, balls: readonly BallId[]): Reading[] {
  const [a, b] = pairIn;
  if (a !== null && b !== null) {
    const pair = [a, b] as [BallId, BallId];
    return [{ event: { kind: 'ball', balls: pair, index }, sets: bitOf(balls, pair[0]) | bitOf(balls, pair[1]), unknown: false, field: 'balls', label: '', alternatives: [] }];
  }
  const known = (a ?? b) as BallId | null;
  const pairs: [BallId, BallId][] = [];
  for (let i = 0; i < balls.length; i++) {
    for (let j = i + 1; j < balls.length; j++) {
      const x = balls[i]!;
      const y = balls[j]!;
      if (known !== null && x !== known && y !== known) continue;
      if ((moving & (bitOf(balls, x) | bitOf(balls, y))) === 0) continue;
      pairs.push(known === y ? [y, x] : [x, y]);
    }
  }
  const labels = pairs.map(([x, y]) => `${x}+${y}`);
  return pairs.map((pair, k) => ({
    event: { kind: 'ball', balls: pair, index },
    sets: bitOf(balls, pair[0]) | bitOf(balls, pair[1]),
    unknown: true,
    field: 'balls',
    label: labels[k]!,
    alternatives: labels,
  }));
}
