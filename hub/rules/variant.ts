import type { z } from 'zod';
import type { BallId } from './ids.ts';
import type { GameEntry, VariantId } from './catalogue.ts';
import type { MatchSetup } from './events.ts';
import type { Judgement, Outcome, ShotContext } from './outcome.ts';
import type { Scanner } from './worlds.ts';
import type { VariantDetails } from './view.ts';
import type { Result } from './result.ts';

export type { ScoringModel } from './catalogue.ts';

export interface MatchOptionsBase {
  /** Per-player targets (handicap), aligned with the players; defaults to the match target. */
  targets: readonly number[];
  inningsLimit: number | null;
  equalizingInning: boolean;
}

/**
 * A game as a frozen plain object (STYLE 1): its catalogue entry, and what it needs to set
 * up a match, read a shot and judge it. Everything is pure; the match runner in match.ts does the bookkeeping
 * shared by all variants (turns, innings, runs, undo, end of match).
 */
export interface Variant<O extends MatchOptionsBase = MatchOptionsBase, V = unknown, S = unknown> extends GameEntry {
  readonly id: VariantId;
  /** The schema `parseOptions` reads the match's options with (skittle games accept only their `options` of it). */
  readonly optionsSchema: z.ZodType;
  parseOptions(setup: MatchSetup): Result<O>;
  initialCarry(setup: MatchSetup, options: O): V;
  /** The cue ball of the player coming to the table. */
  cueBallFor(player: number, previousCue: BallId | null, options: O): BallId;
  scanner(ctx: ShotContext<O, V>): Scanner<S>;
  judge(ctx: ShotContext<O, V>, trace: S): Judgement<V>;
  /** The outcome when the referee rules a foul the sensors did not see. */
  refereeFoul(ctx: ShotContext<O, V>): Outcome<V>;
  /** End of match other than reaching the target (figures played out, …): winner or null, or undefined to go on. */
  finished?(carry: V, scores: readonly number[], options: O): { winner: number | null; rule: string } | undefined;
  /** Whether this outcome may end the match on reaching the target (SK5-14: a carom alone never does). */
  mayEnd?(outcome: Outcome<V>, ctx: ShotContext<O, V>): boolean;
  /** Answers the referee may give in any prompt on this shot beyond the sensors' readings (SK5-5 "could not tell"). */
  promptExtras?(ctx: ShotContext<O, V>): Outcome<V>[];
  /** The rule cited when the target is reached (G-14 by default). */
  readonly endRule?: string;
  /** A text for the state: e.g. the current artistic figure. */
  describe?(carry: V, options: O): VariantDetails;
}

// Variants are stored heterogeneously; the runner only ever pairs a variant with its own options and carry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyVariant = Variant<any, any, any>;
