import { CAROM_BALLS, SKITTLE_BALLS, type BallId, type SkittleId } from './ids.ts';
import { FIVE_SKITTLES, SEVEN_SKITTLES } from './skittles/values.ts';

/**
 * The catalogue of games (CONTRACT §1.1 variant names): what each game is, in plain data,
 * for everyone outside the engine to read. The engine's games (variants/index.ts) carry
 * these entries; nothing outside hub/rules/ compares game ids, it reads `family` and
 * `scoring` here or in the published state.
 */

/**
 * Kinds of game that look and play alike: the carom games proper, the zone games (balkline
 * and the free game's corner triangles), artistic figures, and the two skittle families.
 */
export const GAME_FAMILIES = ['carom', 'balkline', 'artistic', 'skittles-5', 'skittles-7'] as const;
export type GameFamily = (typeof GAME_FAMILIES)[number];

/** How the scoreboard counts: up to a target, down from a total, or figure points. */
export const SCORING_MODELS = ['count-up', 'countdown', 'figures'] as const;
export type ScoringModel = (typeof SCORING_MODELS)[number];

/** Where the skittles stand (and the object balls start): SK5-12, SK7P-11, SK7C-3. */
export const SKITTLE_LAYOUTS = ['carom-five', 'pyramid-seven', 'carom-seven'] as const;
export type SkittleLayout = (typeof SKITTLE_LAYOUTS)[number];

export interface GameEntry {
  /** The English display name; translations are keyed by the game's id. */
  readonly name: string;
  readonly family: GameFamily;
  readonly scoring: ScoringModel;
  readonly balls: readonly BallId[];
  /** The skittle set-up, or null for a game without skittles. */
  readonly layout: SkittleLayout | null;
  /** The skittles standing on the table, in the order of RULES §0. */
  readonly skittles: readonly SkittleId[];
  readonly maxPlayers: 2 | 3;
  /** Options this game reads beyond the shared ones (targets, inningsLimit, equalizingInning, table). */
  readonly options: readonly string[];
}

// The builders keep each entry's family, scoring and layout as literal types, so the engine
// can ask for "the ids of the skittle games" at compile time.
const carom = <F extends 'carom' | 'balkline'>(name: string, family: F, options: readonly string[] = []) => ({
  name,
  family,
  scoring: 'count-up' as const,
  balls: CAROM_BALLS,
  layout: null,
  skittles: [] as readonly SkittleId[],
  maxPlayers: 3 as const,
  options: ['safetiesAllowed', ...options] as readonly string[],
});

const skittles = <F extends 'skittles-5' | 'skittles-7', S extends 'count-up' | 'countdown', L extends SkittleLayout>(name: string, family: F, scoring: S, layout: L, options: readonly string[]) => ({
  name,
  family,
  scoring,
  balls: SKITTLE_BALLS,
  layout,
  skittles: (layout === 'carom-five' ? FIVE_SKITTLES : SEVEN_SKITTLES) as readonly SkittleId[],
  maxPlayers: 2 as const,
  options: ['mode', 'stoss', ...options] as readonly string[],
});

/** Every game the hub plays, keyed by the name the match log uses; the order is the order menus show. */
export const CATALOGUE = Object.freeze({
  carom: carom('Carom', 'carom'),
  'one-cushion': carom('One-cushion', 'carom', ['oneCushionMissIsError']),
  'three-cushion': carom('Three-cushion', 'carom'),
  'free-game': carom('Free game', 'balkline', ['triangleLeg']),
  'balkline-47-1': carom('Balkline 47/1', 'balkline'),
  'balkline-47-2': carom('Balkline 47/2', 'balkline'),
  'balkline-71-2': carom('Balkline 71/2', 'balkline'),
  'balkline-74-2': carom('Balkline 74/2', 'balkline'),
  artistic: { ...carom('Artistic', 'carom'), family: 'artistic' as const, scoring: 'figures' as const, options: ['figures', 'seed', 'catalogue'] as readonly string[] },
  'skittles-5': skittles('Five skittles', 'skittles-5', 'count-up', 'carom-five', ['foulPenalty', 'strictKnockDowns', 'undeterminedFellerIsFoul']),
  'skittles-7-pyramid': skittles('Seven skittles · pyramid', 'skittles-7', 'countdown', 'pyramid-seven', ['finishWithSafety', 'foulForfeitsRun']),
  'skittles-7-carom': skittles('Seven skittles · carom', 'skittles-7', 'countdown', 'carom-seven', ['finishWithSafety', 'foulForfeitsRun', 'missIsFoul']),
} satisfies Record<string, GameEntry>);

export type VariantId = keyof typeof CATALOGUE;
export const VARIANT_IDS = Object.freeze(Object.keys(CATALOGUE)) as readonly VariantId[];

/** The game a new match form offers first. */
export const DEFAULT_VARIANT: VariantId = 'three-cushion';

export function isVariantId(id: unknown): id is VariantId {
  return typeof id === 'string' && Object.hasOwn(CATALOGUE, id);
}

export function gameEntry(id: string): GameEntry | undefined {
  return isVariantId(id) ? CATALOGUE[id] : undefined;
}

/** Whether a family plays with skittles (its scoreboard shows them, its balls are cue/one/two). */
export const playsSkittles = (family: GameFamily): boolean => family === 'skittles-5' || family === 'skittles-7';
