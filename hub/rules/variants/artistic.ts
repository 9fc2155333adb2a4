import { z } from 'zod';
import type { BallId } from '../ids.ts';
import type { MatchSetup } from '../events.ts';
import type { Outcome, ShotContext } from '../outcome.ts';
import { baseOptionShape, MATCH_TABLE, resolveBase, type TableSize } from '../options.ts';
import { describeIssues } from '../result.ts';
import { drawSeeded } from '../random.ts';
import { CATALOGUE } from '../catalogue.ts';
import type { MatchOptionsBase, Variant } from '../variant.ts';
import { err, ok, type Result } from '../result.ts';
import { catalogueSchema, matchesSequence, parseCatalogue, SAMPLE_CATALOGUE, type Figure } from '../artistic/catalogue.ts';
import { caromCueBall, caromPlayers, caromScannerFor, initialCaromCarry } from '../carom/family.ts';
import type { CaromTrace } from '../carom/trace.ts';

export const ATTEMPTS_PER_FIGURE = 3; // AR-2

export interface ArtisticOptions extends MatchOptionsBase {
  table: TableSize;
  safetiesAllowed: boolean;
  /** The competition's figures in playing order (AR-3: a seeded draw, or a list). */
  figures: readonly Figure[];
  seed: number;
}

export interface ArtisticCarry {
  mustAttempt: readonly boolean[];
  zone: { id: string; count: number } | null;
  /** Index of the figure being played. */
  figure: number;
  /** Attempts the player at the table has used on it. */
  attempt: number;
}

const optionsSchema = z.strictObject({
  ...baseOptionShape,
  /** How many figures to draw, or the figure ids to play in order. */
  figures: z.union([z.number().int().min(1).max(76), z.array(z.string().min(1)).min(1).max(76)]).optional(),
  seed: z.number().int().optional(),
  catalogue: catalogueSchema.optional(),
});

function parseOptions(setup: MatchSetup): Result<ArtisticOptions> {
  const players = caromPlayers(setup);
  if (!players.ok) return players;
  const parsed = optionsSchema.safeParse(setup.options ?? {});
  if (!parsed.success) return err(describeIssues('options', parsed.error));
  const raw = parsed.data;
  const base = resolveBase(setup, raw);
  if (!base.ok) return base;
  let catalogue: readonly Figure[] = SAMPLE_CATALOGUE;
  if (raw.catalogue) {
    const loaded = parseCatalogue(raw.catalogue, 'options.catalogue');
    if (!loaded.ok) return loaded;
    catalogue = loaded.value;
  }
  const seed = raw.seed ?? 1;
  let figures: readonly Figure[];
  if (Array.isArray(raw.figures)) {
    const picked: Figure[] = [];
    for (const id of raw.figures) {
      const figure = catalogue.find((f) => f.id === id);
      if (!figure) return err(`options.figures: no figure '${id}' in the catalogue`);
      picked.push(figure);
    }
    figures = picked;
  } else {
    const count = raw.figures ?? Math.min(5, catalogue.length);
    if (count > catalogue.length) return err(`options.figures: ${count} figures asked, the catalogue has ${catalogue.length}`);
    figures = drawSeeded(catalogue, count, seed);
  }
  return ok({ ...base.value, table: raw.table ?? MATCH_TABLE, safetiesAllowed: false, figures, seed });
}

type Ctx = ShotContext<ArtisticOptions, ArtisticCarry>;

/** AR-2, AR-5: after an attempt, the player goes on, or the next player (or figure) comes. */
function afterAttempt(ctx: Ctx, success: boolean): { carry: ArtisticCarry; turnPasses: boolean } {
  const attempt = ctx.carry.attempt + 1;
  const done = success || attempt >= ATTEMPTS_PER_FIGURE;
  if (!done) return { carry: { ...ctx.carry, attempt }, turnPasses: false };
  const lastPlayer = ctx.shooter === ctx.players - 1;
  return { carry: { ...ctx.carry, attempt: 0, figure: ctx.carry.figure + (lastPlayer ? 1 : 0) }, turnPasses: true };
}

function failed(ctx: Ctx, foul: string | null, rules: string[]): Outcome<ArtisticCarry> {
  return { awards: [], foul, rules, ...afterAttempt(ctx, false) };
}

/** Artistic billiards (AR-1 … AR-5): each figure's exact contact sequence, three attempts, figure points. */
export const artistic: Variant<ArtisticOptions, ArtisticCarry, CaromTrace> = Object.freeze({
  id: 'artistic',
  ...CATALOGUE.artistic,
  optionsSchema,
  parseOptions,
  initialCarry: (setup: MatchSetup) => ({ ...initialCaromCarry(setup), figure: 0, attempt: 0 }),
  // AR three players (RULES §11): cue balls rotate as G-2; a player keeps theirs through their attempts.
  cueBallFor: (player: number, previous: BallId | null, options: ArtisticOptions) => caromCueBall(player, previous, options.targets.length),
  scanner(ctx: Ctx) {
    const figure = ctx.options.figures[ctx.carry.figure]!;
    return caromScannerFor(ctx, 0, figure.sequence.length);
  },
  judge(ctx: Ctx, trace: CaromTrace): Outcome<ArtisticCarry> {
    const figure = ctx.options.figures[ctx.carry.figure]!;
    const referee = ctx.refereeFouls[0];
    if (referee) return failed(ctx, referee, ['G-7', 'AR-2']);
    if (trace.offTable.length > 0) return failed(ctx, null, ['AR-4']);
    if (!matchesSequence(figure.sequence, trace.cueContacts)) return failed(ctx, null, ['AR-1', 'AR-2']);
    return { awards: [{ player: ctx.shooter, points: figure.value }], foul: null, rules: ['AR-1', 'AR-2'], ...afterAttempt(ctx, true) };
  },
  refereeFoul: (ctx: Ctx) => failed(ctx, 'referee', ['G-7', 'AR-2']),
  finished(carry: ArtisticCarry, scores: readonly number[], options: ArtisticOptions) {
    if (carry.figure < options.figures.length) return undefined;
    const best = Math.max(...scores);
    const leaders = scores.flatMap((s, i) => (s === best ? [i] : []));
    return { winner: leaders.length === 1 ? leaders[0]! : null, rule: 'AR-5' };
  },
  describe(carry: ArtisticCarry, options: ArtisticOptions) {
    const figure = options.figures[carry.figure];
    return {
      figure: figure ? { number: carry.figure + 1, of: options.figures.length, ...figure } : null,
      attempt: figure ? carry.attempt + 1 : null,
      figures: options.figures.map((f) => f.id),
    };
  },
});
