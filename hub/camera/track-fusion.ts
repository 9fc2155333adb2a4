import type { Shot, ShotEvent } from '../rules/events.ts';
import type { PathSample, ShotPaths } from '../vision/tracker.ts';
import { frameInterval } from '../vision/contacts.ts';
import { outrunGap } from '../vision/doubts.ts';
import { IMPULSE_SHARE, speedRange } from '../rules/bounds.ts';
import { BallPath, MAX_SPEED, REST_MS, dist, leadingCount, lowerBetween, lowerTo, restingPlace, segmentDistance, sureSighting, within, type Disc, type Reach, type SightingError, type Turn, type Vec } from './ball-path.ts';
import { inBurst, fuseContacts, unknownIds, withCameraFacts, type FusionOptions, type FusionReport } from './fusion.ts';
import { UNSENSED_GAIN, narrowDoubt, quietBetween } from './identity-doubt.ts';

/**
 * Track-based fusion (issue 16). The sensors give the exact time and kind of every contact
 * (the rail, the skittle); the camera's *paths* say where each ball was at that moment.
 * For each sensor event the question is which balls could have made it, and the answer is
 * built to err one way only: a ball is ruled out only when its clear sightings around that
 * time put it surely out of reach, allowing for
 * - the clock: the sensor time maps to the camera clock within ±`toleranceMs`;
 * - the frame interval: between two clear sightings a and b (times ta ≤ τ ≤ tb) the ball
 *   is within v·(τ − ta) of a and within v·(tb − τ) of b (triangle inequality), where v
 *   bounds its speed: 1.5 × the fastest of that interval's chord and its two neighbours'
 *   (a ball slows between contacts, and a contact's new speed shows in the next interval),
 *   or the largest ball speed at all when a neighbour is a longer hidden stretch;
 * - position noise (`noiseMm`) on every sighting; a ball's place at rest, seen clearly or
 *   edge-only (ball-path.ts, sureSighting), `restNoiseMm`;
 * - the cue's stroke, which no sensor hears: a ball seen still just before the first contact
 *   may have been struck just after, at any speed (strokeFrom).
 * A sighting with something over the ball's edge (motion blur past the ring the detector
 * checks, a cue or a sleeve beside it) counts too, with its own allowance (`partialNoiseMm`,
 * `partialJitterMm`). Whatever covers part of a ball, the centroid of the part seen lies
 * within the ball's outline: the allowance is the radius plus 4 mm. Measured on rendered
 * shots, such a centre is off by 1.1–1.4 mm at the median, 7–10 mm at p99.9 and 14 mm at
 * most (a clear one: 14 mm at most too); a step to or from one is allowed 16 mm.
 * A ball not seen around the time (hidden, in doubt, off the path's ends) cannot be
 * ruled out, unless it lay still in one place on both sides of the gap. The sensor's amplitude
 * is not used to rule out slow balls: a ball frozen against a rail, struck into it and struck
 * back within one frame, hits hard yet shows no speed between frames. An event takes an id
 * only when exactly one ball (or pair) remains; a click whose remaining pairs all share one
 * ball gives `[ball, null]` (the engine reads that as "this ball was in it", RULES §10).
 *
 * The ids are merged with the contact-based fusion (fusion.ts): either may name a ball the
 * other left `null`; where both name and disagree, the fact is `null`. Never a wrong fact to
 * make a prompt disappear. Pure: no clock, no I/O.
 */
export interface TrackFusionOptions extends FusionOptions {
  /** Add to a path sample's `t` to get the sensor shot's `t` (default `offsetMs`; the contact offset may include a reporting delay that frame stamps do not have). */
  pathOffsetMs?: number;
  /** Largest |true time on the camera clock − (sensor t − path offset)|, ms: clock error, exposure, frame stamp jitter. */
  pathToleranceMs: number;
  table: { length: number; width: number };
  /** Skittle spots (id as the sensors name them), base radius in mm. */
  skittles?: readonly { id: string; at: readonly [number, number]; radius: number }[];
  /** Error of a clear sighting's centre, mm (default 10). */
  noiseMm?: number;
  /**
   * Error of a clear sighting of a ball at rest (no motion blur), mm (default 8, at most
   * `noiseMm`). Measured on the held-out renders 21221–21224 (every ball's last four clear
   * sightings at rest against the physics' resting place, 141,544 sightings of carom balls and
   * skittle games' balls): median 0.66 mm, p99.9 4.0 mm, at most 5.55 mm.
   */
  restNoiseMm?: number;
  /** Error of a partial sighting's centre (something over the ball's edge), mm (default: the ball's radius + 4). */
  partialNoiseMm?: number;
  /** Error of the step to or from a partial sighting, mm (default 16). */
  partialJitterMm?: number;
  /** Error of the step between two clear sightings of one ball (the centre's jitter; a bias cancels), mm (default 4). */
  jitterMm?: number;
  /** Extra reach of a contact (cushion give, ball squash), mm (default 6). */
  reachMm?: number;
  /** How long before the sensed fall a ball may have touched the skittle, ms (default 150). */
  skittleLeadMs?: number;
  /** Two skittles this close (mm, spot to spot) may fell each other (default 160). */
  skittleChainMm?: number;
  /** Hidden stretches up to this many frame intervals are bridged by the neighbours' speeds (default 3). */
  maxGapFrames?: number;
  /**
   * Largest angle, degrees, between the line of centres at a contact and the way the struck
   * ball leaves it from rest (throw: ball-to-ball friction; about 6° at most on real balls,
   * none in the simulator) (default 8).
   */
  throwDeg?: number;
  /** Use the line of centres of a ball struck from rest (default true; false: distances only). */
  lineOfCentres?: boolean;
  /** A ball at rest is where it lay until the first click that may be its own (default true; false: its sightings only). */
  restUntilStruck?: boolean;
  /** Name the balls the paths show set moving (the match-log extension `moved`; default true). */
  movedBalls?: boolean;
  /** Told, for each sensor contact, which balls (or pairs, `x+y`) could not be ruled out ('(chain)': not known). */
  onCandidates?: (index: number, candidates: string[]) => void;
  /**
   * Balls that surely left play during the shot (pocketed, off the table), with when, on the
   * sensor clock: the camera's sure facts (fuseWithTracks passes them). Added to those the
   * sensor shot itself states.
   */
  leftPlay?: ReadonlyMap<string, number>;
  /**
   * How much reading of the paths a shot may take (default 30,000): its contacts times the
   * clicks counted over all its turns (each click with those within a frame after it), which the
   * work grows with. Past it (a frozen cluster's burst of clicks, a board with no refractory
   * time sending hundreds), every id is left unknown and no candidate is told: the contacts' own
   * fusion stands and the engine asks, instead of the hub's one thread reading paths for
   * seconds (400 clicks in one burst took 20 s; 400 spread 9 ms apart 0.6 s, 100 of them 0.1 s).
   * The 4,800 recorded shots of held-out 21229 and 21230 count at most 2,100 (20 contacts, 105
   * clicks).
   */
  readingBudget?: number;
}

/** See TrackFusionOptions.readingBudget. */
const READING_BUDGET = 30_000;
/** The error of the time between two sensor events (one clock, 0.1 ms stamps; the bridge's jitter), ms. */
const SENSOR_CLOCK_MS = 1;
/**
 * A ball gone from play (pocketed, off the table) can make no contact after this long past
 * the time stated for it, ms: the stated time is the camera's estimate of the drop (or a
 * pocket switch's), and a ball may rattle in the jaws a moment before it falls.
 */
const LEFT_PLAY_MARGIN_MS = 500;

/** A ball that left from rest at a click, as readJointly weighs it (track fusion). */
interface Departure {
  ball: string;
  /** Other clicks that may have been its own. */
  others: readonly number[];
  /** Balls surely off its line's arc: not its striker, if this click alone was its own. */
  offPartners: ReadonlySet<string>;
  /** It left faster than an unsensed contact can send it, and no ball lay frozen to it on its line: some click was its own. */
  mustBeStruck: boolean;
}

/**
 * A pair of one click that cannot have met if `ball` lay where it had until then: it did, in a
 * reading that puts it in none of `clicks` (the earlier clicks that may have been its own).
 */
interface UnlessMoved {
  pair: readonly [string, string];
  ball: string;
  clicks: readonly number[];
}

/** How much farther apart than their errors a ball's resting places before and after the shot must be for it to have moved, mm. */
const MOVED_MARGIN_MM = 14;

/** The least a ball struck from rest must be seen to have gone for the way it left by, mm. */
const LEFT_REST_MIN_MM = 40;

/** Readings of one burst tried at most (a pair per click): beyond, its clicks are read one by one. */
const MAX_BURST_READINGS = 4096;

/** Where the striker of a ball that left from rest was at the contact (track fusion's leftFromRest). */
interface LineOfCentres {
  /** From a point to the arc the striker's centre lay on. */
  distance: (p: Vec) => number;
  /** The resting place's error, mm. */
  error: number;
  /** Other clicks sensed meanwhile that may have been the ball's (indices). */
  others: number[];
  /** The slowest it can have left at, mm/ms: its mean speed from its last sighting "at rest" to the one well away. */
  leftAtLeast: number;
}


/** The sighting errors the options give (their defaults here only), for balls of radius R. */
function sightingError(options: TrackFusionOptions, R: number): SightingError {
  const noise = options.noiseMm ?? 10;
  return { noise, rest: options.restNoiseMm ?? Math.min(noise, 8), jitter: options.jitterMm ?? 4, partialNoise: options.partialNoiseMm ?? R + 4, partialJitter: options.partialJitterMm ?? 16 };
}

type Contact = Extract<ShotEvent, { kind: 'ball' | 'cushion' | 'skittle' }>;

/**
 * The turns of a shot (see Turn): each click with the contacts that follow it within a frame
 * interval (and the tolerance both sides), on the camera clock (sensor t − offset). Held-out
 * seed 18181, three-cushion 30 fps s10 #5: a red at rest 44 mm off the right rail, struck hard,
 * struck the rail and was struck back by the striker, all in 25 ms, and was seen next almost
 * where it had lain — so it was ruled out of the rail, and the striker was named for it.
 */
function turnsOf(events: readonly ShotEvent[], offset: number, frameMs: number, tol: number): Turn[] {
  const timed = events.flatMap((e, index) => (isContact(e) && e.t !== undefined ? [{ ...e, t: e.t, index }] : []));
  const out: Turn[] = [];
  for (const [k, e] of timed.entries()) {
    if (e.kind !== 'ball') continue;
    const within = timed.slice(k + 1).filter((o) => o.t - e.t <= frameMs + 2 * tol);
    if (within.length === 0) continue;
    const clicks = [e, ...within].flatMap((o) => {
      if (o.kind !== 'ball') return [];
      const extra = (IMPULSE_SHARE * speedRange(o.amplitude)[1]) / 1000;
      return [{ t: o.t - offset, extra: Number.isFinite(extra) ? extra : MAX_SPEED, index: o.index }];
    });
    out.push({ from: e.t - offset - tol, to: within.at(-1)!.t - offset + tol, extra: clicks.reduce((sum, c) => sum + c.extra, 0), clicks });
  }
  return out;
}

/** The sure pocket and off-table facts of `events` (named ball, not `maybe`): ball → earliest time + `offset`, added to `known`. */
function leftPlayOf(events: readonly ShotEvent[], offset: number, known?: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(known);
  for (const e of events) {
    if ((e.kind === 'pocket' || e.kind === 'off-table') && e.ball !== null && e.t !== undefined && !e.maybe) out.set(e.ball, Math.min(e.t + offset, out.get(e.ball) ?? Infinity));
  }
  return out;
}

/** What a turn's first clicks can have given each ball, from when, and those clicks (kept once made). */
interface TurnGains {
  gained: Map<string, number>;
  first: Map<string, number>;
  clicks?: Turn['clicks'];
}

/**
 * The one ball seen moving up to `before` (camera clock), by the rule trackIds' `struck` states;
 * null when none, or not one alone — nor a ball in an identity doubt begun by then (the whites'
 * sightings exchanged, either would seem to jump).
 */
function onlyMovingUpTo(shotPaths: ShotPaths, before: number, frameMs: number, error: SightingError): string | null {
  const one = onlyMoving(shotPaths.paths, before, frameMs, error);
  const doubt = shotPaths.doubt;
  return one !== null && doubt !== null && doubt.since <= before && doubt.balls.includes(one) ? null : one;
}

function onlyMoving(paths: ShotPaths['paths'], before: number, frameMs: number, error: SightingError): string | null {
  const balls = Object.keys(paths);
  const err = (x: PathSample) => (sureSighting(x) ? error.noise : error.partialNoise);
  const sightings = balls.map((b) => paths[b]!.filter((x): x is PathSample & { at: [number, number] } => x.at !== null && x.t <= before));
  // Every ball seen in the last three frames before it (a ball out of sight may have been moved by a hand).
  if (sightings.some((seen) => !seen.some((x) => x.t >= before - 3 * frameMs))) return null;
  const movedBy = (seen: readonly (PathSample & { at: [number, number] })[]) => seen.some((x) => dist(x.at, seen[0]!.at) > err(x) + err(seen[0]!));
  const moved = balls.filter((_, k) => movedBy(sightings[k]!.filter(sureSighting)));
  const mayHaveMoved = balls.filter((_, k) => movedBy(sightings[k]!));
  return moved.length === 1 && mayHaveMoved.every((b) => b === moved[0]) ? moved[0]! : null;
}

/** Ids for each sensor event (same index) from the camera's paths alone: a contact's ids, or null where not sure. */
export function trackIds(sensor: Shot, recorded: ShotPaths, options: TrackFusionOptions): ShotEvent[] {
  const outrun = withoutOutrunParts(recorded);
  const give = options.reachMm ?? 6;
  const lead = options.skittleLeadMs ?? 150;
  const chain = options.skittleChainMm ?? 160;
  const R = outrun.ballRadius;
  const frameMs = frameInterval(outrun.paths);
  const tol = options.pathToleranceMs;
  const error = sightingError(options, R);
  // The same-coloured balls' identity doubt begun as late as the paths allow (identity-doubt.ts),
  // knowing which ball the cue struck if one alone was seen moving before the first contact.
  const offset = options.pathOffsetMs ?? options.offsetMs;
  const sensedFirst = sensor.events.find((e) => e.t !== undefined)?.t;
  const cueBall = sensedFirst === undefined ? null : onlyMovingUpTo(outrun, sensedFirst - offset - tol - frameMs / 2, frameMs, error);
  const shotPaths = narrowDoubt(outrun, sensor, { offsetMs: offset, toleranceMs: tol, error, cueBall, ...(options.restUntilStruck === false ? { restUntilStruck: false } : {}) }, frameMs);
  const balls = Object.keys(shotPaths.paths);
  const clicks = sensor.events.flatMap((e) => (e.kind === 'ball' && e.t !== undefined ? [e.t - offset] : []));
  // A ball in an identity doubt: from the doubt on, a stretch out of sight may join its sightings to the other's.
  const swappable = (b: string) => (shotPaths.doubt?.balls.includes(b) ? shotPaths.doubt.since : undefined);
  const pathOf = (b: string, turns: readonly Turn[] = []) => new BallPath(shotPaths.paths[b]!, frameMs, error, options.maxGapFrames ?? 3, clicks, tol, turns, swappable(b));
  const plain = new Map(balls.map((b) => [b, pathOf(b)]));
  /**
   * The balls that may have been in one of a turn's clicks: within touching distance of another
   * ball then, judged from where each was seen before (before its first impulse, a ball's speed
   * is what its sightings showed). Only those may have turned back unseen.
   */
  const met = new Map<number, Map<string, Set<string>>>();
  const mayMeet = (tc: number): Map<string, Set<string>> => {
    // Clicks of one burst often share a time to the 0.1 ms: asked once per time.
    const known = met.get(tc);
    if (known) return known;
    const out = new Map(balls.map((b) => [b, new Set<string>()]));
    const step = 0.5;
    for (let i = 0; i < balls.length; i++) {
      for (let j = i + 1; j < balls.length; j++) {
        const [x, y] = [plain.get(balls[i]!)!, plain.get(balls[j]!)!];
        const slack = (x.speedOver(tc - tol, tc + tol) + y.speedOver(tc - tol, tc + tol)) * (step / 2);
        for (let tau = tc - tol; tau <= tc + tol; tau += step) {
          const rx = x.fromBefore(tau);
          const ry = y.fromBefore(tau);
          if (!rx || !ry || lowerBetween(rx, ry) - slack <= 2 * R + give) {
            out.get(balls[i]!)!.add(balls[j]!);
            out.get(balls[j]!)!.add(balls[i]!);
            break;
          }
        }
      }
    }
    met.set(tc, out);
    return out;
  };
  const shotTurns = turnsOf(sensor.events, options.pathOffsetMs ?? options.offsetMs, frameMs, tol);
  const contacts = sensor.events.filter(isContact).length;
  if (contacts * shotTurns.reduce((n, turn) => n + turn.clicks.length, 0) > (options.readingBudget ?? READING_BUDGET)) return sensor.events.map(unknownIds);
  const turns = shotTurns.map((turn) => ({ turn, meets: turn.clicks.map((c) => mayMeet(c.t)), prefixes: null as TurnGains[] | null }));
  /**
   * Per ball, its part of each turn, counting only the clicks sensed before the event being read
   * (at a click, a ball is where that click's impulse found it). A click can add to a ball's
   * speed no more than the impulse its amplitude allows, nor more than the partner brought: two
   * balls' energy together does not grow, so U² after ≤ U² + U_partner² (U: the speed bound;
   * the partner's as it came in).
   * A ball at rest struck by a fast one gains; the striker, or one far from every other, does not.
   */
  const ownTurns = (b: string, before: number): Turn[] =>
    turns.flatMap((entry): Turn[] => {
      // A turn's clicks come in event order, so those sensed before the event are a prefix of
      // them: what each prefix gave each ball is worked out once, in one pass over the turn
      // (per ball and event it was quadratic in the clicks of a turn: a cluster's burst of 400
      // clicks took 20 s).
      const counted = leadingCount(entry.turn.clicks, (c) => c.index < before);
      if (counted === 0) return [];
      entry.prefixes ??= prefixGains(entry.turn, entry.meets);
      const known = entry.prefixes[counted - 1]!;
      const extra = known.gained.get(b);
      return extra ? [{ from: known.first.get(b)! - tol, to: entry.turn.to, extra, clicks: (known.clicks ??= entry.turn.clicks.slice(0, counted)) }] : [];
    }).concat(strokeOf(b));
  /** What the first k + 1 clicks of a turn can have given each ball (ownTurns), and from when, for every k. */
  const prefixGains = (turn: Turn, meets: readonly Map<string, Set<string>>[]): TurnGains[] => {
    const gained = new Map<string, number>();
    const first = new Map<string, number>();
    return turn.clicks.map((c, k) => {
      // A partner's speed coming into the click: its bound a frame before the click's window, and what earlier clicks of the turn gave it.
      const comingIn = c.t - tol - frameMs;
      // Not seen then (the cue ball under the arm, say): it may have come in at any speed. Nor a
      // ball the cue may have struck since (strokeFrom; physics shots, a corner cluster struck
      // at 5 m/s within a frame: seen at rest a frame before, the white came in at no speed, so
      // the red it sent into the head rail and back within the frame gained nothing and was
      // ruled out of that rail).
      const stroke = (x: string) => comingIn <= firstSensed! + tol && strokeFrom(x) !== undefined;
      const speed = (x: string) => (stroke(x) || plain.get(x)!.at(comingIn) === null ? MAX_SPEED : plain.get(x)!.speedOver(comingIn, comingIn)) + (gained.get(x) ?? 0);
      const gains = balls.map((x) => [x, Math.min(c.extra, Math.max(0, ...[...meets[k]!.get(x)!].map(speed)))] as const);
      for (const [x, g] of gains) {
        if (g <= 0) continue;
        gained.set(x, (gained.get(x) ?? 0) + g);
        if (!first.has(x)) first.set(x, c.t);
      }
      return { gained: new Map(gained), first: new Map(first) };
    });
  };
  /**
   * The cue's stroke is not sensed: unless one ball alone was seen moving before the shot's first
   * sensed contact (the cue ball, its stroke seen), a ball seen still at its last sighting before
   * that contact may be the cue ball, struck just after at any speed, and may have made that
   * contact and more before the next frame (physics shots: a white 28 mm from the head rail struck
   * into it at 2.3 m/s, back 3 mm from where it lay a frame later, was ruled out of that rail).
   * Its stroke: from that sighting to the first contact's window's end (undefined: none).
   */
  const strokes = new Map<string, number | undefined>();
  const strokeFrom = (b: string): number | undefined => {
    if (!strokes.has(b)) strokes.set(b, strokeSighting(b));
    return strokes.get(b);
  };
  const strokeSighting = (b: string): number | undefined => {
    if (firstSensed === undefined || cueSeen !== null) return undefined;
    const seen = shotPaths.paths[b]!.filter((x): x is PathSample & { at: [number, number] } => x.at !== null && x.t <= firstSensed + tol);
    const [prev, last] = [seen.at(-2), seen.at(-1)];
    if (!last) return undefined;
    return !prev || (last.t - prev.t <= 1.5 * frameMs && dist(last.at, prev.at) <= 2 * error.jitter) ? last.t : undefined;
  };
  const strokeOf = (b: string): Turn[] => {
    const from = strokeFrom(b);
    return from === undefined ? [] : [{ from, to: firstSensed! + tol, extra: MAX_SPEED, clicks: [] }];
  };
  /** The shot's first sensed contact, camera clock. */
  const firstSensed = ((t) => (t === undefined ? undefined : t - (options.pathOffsetMs ?? options.offsetMs)))(sensor.events.find((e) => e.t !== undefined)?.t);
  /** The one ball seen moving before the first sensed contact: the cue ball, its stroke seen. */
  const cueSeen = firstSensed === undefined ? null : onlyMovingBefore(firstSensed - tol - frameMs / 2);
  const built = new Map<string, BallPath>();
  /** The balls' paths as read at sensor event `index`. */
  const pathsAt = (index: number) =>
    new Map(balls.map((b) => {
      const own = ownTurns(b, index);
      if (own.length === 0) return [b, plain.get(b)!];
      const key = `${b} ${own.map((t) => `${t.from}:${t.extra}`).join(' ')}`;
      if (!built.has(key)) built.set(key, pathOf(b, own));
      return [b, built.get(key)!];
    }));
  let paths = plain;
  const doubt = shotPaths.doubt;
  const { length, width } = options.table;
  /**
   * RULES §10: a ball out of play touches nothing more. Its sure facts (named ball, not
   * `maybe`), and not a ball whose identity is in doubt (the other of its colour may be the
   * one that went).
   */
  const leftPlay = leftPlayOf(sensor.events, 0, options.leftPlay);
  const inPlay = (ball: string, sensorT: number) => {
    const gone = leftPlay.get(ball);
    return gone === undefined || (doubt !== null && doubt.balls.includes(ball)) || sensorT - options.pathToleranceMs <= gone + LEFT_PLAY_MARGIN_MS;
  };

  /**
   * Is the ball surely farther than `reach` from the target over the whole window (camera
   * clock)? Sampled every `step` ms, minus what the ball (and the other) can move in half a step.
   */
  const ruledOut = (ball: string, t0: number, t1: number, bound: (r: Reach, tau: number) => number | null, reach: number, partner?: string, fixed?: ReadonlyMap<string, Reach>, near?: ReadonlyMap<string, Disc>): boolean => {
    const path = paths.get(ball);
    if (!path) return false;
    const still = fixed?.get(ball);
    const speedOf = (b: string) => (fixed?.has(b) ? 0 : (paths.get(b)?.speedOver(t0, t1) ?? MAX_SPEED));
    const step = 0.5;
    const slack = (speedOf(ball) + (partner ? speedOf(partner) : 0)) * (step / 2);
    for (let tau = t0; ; tau = Math.min(t1, tau + step)) {
      const r = still ?? within(path.at(tau), near?.get(ball));
      if (!r) return false;
      const d = bound(r, tau);
      if (d === null || d - slack <= reach) return false;
      if (tau >= t1) return true;
    }
  };
  /**
   * The ball struck by the cue: the one ball seen to move before the shot's first click (its
   * window, and half a frame for the exposure). Every other ball lay still until a click moved
   * it, so the first click is this ball's. Null when none, or more than one, was seen moving
   * (a hand placing a ball as well), or a ball was out of sight just before: then nothing
   * follows. Moved: two sightings farther apart than both their error bounds, and of sightings
   * that place the ball surely (clear or edge-only): a partial one may not be the ball at all
   * but something of its colour beside it, and a ball seen moving only so is not known to have
   * moved — nor to have stayed (held-out 21221, carom 60 s5 #17: the red lay in a cluster under
   * the player's arm, its partial sightings jumped 160 mm to something red-looking before the
   * stroke, the red was taken for the struck ball, and the first click, the yellow's on the
   * white, was read as the red's: a wrong fact).
   */
  const firstClick = sensor.events.findIndex((e) => e.kind === 'ball' && e.t !== undefined);
  const struck = firstClick < 0 ? null : onlyMovingBefore(sensor.events[firstClick]!.t! - (options.pathOffsetMs ?? options.offsetMs) - tol - frameMs / 2);
  /** The one ball seen moving up to `before` (camera clock), by the rule `struck` states (onlyMovingUpTo). */
  function onlyMovingBefore(before: number): string | null {
    return onlyMovingUpTo(shotPaths, before, frameMs, error);
  }
  /** Same-coloured balls in doubt at the window's end: a ball ruled in is any of them. */
  const inDoubt = (ball: string, t1: number) => doubt !== null && t1 >= doubt.since && doubt.balls.includes(ball);
  /** Until when a ball's sightings are its own: a ball in doubt's, until the doubt begins (then they may be the other's). */
  const ownUntil = (ball: string) => (doubt !== null && doubt.balls.includes(ball) ? doubt.since : Infinity);
  const widen = (candidates: Set<string>, t1: number) => {
    if (doubt && t1 >= doubt.since && doubt.balls.some((b) => candidates.has(b))) for (const b of doubt.balls) candidates.add(b);
    return candidates;
  };
  const single = (candidates: Set<string>, t1: number): string | null => {
    if (candidates.size !== 1) return null;
    const [only] = candidates;
    return inDoubt(only!, t1) ? null : only!;
  };

  const throwRad = ((options.throwDeg ?? 8) * Math.PI) / 180;
  /**
   * Per sensor event, the balls that may have been in it by distances alone (a first pass
   * without the line of centres): another event near a struck ball's start that cannot have
   * been its own does not spoil its way. Undefined: not a contact, or not known.
   */
  const involved = new Map<number, Set<string>>();
  if (options.lineOfCentres !== false) {
    trackIds(sensor, shotPaths, {
      ...options,
      lineOfCentres: false,
      onCandidates: (k, candidates) => {
        if (!candidates.includes('(chain)')) involved.set(k, new Set(candidates.flatMap((c) => c.split('+'))));
      },
    });
  }
  const at = (e: ShotEvent) => (e.t === undefined ? null : e.t - offset);
  /** Nothing sensed (camera clock) in [from, to], within the clock's tolerance; an event not timed may have been anywhere. */
  const quiet = quietBetween(sensor, offset, tol);
  /**
   * Was anything sensed in [from, to] (camera clock) besides event `index` that may have been
   * this ball's — by distances (`involved`), and any event not timed? Then the ball may have
   * met something there, and a straight run from rest is not assured.
   */
  const meanwhile = (ball: string, index: number, from: number, to: number) =>
    sensor.events.flatMap((o, k) => (k !== index && (at(o) === null || (at(o)! >= from && at(o)! <= to)) && (involved.get(k)?.has(ball) ?? true) ? [k] : []));
  const sensedMeanwhile = (ball: string, index: number, from: number, to: number) => meanwhile(ball, index, from, to).length > 0;
  /**
   * A ball that lay at rest until click `index` (window t0–t1, camera clock) and was then seen
   * clearly well away along a straight way, with nothing else sensed meanwhile: where its striker's
   * centre was at the contact — 2R from its resting place, against the way it left, within the
   * angle its sightings and throw allow (`distance`: from a point to that arc; `error`: of the
   * resting place). Physics: a ball at rest takes the impulse along the line of centres (it has
   * no spin to curve it), so it runs straight until it meets something, which the sensors would
   * have sensed — or a skittle's base, which a slow ball bounces off unsensed, so not near one.
   * Other clicks sensed meanwhile that may have been the ball's are `others` (timed clicks only,
   * else null): the line holds in a reading in which the ball was in click `index` and in none
   * of them (readJointly); with none, in every reading.
   */
  const leftFromRest = (ball: string, index: number, t0: number, t1: number): LineOfCentres | null => {
    const samples = shotPaths.paths[ball]!;
    const home = restingPlace(samples, t0 - frameMs / 2, frameMs, error.jitter, false, quiet);
    if (!home) return null;
    // Well away (80 mm or more) within four frames, seen clearly, and every sighting on the way
    // seen too; a slow ball, as far as it got then if that is 40 mm or more (its way's angle is
    // only less sure: see spread).
    const horizon = t1 + Math.max(4 * frameMs, 140);
    // How it left is read from its own sightings: none past the start of a doubt (the physics property found it).
    if (horizon >= ownUntil(ball)) return null;
    const after = samples.filter((x) => x.t >= t1 + frameMs / 2 && x.t <= horizon);
    const seenAway = (k: number) => after[k]!.at !== null && sureSighting(after[k]!) ? dist(after[k]!.at!, home.at) : 0;
    let far = after.findIndex((_, k) => seenAway(k) >= 80);
    if (far < 0) far = after.reduce((best, _, k) => (seenAway(k) >= LEFT_REST_MIN_MM && (best < 0 || seenAway(k) > seenAway(best)) ? k : best), -1);
    if (far < 0 || after.slice(0, far).some((x) => x.at === null)) return null;
    const away = after[far]! as PathSample & { at: [number, number] };
    const L = dist(home.at, away.at);
    // Its mean speed from its last sighting "at rest" to there. Slowing from the moment it was
    // struck, it was no slower before: so it may have been struck before that sighting only by as
    // long as that speed takes over the step a ball "at rest" may show (two jitters, and one more
    // for the step's own error). Held-out 21221, carom 30 s3 #16: the white, struck by the
    // yellow, was 5 mm on a frame later, still "at rest"; the yellow's second click 37 ms after
    // the first seemed to be the only one that could have sent it away.
    const leftAtLeast = (L - error.rest - error.noise) / Math.max(away.t - home.t, 1);
    if (leftAtLeast <= 0) return null;
    const from = home.t - (3 * error.jitter) / leftAtLeast;
    // Nothing else sensed from then to there (a click on it, a rail, a skittle) that may have been this ball's.
    const others = meanwhile(ball, index, from - tol, away.t + tol);
    if (others.some((k) => sensor.events[k]!.kind !== 'ball' || at(sensor.events[k]!) === null)) return null;
    const nearSkittle = (options.skittles ?? []).some((k) => segmentDistance(k.at, home.at, away.at) < R + k.radius + 80);
    if (nearSkittle) return null;
    // Its way's angle: the two sightings' errors over the chord, and a ball that crept at the
    // most "at rest" allows (2 jitters per REST_MS) against the slowest it can have left at.
    const creep = (2 * error.jitter) / REST_MS;
    const leaving = (L - error.rest - error.noise) / Math.max(away.t - t0, 1);
    if (leaving <= 0) return null;
    const spread = throwRad + Math.asin(Math.min(1, (error.rest + error.noise) / L)) + Math.atan2(creep, leaving);
    if (spread >= Math.PI / 2) return null;
    const back: Vec = [(home.at[0] - away.at[0]) / L, (home.at[1] - away.at[1]) / L];
    const centre = home.at;
    const radius = 2 * R;
    const distance = (p: Vec): number => {
      const w: Vec = [p[0] - centre[0], p[1] - centre[1]];
      const m = Math.hypot(w[0], w[1]);
      const angle = m === 0 ? 0 : Math.acos(Math.max(-1, Math.min(1, (w[0] * back[0] + w[1] * back[1]) / m)));
      if (angle <= spread) return Math.abs(m - radius);
      // Beyond the arc's ends: the nearer end (the arc is symmetric about `back`).
      const cross = back[0] * w[1] - back[1] * w[0];
      const a = Math.atan2(back[1], back[0]) + (cross >= 0 ? spread : -spread);
      return dist(p, [centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a)]);
    };
    // The resting place's own error, and how far a creeping ball may have gone since it was last seen.
    return { distance, error: error.rest + creep * Math.max(0, t1 - home.t), others, leftAtLeast };
  };

  /** Per click (index): the pairs the paths left (or the sensors' own ids). */
  const clickPairs = new Map<number, readonly (readonly [string, string])[]>();
  /**
   * Where a ball lay at rest before click `index` (window t0–t1, camera clock), and the earlier
   * clicks that may have been its own (sensor clock; what each can have given it, mm/ms): RULES
   * §10, a ball at rest moves only when struck, so until the first click that may have been its
   * own it is where it lay, whatever the frames after show (a partial sighting under a ball
   * striking it is known only to the ball's radius; held-out seed 17171, carom s1 #3). Not the
   * cue ball (the cue's stroke is unsensed) nor any ball when that one is not known, nor a ball
   * in doubt; null too after a skittle's fall (it may push a resting ball unsensed).
   */
  const layBefore = (ball: string, index: number, t0: number, t1: number): { home: Disc; clicks: { k: number; t: number; gain: number }[] } | null => {
    if (options.restUntilStruck === false || struck === null || ball === struck || inDoubt(ball, t1)) return null;
    const clicks: { k: number; t: number; gain: number }[] = [];
    for (let k = 0; k < index; k++) {
      const o = sensor.events[k]!;
      if (o.kind === 'skittle') return null;
      if (o.kind !== 'ball') continue;
      const earlier = clickPairs.get(k);
      if (!earlier) return null;
      if (!earlier.some((p) => p.includes(ball))) continue;
      if (o.t === undefined || sensor.events[index]!.t === undefined) return null;
      clicks.push({ k, t: o.t, gain: (IMPULSE_SHARE * speedRange(o.amplitude)[1]) / 1000 });
    }
    // Clicks listed after it but sensed no later are not yet read: nothing is known of them.
    const t = sensor.events[index]!.t;
    if (t === undefined || sensor.events.some((o, k) => k > index && o.kind === 'ball' && (o.t === undefined || o.t <= t + SENSOR_CLOCK_MS))) return null;
    // Seen lying still until a frame or two before (a kiss too soft for the sensors moves it unsensed: the frames would show it).
    const offset = options.pathOffsetMs ?? options.offsetMs;
    const [from, to] = clicks.length > 0 ? [clicks[0]!.t - offset - tol, clicks[0]!.t - offset + tol] : [t0, t1];
    const before = from - frameMs / 2;
    const home = restingPlace(shotPaths.paths[ball]!, before, frameMs, error.jitter, true, quiet);
    if (!home || before - home.lastSeen > 2 * frameMs) return null;
    const creep = (2 * error.jitter) / REST_MS;
    return { home: { at: home.at, r: error.rest + creep * Math.max(0, to - home.t) }, clicks };
  };
  /** A ball's place at click `index` if it lay at rest until then (see layBefore). */
  const restingUntilStruck = (ball: string, index: number, t0: number, t1: number): Reach | null => {
    const lay = layBefore(ball, index, t0, t1);
    return lay && lay.clicks.length === 0 ? { a: lay.home.at, ra: lay.home.r, b: lay.home.at, rb: lay.home.r } : null;
  };
  /**
   * How far earlier clicks (sensor clock) can have moved a ball by the sensor time `t`: from each,
   * what it can have given (bounds.ts IMPULSE_SHARE: U grows by at most IMPULSE_SHARE·s at a
   * click, s bounded by its amplitude) for the sensors' time since (one clock, so the camera's
   * tolerance does not enter), and a kiss too soft to be sensed from the first on.
   */
  const movedSince = (clicks: readonly { k: number; t: number; gain: number }[], t: number, counted: (k: number) => boolean = () => true) =>
    clicks.length === 0 ? 0 : clicks.reduce((sum, c) => sum + (counted(c.k) ? c.gain * (t - c.t + SENSOR_CLOCK_MS) : 0), UNSENSED_GAIN * (t - clicks[0]!.t + SENSOR_CLOCK_MS));
  /** No ball moves faster than MAX_SPEED: the most it can have gone since its first click. */
  const capOf = (clicks: readonly { t: number }[], t: number) => (clicks.length === 0 ? 0 : MAX_SPEED * (t - clicks[0]!.t + SENSOR_CLOCK_MS));
  /**
   * A ball that lay at rest until earlier clicks that may have been its own is still near where it
   * lay at click `index` (movedSince); its frames bound it too. Held-out seed 21212, balkline
   * s13 #8: the white met the yellow and the red 3 ms apart, the red half under the white.
   */
  const nearWhereItLay = (ball: string, index: number, t0: number, t1: number): Disc | null => {
    const lay = layBefore(ball, index, t0, t1);
    if (!lay || lay.clicks.length === 0) return null;
    const t = sensor.events[index]!.t!;
    return { at: lay.home.at, r: lay.home.r + Math.min(movedSince(lay.clicks, t), capOf(lay.clicks, t)) };
  };
  /**
   * Were two balls that lay at rest surely apart at click `index`? Each moved no farther from
   * where it lay than the earlier clicks that may have been its own allow, and a click that was
   * one of them only (not a pair of the two) moved one of them at most: so their budgets add up
   * to less than their own sum (21212 balkline s13 #8: the first click was the yellow's or the
   * red's, not both, so at the second one of them still lay where it had).
   */
  const apartWhereTheyLay = (x: string, y: string, index: number, t0: number, t1: number): boolean => {
    const lx = layBefore(x, index, t0, t1);
    const ly = layBefore(y, index, t0, t1);
    if (!lx || !ly || (lx.clicks.length === 0 && ly.clicks.length === 0)) return false;
    const t = sensor.events[index]!.t!;
    const both = (k: number) => clickPairs.get(k)!.some((p) => p.includes(x) && p.includes(y));
    // A click in both lists moved one of them unless they may have met there.
    const shared = new Set(lx.clicks.filter((c) => ly.clicks.some((d) => d.k === c.k) && !both(c.k)).map((c) => c.k));
    const moved = Math.min(movedSince(lx.clicks, t) + movedSince(ly.clicks, t, (k) => !shared.has(k)), capOf(lx.clicks, t) + capOf(ly.clicks, t));
    return dist(lx.home.at, ly.home.at) - lx.home.r - ly.home.r - moved > 2 * R + give;
  };

  /**
   * Was a ball at rest surely left unmoved by click `index` (window t0–t1, camera clock)? RULES
   * §10: a ball struck takes an impulse of (1 + e)/2 of the contact's normal speed, which the
   * click's amplitude bounds from below (bounds.ts speedRange), and from rest it slides straight
   * until something stops it. So if it was seen clearly, a moment later, nearer its resting
   * place than it would have gone, it was not in the click — unless something it may have met
   * meanwhile was sensed, or a skittle it may have bounced off unsensed stands near. A ball
   * frozen against a third one passes the impulse on and stays (Newton's cradle): the caller
   * leaves that case alone.
   */
  const unmovedBy = (ball: string, index: number, t0: number, t1: number): boolean => {
    const [lo] = speedRange((sensor.events[index] as { amplitude?: number }).amplitude);
    if (!(lo > 0) || inDoubt(ball, t1)) return false;
    // At the first click, the cue ball may have lain at rest until the cue struck it (unsensed)
    // a moment before: there it is the striker, slowed by the click, not a ball it sent away
    // (held-out 21215, three-cushion s12 #2: the white a few mm from the yellow, struck into it
    // at full power, crept on at 0.6 mm/ms). So not the struck ball, nor any when that is not known.
    if (index === firstClick && (struck === null || ball === struck)) return false;
    const samples = shotPaths.paths[ball]!;
    const before = t0 - frameMs / 2;
    const home = restingPlace(samples, before, frameMs, error.jitter, true, quiet);
    if (!home || before - home.lastSeen > 2 * frameMs) return false;
    // Slowest it can leave at (mm/ms): restitution of 0.8 at the least; cloth friction μ ≤ 0.3 slows it.
    const leave = (0.9 * lo) / 1000;
    const decel = 0.003;
    const horizon = t1 + Math.max(3 * frameMs, 100);
    const sighting = samples.find((x) => {
      if (x.at === null || !sureSighting(x) || x.t < t1 + frameMs / 2 || x.t > horizon || x.t >= ownUntil(ball)) return false;
      const dt = Math.min(x.t - frameMs / 2 - t1, leave / decel);
      const gone = leave * dt - (decel * dt * dt) / 2;
      return dist(x.at, home.at) < gone - 2 * error.noise;
    });
    if (!sighting) return false;
    const reachBy = leave * (sighting.t - t0) + 2 * error.noise;
    // From its last sighting at rest: an earlier click or rail in the gap before this click may
    // have been its own (held-out seed 21215, five skittles s0 #1: struck into the rail and back
    // into its striker 33 ms later, it was seen next near where it had lain).
    if (sensedMeanwhile(ball, index, home.lastSeen - tol, sighting.t + tol)) return false;
    return !(options.skittles ?? []).some((k) => dist(k.at, home.at) < R + k.radius + reachBy);
  };

  /** `ball` was left unmoved by the click and was surely not touching any ball but `partner` (frozen balls pass the impulse on). */
  const unmovedApart = (ball: string, partner: string, index: number, t0: number, t1: number, resting: ReadonlyMap<string, Reach>, near: ReadonlyMap<string, Disc>): boolean =>
    unmovedBy(ball, index, t0, t1) &&
    balls.every((c) => {
      if (c === ball || c === partner) return true;
      const other = paths.get(c)!;
      return ruledOut(ball, t0, t1, (r, tau) => {
        const s = resting.get(c) ?? within(other.at(tau), near.get(c));
        return s ? lowerBetween(r, s) : null;
      }, 2 * R + give, c, resting, near);
    });

  /** Per skittle event (index): the balls that may have felled it, directly or through a skittle it may have been knocked by (null: not known). */
  const fellers = new Map<number, Set<string> | null>();

  /** Per click read on its own (not in doubt): the balls that left from rest at it, for readJointly. */
  const burst = new Map<number, { departures: Departure[]; unlessMoved: UnlessMoved[]; t1: number }>();
  /**
   * May a ball lying at rest have been frozen to `ball` on its line's arc before click t0 (camera
   * clock)? Struck, it passes the impulse on in the same instant (Newton's cradle), and the two
   * contacts may be sensed as one click. Not a ball seen clearly in the last frames before, either
   * moving or lying off the arc.
   */
  const mayBeFrozenTo = (ball: string, line: LineOfCentres, t0: number) =>
    balls.some((c) => {
      if (c === ball) return false;
      const home = restingPlace(shotPaths.paths[c]!, t0 - frameMs / 2, frameMs, error.jitter, false, quiet);
      if (home) return t0 - home.t > 3 * frameMs || line.distance(home.at) <= give + line.error + error.rest;
      return !shotPaths.paths[c]!.some((x) => x.at !== null && sureSighting(x) && x.t <= t0 && x.t >= t0 - 3 * frameMs);
    });

  const read = sensor.events.map((e, index): ShotEvent => {
    if (!isContact(e) || e.t === undefined) return e;
    paths = pathsAt(index);
    const tc = e.t - (options.pathOffsetMs ?? options.offsetMs);
    if (e.kind === 'cushion') {
      if (e.ball !== null) return e;
      const line = railDistance(e.rail, length, width);
      const t0 = tc - tol;
      const t1 = tc + tol;
      const candidates = widen(new Set(balls.filter((b) => inPlay(b, e.t!) && !ruledOut(b, t0, t1, (r) => lowerTo(r, line), R + give))), t1);
      options.onCandidates?.(index, [...candidates]);
      return { ...e, ball: single(candidates, t1) };
    }
    if (e.kind === 'skittle') {
      if (e.by !== null) return e;
      // A skittle the camera did not see standing on its spot may have stood elsewhere (bounced there): not looked for.
      const onSpot = !shotPaths.standing || shotPaths.standing.includes(e.skittle);
      const spot = onSpot ? options.skittles?.find((s) => s.id === e.skittle) : undefined;
      if (!spot) fellers.set(index, null);
      if (!spot) return e;
      // A skittle that fell before it, close enough to be knocked or pushed into it: the ball that
      // felled that one may have felled this one too (SK5-4: the ball that moved the skittle), and a
      // ball pushing the fallen skittle may be a skittle's length away.
      const knockers = sensor.events.flatMap((o, k) => {
        if (k === index || o.kind !== 'skittle' || o.t === undefined || o.t > e.t! + tol) return [];
        const other = options.skittles?.find((s) => s.id === o.skittle);
        return !other || dist(other.at, spot.at) <= chain ? [k] : [];
      });
      const t0 = tc - tol - (knockers.length > 0 ? 2 * lead : lead);
      const t1 = tc + tol;
      const reach = R + (knockers.length > 0 ? chain : spot.radius) + give;
      let candidates: Set<string> | null = widen(new Set(balls.filter((b) => inPlay(b, e.t!) && !ruledOut(b, t0, t1, (r) => lowerTo(r, (p) => dist(p, spot.at)), reach))), t1);
      for (const k of knockers) {
        const via = k < index ? fellers.get(k) : null;
        candidates = candidates && via ? new Set([...candidates, ...via]) : null;
      }
      fellers.set(index, candidates);
      options.onCandidates?.(index, candidates ? [...candidates] : ['(chain)']);
      return { ...e, by: candidates ? single(candidates, t1) : null };
    }
    // A click: the pairs not ruled out.
    if (e.balls[0] !== null && e.balls[1] !== null) {
      clickPairs.set(index, [[e.balls[0], e.balls[1]]]);
      return e;
    }
    const t0 = tc - tol;
    const t1 = tc + tol;
    const resting = new Map(balls.flatMap((b) => {
      const r = restingUntilStruck(b, index, t0, t1);
      return r ? [[b, r] as const] : [];
    }));
    const near = new Map(balls.flatMap((b) => {
      const d = resting.has(b) ? null : nearWhereItLay(b, index, t0, t1);
      return d ? [[b, d] as const] : [];
    }));
    const pairs: [string, string][] = [];
    for (let i = 0; i < balls.length; i++) {
      for (let j = i + 1; j < balls.length; j++) {
        const x = balls[i]!;
        const y = balls[j]!;
        if (!inPlay(x, e.t) || !inPlay(y, e.t)) continue;
        const other = paths.get(y)!;
        const out = ruledOut(x, t0, t1, (r, tau) => {
          const s = resting.get(y) ?? within(other.at(tau), near.get(y));
          return s ? lowerBetween(r, s) : null;
        }, 2 * R + give, y, resting, near);
        if (!out && !apartWhereTheyLay(x, y, index, t0, t1) && !unmovedApart(x, y, index, t0, t1, resting, near) && !unmovedApart(y, x, index, t0, t1, resting, near)) pairs.push([x, y]);
      }
    }
    // A ball struck from rest leaves along the line of centres: the striker lay on that line.
    // Not the cue ball at the first click: struck by the cue (unsensed) within a frame of it, it
    // may seem to leave from rest there. So at the first click, only a ball other than the one
    // seen moving before it (and none when that one is not known).
    const lines = new Map(balls.map((b) => [b, options.lineOfCentres === false || (index === firstClick && (struck === null || b === struck)) ? null : leftFromRest(b, index, t0, t1)]));
    const offLine = (striker: string, hit: string) => {
      const line = lines.get(hit);
      return !!line && line.others.length === 0 && ruledOut(striker, t0, t1, (r) => lowerTo(r, line.distance), give + line.error);
    };
    for (let k = pairs.length - 1; k >= 0; k--) {
      const [x, y] = pairs[k]!;
      if (offLine(x, y) || offLine(y, x)) pairs.splice(k, 1);
    }
    // The first click is the struck ball's (unless its identity may have been swapped by then).
    if (index === firstClick && struck !== null && !inDoubt(struck, t1)) pairs.splice(0, pairs.length, ...pairs.filter((p) => p.includes(struck)));
    // What the lines say of the clicks together (readJointly, after every click is read). Not
    // once the same-coloured balls are in doubt: their sightings may be each other's.
    if (options.lineOfCentres !== false && !(doubt && t1 >= doubt.since)) {
      const departures = balls.flatMap((b): Departure[] => {
        const line = lines.get(b);
        if (!line) return [];
        const offPartners = new Set(balls.filter((p) => p !== b && ruledOut(p, t0, t1, (r) => lowerTo(r, line.distance), give + line.error)));
        return [{ ball: b, others: line.others, offPartners, mustBeStruck: line.leftAtLeast > UNSENSED_GAIN && !mayBeFrozenTo(b, line, t0) }];
      });
      // A pair that only an earlier click's moving one of the two explains: where that one lay,
      // the other's path never came within touching distance of it.
      const unlessMoved = pairs.flatMap(([x, y]) => ([[x, y], [y, x]] as const).flatMap(([a, b]): UnlessMoved[] => {
        const lay = layBefore(b, index, t0, t1);
        if (!lay || lay.clicks.length === 0) return [];
        const home: Reach = { a: lay.home.at, ra: lay.home.r, b: lay.home.at, rb: lay.home.r };
        const apart = ruledOut(a, t0, t1, (r) => lowerBetween(r, home), 2 * R + give, b, new Map([...resting, [b, home]]), near);
        return apart ? [{ pair: [x, y], ball: b, clicks: lay.clicks.map((c) => c.k) }] : [];
      }));
      burst.set(index, { departures, unlessMoved, t1 });
    }
    // In doubt, a pair with one of the same-coloured balls may be with the other.
    if (doubt && t1 >= doubt.since) {
      for (const [x, y] of [...pairs]) {
        for (const [p, q] of [[x, y], [y, x]] as const) {
          if (!doubt.balls.includes(q) || doubt.balls.includes(p)) continue;
          for (const d of doubt.balls) if (!pairs.some((pr) => pr.includes(p) && pr.includes(d))) pairs.push([p, d]);
        }
      }
    }
    options.onCandidates?.(index, pairs.map((p) => p.join('+')));
    clickPairs.set(index, pairs);
    return namedBy(e, pairs, t1);
  });
  return options.lineOfCentres === false ? read : readJointly(read);

  /** A click's ids from the pairs left: the one pair, or the ball every pair shares. */
  function namedBy(e: Extract<ShotEvent, { kind: 'ball' }>, pairs: readonly (readonly [string, string])[], t1: number): ShotEvent {
    const known = e.balls.find((b) => b !== null) ?? null;
    const fitting = known === null ? pairs : pairs.filter((p) => p.includes(known));
    if (fitting.length === 0) return e;
    if (fitting.length === 1 && !fitting[0]!.some((b) => inDoubt(b, t1) && !fitting[0]!.every((x) => inDoubt(x, t1)))) {
      const [x, y] = fitting[0]!;
      return { ...e, balls: [x, y] };
    }
    // Every remaining pair has this ball: it was in the contact, its partner is not sure.
    const shared = balls.filter((b) => !inDoubt(b, t1) && fitting.every((p) => p.includes(b)));
    return shared.length === 1 ? { ...e, balls: [shared[0]!, null] } : e;
  }

  /**
   * The clicks of a burst read together: where a ball that left from rest may have been sent by
   * either of two clicks a few ms apart (a cue ball meeting two balls lying close), neither click
   * alone can use the way it left. Each click's pairs are what its own reading left; a reading
   * of the burst takes one pair per click, and holds only if every ball that left from rest in
   * it (leftFromRest) fits:
   * - in one of its clicks only: it left along the line of centres, so its partner there lay on
   *   the line's arc (the partners surely off it are `offPartners`);
   * - in none, though it left faster than an unsensed kiss can send it (`mustBeStruck`):
   *   impossible, a ball at rest moves only when struck (RULES §10). This holds for a click
   *   alone too: a ball that left from rest with no other click that may be its own was in it.
   * (Held-out 21224, balkline 30 s4 #1, the yellow meeting the red and the white lying 13 mm
   * apart, 3 ms apart, still asks: they left too slowly for their ways to be told apart.)
   * And a pair that only an earlier click moving one of its balls explains (`unlessMoved`: where
   * that ball lay, the other never came within touching distance) holds only in readings that
   * put the ball in one of those clicks; the clicks it names join the burst while its readings
   * stay at most MAX_BURST_READINGS (held-out 21221, carom 30 s3 #16: the white, struck by the
   * yellow, could have met the red 37 ms later only had the first click moved the red too).
   * A ball in more than one of its clicks may have left by either: nothing is asked of it. A
   * click keeps the pairs some reading that holds gives it; if none holds (the premises fail:
   * a contact the sensors missed), every click keeps its own.
   */
  function readJointly(events: ShotEvent[]): ShotEvent[] {
    const group = new Map<number, number>();
    const root = (k: number): number => (group.get(k) === undefined || group.get(k) === k ? k : root(group.get(k)!));
    for (const [index, click] of burst) {
      if (!group.has(index)) group.set(index, index);
      for (const d of click.departures) for (const k of d.others) group.set(root(k), root(index));
    }
    const membersOf = () => {
      const members = new Map<number, number[]>();
      for (const k of group.keys()) members.set(root(k), [...(members.get(root(k)) ?? []), k]);
      return members;
    };
    // The clicks an unlessMoved names are read with its own, while the readings stay few enough
    // (beyond, it is left out: it only ever drops readings).
    const readings = (clicks: readonly number[]) => clicks.reduce((n, k) => n * (clickPairs.get(k)?.length ?? 1), 1);
    for (const [index, click] of burst) {
      for (const u of click.unlessMoved) {
        for (const k of u.clicks) {
          if (!burst.has(k) || root(k) === root(index)) continue;
          const members = membersOf();
          if (readings([...members.get(root(k))!, ...members.get(root(index))!]) <= MAX_BURST_READINGS) group.set(root(k), root(index));
        }
      }
    }
    const members = membersOf();
    const out = [...events];
    for (const clicks of members.values()) {
      clicks.sort((a, b) => a - b);
      // Every click of it read (a click in doubt leaves it out), each with pairs to choose from.
      const choices = clicks.map((k) => clickPairs.get(k) ?? []);
      if (clicks.some((k) => !burst.has(k) && !isNamed(events[k]!)) || choices.some((c) => c.length === 0)) continue;
      if (choices.reduce((n, c) => n * c.length, 1) > MAX_BURST_READINGS) continue;
      const kept = clicks.map(() => new Set<number>());
      const pick = new Array<number>(clicks.length).fill(0);
      for (;;) {
        const pairOf = new Map(clicks.map((k, j) => [k, choices[j]![pick[j]!]!]));
        if (holds(pairOf, clicks)) pick.forEach((p, j) => kept[j]!.add(p));
        let j = 0;
        while (j < clicks.length && ++pick[j]! === choices[j]!.length) pick[j++] = 0;
        if (j === clicks.length) break;
      }
      if (kept.every((set) => set.size === 0)) continue;
      clicks.forEach((k, j) => {
        if (kept[j]!.size === choices[j]!.length) return;
        const pairs = choices[j]!.filter((_, p) => kept[j]!.has(p));
        options.onCandidates?.(k, pairs.map((p) => p.join('+')));
        out[k] = namedBy(sensor.events[k] as Extract<ShotEvent, { kind: 'ball' }>, pairs, burst.get(k)?.t1 ?? Infinity);
      });
    }
    return out;
  }

  /** Does one reading of a burst (a pair per click) fit every departure from rest in it, and every pair where its balls lay? */
  function holds(pairOf: ReadonlyMap<number, readonly [string, string]>, clicks: readonly number[]): boolean {
    const same = (p: readonly [string, string], q: readonly [string, string]) => p.includes(q[0]) && p.includes(q[1]);
    const lay = clicks.every((index) => (burst.get(index)?.unlessMoved ?? []).every((u) =>
      !same(u.pair, pairOf.get(index)!) || u.clicks.some((k) => !pairOf.has(k) || pairOf.get(k)!.includes(u.ball))));
    return lay && clicks.every((index) => (burst.get(index)?.departures ?? []).every((d) => {
      const here = pairOf.get(index)!;
      const elsewhere = d.others.some((k) => pairOf.get(k)?.includes(d.ball));
      if (here.includes(d.ball)) return elsewhere || !d.offPartners.has(here[0] === d.ball ? here[1] : here[0]);
      return elsewhere || !d.mustBeStruck;
    }));
  }
}

/**
 * A ball's sightings in part (not edge-only) that lead into or out of a gap no speed of its own
 * explains (doubts.ts, outrunGap) were not this ball: something of its colour under the cue or a
 * hand, taken for it while it blurred past. Left out (unseen: nothing is ruled out by them).
 * Held-out 21223, three-cushion 30 s11 #13: the white, struck into the yellow, "seen" in part
 * 700 mm away moving the other way, so the white–yellow click was ruled out with every pair.
 */
function withoutOutrunParts(shotPaths: ShotPaths): ShotPaths {
  const frameMs = frameInterval(shotPaths.paths);
  let changed = false;
  const paths = Object.fromEntries(Object.entries(shotPaths.paths).map(([b, samples]) => {
    const seen = samples.filter((x): x is PathSample & { at: [number, number] } => x.at !== null);
    const drop = new Set<number>();
    for (let k = 1; k + 2 < seen.length; k++) {
      if (!outrunGap(seen[k - 1]!, seen[k]!, seen[k + 1]!, seen[k + 2]!, frameMs)) continue;
      for (let j = k; j >= 0 && !sureSighting(seen[j]!); j--) drop.add(seen[j]!.t);
      for (let j = k + 1; j < seen.length && !sureSighting(seen[j]!); j++) drop.add(seen[j]!.t);
    }
    if (drop.size === 0) return [b, samples];
    changed = true;
    return [b, samples.map((x) => (drop.has(x.t) ? { ...x, at: null } : x))];
  }));
  return changed ? { ...shotPaths, paths } : shotPaths;
}

/**
 * Camera + sensors with the camera's paths: track ids merged with contact fusion's (fusion.ts).
 * `byContacts`: events the camera's contacts alone identified (whether the two readings are of
 * the same shot at all is judged on those: paths at a wrong time mapping say nothing).
 */
export function fuseWithTracks(sensor: Shot, camera: Shot, shotPaths: ShotPaths, options: TrackFusionOptions): FusionReport & { fromTracks: number; byContacts: number } {
  const contacts = fuseContacts(sensor, camera, options);
  const possible = new Map<number, string[]>();
  const onCandidates = (i: number, candidates: string[]) => {
    possible.set(i, candidates);
    options.onCandidates?.(i, candidates);
  };
  // The camera's sure pocket and off-table facts, on the sensor clock.
  const leftPlay = leftPlayOf(camera.events, options.offsetMs, options.leftPlay);
  const tracked = trackIds({ events: sensor.events.map(unknownIds) }, shotPaths, { ...options, onCandidates, leftPlay });
  const burst = inBurst(sensor.events, options.toleranceMs);
  let fromTracks = 0;
  const events = sensor.events.map((e, k) => {
    if (!isContact(e)) return contacts.events[k]!;
    // In a burst the camera's contacts are not to be trusted (see inBurst): the paths alone name the balls.
    const fromContacts = burst.has(k) ? unknownIds(contacts.events[k]!) : contacts.events[k]!;
    const merged = merge(fromContacts as Contact, tracked[k] as Contact, possible.get(k));
    if (idCount(merged) > idCount(contacts.events[k]!)) fromTracks += 1;
    return withCandidates(merged, possible.get(k), Object.keys(shotPaths.paths).length);
  });
  const identified = events.filter((e) => isContact(e) && idCount(e) > 0).length;
  const { shot, unknown } = withCameraFacts(sensor, events, camera, options.offsetMs, options.toleranceMs);
  const moved = options.movedBalls === false ? [] : movedBalls(sensor, shotPaths, options);
  if (moved.length > 0) shot.moved = moved;
  return { shot, identified, unknown, unmatchedCamera: contacts.unmatchedCamera, fromTracks, byContacts: contacts.identified };
}

/**
 * The balls the paths show set moving by the shot (the match-log extension `moved`; the engine
 * then drops readings in which one of them was never struck, RULES §10): at rest in one place
 * before the shot's first sensed contact, at rest at the end, and the two places farther apart
 * than both their errors and MOVED_MARGIN_MM. Not a ball whose identity is in doubt (the other of
 * its colour may be the one that moved), and none when a skittle fell (a falling skittle may push
 * a ball with nothing sensed). A ball that left the table or came back to where it lay is not named.
 */
function movedBalls(sensor: Shot, shotPaths: ShotPaths, options: TrackFusionOptions): string[] {
  const first = sensor.events.find((e) => e.t !== undefined)?.t;
  if (first === undefined || sensor.events.some((e) => e.kind === 'skittle')) return [];
  const frameMs = frameInterval(shotPaths.paths);
  const { jitter, rest } = sightingError(options, shotPaths.ballRadius);
  const before = first - (options.pathOffsetMs ?? options.offsetMs) - options.pathToleranceMs - frameMs / 2;
  return Object.entries(shotPaths.paths).flatMap(([ball, samples]) => {
    if (shotPaths.doubt?.balls.includes(ball) || samples.length === 0) return [];
    const start = restingPlace(samples, before, frameMs, jitter);
    const end = restingPlace(samples, samples.at(-1)!.t, frameMs, jitter);
    return start && end && end.t > before && dist(start.at, end.at) > 2 * rest + MOVED_MARGIN_MM ? [ball] : [];
  });
}

/**
 * An event still missing an id gets what the paths did not rule out as its `candidates`
 * (a match-log extension, docs/contract.md): the engine then reads that id only as one of
 * them. The true ball (pair) is never ruled out (the property test below checks it), so the
 * candidates never leave the truth out; they are given only when they leave something out.
 */
export function withCandidates(e: Contact, possible: readonly string[] | undefined, ballCount: number): Contact {
  if (!possible || possible.includes('(chain)') || possible.length === 0) return e;
  if (e.kind === 'ball') {
    if (!e.balls.includes(null)) return e;
    const known = e.balls.find((b) => b !== null) ?? null;
    const pairs = possible.map((p) => p.split('+') as [string, string]).filter((p) => known === null || p.includes(known));
    const all = known === null ? (ballCount * (ballCount - 1)) / 2 : ballCount - 1;
    return pairs.length > 0 && pairs.length < all ? { ...e, candidates: pairs } : e;
  }
  const stated = e.kind === 'cushion' ? e.ball : e.by;
  if (stated !== null || possible.length >= ballCount) return e;
  return { ...e, candidates: [...possible] };
}

/**
 * Two readings of one sensor event (a: the contacts', b: the paths'): what either states and the
 * other does not contradict. `possible`: what the paths did not rule out (balls, or pairs as
 * `x+y`; '(chain)': not known) — a camera contact naming a ball the paths put surely elsewhere
 * is contradicted too (the camera's contact was another one, or its id is wrong).
 */
export function merge(a: Contact, b: Contact, possible?: readonly string[]): Contact {
  const vetoes = possible !== undefined && !possible.includes('(chain)');
  const allowed = (x: string | null) => x === null || !vetoes || possible!.includes(x);
  if (a.kind === 'cushion' && b.kind === 'cushion') return { ...a, ball: allowed(a.ball) ? one(a.ball, b.ball) : null };
  if (a.kind === 'skittle' && b.kind === 'skittle') return { ...a, by: allowed(a.by ?? null) ? one(a.by ?? null, b.by ?? null) : null };
  if (a.kind === 'ball' && b.kind === 'ball') {
    if (vetoes) {
      const pairs = possible!.map((p) => p.split('+'));
      const [x, y] = a.balls;
      const fits = x !== null && y !== null ? pairs.some((p) => p.includes(x) && p.includes(y)) : [x, y].every((v) => v === null || pairs.some((p) => p.includes(v)));
      if (!fits) return { ...a, balls: [null, null] };
    }
    const x = a.balls.filter((v): v is string => v !== null);
    const y = b.balls.filter((v): v is string => v !== null);
    const [big, small] = x.length >= y.length ? [x, y] : [y, x];
    // The smaller set must lie inside the larger; otherwise one reading is wrong and neither is kept.
    if (!small.every((v) => big.includes(v))) return { ...a, balls: [null, null] };
    return { ...a, balls: [big[0] ?? null, big[1] ?? null] };
  }
  return a;
}

function one(x: string | null, y: string | null): string | null {
  if (x === null) return y;
  if (y === null) return x;
  return x === y ? x : null;
}

function idCount(e: ShotEvent): number {
  if (e.kind === 'ball') return e.balls.filter((b) => b !== null).length;
  if (e.kind === 'cushion') return e.ball === null ? 0 : 1;
  if (e.kind === 'skittle') return e.by === null ? 0 : 1;
  return 0;
}

const isContact = (e: ShotEvent): e is Contact => e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle';

/** A click whose two balls the sensors named. */
const isNamed = (e: ShotEvent) => e.kind === 'ball' && e.balls[0] !== null && e.balls[1] !== null;

/** Distance from a ball centre to a rail's cushion-nose line (table coordinates: head x = 0, left y = 0). */
function railDistance(rail: 'head' | 'foot' | 'left' | 'right', length: number, width: number): (p: Vec) => number {
  if (rail === 'head') return (p) => p[0];
  if (rail === 'foot') return (p) => length - p[0];
  if (rail === 'left') return (p) => p[1];
  return (p) => width - p[1];
}

/** The frame interval (median spacing of the samples). */
