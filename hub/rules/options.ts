import { z } from 'zod';
import type { MatchSetup } from './events.ts';
import type { MatchOptionsBase } from './variant.ts';
import { describeIssues, err, ok, type Result } from './result.ts';

/** The playing surface in mm; the match table of RULES §0 by default. */
export interface TableSize {
  length: number;
  width: number;
}
export const MATCH_TABLE: TableSize = { length: 2840, width: 1420 };

export const tableSchema = z.strictObject({
  length: z.number().positive().max(5000),
  width: z.number().positive().max(3000),
});

/** Options every game understands (RULES §1 "beyond the seed"). */
export const baseOptionShape = {
  /** Handicap: a target per player, by name or in player order. */
  targets: z.union([z.record(z.string(), z.number().int().positive()), z.array(z.number().int().positive())]).optional(),
  inningsLimit: z.number().int().positive().optional(),
  equalizingInning: z.boolean().optional(),
  table: tableSchema.optional(),
};

export function parseWith<T extends z.ZodType>(schema: T, setup: MatchSetup): Result<z.infer<T>> {
  const parsed = schema.safeParse(setup.options ?? {});
  return parsed.success ? ok(parsed.data) : err(describeIssues('options', parsed.error));
}

/** Resolves the shared options into values, checking handicap names against the players. */
export function resolveBase(
  setup: MatchSetup,
  raw: { targets?: Record<string, number> | number[] | undefined; inningsLimit?: number | undefined; equalizingInning?: boolean | undefined },
): Result<MatchOptionsBase> {
  let targets: number[] = setup.players.map(() => setup.target);
  if (Array.isArray(raw.targets)) {
    if (raw.targets.length !== setup.players.length) {
      return err(`options.targets: ${raw.targets.length} targets for ${setup.players.length} players`);
    }
    targets = [...raw.targets];
  } else if (raw.targets) {
    for (const name of Object.keys(raw.targets)) {
      if (!setup.players.includes(name)) return err(`options.targets: '${name}' is not a player of this match`);
    }
    targets = setup.players.map((name) => raw.targets && !Array.isArray(raw.targets) ? (raw.targets[name] ?? setup.target) : setup.target);
  }
  return ok({ targets, inningsLimit: raw.inningsLimit ?? null, equalizingInning: raw.equalizingInning ?? false });
}
