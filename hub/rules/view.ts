import type { GameFamily, ScoringModel, VariantId } from './catalogue.ts';
import type { Figure } from './artistic/catalogue.ts';
import type { Instruction } from './outcome.ts';
import type { UndeterminedFact } from './worlds.ts';

/** What a game adds to the state of its own (Variant.describe). */
export interface VariantDetails {
  /** Artistic: the figure being played (with its number and the count), the attempt, the drawn figure ids. */
  figure?: (Figure & { number: number; of: number }) | null;
  attempt?: number | null;
  figures?: readonly string[];
  /** Skittle games: the play mode per player (SK5-15), the finishing safety (SK7C-8), the opening set-up. */
  mode?: unknown;
  finishingSafety?: unknown;
  setup?: Instruction[];
  /** Balkline and free game: caroms made in the current zone against its limit (BK-1..3, FG-3). */
  zone?: ZoneCount;
}

/**
 * The zone limit as it stands: `zone` is the zone both object balls are held in ('|' joins the
 * zones of balls in balk; '?' when no one saw where they lay), null when they are held in none.
 */
export interface ZoneCount {
  /** The geometry's name: "47/2", "corner triangles". */
  name: string;
  zone: string | null;
  count: number;
  limit: number;
}

/** The state object of CONTRACT §2, with the fields this project adds. */
export interface MatchView extends VariantDetails {
  variant: VariantId;
  /** Extension: the game's family and how it counts (catalogue.ts), so displays need not know game ids. */
  family: GameFamily;
  scoring: ScoringModel;
  status: 'playing' | 'awaiting-referee' | 'finished' | 'drawn';
  winner: string | null;
  turn: string | null;
  players: PlayerView[];
  prompt: PromptView | null;
  shots: readonly ShotResult[];
  /** Extension: the ball the player at the table strikes. */
  cueBall: string | null;
  /** Extension: the rule that ended the match. */
  endRule: string | null;
  /** Extension: balls and skittles the referee must place before the next shot. */
  instructions: readonly Instruction[];
}

export interface PlayerView {
  name: string;
  score: number;
  innings: number;
  highRun: number;
  /** Points ÷ innings (carom); null in countdown games, which show no average (RULES §11). */
  average: number | null;
  /** Extension: the current run of the player at the table. */
  run: number;
  /** Extension: the player's own target (handicap) or starting total. */
  target: number;
}

export interface ShotResult {
  shooter: string;
  points: number;
  foul: string | null;
  rules: readonly string[];
  turnPasses: boolean;
  cueBall: string;
  /** Points given to other players (penalties credited to the opponent). */
  awards?: readonly { player: string; points: number }[];
  /** Set when a referee's ruling decided the shot. */
  ruling?: string;
}

export interface PromptView {
  question: string;
  rules: readonly string[];
  facts: readonly UndeterminedFact[];
  options: readonly {
    index: number;
    ruling: 'score' | 'no-score' | 'foul';
    points: number;
    foul: string | null;
    turnPasses: boolean;
    rules: readonly string[];
    assumption?: string;
    /** Extension: how likely this option is by the sensors' evidence (0–1, options sum to 1); options come most likely first. Never decides. */
    likelihood: number;
    /**
     * Extension: the condition of this option — for each fact in `facts` that it narrows, the
     * candidate values under which the sensors' readings lead to it. Absent: no fact narrows it
     * (an answer no reading gives, or one that rests on `assumption` alone).
     */
    when?: readonly { event: number; kind: UndeterminedFact['kind']; field: UndeterminedFact['field']; values: readonly string[] }[];
    /** Extension: points this option gives to other players (player index in the match's order), e.g. a penalty. */
    awards?: readonly { player: number; points: number }[];
  }[];
}
