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
}

/** A fact the sensors left open, with every value some reading gave it. */
export interface UndeterminedFact {
  event: number;
  kind: ShotEvent['kind'];
  field: 'ball' | 'balls' | 'by';
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

interface Branch<S> {
  moving: number;
  state: S;
  assumed: Map<number, string>;
}

export function enumerateWorlds<S>(
  events: readonly ShotEvent[],
  balls: readonly BallId[],
  cueBall: BallId,
  scanner: Scanner<S>,
): Enumeration<S> {
  const bit = (ball: BallId): number => 1 << balls.indexOf(ball);
  const moversOf = (moving: number): BallId[] => balls.filter((b) => (moving & bit(b)) !== 0);

  let branches: Branch<S>[] = [{ moving: bit(cueBall), state: scanner.init(), assumed: new Map() }];
  const candidatesSeen = new Map<number, { kind: ShotEvent['kind']; field: UndeterminedFact['field']; values: Set<string> }>();
  let anyUnknown = false;
  let overflow = false;

  const note = (index: number, kind: ShotEvent['kind'], field: UndeterminedFact['field'], values: string[]): void => {
    let seen = candidatesSeen.get(index);
    if (!seen) candidatesSeen.set(index, (seen = { kind, field, values: new Set() }));
    for (const v of values) seen.values.add(v);
  };

  events.forEach((event, index) => {
    if (event.kind === 'foul') return;
    const next: Branch<S>[] = [];
    for (const branch of branches) {
      for (const option of readings(event, index, branch.moving, balls, moversOf)) {
        if (option.unknown) {
          anyUnknown = true;
          note(index, event.kind, option.field, option.alternatives);
        }
        const assumed = option.unknown ? new Map(branch.assumed).set(index, option.label) : branch.assumed;
        next.push({
          moving: branch.moving | option.sets,
          state: scanner.step(branch.state, option.event),
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
    worlds: branches.map((b) => ({ state: b.state, assumed: b.assumed })),
    undetermined,
    inferred,
    overflow,
  };
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

function readings(
  event: Exclude<ShotEvent, { kind: 'foul' }>,
  index: number,
  moving: number,
  balls: readonly BallId[],
  moversOf: (moving: number) => BallId[],
): Reading[] {
  const bit = (ball: BallId): number => 1 << balls.indexOf(ball);
  const single = (ball: string | null, make: (b: BallId) => ResolvedEvent, field: UndeterminedFact['field']): Reading[] => {
    if (ball !== null) {
      const b = ball as BallId;
      return [{ event: make(b), sets: bit(b), unknown: false, field, label: b, alternatives: [] }];
    }
    const movers = moversOf(moving);
    return movers.map((b) => ({ event: make(b), sets: bit(b), unknown: true, field, label: b, alternatives: movers }));
  };

  switch (event.kind) {
    case 'cushion':
      return single(event.ball, (ball) => ({ kind: 'cushion', rail: event.rail, ball, index }), 'ball');
    case 'skittle':
      return single(event.by, (by) => ({ kind: 'skittle', skittle: event.skittle, by, index }), 'by');
    case 'pocket':
      return single(event.ball, (ball) => ({ kind: 'pocket', ball, index }), 'ball');
    case 'off-table':
      return single(event.ball, (ball) => ({ kind: 'off-table', ball, index }), 'ball');
    case 'ball': {
      const [a, b] = event.balls;
      if (a !== null && b !== null) {
        const pair = [a, b] as [BallId, BallId];
        return [{ event: { kind: 'ball', balls: pair, index }, sets: bit(pair[0]) | bit(pair[1]), unknown: false, field: 'balls', label: '', alternatives: [] }];
      }
      const known = (a ?? b) as BallId | null;
      const pairs: [BallId, BallId][] = [];
      for (let i = 0; i < balls.length; i++) {
        for (let j = i + 1; j < balls.length; j++) {
          const x = balls[i]!;
          const y = balls[j]!;
          if (known !== null && x !== known && y !== known) continue;
          if ((moving & (bit(x) | bit(y))) === 0) continue;
          pairs.push(known === y ? [y, x] : [x, y]);
        }
      }
      const labels = pairs.map(([x, y]) => `${x}+${y}`);
      return pairs.map((pair, k) => ({
        event: { kind: 'ball', balls: pair, index },
        sets: bit(pair[0]) | bit(pair[1]),
        unknown: true,
        field: 'balls',
        label: labels[k]!,
        alternatives: labels,
      }));
    }
  }
}
