import type { BallId, Rail, SkittleId } from './ids.ts';
import type { ResolvedEvent, ShotEvent } from './events.ts';
import { IMPULSE_SHARE, MAX_BALL_SPEED, maxRailReturnSpeed, maxRecontactSpeed, OPPOSITE, skittleRoundTripMs, speedRange, type PhysicalBounds } from './bounds.ts';
import { candidateKeys, candidateScore, initialTrack, stepTrack, type LikelihoodModel, type Track } from './likelihood.ts';

export type { ResolvedEvent } from './events.ts';

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
  /** How likely this reading is against the others, by the likelihood model (unnormalised; 1 with none). */
  weight: number;
  /** The value each unknown took in this reading: event index → value. */
  assumed: ReadonlyMap<number, string>;
  /**
   * Every value each unknown took in the readings merged into this one (event index → values).
   * Computed when asked (a prompt names them per option), so a shot decided at once pays nothing.
   */
  values(): ReadonlyMap<number, ReadonlySet<string>>;
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
const NO_VALUES = (): ReadonlyMap<number, ReadonlySet<string>> => new Map();

/**
 * A branch's assumptions as a list sharing its tail with the branch it came from: taking
 * one more costs one cell, where copying a map would cost the whole history (a shot of
 * many rail hits, each of an unknown ball, would be quadratic in allocation).
 */
interface Assumption {
  index: number;
  value: string;
  earlier: Trail;
}

/** Readings merged into one: each kept its own assumptions up to the merge. */
interface Joined {
  joined: Trail[];
}

type Trail = Assumption | Joined | null;

interface Branch<S> {
  moving: number;
  state: S;
  assumed: Trail;
  /** The pair (bits) that met last, while neither has touched anything since (SEPARATE_AFTER_CONTACT), and when (-1: not known). */
  met: number;
  metT: number;
  /** Per ball, its last rail and when, while recent enough to bound an opposite-rail hit. */
  rails: readonly (RailMark | null)[];
  /** Per ball, an upper bound on √(2E/m), mm/s (bounds.ts IMPULSE_SHARE): 0 at rest, ∞ for the cue ball. */
  energy: readonly number[];
  weight: number;
  track: Track;
}

interface RailMark {
  rail: Rail;
  t: number;
  /** Nothing else touched since (bounds.ts maxRailReturnSpeed: a ball or a skittle voids the return bound). */
  alone: boolean;
}

/** Optional evidence for the enumeration: physical bounds on timing, and the model that weighs readings. */
export interface InferenceOptions {
  bounds?: PhysicalBounds;
  /** false: skip the "named ball was set moving" rule too (the bench's figures before pruning). */
  pruning?: boolean;
  likelihood?: { model: LikelihoodModel; variant: string };
  /**
   * Balls seen set moving during the shot (the match-log extension `moved`, a camera's): each was
   * struck by one of the shot's contacts, so readings in which one of them lay still throughout
   * are dropped — unless that would drop every reading (then the events are incomplete).
   */
  moved?: readonly BallId[];
}

/** One reading's assumptions: of merged readings, the first one's. */
function assumptionMap(last: Trail): ReadonlyMap<number, string> {
  if (last === null) return NO_ASSUMPTIONS;
  const cells: Assumption[] = [];
  for (let a: Trail = last; a !== null; ) {
    if ('joined' in a) a = a.joined[0] ?? null;
    else {
      cells.push(a);
      a = a.earlier;
    }
  }
  return new Map(cells.reverse().map((a) => [a.index, a.value]));
}

/** Every value each unknown took on any path of merged readings (each shared cell visited once). */
function valuesOf(last: Trail): ReadonlyMap<number, ReadonlySet<string>> {
  const values = new Map<number, Set<string>>();
  const seen = new Set<Assumption | Joined>();
  const stack: Trail[] = [last];
  while (stack.length > 0) {
    const a = stack.pop()!;
    if (a === null || seen.has(a)) continue;
    seen.add(a);
    if ('joined' in a) stack.push(...a.joined);
    else {
      let set = values.get(a.index);
      if (!set) values.set(a.index, (set = new Set()));
      set.add(a.value);
      stack.push(a.earlier);
    }
  }
  return values;
}


export function enumerateWorlds<S>(
  events: readonly ShotEvent[],
  balls: readonly BallId[],
  cueBall: BallId,
  scanner: Scanner<S>,
  inference: InferenceOptions = {},
): Enumeration<S> {
  // Fast path: every fact known, one reading, nothing to merge (the common case with a tracker).
  if (events.every(isKnown)) {
    let state = scanner.init();
    for (let index = 0; index < events.length; index++) {
      const resolved = resolveKnown(events[index]!, index);
      if (resolved) state = scanner.step(state, resolved);
    }
    return { worlds: [{ state, assumed: NO_ASSUMPTIONS, weight: 1, values: NO_VALUES }], undetermined: [], inferred: NO_ASSUMPTIONS, overflow: false };
  }

  const { bounds, likelihood } = inference;
  let branches: Branch<S>[] = [
    {
      moving: bitOf(balls, cueBall),
      state: scanner.init(),
      assumed: null,
      met: 0,
      metT: -1,
      rails: balls.map(() => null),
      energy: balls.map((b) => (b === cueBall ? Infinity : 0)),
      weight: 1,
      track: initialTrack(balls.length),
    },
  ];
  const candidatesSeen = new Map<number, { kind: ShotEvent['kind']; field: UndeterminedFact['field']; values: Set<string> }>();
  // Before it every skittle still stands where it was set (a maybe fall counts: it may have happened).
  const fallen = events.findIndex((e) => e.kind === 'skittle');
  const firstSkittle = fallen < 0 ? events.length : fallen;
  let anyUnknown = false;
  let overflow = false;

  const advance = (from: Branch<S>[], event: Exclude<ShotEvent, { kind: 'foul' }>, index: number, bounded: boolean): Branch<S>[] => {
    const next: Branch<S>[] = [];
    const t = event.t;
    for (const branch of from) {
      const amplitude = event.kind === 'ball' || event.kind === 'cushion' ? event.amplitude : undefined;
      const options = readings(event, index, branch.moving, balls).filter((o) => !bounded || o.event === null || possible(branch, o.event, t, amplitude, balls, bounds!, index < firstSkittle));
      // A maybe event's "did not happen" is no reading the likelihood model weighs: it takes
      // 1 − MAYBE_HAPPENED of the branch's weight, and its readings share the rest (by the model
      // where it weighs them). Weighed one to one with each reading instead, a maybe contact of
      // an unknown ball, with two balls it may have been, counted two to one for having happened.
      const happened = options.filter((o) => o.event !== null).length;
      const maybe = isMaybe(event) && happened > 0 && happened < options.length;
      const scores = likelihood && happened > 1 && options.some((o) => o.unknown)
        ? options.map((o) => (o.event === null ? 0 : candidateScore(likelihood.model, candidateKeys(likelihood.variant, branch.track, o.event, t, balls, cueBall, amplitude))))
        : null;
      const total = scores ? scores.reduce((a, b) => a + b, 0) : maybe ? happened : 1;
      const share = maybe ? MAYBE_HAPPENED[event.kind] : 1;
      for (const [k, option] of options.entries()) {
        if (option.unknown) {
          anyUnknown = true;
          let seen = candidatesSeen.get(index);
          if (!seen) candidatesSeen.set(index, (seen = { kind: event.kind, field: option.field, values: new Set() }));
          seen.values.add(option.label);
        }
        const assumed = option.unknown ? { index, value: option.label, earlier: branch.assumed } : branch.assumed;
        if (option.event === null) {
          // It did not happen: the branch goes on as it was.
          next.push({ ...branch, state: scanner.clone && k < options.length - 1 ? scanner.clone(branch.state) : branch.state, assumed, ...(maybe ? { weight: branch.weight * (1 - share) } : {}) });
          continue;
        }
        const happened = option.event;
        next.push({
          moving: branch.moving | option.sets,
          state: scanner.step(scanner.clone && k < options.length - 1 ? scanner.clone(branch.state) : branch.state, happened),
          assumed,
          ...(bounds ? physicsAfter(branch, happened, t, amplitude, balls, bounds) : { met: 0, metT: -1, rails: branch.rails, energy: branch.energy }),
          weight: scores ? (branch.weight * share * scores[k]!) / total : (branch.weight * share) / (maybe ? total : 1),
          track: likelihood ? stepTrack(branch.track, happened, t, balls, cueBall, amplitude) : branch.track,
        });
      }
    }
    return next;
  };

  events.forEach((event, index) => {
    if (event.kind === 'foul') return;
    // A ball this event names as moving must have been set moving by an earlier contact: readings
    // in which it lay still are dropped. If no reading has it moving, the events are incomplete
    // (a contact the sensors missed): all readings are kept and the variant judges that case.
    const needs = inference.pruning === false ? 0 : movingNeeded(event, balls);
    const consistent = needs === 0 ? branches : branches.filter((b) => (b.moving & needs) !== 0);
    const from = consistent.length > 0 ? consistent : branches;
    // The timing bounds drop readings too; if they would drop every one, the events break the
    // bounds' premises (a missed contact): the event is read without them.
    let next = bounds ? advance(from, event, index, true) : [];
    if (next.length === 0) next = advance(from, event, index, false);
    branches = anyUnknown ? merge(next, scanner) : next;
    if (branches.length > WORLD_LIMIT) {
      overflow = true;
      branches = branches.slice(0, WORLD_LIMIT);
    }
  });

  // RULES §10: a ball at rest moves only when struck. A ball seen to have moved was struck by
  // one of the shot's contacts: readings in which it never was are dropped (all kept if none is left).
  const mustMove = (inference.moved ?? []).reduce((bits, b) => bits | bitOf(balls, b), 0);
  if (mustMove !== 0 && !overflow) {
    const struck = branches.filter((b) => (b.moving & mustMove) === mustMove);
    if (struck.length > 0) branches = struck;
  }

  const undetermined: UndeterminedFact[] = [];
  const inferred = new Map<number, string>();
  // A fact's candidates are the values readings that lasted to the end gave it: a value only
  // readings dropped by a later event took (a bound, a ball needed moving) is no candidate, and
  // the referee is not asked to choose it (held-out 21224, five skittles 30 s19 #15: "which ball
  // struck the foot rail, cue or one" — the cue's reading broke the same-rail bound 61 ms later).
  // Past the limit the readings kept are not all: then every value seen stays.
  const lasting = overflow ? null : valuesOf({ joined: branches.map((b) => b.assumed) });
  for (const [event, seen] of candidatesSeen) {
    const kept = lasting ? [...seen.values].filter((v) => lasting.get(event)?.has(v)) : [];
    const candidates = kept.length > 0 ? kept : [...seen.values];
    if (candidates.length > 1) undetermined.push({ event, kind: seen.kind, field: seen.field, candidates });
    else inferred.set(event, candidates[0]!);
  }
  undetermined.sort((a, b) => a.event - b.event);
  return {
    worlds: branches.map((b) => ({ state: b.state, assumed: assumptionMap(b.assumed), weight: b.weight, values: () => valuesOf(b.assumed) })),
    undetermined,
    inferred,
    overflow,
  };
}

/** Balls of which at least one must already move for the event to happen (0: no condition beyond the readings'). */
function movingNeeded(event: Exclude<ShotEvent, { kind: 'foul' }>, balls: readonly BallId[]): number {
  if (isMaybe(event)) return 0; // it may not have happened: it demands nothing
  if (event.kind === 'ball') {
    const [a, b] = event.balls;
    return a !== null && b !== null ? bitOf(balls, a as BallId) | bitOf(balls, b as BallId) : 0;
  }
  const known = event.kind === 'skittle' ? event.by : event.ball;
  return known === null ? 0 : bitOf(balls, known as BallId);
}

/**
 * How likely a maybe event is to have happened, by kind, for ranking a prompt's options only (it
 * never decides). The camera states them (the engine's only source of maybe events); on the
 * 3,200 shots of held-out 21229 (docs/vision.md) its maybe contacts and cushions had happened
 * 40–66 % of the time, its maybe skittle falls 9 % (21 of 227: a skittle not seen standing at
 * the shot's end, or within reach of a ball that passed it, mostly still stands).
 */
const MAYBE_HAPPENED: Readonly<Record<Exclude<ShotEvent, { kind: 'foul' }>['kind'], number>> = { ball: 0.5, cushion: 0.5, skittle: 0.1, pocket: 0.5, 'off-table': 0.5 };

/** The `maybe` extension: an event that may not have happened (docs/contract.md). */
const isMaybe = (event: ShotEvent): boolean => 'maybe' in event && event.maybe === true;

/** What a maybe event's "did not happen" reading is called in a prompt's facts. */
export const DID_NOT_HAPPEN = 'none';

function isKnown(event: ShotEvent): boolean {
  if (isMaybe(event)) return false;
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

/**
 * Readings in one state are one reading from here on: their weights add. The physics marks are
 * part of the state, but the energy bounds are not: the merged reading keeps the larger bound
 * of each ball, which can only prune less.
 */
function merge<S>(branches: Branch<S>[], scanner: Scanner<S>): Branch<S>[] {
  if (branches.length < 2) return branches;
  const byKey = new Map<string, Branch<S>>();
  const joins = new Map<Branch<S>, Joined>();
  for (const b of branches) {
    const key = `${b.moving}|${b.met}@${b.metT}|${b.rails.map((m) => (m ? `${m.rail}${m.t}${m.alone ? '' : '*'}` : '')).join(',')}|${scanner.key(b.state)}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, b);
      continue;
    }
    seen.weight += b.weight;
    if (b.energy.some((u, k) => u > seen.energy[k]!)) seen.energy = seen.energy.map((u, k) => Math.max(u, b.energy[k]!));
    // The merged reading keeps both histories, so a prompt can say which values lead to it.
    if (b.assumed === seen.assumed) continue;
    let join = joins.get(seen);
    if (!join) {
      joins.set(seen, (join = { joined: [seen.assumed] }));
      seen.assumed = join;
    }
    join.joined.push(b.assumed);
  }
  return [...byKey.values()];
}

/** Does this reading of the event respect the physical bounds (bounds.ts), given the branch so far? */
function possible<S>(branch: Branch<S>, e: ResolvedEvent, t: number | undefined, amplitude: number | undefined, balls: readonly BallId[], bounds: PhysicalBounds, skittlesStand: boolean): boolean {
  const [lo] = speedRange(amplitude);
  if (e.kind === 'ball') {
    const [a, b] = [balls.indexOf(e.balls[0]), balls.indexOf(e.balls[1])];
    // Two balls meet at a relative normal speed of at most the sum of their speeds (IMPULSE_SHARE).
    if (branch.energy[a]! + branch.energy[b]! < lo) return false;
    const again = branch.met === (bitOf(balls, e.balls[0]) | bitOf(balls, e.balls[1]));
    return !(bounds.separateAfterContact && again && t !== undefined && branch.metT >= 0 && lo > maxRecontactSpeed(t - branch.metT, bounds.ballDiameter));
  }
  if (e.kind !== 'cushion') return true;
  const who = balls.indexOf(e.ball);
  // A ball reaches a rail at a normal speed of at most its own speed (IMPULSE_SHARE).
  if (branch.energy[who]! < lo) return false;
  const mark = branch.rails[who];
  if (t === undefined || !mark) return true;
  if (OPPOSITE[mark.rail] === e.rail) return t - mark.t >= crossingMs(mark.rail, branch.energy[who]!, bounds);
  // The same rail again, nothing touched in between: only the cloth can have turned it back —
  // on a skittle table only if it was too soon to have bounced off a standing skittle unreported.
  if (mark.rail !== e.rail || !mark.alone || lo <= maxRailReturnSpeed(t - mark.t)) return true;
  return !(bounds.separateAfterContact || (skittlesStand && t - mark.t < skittleRoundTripMs(e.rail, bounds)));
}

/**
 * A ball that touched a rail reaches the opposite one only after crossing the table: at least
 * (span − one ball diameter) / its highest possible speed later — MAX_BALL_SPEED for any ball
 * (0.23 s lengthwise, 0.11 s across), and far longer for an object ball set moving by a soft
 * contact (IMPULSE_SHARE). Adjacent rails meet in a corner, so they give no bound, and a ball
 * may return to the same rail quickly (a shallow angle with spin).
 */
export function crossingMs(rail: Rail, speedBound: number, bounds: PhysicalBounds): number {
  const span = rail === 'head' || rail === 'foot' ? bounds.table.length : bounds.table.width;
  return ((span - bounds.ballDiameter) / Math.min(MAX_BALL_SPEED, speedBound)) * 1000;
}

/** The physics marks after the event: who met last, each ball's recent rail (stale marks are dropped, so readings merge), the energy bounds. */
function physicsAfter<S>(
  branch: Branch<S>,
  e: ResolvedEvent,
  t: number | undefined,
  amplitude: number | undefined,
  balls: readonly BallId[],
  bounds: PhysicalBounds,
): { met: number; metT: number; rails: (RailMark | null)[]; energy: readonly number[] } {
  const rails = branch.rails.map((m, k) => (m && t !== undefined && t - m.t < crossingMs('head', branch.energy[k]!, bounds) ? m : null));
  if (e.kind === 'ball') {
    const [a, b] = [balls.indexOf(e.balls[0]), balls.indexOf(e.balls[1])];
    const gain = IMPULSE_SHARE * speedRange(amplitude)[1];
    const energy = branch.energy.map((u, k) => (k === a || k === b ? u + gain : u));
    for (const k of [a, b]) if (rails[k]) rails[k] = { ...rails[k]!, alone: false };
    return { met: bitOf(balls, e.balls[0]) | bitOf(balls, e.balls[1]), metT: t ?? -1, rails, energy };
  }
  const who = e.kind === 'skittle' ? e.by : e.ball;
  const apart = (branch.met & bitOf(balls, who)) !== 0;
  const k = balls.indexOf(who);
  if (e.kind === 'cushion' && t !== undefined) rails[k] = { rail: e.rail, t, alone: true };
  else if (rails[k]) rails[k] = { ...rails[k]!, alone: false }; // a skittle, a pocket: something else touched
  return { met: apart ? 0 : branch.met, metT: apart ? -1 : branch.metT, rails, energy: branch.energy };
}

interface Reading {
  /** null: the reading in which a maybe event did not happen. */
  event: ResolvedEvent | null;
  /** Balls set moving by this event. */
  sets: number;
  unknown: boolean;
  field: UndeterminedFact['field'];
  label: string;
  alternatives: string[];
}

/** The readings of one event given the balls moving (bits): what the likelihood model is fitted over. */
export function candidateReadings(event: Exclude<ShotEvent, { kind: 'foul' }>, index: number, moving: number, balls: readonly BallId[]): ResolvedEvent[] {
  return readings(event, index, moving, balls).flatMap((r) => (r.event ? [r.event] : []));
}

function readings(event: Exclude<ShotEvent, { kind: 'foul' }>, index: number, moving: number, balls: readonly BallId[]): Reading[] {
  const read = withinCandidates(event, allReadings(event, index, moving, balls));
  if (!isMaybe(event)) return read;
  // A maybe event: each reading is an assumption (named in the prompt's facts), and so is its
  // not having happened. With no ball able to make it (none moving), only the latter is left.
  const field: UndeterminedFact['field'] = event.kind === 'ball' ? 'balls' : event.kind === 'skittle' ? 'by' : 'ball';
  // It can only have happened if a ball in it was already moving (RULES §10's stated rule).
  const named = read.filter((r) => (moving & movedBy(r.event!, balls)) !== 0).map((r) => ({ ...r, unknown: true, label: r.label || labelOf(r.event!) }));
  const labels = [...named.map((r) => r.label), DID_NOT_HAPPEN];
  return [...named, { event: null, sets: 0, unknown: true, field, label: DID_NOT_HAPPEN, alternatives: labels }].map((r) => ({ ...r, alternatives: labels }));
}

/** The balls (bits) of which one must move for the event to happen. */
function movedBy(e: ResolvedEvent, balls: readonly BallId[]): number {
  if (e.kind === 'ball') return bitOf(balls, e.balls[0]) | bitOf(balls, e.balls[1]);
  return bitOf(balls, e.kind === 'skittle' ? e.by : e.ball);
}

function labelOf(e: ResolvedEvent): string {
  if (e.kind === 'ball') return `${e.balls[0]}+${e.balls[1]}`;
  return e.kind === 'skittle' ? e.by : e.ball;
}

/**
 * An unknown id the event says what it may be (`candidates`, the camera's: docs/contract.md)
 * is read only as one of those. Should none of them be possible here (the moving balls), the
 * two sources disagree and the engine keeps its own readings: it asks among all of them.
 */
function withinCandidates(event: Exclude<ShotEvent, { kind: 'foul' }>, all: Reading[]): Reading[] {
  const candidates = 'candidates' in event ? event.candidates : undefined;
  if (!candidates || !all.some((r) => r.unknown)) return all;
  const allowed = new Set(candidates.map((c) => (typeof c === 'string' ? c : [...c].sort().join('+'))));
  const key = (r: Reading) => (r.field === 'balls' ? r.label.split('+').sort().join('+') : r.label);
  const kept = all.filter((r) => allowed.has(key(r)));
  if (kept.length === 0) return all;
  const labels = kept.map((r) => r.label);
  return kept.map((r) => ({ ...r, alternatives: labels }));
}

function allReadings(event: Exclude<ShotEvent, { kind: 'foul' }>, index: number, moving: number, balls: readonly BallId[]): Reading[] {
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
