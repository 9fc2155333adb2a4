import { z } from 'zod';
import type { BallId, FoulKind } from '../ids.ts';
import type { MatchSetup, Positions } from '../events.ts';
import type { Award, Instruction, Judgement, Outcome, ShotContext } from '../outcome.ts';
import { baseOptionShape, MATCH_TABLE, parseWith, resolveBase, type TableSize } from '../options.ts';
import { err, ok, type MatchOptionsBase, type Result } from '../variant.ts';
import { zoneOf, type ZoneGeometry } from '../zones.ts';
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

export function parseCaromOptions<T extends z.ZodRawShape>(
  setup: MatchSetup,
  extra: T,
): Result<CaromOptions & z.infer<z.ZodObject<T>>> {
  const schema = z.strictObject({ ...caromOptionShape, ...extra });
  const raw = parseWith(schema, setup);
  if (!raw.ok) return raw;
  const base = resolveBase(setup, raw.value as never);
  if (!base.ok) return base;
  const value = raw.value as Record<string, unknown>;
  return ok({
    ...(value as z.infer<z.ZodObject<T>>),
    ...base.value,
    table: (value.table as TableSize | undefined) ?? MATCH_TABLE,
    safetiesAllowed: (value.safetiesAllowed as boolean | undefined) ?? true,
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

/** BK-1..3 / FG-3: the zone limit on a carom, judged from where the balls lay and came to rest. */
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
  const start = heldIn(geometry, ctx, ctx.startPositions);
  if (start === undefined) {
    return [
      { ...scoredOutcome(ctx, instructions, trace, [...scoreRules, zoneRule], null), assumption: `the object balls did not start held in one ${geometry.name} zone past its limit` },
      { ...noScore, assumption: `the object balls started held in one ${geometry.name} zone past its limit and stayed in it` },
    ];
  }
  if (start === null) return scoredOutcome(ctx, instructions, trace, scoreRules, null);
  const count = ctx.carry.zone?.id === start ? ctx.carry.zone.count : 0;
  const nextZone = { id: start, count: count + 1 };
  const scored = scoredOutcome(ctx, instructions, trace, [...scoreRules, zoneRule], nextZone);
  if (count < geometry.perZone) return scored;
  // A respotted ball has left the zone; otherwise the resting positions tell.
  const end = trace.offTable.length > 0 ? null : heldIn(geometry, ctx, ctx.shot.positions);
  if (end === undefined) {
    return [
      { ...scored, assumption: `an object ball left the ${geometry.name} zone ${start}` },
      { ...noScore, assumption: `both object balls stayed in the ${geometry.name} zone ${start}` },
    ];
  }
  return end === start ? noScore : scored;
}

/** The zone both object balls lie in, null when they are apart or outside any zone, undefined when unknown. */
function heldIn(geometry: ZoneGeometry, ctx: ShotContext<CaromOptions, CaromCarry>, positions: Positions | null | undefined): string | null | undefined {
  let zone: string | null | undefined;
  for (const ball of CAROM_BALL_IDS) {
    if (ball === ctx.cueBall) continue;
    const at = positions?.[ball];
    if (at === undefined) return undefined;
    const z = zoneOf(geometry, ctx.options.table, at);
    if (z === null || (zone !== undefined && zone !== z)) zone = null;
    else if (zone === undefined) zone = z;
  }
  return zone ?? null;
}

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
