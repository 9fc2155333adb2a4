import { z } from 'zod';
import type { BallId } from '../ids.ts';
import { CATALOGUE, type VariantId } from '../catalogue.ts';
import type { MatchSetup } from '../events.ts';
import type { Instruction, Judgement, Outcome, ShotContext } from '../outcome.ts';
import { baseOptionShape, parseWith, resolveBase } from '../options.ts';
import type { MatchOptionsBase, Variant } from '../variant.ts';
import { err, ok, type Result } from '../result.ts';
import { ballSpots, round, skittleSpots, withSize, type SkittleLayout, type SkittleTable } from './geometry.ts';
import type { LegalityPolicy } from './legality.ts';
import { skittleScanner, type SkittleTrace } from './trace.ts';

/** SK5-1, SK7P-1, SK7C-1: everyone plays the coloured `cue` ball at the two numbered whites. */
export const SKITTLE_BALL_IDS = ['cue', 'one', 'two'] as const satisfies readonly BallId[];
export const WHITES = ['one', 'two'] as const satisfies readonly BallId[];

/** SK5-15: by series, by stoss, or mixed (the players named in `stoss` play by stoss). */
export type PlayMode = 'series' | 'stoss' | 'mixed';

export interface SkittleOptions extends MatchOptionsBase {
  table: SkittleTable;
  mode: PlayMode;
  /** Per player: plays by stoss (one shot per turn). */
  byStoss: readonly boolean[];
  /** SK5-8 Decision: what a foul with nothing made credits the opponent. */
  foulPenalty: number;
  /** SK7C-8 (and SK7P by option): a player brought to zero must then play a safety to win. */
  finishWithSafety: boolean;
  /** SK7P-5 Decision: a foul also adds back the points of the run so far ("удара или серии"). */
  foulForfeitsRun: boolean;
  /** SK7C Decision: a shot touching neither white outside the break is a foul (+5); off by default. */
  missIsFoul: boolean;
  /** SK5-3 read literally: a white coming off the other white is not legal by that alone (off by default). */
  strictKnockDowns: boolean;
  /** SK5-5 (RULES §11): a feller the sensors could not name is a foul without asking (tables with nobody to ask). */
  undeterminedFellerIsFoul: boolean;
}

export interface SkittleCarry {
  /** SK7C-8: the player has written everything off and must play the finishing safety. */
  finishing: readonly boolean[];
  /** Points written off or scored in the current run (SK7P-5 option `foulForfeitsRun`). */
  run: number;
  /** No shot played yet: the view shows the starting set-up (SK5-12, SK7P-11, SK7C-3). */
  opening: boolean;
}

export type SkittleCtx = ShotContext<SkittleOptions, SkittleCarry>;

const tableShape = z.strictObject({ length: z.number().positive().max(5000), width: z.number().positive().max(3000) });

const optionsSchema = z.strictObject({
  ...baseOptionShape,
  table: tableShape.optional(),
  mode: z.enum(['series', 'stoss', 'mixed']).optional(),
  stoss: z.array(z.string().min(1)).optional(),
  foulPenalty: z.number().int().nonnegative().optional(),
  finishWithSafety: z.boolean().optional(),
  foulForfeitsRun: z.boolean().optional(),
  missIsFoul: z.boolean().optional(),
  strictKnockDowns: z.boolean().optional(),
  undeterminedFellerIsFoul: z.boolean().optional(),
});

/** The catalogue's ids of the skittle games. */
type SkittleVariantId = { [K in VariantId]: (typeof CATALOGUE)[K]['layout'] extends SkittleLayout ? K : never }[VariantId];

/** A skittle game: its catalogue entry (layout, scoring, the options it reads) and its rules. */
export interface SkittleGameSpec {
  id: SkittleVariantId;
  table: SkittleTable;
  policy: (options: SkittleOptions) => LegalityPolicy;
  /** Defaults of options whose default differs by game. */
  defaults: { finishWithSafety: boolean; missIsFoul?: boolean };
  judge(ctx: SkittleCtx, trace: SkittleTrace): Judgement<SkittleCarry>;
  refereeFoul(ctx: SkittleCtx): Outcome<SkittleCarry>;
  mayEnd?(outcome: Outcome<SkittleCarry>, ctx: SkittleCtx): boolean;
  /** Answers the referee may give in any prompt on this shot beyond the readings (SK5-5 "could not tell"). */
  promptExtras?(ctx: SkittleCtx): Outcome<SkittleCarry>[];
  endRule: string;
}

export function parseSkittleOptions(spec: SkittleGameSpec, setup: MatchSetup): Result<SkittleOptions> {
  if (setup.players.length !== 2) return err(`match.players: ${spec.id} is a game for two players`);
  const raw = parseWith(optionsSchema, setup);
  if (!raw.ok) return raw;
  const o = raw.value;
  // Options this game reads beyond the shared ones are its catalogue entry's; any other is rejected by name.
  const accepts: readonly string[] = CATALOGUE[spec.id].options;
  for (const key of ['foulPenalty', 'finishWithSafety', 'foulForfeitsRun', 'missIsFoul', 'strictKnockDowns', 'undeterminedFellerIsFoul'] as const) {
    if (o[key] !== undefined && !accepts.includes(key)) return err(`options.${key}: not an option of ${spec.id}`);
  }
  const base = resolveBase(setup, o);
  if (!base.ok) return base;
  const mode = o.mode ?? 'series';
  for (const name of o.stoss ?? []) {
    if (!setup.players.includes(name)) return err(`options.stoss: '${name}' is not a player of this match`);
  }
  if (mode === 'mixed' && (o.stoss ?? []).length !== 1) return err('options.stoss: mixed mode (SK5-15) needs the one player who plays by stoss, e.g. ["Ben"]');
  if (mode !== 'mixed' && o.stoss !== undefined) return err(`options.stoss: only used with mode "mixed", not "${mode}"`);
  const byStoss = setup.players.map((name) => mode === 'stoss' || (mode === 'mixed' && (o.stoss ?? []).includes(name)));
  return ok({
    ...base.value,
    table: withSize(spec.table, o.table),
    mode,
    byStoss,
    foulPenalty: o.foulPenalty ?? 0,
    finishWithSafety: o.finishWithSafety ?? spec.defaults.finishWithSafety,
    foulForfeitsRun: o.foulForfeitsRun ?? false,
    missIsFoul: o.missIsFoul ?? spec.defaults.missIsFoul ?? false,
    strictKnockDowns: o.strictKnockDowns ?? false,
    undeterminedFellerIsFoul: o.undeterminedFellerIsFoul ?? false,
  });
}

/** Builds one skittle game as a frozen plain object (STYLE 1). */
export function skittleGame(spec: SkittleGameSpec): Variant<SkittleOptions, SkittleCarry, SkittleTrace> {
  const entry = CATALOGUE[spec.id];
  const layout: SkittleLayout = entry.layout;
  return Object.freeze({
    id: spec.id,
    ...entry,
    optionsSchema,
    parseOptions: (setup: MatchSetup) => parseSkittleOptions(spec, setup),
    initialCarry: (setup: MatchSetup): SkittleCarry => ({ finishing: setup.players.map(() => false), run: 0, opening: true }),
    cueBallFor: () => 'cue' as const,
    scanner: (ctx: SkittleCtx) =>
      skittleScanner({ cueBall: ctx.cueBall, whites: WHITES, policy: spec.policy(ctx.options), events: ctx.shot.events, undeterminedIsFoul: ctx.options.undeterminedFellerIsFoul }),
    judge: (ctx: SkittleCtx, trace: SkittleTrace) => spec.judge(ctx, trace),
    refereeFoul: (ctx: SkittleCtx) => spec.refereeFoul(ctx),
    ...(spec.promptExtras ? { promptExtras: spec.promptExtras } : {}),
    ...(spec.mayEnd ? { mayEnd: spec.mayEnd } : {}),
    endRule: spec.endRule,
    describe: (carry: SkittleCarry, options: SkittleOptions) => ({
      mode: options.mode,
      ...(options.finishWithSafety ? { finishingSafety: carry.finishing } : {}),
      ...(carry.opening ? { setup: openingSetup(layout, options.table) } : {}),
    }),
  });
}

/** SK5-12, SK7P-11, SK7C-3: the starting set-up, for the referee display before the break. */
export function openingSetup(layout: SkittleLayout, table: SkittleTable): Instruction[] {
  const rule = layout === 'carom-five' ? 'SK5-12' : layout === 'pyramid-seven' ? 'SK7P-11' : 'SK7C-3';
  const skittles = Object.entries(skittleSpots(table, layout)).map(([s, at]) => ({ item: `skittle:${s}`, to: 'on its spot', at: round(at), rule }));
  const balls = Object.entries(ballSpots(table, layout)).map(([b, at]) => ({ item: b, to: 'on its start spot', at: round(at), rule }));
  const cue =
    layout === 'carom-five'
      ? { item: 'cue', to: 'in hand for the breaker, anywhere in either half without crossing the centre line', rule }
      : { item: 'cue', to: 'in hand for the breaker, from the kitchen', rule };
  return [...skittles, ...balls, cue];
}

/** SK5-15: does the turn pass after a shot that let the shooter go on? */
export function playsOn(ctx: SkittleCtx): boolean {
  return !ctx.options.byStoss[ctx.shooter];
}

export const unique = <T>(value: T, index: number, all: readonly T[]): boolean => all.indexOf(value) === index;
