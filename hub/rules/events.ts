import type { BallId, FoulKind, Rail, SkittleId } from './ids.ts';

/**
 * Shot events as the match log carries them (CONTRACT §1.2). Ball ids are plain strings
 * here: whether an id belongs to the variant is checked by the engine, which names the
 * bad id in its error. `null` means the sensors could not tell (RULES §10).
 */
export type ShotEvent =
  | { kind: 'ball'; balls: [string | null, string | null]; t?: number; /** Extension: the click's 8-bit peak (bounds.ts SENSOR_CALIBRATION). */ amplitude?: number; /** Extension: with an unknown id, the pairs that may have met (the truth among them). */ candidates?: readonly (readonly [string, string])[]; /** Extension: the event may not have happened (a camera's near miss); the engine reads it both ways. */ maybe?: true }
  | { kind: 'cushion'; rail: Rail; ball: string | null; t?: number; /** Extension: the rail piezo's 8-bit peak. */ amplitude?: number; /** Extension: with `ball` unknown, the balls that may have made it. */ candidates?: readonly string[]; /** Extension: may not have happened. */ maybe?: true }
  | { kind: 'skittle'; skittle: SkittleId; by: string | null; t?: number; /** Extension: with `by` unknown, the balls that may have felled it. */ candidates?: readonly string[]; /** Extension: may not have fallen (the camera could not see it standing or down). */ maybe?: true }
  | { kind: 'pocket'; ball: string | null; t?: number; /** Extension: may not have happened (a ball the camera lost for good). */ maybe?: true }
  | { kind: 'off-table'; ball: string | null; t?: number; /** Extension: may not have happened (a ball the camera lost for good). */ maybe?: true }
  | { kind: 'foul'; foul: FoulKind; by: 'shooter' | 'opponent'; t?: number; /** SK5-10: the ball stopped (a white when not named). */ ball?: string };

export type Point = readonly [number, number];
export type Positions = Readonly<Record<string, Point>>;

export interface Shot {
  events: readonly ShotEvent[];
  declare?: 'safety' | 'carom';
  /** How the cue ball lay at the start: frozen to a cushion or to an object ball (G-12, G-13). */
  frozen?: { cushion: Rail } | { ball: string };
  /** Object balls frozen to a cushion at the start (extension; TC-5). */
  objectFrozen?: Readonly<Record<string, Rail>>;
  /** Where the balls came to rest, mm from the head-left corner (CONTRACT §1.2). */
  positions?: Positions;
  /**
   * How far each of `positions` may be off, mm (extension: a camera's; docs/contract.md). A ball
   * within that of a zone's line may lie on either side of it, and the engine reads it both ways.
   */
  positionsErrorMm?: number;
  /**
   * Balls seen set moving during the shot (extension: a camera's; docs/contract.md): each lay at
   * rest before the shot's first contact and was struck by one of its contacts (RULES §10).
   */
  moved?: readonly string[];
  /** Assertion: who must be shooting. */
  shooter?: string;
}

export type Ruling = 'score' | 'no-score' | 'foul';

export type RefereeInput =
  | { ruling: Ruling; option?: number }
  | { action: 'undo' }
  | { action: 'adjust'; player: string; delta: number; reason: string }
  | { action: 'draw'; reason?: string }
  | { action: 'forfeit'; player: string; reason?: string }
  | { action: 'respot' };

export interface MatchSetup {
  variant: string;
  players: readonly string[];
  target: number;
  options?: Readonly<Record<string, unknown>>;
}

export type MatchInput = { kind: 'shot'; shot: Shot } | { kind: 'referee'; referee: RefereeInput };

/** A shot event with every ball known: one reading of it (worlds.ts), as a variant's scanner and the likelihood model see it. */
export type ResolvedEvent =
  | { kind: 'ball'; balls: readonly [BallId, BallId]; index: number }
  | { kind: 'cushion'; rail: Rail; ball: BallId; index: number }
  | { kind: 'skittle'; skittle: SkittleId; by: BallId; index: number }
  | { kind: 'pocket'; ball: BallId; index: number }
  | { kind: 'off-table'; ball: BallId; index: number };
