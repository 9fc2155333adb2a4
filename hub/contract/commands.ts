import { z } from 'zod';
import { matchSchema, refereeSchema, shotSchema } from '../matchlog/schema.ts';
import { FOUL_KINDS } from '../rules/ids.ts';
import { generateSchema, manualResultSchema, seasonSchema } from '../league/types.ts';

/**
 * Requests (CONTRACT §3): `{"transaction": "…", …}`. No password travels in a request: who
 * may send one is decided by the broker at CONNECT and per topic (docs/security.md).
 */
const base = { transaction: z.string().min(1).max(100) };
const auth = base;
const table = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a table id: letters, digits, - and _ (at most 40)');

export const commandSchemas = {
  'match/start': z.strictObject({ ...auth, table, ...matchSchema.shape }),
  'match/shot': z.strictObject({ ...auth, table, shot: shotSchema }),
  'match/referee': z.strictObject({ ...auth, table, referee: refereeSchema }),
  /** Extension (web panel): fouls and a declaration for the next shot the table cuts; an empty one clears them. */
  'match/next-shot': z.strictObject({
    ...auth,
    table,
    declare: z.enum(['safety', 'carom']).nullable(),
    fouls: z.array(z.strictObject({ foul: z.enum(FOUL_KINDS), by: z.enum(['shooter', 'opponent']) })).max(9),
  }),
  'match/export': z.strictObject({ ...base, table, format: z.enum(['jsonl', 'csv']) }),
  'table/thresholds': z.strictObject({
    ...auth,
    table,
    channels: z.array(z.strictObject({ channel: z.number().int().min(0).max(6), threshold: z.number().int().min(0).max(255), refractoryMs: z.number().int().min(0).max(7000) })).min(1).max(7),
  }),
  'hub/tables': z.strictObject({ ...base }),
  /** Extension (issue 8): the house league. */
  'league/setup': z.strictObject({ ...auth, season: seasonSchema }),
  'league/generate-fixtures': z.strictObject({ ...auth, ...generateSchema.shape }),
  'league/start-fixture': z.strictObject({ ...auth, table, fixture: z.string().min(1).max(100) }),
  'league/result': z.strictObject({ ...auth, ...manualResultSchema.shape }),
  'league/export': z.strictObject({ ...base, what: z.enum(['standings', 'results']), season: z.string().min(1).max(40).optional() }),
} as const;

export type CommandName = keyof typeof commandSchemas;
export type CommandRequest<C extends CommandName> = z.infer<(typeof commandSchemas)[C]>;
export const COMMANDS = Object.keys(commandSchemas) as CommandName[];

/** Every command's request, by name. */
export type CommandRequests = { [C in CommandName]: CommandRequest<C> };
export type LeagueCommandName = Extract<CommandName, `league/${string}`>;

/** One function per command, each given its own request type: dispatch without switches or casts. */
export type CommandHandlers<R, Names extends CommandName = CommandName> = { [C in Names]: (request: CommandRequests[C]) => R };

/** The schemas, seen per name (the same objects): a request parsed for `C` is `CommandRequests[C]`. */
const requestSchemas: { [C in CommandName]: z.ZodType<CommandRequests[C], unknown> } = commandSchemas;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(commandSchemas, name);
}

/** Parses a request for one command with that command's schema. */
export function parseRequest<C extends CommandName>(name: C, raw: unknown): z.ZodSafeParseResult<CommandRequests[C]> {
  return requestSchemas[name].safeParse(raw);
}

/** Hands a request to its command's handler. */
export function dispatch<R, Names extends CommandName, C extends Names>(handlers: CommandHandlers<R, Names>, name: C, request: CommandRequests[C]): R {
  return handlers[name](request);
}
