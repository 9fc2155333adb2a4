import { createHash } from 'node:crypto';
import { COMMANDS, dispatch, isCommandName, parseRequest, type CommandHandlers, type CommandName, type CommandRequests, type CommandResponse, type LeagueCommandName } from './contract/mqtt.ts';
import { describeIssues, ok, type Result } from './rules/result.ts';
import type { TableService } from './tables/table-service.ts';

/** The house league's commands (issue 8); absent on a hub without a league. */
export type LeagueCommands = CommandHandlers<Result<unknown>, LeagueCommandName>;

export interface CommandContext {
  league?: LeagueCommands;
  table(id: string): TableService | undefined;
  tables(): TableService[];
  /** Whether another hub on the broker owns this table (then this hub stays silent). */
  ownedElsewhere(id: string): boolean;
  setThresholds(table: string, channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>>;
  now(): number;
}

/** Commands that change something: a duplicate of one (same transaction) is answered, not applied again. */
const READ_ONLY: ReadonlySet<CommandName> = new Set(['match/export', 'hub/tables', 'league/export']);
const REMEMBERED_TRANSACTIONS = 256;

/**
 * `billiards/request/<command>` → a response on `billiards/response/<command>` (CONTRACT §3).
 * Bad JSON or bad fields get an error that names them and change nothing. Who may send a
 * command is the broker's decision (identity at CONNECT, permissions per topic:
 * docs/security.md); a request carries no password. A transaction seen again (a QoS 1
 * redelivery, a replay) gets the first answer again and changes nothing.
 */
export class CommandHandler {
  private readonly answered = new Map<string, Promise<CommandResponse | null>>();

  constructor(private readonly ctx: CommandContext) {}

  async handle(command: string, payload: Buffer): Promise<CommandResponse | null> {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      return { transaction: null, status: 'error', error: 'payload: not valid JSON' };
    }
    const transaction = typeof (raw as { transaction?: unknown })?.transaction === 'string' ? (raw as { transaction: string }).transaction : null;
    if (transaction === null || !(COMMANDS as string[]).includes(command) || READ_ONLY.has(command as CommandName)) return this.apply(command, raw, transaction);
    // The same bytes again: two clients that happen to pick the same transaction id are not confused.
    const key = `${command}\n${transaction}\n${createHash('sha256').update(payload).digest('base64')}`;
    const earlier = this.answered.get(key);
    if (earlier) return earlier;
    const answer = this.apply(command, raw, transaction);
    this.answered.set(key, answer);
    if (this.answered.size > REMEMBERED_TRANSACTIONS) this.answered.delete(this.answered.keys().next().value!);
    return answer;
  }

  private async apply(command: string, raw: unknown, transaction: string | null): Promise<CommandResponse | null> {
    if (!isCommandName(command)) return { transaction, status: 'error', error: `unknown command '${command}' (known: ${COMMANDS.join(', ')})` };
    return this.run(command, raw, transaction);
  }

  private async run<C extends CommandName>(name: C, raw: unknown, transaction: string | null): Promise<CommandResponse | null> {
    if (typeof raw === 'object' && raw !== null && 'password' in raw) {
      return { transaction, status: 'error', error: 'password: requests no longer carry a password; log in to the broker as a referee user (docs/security.md)' };
    }
    const parsed = parseRequest(name, raw);
    if (!parsed.success) return { transaction, status: 'error', error: describeIssues('', parsed.error) };
    return dispatch(this.handlers, name, parsed.data);
  }

  private readonly handlers: CommandHandlers<Promise<CommandResponse | null>> = {
    'hub/tables': async ({ transaction }) => ({ transaction, status: 'ok', data: this.ctx.tables().map((t) => t.state()) }),
    'match/export': async (request) =>
      this.onTable(request, (table) => {
        const exported = request.format === 'csv' ? table.exportCsv() : table.exportLog();
        return exported.ok ? ok({ format: request.format, content: exported.value }) : exported;
      }),
    'match/start': async (request) => {
      const { variant, players, target, options } = request;
      return this.changeTable(request, (table) => table.startMatch({ variant, players, target, ...(options ? { options } : {}) }));
    },
    'match/shot': async (request) => this.changeTable(request, (table) => table.input({ kind: 'shot', shot: request.shot })),
    'match/referee': async (request) => this.changeTable(request, (table) => table.input({ kind: 'referee', referee: request.referee })),
    'match/next-shot': async (request) => this.changeTable(request, (table) => table.setNextShot({ declare: request.declare, fouls: request.fouls })),
    'table/thresholds': async (request) => this.changeTable(request, () => this.ctx.setThresholds(request.table, request.channels)),
    'league/setup': async (request) => this.league('league/setup', request),
    'league/generate-fixtures': async (request) => this.league('league/generate-fixtures', request),
    'league/start-fixture': async (request) => (this.ctx.league && !this.ctx.table(request.table) ? this.noTable(request) : this.league('league/start-fixture', request)),
    'league/result': async (request) => this.league('league/result', request),
    'league/export': async (request) => this.league('league/export', request),
  };

  /** A table command's answer: the table's state once the change is made. */
  private async changeTable(request: { transaction: string; table: string }, change: (table: TableService) => Result<unknown> | Promise<Result<unknown>>): Promise<CommandResponse | null> {
    return this.onTable(request, async (table) => {
      const result = await change(table);
      return result.ok ? ok(table.state()) : result;
    });
  }

  private async onTable(request: { transaction: string; table: string }, run: (table: TableService) => Result<unknown> | Promise<Result<unknown>>): Promise<CommandResponse | null> {
    const table = this.ctx.table(request.table);
    if (!table) return this.noTable(request);
    return answer(request.transaction, await run(table));
  }

  /** A table this hub does not own: another hub that owns it answers; with none, an error. */
  private noTable(request: { transaction: string; table: string }): CommandResponse | null {
    return this.ctx.ownedElsewhere(request.table) ? null : { transaction: request.transaction, status: 'error', error: `table: no table '${request.table}' on this hub` };
  }

  private league<C extends LeagueCommandName>(name: C, request: CommandRequests[C]): CommandResponse {
    const league = this.ctx.league;
    if (!league) return { transaction: request.transaction, status: 'error', error: 'this hub keeps no league' };
    return answer(request.transaction, dispatch(league, name, request));
  }
}

function answer(transaction: string, result: Result<unknown>): CommandResponse {
  return result.ok ? { transaction, status: 'ok', data: result.value } : { transaction, status: 'error', error: result.error };
}
