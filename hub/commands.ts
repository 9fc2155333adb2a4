import { createHash } from 'node:crypto';
import { commandSchemas, COMMANDS, type CommandName, type CommandResponse } from './contract/mqtt.ts';
import { describeIssues } from './rules/result.ts';
import type { TableService } from './tables/table-service.ts';
import type { Result } from './rules/result.ts';

/** The house league's commands (issue 8); absent on a hub without a league. */
export interface LeagueCommands {
  handle(name: Extract<CommandName, `league/${string}`>, request: Record<string, unknown>): Result<unknown>;
}

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
    const fail = (error: string): CommandResponse => ({ transaction, status: 'error', error });
    if (!(COMMANDS as string[]).includes(command)) return fail(`unknown command '${command}' (known: ${COMMANDS.join(', ')})`);
    const name = command as CommandName;
    if (typeof raw === 'object' && raw !== null && 'password' in raw) {
      return fail('password: requests no longer carry a password; log in to the broker as a referee user (docs/security.md)');
    }
    const parsed = commandSchemas[name].safeParse(raw);
    if (!parsed.success) return fail(describeIssues('', parsed.error));
    const request = parsed.data as Record<string, unknown>;

    if (name === 'hub/tables') return { transaction, status: 'ok', data: this.ctx.tables().map((t) => t.state()) };
    if (name.startsWith('league/')) return this.league(name as Extract<CommandName, `league/${string}`>, request, transaction);
    const tableId = request.table as string;
    const table = this.ctx.table(tableId);
    if (!table) return this.ctx.ownedElsewhere(tableId) ? null : fail(`table: no table '${tableId}' on this hub`);
    if (name === 'match/export') {
      const exported = request.format === 'csv' ? table.exportCsv() : table.exportLog();
      return exported.ok ? { transaction, status: 'ok', data: { format: request.format, content: exported.value } } : fail(exported.error);
    }

    let result: Result<unknown>;
    switch (name) {
      case 'match/start': {
        const { variant, players, target, options } = request as { variant: string; players: string[]; target: number; options?: Record<string, unknown> };
        result = table.startMatch({ variant, players, target, ...(options ? { options } : {}) });
        break;
      }
      case 'match/shot':
        result = table.input({ kind: 'shot', shot: request.shot as never });
        break;
      case 'match/referee':
        result = table.input({ kind: 'referee', referee: request.referee as never });
        break;
      case 'match/next-shot':
        result = table.setNextShot({ declare: request.declare as 'safety' | 'carom' | null, fouls: request.fouls as never });
        break;
      case 'table/thresholds':
        result = await this.ctx.setThresholds(tableId, request.channels as never);
        break;
      default:
        return fail(`command '${name}' is not handled`);
    }
    return result.ok ? { transaction, status: 'ok', data: table.state() } : fail(result.error);
  }

  private async league(name: Extract<CommandName, `league/${string}`>, request: Record<string, unknown>, transaction: string | null): Promise<CommandResponse | null> {
    const fail = (error: string): CommandResponse => ({ transaction, status: 'error', error });
    const league = this.ctx.league;
    if (!league) return fail('this hub keeps no league');
    if (name === 'league/start-fixture') {
      const tableId = request.table as string;
      if (!this.ctx.table(tableId)) return this.ctx.ownedElsewhere(tableId) ? null : fail(`table: no table '${tableId}' on this hub`);
    }
    const result = league.handle(name, request);
    return result.ok ? { transaction, status: 'ok', data: result.value } : fail(result.error);
  }
}
