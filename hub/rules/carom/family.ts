import { z } from 'zod';
import type { BallId, FoulKind } from '../ids.ts';
import type { MatchSetup, Positions } from '../events.ts';
import type { Award, Instruction, Judgement, Outcome, ShotContext } from '../outcome.ts';
import { baseOptionShape, MATCH_TABLE, parseWith, resolveBase, type TableSize } from '../options.ts';
import type { MatchOptionsBase } from '../variant.ts';
import { err, ok, type Result } from '../result.ts';
import { zonesOf, type ZoneGeometry } from '../zones.ts';
import { CAROM_BALL_MM } from '../table.ts';
import { caromScanner, type CaromTrace } from './trace.ts';
import { respotCarom } from './respot.ts';

export const CAROM_BALL_IDS = ['white', 'yellow', 'red'] as const satisfies readonly BallId[];

export interface CaromOptions extends MatchOptionsBase {
  table: TableSize;
  /** G-10 Decision: a per-match option; the USBA three-cushion note forbids safeties. */
  safetiesAllowed: boolean;
}

/** State carried from shot to shot by every carom game. */
export interface CaromCarry {
  /** G-10: the player's next inning must open with a genuine scoring attempt. */
  mustAttempt: readonly boolean[];
  /** BK-3 / FG-3: caroms made in this run with both object balls held in `zone`. */
  zone: { id: string; count: number } | null;
}

export const caromOptionShape = {
  ...baseOptionShape,
  safetiesAllowed: z.boolean().optional(),
};

/** The options of a carom game: the shared ones, `safetiesAllowed`, and the game's own `extra` ones. */
export const caromOptionsSchema = <T extends z.ZodRawShape>(extra: T) => z.strictObject({ ...caromOptionShape, ...extra });

export function parseCaromOptions<T extends z.ZodRawShape>(
  setup: MatchSetup,
  schema: ReturnType<typeof caromOptionsSchema<T>>,
): Result<CaromOptions & z.infer<z.ZodObject<T>>> {
  const raw = parseWith(schema, setup);
  if (!raw.ok) return raw;
  // The shared options read on their own, typed (the strict parse above has already refused anything unknown).
  const shared = parseWith(z.object(caromOptionShape), setup);
  if (!shared.ok) return shared;
  const base = resolveBase(setup, shared.value);
  if (!base.ok) return base;
  return ok({
    ...(raw.value as z.infer<z.ZodObject<T>>),
    ...base.value,
    table: shared.value.table ?? MATCH_TABLE,
    safetiesAllowed: shared.value.safetiesAllowed ?? true,
  });
}

export function caromPlayers(setup: MatchSetup): Result<void> {
  return setup.players.length === 2 || setup.players.length === 3 ? ok(undefined) : err('players: carom games take 2 or 3 players (G-2)');
}

export function initialCaromCarry(setup: MatchSetup): CaromCarry {
  return { mustAttempt: setup.players.map(() => false), zone: null };
}

/** G-1, G-2: two players keep their own whites; with three, the incoming player takes the white not used last. */
export function caromCueBall(player: number, previousCue: BallId | null, players: number): BallId {
  if (players === 3) return previousCue === null ? 'white' : previousCue === 'white' ? 'yellow' : 'white';
  return player === 0 ? 'white' : 'yellow';
}

export const otherWhiteOf = (cue: BallId): BallId => (cue === 'white' ? 'yellow' : 'white');

export function caromScannerFor(ctx: ShotContext<CaromOptions, CaromCarry>, cushionCap: number, sequenceCap = 0) {
  const frozen = ctx.shot.frozen;
  return caromScanner({
    cueBall: ctx.cueBall,
    otherWhite: otherWhiteOf(ctx.cueBall),
    cushionCap,
    sequenceCap,
    frozenRail: frozen && 'cushion' in frozen ? frozen.cushion : null,
    frozenToBall: frozen && 'ball' in frozen ? (frozen.ball as BallId) : null,
    objectFrozen: ctx.shot.objectFrozen ?? {},
  });
}

/** The scoring test of one game: did this shot make a point, and by which rule. */
export interface ScoringTest {
  made(trace: CaromTrace): boolean;
  rule: string;
}

export interface CaromGameSpec {
  scoring: ScoringTest;
  /** Rule that ends the run on a miss (G-14, TC-2, …). */
  missRule: string;
  /** Points a foul takes from the offender (OC-2: 1). */
  foulDeduction: number;
  /** OC-2: a shot failing the scoring test costs a point too. */
  missDeduction: (options: CaromOptions) => number;
  /** TC-4: any ball off the table is a foul, not only the cue ball. */
  anyBallOffIsFoul: boolean;
  /** TC-5: a safety off an object ball frozen to a cushion has its own condition. */
  frozenObjectSafety: boolean;
  /** Rule id cited for a break foul (G-5, TC-3). */
  breakRule: string;
  /** Penalty rule cited with fouls (TC-6, OC-2, G-7). */
  penaltyRule: string;
  zones?: (options: CaromOptions) => ZoneGeometry;
}

const REFEREE_FOUL_RULE: Record<FoulKind, string> = {
  touch: 'G-7',
  'double-hit': 'G-7',
  push: 'G-7',
  'no-foot': 'G-7',
  'moving-balls': 'G-7',
  'wrong-ball': 'G-7',
  'side-of-cue': 'G-7',
  'stopped-ball': 'G-7',
  'deflected-cue-ball': 'G-7',
};

/**
 * One shot of any carom game (G-5 … G-14, with the game's own scoring test). Fouls first,
 * then a declared safety, then the point, then the zone limit. Returns more than one
 * outcome only when a position fact the rules need is unknown.
 */
export function judgeCaromShot(
  spec: CaromGameSpec,
  ctx: ShotContext<CaromOptions, CaromCarry>,
  trace: CaromTrace,
): Judgement<CaromCarry> {
  const instructions = respotFor(ctx, trace);
  const referee = ctx.refereeFouls[0];
  if (referee) return foulOutcome(spec, ctx, instructions, referee, [REFEREE_FOUL_RULE[referee]]);
  if (trace.offTable.includes(ctx.cueBall)) return foulOutcome(spec, ctx, instructions, 'cue-ball-off-table', ['G-7', 'G-11']);
  if (spec.anyBallOffIsFoul && trace.offTable.length > 0) return foulOutcome(spec, ctx, instructions, 'ball-off-table', ['TC-4', 'G-11']);
  if (ctx.isBreak && trace.firstObject !== null && trace.firstObject !== 'red') {
    return foulOutcome(spec, ctx, instructions, 'break-wrong-ball', ['G-5', spec.breakRule]);
  }
  if (trace.playAway === 'failed') return foulOutcome(spec, ctx, instructions, 'frozen-ball-play-away', ['G-12']);

  if (ctx.shot.declare === 'safety') {
    if (!ctx.options.safetiesAllowed) return foulOutcome(spec, ctx, instructions, 'safety-not-allowed', ['G-10']);
    if (ctx.firstShotOfInning && ctx.carry.mustAttempt[ctx.shooter]) return foulOutcome(spec, ctx, instructions, 'second-safety', ['G-10']);
    const frozenCase = spec.frozenObjectSafety && trace.frozenObject !== 'none';
    const valid = frozenCase ? trace.frozenObject === 'ok' : trace.objectsHit > 0 && trace.cushionAfterContact;
    if (!valid) return foulOutcome(spec, ctx, instructions, 'invalid-safety', frozenCase ? ['TC-5', 'G-10'] : ['G-10']);
    return { instructions, awards: [], foul: null, turnPasses: true, rules: ['G-10'], carry: afterTurn(ctx, true) };
  }

  const rules = spec.scoring.rule === spec.missRule ? [spec.missRule] : [spec.scoring.rule, spec.missRule];
  if (!spec.scoring.made(trace)) return missOutcome(ctx, instructions, rules, spec.missDeduction(ctx.options));
  const scoreRules = rules;
  if (!spec.zones) return scoredOutcome(ctx, instructions, trace, scoreRules, null);
  return judgeZoneLimit(spec, spec.zones(ctx.options), ctx, trace, instructions, scoreRules);
}

/**
 * BK-1..3 / FG-3: the zone limit on a carom, judged from where the balls lay and came to rest.
 * Positions the sensors do not give are read every possible way: a start reading is the zone
 * the object balls were held in (or none) and the caroms already made there. Only readings
 * that change the score, the turn or the next shot's count make a prompt.
 */
function judgeZoneLimit(
  spec: CaromGameSpec,
  geometry: ZoneGeometry,
  ctx: ShotContext<CaromOptions, CaromCarry>,
  trace: CaromTrace,
  instructions: Instruction[] | undefined,
  scoreRules: string[],
): Judgement<CaromCarry> {
  const zoneRule = geometry.kind === 'grid' ? 'BK-1' : 'FG-3';
  const limitRules = geometry.kind === 'grid' ? ['BK-1', 'BK-3'] : ['FG-3'];
  const noScore = missOutcome(ctx, instructions, [...limitRules, spec.missRule], 0);
  const start = heldIn(geometry, ctx, ctx.startPositions, ctx.startPositionsErrorMm ?? 0);
  // A respotted ball has left the zone; otherwise the resting positions tell.
  const end = trace.offTable.length > 0 ? null : heldIn(geometry, ctx, ctx.shot.positions, ctx.shot.positionsErrorMm ?? 0);
  const outcomes: Outcome<CaromCarry>[] = [];
  for (const reading of startReadings(start, ctx.carry.zone)) {
    if (reading.zone === null) {
      outcomes.push(scoredOutcome(ctx, instructions, trace, scoreRules, null));
      continue;
    }
    const where = reading.zone === UNSEEN_ZONE ? `one ${geometry.name} zone` : `the ${geometry.name} zone ${reading.zone}`;
    const scored = (assumption: string) => ({
      ...scoredOutcome(ctx, instructions, trace, [...scoreRules, zoneRule], settleZone({ id: reading.zone!, count: reading.count + 1 }, end)),
      assumption,
    });
    if (reading.count < geometry.perZone) {
      outcomes.push(scored(`the object balls started held in ${where} with ${reading.count} carom${reading.count === 1 ? '' : 's'} made there`));
      continue;
    }
    const stayed = end === undefined ? undefined : end !== null && (reading.zone === UNSEEN_ZONE || sameZone(end, reading.zone));
    const left = end === undefined ? undefined : end === null || (reading.zone !== UNSEEN_ZONE && !sameZone(end, reading.zone));
    const unseen = reading.zone === UNSEEN_ZONE;
    if (left !== false) outcomes.push({ ...scored(`the object balls started held in ${where} past its limit and one left it`), prior: unseen ? 1 - heldPrior(geometry) / 2 : 0.5 });
    if (stayed !== false) outcomes.push({ ...noScore, assumption: `the object balls started held in ${where} past its limit and stayed in it`, prior: unseen ? heldPrior(geometry) / 2 : 0.5 });
  }
  return mergeZoneReadings(outcomes);
}

/**
 * Ranking only: how likely two object balls nobody saw lie in one zone — about the sum over
 * zones of (zone area / table area)²: small for the corner triangles (4 × (45,000 mm² /
 * 4 m²)² ≈ 0.0005, taken as 0.01), larger for a balkline grid (≈ 0.15). Half of those stay.
 */
function heldPrior(geometry: ZoneGeometry): number {
  return geometry.kind === 'corner-triangles' ? 0.01 : 0.15;
}

/** A carry zone whose balls were never seen: some zone, with at most `count` caroms made there. */
const UNSEEN_ZONE = '?';

type Held = string | null | undefined;

/**
 * The ways the shot may have started: the zone the object balls were held in and the caroms
 * made there (BK-3: 0 whenever they start apart, or in another zone). An unseen zone's count is
 * an upper bound; 0 and the bound cover every count between, since the limit only grows with it.
 */
function startReadings(start: Held, carried: CaromCarry['zone']): { zone: string | null; count: number }[] {
  if (start === null) return [{ zone: null, count: 0 }];
  if (start !== undefined) {
    if (carried === null) return [{ zone: start, count: 0 }];
    if (carried.id === UNSEEN_ZONE) return [{ zone: start, count: 0 }, { zone: start, count: carried.count }];
    return [{ zone: start, count: sameZone(start, carried.id) ? carried.count : 0 }];
  }
  const readings: { zone: string | null; count: number }[] = [{ zone: null, count: 0 }, { zone: UNSEEN_ZONE, count: 0 }];
  if (carried !== null) readings.push({ zone: UNSEEN_ZONE, count: carried.count });
  return readings;
}

/** The count carried to the next shot, given where the balls came to rest (a zone they left counts no more). */
function settleZone(zone: { id: string; count: number }, end: Held): CaromCarry['zone'] {
  if (end === undefined) return zone;
  if (end === null) return null;
  if (zone.id === UNSEEN_ZONE) return zone;
  return sameZone(end, zone.id) ? { id: end, count: zone.count } : null;
}

/** Zone ids are one zone or, for balls in balk, several joined by '|': they match when they share one. */
function sameZone(a: string, b: string): boolean {
  const bs = b.split('|');
  return a.split('|').some((z) => bs.includes(z));
}

/**
 * Readings with one effect on the score and the turn are one decision; their zone counts join
 * as an unseen zone with the highest count (a bound, see startReadings).
 */
function mergeZoneReadings(outcomes: Outcome<CaromCarry>[]): Judgement<CaromCarry> {
  const groups = new Map<string, Outcome<CaromCarry>[]>();
  for (const o of outcomes) {
    const key = JSON.stringify([o.awards, o.foul, o.turnPasses]);
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const merged = [...groups.values()].map((group) => {
    const first = group[0]!;
    const zones = group.map((o) => o.carry.zone);
    const same = zones.every((z) => JSON.stringify(z) === JSON.stringify(zones[0]));
    const counts = zones.map((z) => z?.count ?? 0);
    const zone = same ? zones[0]! : { id: UNSEEN_ZONE, count: Math.max(...counts) };
    const prior = group.reduce((sum, o) => sum + (o.prior ?? 1), 0);
    return { ...first, carry: { ...first.carry, zone }, prior, assumption: group.map((o) => o.assumption).filter((a): a is string => a !== undefined).join(', or ') || undefined };
  });
  if (merged.length === 1) return { ...merged[0]!, assumption: undefined };
  return merged;
}

/**
 * The zones both object balls lie in ('|'-joined), null when they share none or lie outside
 * every zone, undefined when unknown: a position missing, or one that may be off by errorMm
 * (a camera's) putting a ball on the other side of a line where that changes the answer.
 */
function heldIn(geometry: ZoneGeometry, ctx: ShotContext<CaromOptions, CaromCarry>, positions: Positions | null | undefined, errorMm: number): Held {
  const objectBalls = CAROM_BALL_IDS.filter((ball) => ball !== ctx.cueBall);
  const places = objectBalls.map((ball) => positions?.[ball]);
  if (places.some((at) => at === undefined)) return undefined;
  // Each ball's zone sets over where it may lie: its place, and errorMm off it in 8 directions.
  const shifts = errorMm > 0 ? ERROR_DIRECTIONS.map(([dx, dy]) => [dx * errorMm, dy * errorMm] as const) : [[0, 0] as const];
  const readings = places.map((at) => {
    const sets = new Map<string, string[]>();
    for (const [dx, dy] of shifts) {
      const zones = zonesOf(geometry, ctx.options.table, [at![0] + dx, at![1] + dy], CAROM_BALL_MM / 2);
      sets.set(zones.join('|'), zones);
    }
    return [...sets.values()];
  });
  const answers = new Set<Held>();
  const pick = (k: number, shared: string[] | undefined): void => {
    if (k === readings.length) answers.add(shared && shared.length > 0 ? shared.join('|') : null);
    else for (const zones of readings[k]!) pick(k + 1, shared === undefined ? zones : shared.filter((z) => zones.includes(z)));
  };
  pick(0, undefined);
  return answers.size === 1 ? [...answers][0] : undefined;
}

/** Where a ball may lie off its stated place: there, and along each axis and diagonal. */
const ERROR_DIRECTIONS: readonly (readonly [number, number])[] = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [Math.SQRT1_2, Math.SQRT1_2], [Math.SQRT1_2, -Math.SQRT1_2], [-Math.SQRT1_2, Math.SQRT1_2], [-Math.SQRT1_2, -Math.SQRT1_2]];

function foulOutcome(
  spec: CaromGameSpec,
  ctx: ShotContext<CaromOptions, CaromCarry>,
  instructions: Instruction[] | undefined,
  foul: string,
  rules: string[],
): Outcome<CaromCarry> {
  return {
    instructions,
    awards: spec.foulDeduction ? [{ player: ctx.shooter, points: -spec.foulDeduction }] : [],
    foul,
    turnPasses: true,
    rules: [...rules, spec.penaltyRule].filter(unique),
    carry: afterTurn(ctx, true),
  };
}

function missOutcome(ctx: ShotContext<CaromOptions, CaromCarry>, instructions: Instruction[] | undefined, rules: string[], deduction: number): Outcome<CaromCarry> {
  return {
    instructions,
    awards: deduction ? [{ player: ctx.shooter, points: -deduction }] : [],
    foul: null,
    turnPasses: true,
    rules,
    carry: afterTurn(ctx, false),
  };
}

function scoredOutcome(
  ctx: ShotContext<CaromOptions, CaromCarry>,
  instructions: Instruction[] | undefined,
  trace: CaromTrace,
  rules: string[],
  zone: CaromCarry['zone'],
): Outcome<CaromCarry> {
  return {
    instructions,
    awards: [{ player: ctx.shooter, points: 1 }],
    foul: null,
    turnPasses: false,
    rules: trace.offTable.length > 0 ? [...rules, 'G-11'] : rules,
    carry: { mustAttempt: ctx.firstShotOfInning ? clearOwn(ctx) : ctx.carry.mustAttempt, zone },
  };
}

/** The referee rules a foul the sensors did not see (G-7). */
export function caromRefereeFoul(spec: CaromGameSpec, ctx: ShotContext<CaromOptions, CaromCarry>): Outcome<CaromCarry> {
  return {
    awards: spec.foulDeduction ? [{ player: ctx.shooter, points: -spec.foulDeduction }] : [],
    foul: 'referee',
    turnPasses: true,
    rules: ['G-7', spec.penaltyRule].filter(unique),
    carry: afterTurn(ctx, true),
  };
}

function respotFor(ctx: ShotContext<CaromOptions, CaromCarry>, trace: CaromTrace): Instruction[] | undefined {
  if (trace.offTable.length === 0) return undefined;
  const rest = ctx.shot.positions ? onTable(ctx.shot.positions, trace.offTable) : null;
  const complete = rest && CAROM_BALL_IDS.every((b) => trace.offTable.includes(b) || rest[b] !== undefined) ? rest : null;
  return respotCarom(trace.offTable, ctx.cueBall, complete, ctx.options.table).instructions;
}

function onTable(positions: Positions, off: readonly BallId[]): Positions {
  return Object.fromEntries(Object.entries(positions).filter(([b]) => !off.includes(b as BallId)));
}

function clearOwn(ctx: ShotContext<CaromOptions, CaromCarry>): boolean[] {
  const flags = [...ctx.carry.mustAttempt];
  if (ctx.firstShotOfInning) flags[ctx.shooter] = false;
  return flags;
}

/** The turn passes: the zone count restarts (BK-3); a foul or safety binds the offender's next inning (G-10). */
function afterTurn(ctx: ShotContext<CaromOptions, CaromCarry>, bindsNextInning: boolean): CaromCarry {
  const flags = clearOwn(ctx);
  flags[ctx.shooter] = bindsNextInning;
  return { mustAttempt: flags, zone: null };
}

function unique<T>(value: T, index: number, all: readonly T[]): boolean {
  return all.indexOf(value) === index;
}

export type { Award };
