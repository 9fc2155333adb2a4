import type { BallId, FoulKind } from './ids.ts';
import type { Positions, Shot } from './events.ts';

/** Points given to one player by a shot: in game points, so a countdown subtracts them. */
export interface Award {
  player: number;
  points: number;
}

/** Where the referee must put a ball or a skittle before the next shot (G-11, SK5-16, …). */
export interface Instruction {
  item: string;
  to: string;
  at?: readonly [number, number];
  rule: string;
}

/**
 * A referee's decision on one shot: a value carrying the rule ids that decided it, never
 * an exception (STYLE 2). `carry` is the variant's own state after the shot.
 */
export interface Outcome<V = unknown> {
  awards: readonly Award[];
  foul: string | null;
  turnPasses: boolean;
  rules: readonly string[];
  carry: V;
  /** The match ends at once (all seven skittles, a lost match): winner index or null for a draw. */
  ends?: { winner: number | null; rule: string };
  instructions?: readonly Instruction[];
  /** For a prompt: the assumption about a fact outside the events that this outcome rests on. */
  assumption?: string;
  /** How likely that assumption is against the other outcomes of the same reading (ranking only; equal shares if absent). */
  prior?: number;
}

export interface ShotContext<O = unknown, V = unknown> {
  options: O;
  players: number;
  shooter: number;
  opponent: number;
  cueBall: BallId;
  isBreak: boolean;
  firstShotOfInning: boolean;
  shot: Shot;
  refereeFouls: readonly FoulKind[];
  opponentFouls: readonly FoulKind[];
  carry: V;
  /** Where the balls lay at the start of the shot, when known. */
  startPositions: Positions | null;
  /** How far each of startPositions may be off, mm (the shot that left them said; 0 when exact). */
  startPositionsErrorMm?: number;
  /** Scores before the shot (game points as shown). */
  scores: readonly number[];
}

export type Judgement<V> = Outcome<V> | readonly Outcome<V>[];

export function rulingClass(outcome: Outcome, shooter: number): 'score' | 'no-score' | 'foul' {
  if (outcome.foul !== null) return 'foul';
  const own = outcome.awards.filter((a) => a.player === shooter).reduce((sum, a) => sum + a.points, 0);
  return own > 0 ? 'score' : 'no-score';
}

/** Two outcomes with the same effect on the match are one decision, whatever rules named them. */
export function effectKey(outcome: Outcome): string {
  return JSON.stringify([outcome.awards, outcome.foul, outcome.turnPasses, outcome.carry, outcome.ends ?? null, outcome.instructions ?? []]);
}

/** The share of a reading's weight each of its outcomes gets: by their priors, else equal. */
export function priorShares(outcomes: readonly Outcome[]): number[] {
  const priors = outcomes.map((o) => o.prior ?? 1);
  const total = priors.reduce((a, b) => a + b, 0);
  return priors.map((p) => (total > 0 ? p / total : 1 / outcomes.length));
}
