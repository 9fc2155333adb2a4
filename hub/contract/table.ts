import { z } from 'zod';
import { figureSchema } from '../rules/artistic/catalogue.ts';
import { GAME_FAMILIES, SCORING_MODELS, VARIANT_IDS } from '../rules/catalogue.ts';

/**
 * What the hub publishes about a table (CONTRACT §2–3), as zod schemas: the hub's types are
 * inferred from them, the web panel parses what it receives with them. Objects strip unknown
 * keys rather than refuse them, so an older panel still reads a newer hub's additive fields.
 */

const iso = z.string();
/** The engine's lists are read-only values (frozen once parsed here too). */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();
const count = z.number().int().nonnegative();

export const instructionSchema = z.object({
  item: z.string(),
  to: z.string(),
  at: z.tuple([z.number(), z.number()]).readonly().optional(),
  rule: z.string(),
});

export const playerViewSchema = z.object({
  name: z.string(),
  score: z.number(),
  innings: z.number(),
  highRun: z.number(),
  /** Points ÷ innings (carom); null in countdown games, which show no average (RULES §11). */
  average: z.number().nullable(),
  /** Extension: the current run of the player at the table. */
  run: z.number(),
  /** Extension: the player's own target (handicap) or starting total. */
  target: z.number(),
});

export const shotResultSchema = z.object({
  shooter: z.string(),
  points: z.number(),
  foul: z.string().nullable(),
  rules: list(z.string()),
  turnPasses: z.boolean(),
  cueBall: z.string(),
  /** Points given to other players (penalties credited to the opponent). */
  awards: list(z.object({ player: z.string(), points: z.number() })).optional(),
  /** Set when a referee's ruling decided the shot. */
  ruling: z.string().optional(),
});

export const undeterminedFactSchema = z.object({
  /** The event's index; -1 for a fact no event carries (`kind: 'unobserved'`). */
  event: z.number().int(),
  kind: z.enum(['ball', 'cushion', 'skittle', 'pocket', 'off-table', 'foul', 'unobserved']),
  field: z.enum(['ball', 'balls', 'by', 'assumption']),
  candidates: z.array(z.string()),
});

export const promptViewSchema = z.object({
  question: z.string(),
  rules: list(z.string()),
  facts: list(undeterminedFactSchema),
  options: list(
    z.object({
      index: z.number().int(),
      ruling: z.enum(['score', 'no-score', 'foul']),
      points: z.number(),
      foul: z.string().nullable(),
      turnPasses: z.boolean(),
      rules: list(z.string()),
      assumption: z.string().optional(),
      /** Extension: how likely this option is by the sensors' evidence (0–1, options sum to 1); options come most likely first. Never decides. */
      likelihood: z.number().min(0).max(1),
      /**
       * Extension: the option's condition — for each fact in `facts` it narrows, the candidate
       * values under which the sensors' readings lead to it. Absent when no fact narrows it.
       */
      when: list(z.object({ event: z.number().int(), kind: undeterminedFactSchema.shape.kind, field: undeterminedFactSchema.shape.field, values: list(z.string()) })).optional(),
      /** Extension: points the option gives to other players (index in the match's order), e.g. a penalty. */
      awards: list(z.object({ player: z.number().int().nonnegative(), points: z.number() })).optional(),
    }),
  ),
});

/** What a game adds to the state of its own (Variant.describe). */
export const variantDetailsSchema = z.object({
  /** Artistic: the figure being played (with its number and the count), the attempt, the drawn figure ids. */
  figure: figureSchema.extend({ number: z.number().int(), of: z.number().int() }).nullable().optional(),
  attempt: z.number().int().nullable().optional(),
  figures: list(z.string()).optional(),
  /** Skittle games: the play mode per player (SK5-15), the finishing safety (SK7C-8), the opening set-up. */
  mode: z.unknown().optional(),
  finishingSafety: z.unknown().optional(),
  setup: list(instructionSchema).optional(),
  /** Extension, balkline and free game (BK-1..3, FG-3): caroms made in the current zone against its limit; `zone` '?' when unseen, null when the balls are held in none. */
  zone: z.object({ name: z.string(), zone: z.string().nullable(), count: count, limit: count }).optional(),
});

const matchStatus = z.enum(['playing', 'awaiting-referee', 'finished', 'drawn']);

/** The state object of CONTRACT §2 (the engine's MatchView), with the fields this project adds. */
export const matchViewSchema = variantDetailsSchema.extend({
  variant: z.enum(VARIANT_IDS),
  /** Extension: the game's family and how it counts (hub/rules/catalogue.ts), so displays need not know game ids. */
  family: z.enum(GAME_FAMILIES),
  scoring: z.enum(SCORING_MODELS),
  status: matchStatus,
  winner: z.string().nullable(),
  turn: z.string().nullable(),
  players: z.array(playerViewSchema),
  prompt: promptViewSchema.nullable(),
  shots: list(shotResultSchema),
  /** Extension: the ball the player at the table strikes. */
  cueBall: z.string().nullable(),
  /** Extension: the rule that ended the match. */
  endRule: z.string().nullable(),
  /** Extension: balls and skittles the referee must place before the next shot. */
  instructions: list(instructionSchema),
});

/** `billiards/tables/<table>/state`: the replay object plus the table's bookkeeping. */
export const tableStateSchema = matchViewSchema.extend({
  /** `idle`: the table has no match yet (extension). */
  status: z.enum([...matchStatus.options, 'idle']),
  variant: z.enum(VARIANT_IDS).nullable(),
  // Null when idle; missing from an older hub's state, read as null (nothing then depends on the game).
  family: z.enum(GAME_FAMILIES).nullable().default(null),
  scoring: z.enum(SCORING_MODELS).nullable().default(null),
  table: z.string(),
  /** Increases by one on every change of this table's state. */
  seq: count,
  updatedAt: iso,
  /** All shots of the match; `shots` holds only the most recent 20. */
  shotCount: count,
  /** Extension: the hub that owns the table, and whether its sensors are simulated. */
  hub: z.string(),
  simulated: z.boolean(),
  /** Extension: when the last shot ended (ISO 8601), for the shot clock. */
  lastShotEndedAt: iso.nullable(),
  /** Extension: shots from the sensors waiting for the referee's ruling on an earlier one. */
  pendingShots: count,
  /** Extension: fouls and a declaration the referee entered for the next shot (`match/next-shot`). */
  nextShot: z.object({ declare: z.enum(['safety', 'carom']).nullable(), fouls: z.array(z.object({ foul: z.string(), by: z.enum(['shooter', 'opponent']) })) }).nullable(),
  /** Extension: the setup of the match being played. */
  match: z.object({ variant: z.string(), players: z.array(z.string()), target: z.number(), options: z.record(z.string(), z.unknown()) }).nullable(),
  /** Extension: the table's display name (config `name`); displays say "Table <id>" in their language without it. */
  name: z.string().optional(),
  /** Extension: which rail each piezo channel (0–5) sits behind, from the table's config `rails` (the hardware page names its channels with it). */
  rails: z.record(z.string(), z.string()).optional(),
  /** Extension: when the match being played started (ISO 8601), for the match clock. */
  matchStartedAt: iso.optional(),
  /** Extension: the referee's score adjustments of this match, with their reasons and the shot they followed. */
  adjustments: z.array(z.object({ player: z.string(), delta: z.number(), reason: z.string(), afterShot: z.number().int() })).optional(),
});

/** `billiards/tables/<table>/availability`, `billiards/bridge/state`. */
export const availabilitySchema = z.object({ state: z.enum(['online', 'offline']) });

/** Extension (issue 16): a table's overhead camera. */
export const cameraHealthSchema = z.object({
  /** Frames per second over the last second. */
  fps: z.number(),
  frames: count,
  dropped: count,
  state: z.enum(['no-video', 'balls-moving', 'table-clear', 'hand-on-table', 'motion']),
  /** Mean frame difference (0–255): motion over the table. */
  motion: z.number(),
  clips: count,
});

export const ALERT_KINDS = ['stuck-skittle', 'silent-rail', 'prompt-waiting', 'link-down'] as const;

/** `billiards/tables/<table>/health` (extension): link health of a table's board. */
export const tableHealthSchema = z.object({
  table: z.string(),
  link: z.enum(['up', 'down']),
  lastHeartbeatAt: iso.nullable(),
  framesDropped: count,
  boardResets: count,
  /** Extension (issue 20): the board's boot id and which of the hub's settings it has acknowledged since that boot. */
  board: z
    .object({ bootId: z.number().int().nullable(), confirmed: count, pending: count, rejected: count, unsupported: count, unconfirmed: z.array(z.string()) })
    .optional(),
  alerts: z.array(z.object({ kind: z.enum(ALERT_KINDS), detail: z.string(), since: iso })),
  /** Extension (issue 16): the table's overhead camera, when it has one. */
  camera: cameraHealthSchema.optional(),
  /** Extension (issue 16): who scores the table (config `scoring`), shown on the hardware page. */
  scoring: z.enum(['sensors', 'tracker', 'camera', 'camera+sensors']).optional(),
});

/** `billiards/tables/<table>/events`: each timestamped sensor event and each shot result. */
export const tableEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('sensor'),
    table: z.string(),
    at: iso,
    /** Hub monotonic time (ms) and the board's own time and frame sequence. */
    hubTime: z.number(),
    boardUs: z.number().nullable(),
    seq: z.number().int().nullable(),
    sensor: z.enum(['rail-hit', 'click', 'vibration', 'skittle', 'link']),
    rail: z.string().optional(),
    channel: z.number().int().optional(),
    skittle: z.string().optional(),
    state: z.string().optional(),
    amplitude: z.number().optional(),
    level: z.number().optional(),
  }),
  z.object({ type: z.literal('shot'), table: z.string(), at: iso, result: shotResultSchema.nullable(), events: z.array(z.unknown()), prompt: z.boolean() }),
  z.object({ type: z.literal('match'), table: z.string(), at: iso, action: z.enum(['started', 'referee']), detail: z.unknown() }),
]);

export type Instruction = z.infer<typeof instructionSchema>;
export type MatchViewPayload = z.infer<typeof matchViewSchema>;
export type TableState = z.infer<typeof tableStateSchema>;
export type Availability = z.infer<typeof availabilitySchema>;
export type CameraHealth = z.infer<typeof cameraHealthSchema>;
export type TableHealth = z.infer<typeof tableHealthSchema>;
export type TableEvent = z.infer<typeof tableEventSchema>;
