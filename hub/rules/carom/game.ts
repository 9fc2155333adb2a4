import type { z } from 'zod';
import type { BallId } from '../ids.ts';
import { CATALOGUE, type VariantId } from '../catalogue.ts';
import type { MatchSetup } from '../events.ts';
import type { ShotContext } from '../outcome.ts';
import type { Variant } from '../variant.ts';
import {
  caromCueBall,
  caromOptionsSchema,
  caromPlayers,
  caromRefereeFoul,
  caromScannerFor,
  initialCaromCarry,
  judgeCaromShot,
  parseCaromOptions,
  type CaromCarry,
  type CaromGameSpec,
  type CaromOptions,
} from './family.ts';
import type { CaromTrace } from './trace.ts';
import type { ZoneGeometry } from '../zones.ts';
import type { ZoneCount } from '../view.ts';

export interface CaromGameDefinition<T extends z.ZodRawShape> {
  id: CaromVariantId;
  spec: CaromGameSpec;
  /** Options this game reads beyond the carom ones (its catalogue entry names them). */
  extraOptions?: T;
  /** Cue-ball cushions that matter to the scoring test: the scanner stops counting there (TC-1: 3, OC-1: 1). */
  cushionCap?: number;
}

/** The catalogue's ids of the counting-up carom games this builder makes. */
type CaromVariantId = { [K in VariantId]: (typeof CATALOGUE)[K]['family'] extends 'carom' | 'balkline' ? K : never }[VariantId];

/**
 * Builds a counting-up carom game from its catalogue entry and spec: the shared carom
 * pieces, the game's own scoring test, and any extra options it reads.
 */
export function caromGame<T extends z.ZodRawShape = Record<never, never>>({
  id,
  spec,
  extraOptions,
  cushionCap = 0,
}: CaromGameDefinition<T>): Variant<CaromOptions & z.infer<z.ZodObject<T>>, CaromCarry, CaromTrace> {
  type O = CaromOptions & z.infer<z.ZodObject<T>>;
  const optionsSchema = caromOptionsSchema(extraOptions ?? ({} as T));
  return Object.freeze({
    id,
    ...CATALOGUE[id],
    optionsSchema,
    parseOptions(setup: MatchSetup) {
      const players = caromPlayers(setup);
      if (!players.ok) return players;
      return parseCaromOptions(setup, optionsSchema);
    },
    initialCarry: (setup: MatchSetup) => initialCaromCarry(setup),
    cueBallFor: (player: number, previous: BallId | null, options: O) => caromCueBall(player, previous, options.targets.length),
    scanner: (ctx: ShotContext<O, CaromCarry>) => caromScannerFor(ctx, cushionCap),
    judge: (ctx: ShotContext<O, CaromCarry>, trace: CaromTrace) => judgeCaromShot(spec, ctx, trace),
    refereeFoul: (ctx: ShotContext<O, CaromCarry>) => caromRefereeFoul(spec, ctx),
    // BK-1..3 / FG-3: the caroms made in the current zone against its limit, for the displays.
    ...(spec.zones ? { describe: (carry: CaromCarry, options: O) => ({ zone: zoneCount(spec.zones!(options), carry) }) } : {}),
  });
}

/** The zone count shown on the scoreboard: the zone ('?' when no one saw where the balls lay), caroms there, the limit. */
function zoneCount(geometry: ZoneGeometry, carry: CaromCarry): ZoneCount {
  return { name: geometry.name, zone: carry.zone?.id ?? null, count: carry.zone?.count ?? 0, limit: geometry.perZone };
}

/** The point of the basic game and the free game: the cue ball touched both object balls (G-14, FG-1). */
export const bothObjectBalls = (rule: string) => ({ rule, made: (t: CaromTrace) => t.objectsHit === 2 });

/** A point after `n` cue-ball cushion contacts before the second object ball (OC-1: 1, TC-1: 3). */
export const cushionsFirst = (n: number, rule: string) => ({
  rule,
  made: (t: CaromTrace) => t.objectsHit === 2 && t.cushionsBeforeSecond >= n,
});

export const GENERAL_SPEC = {
  missRule: 'G-14',
  foulDeduction: 0,
  missDeduction: () => 0,
  anyBallOffIsFoul: false,
  frozenObjectSafety: false,
  breakRule: 'G-5',
  penaltyRule: 'G-7',
} satisfies Omit<CaromGameSpec, 'scoring'>;
