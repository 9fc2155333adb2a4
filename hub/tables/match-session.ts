import type { TableConfig } from '../config/schema.ts';
import { decodeLine } from '../matchlog/decode.ts';
import { replayLog } from '../matchlog/replay.ts';
import type { LogFn } from '../ops/log.ts';
import type { MatchInput, MatchSetup, Shot, ShotEvent } from '../rules/events.ts';
import type { FoulKind } from '../rules/ids.ts';
import { Match } from '../rules/match.ts';
import { err, ok, type Result } from '../rules/result.ts';
import type { EventStore } from '../store/event-store.ts';
import { exportInningsCsv, exportMatchLog } from '../store/export.ts';
import type { HubClock } from './clock.ts';
import type { TableCounters } from './counters.ts';
import type { TablePublisher } from './publisher.ts';

export interface MatchSessionDeps {
  store: EventStore;
  publisher: Pick<TablePublisher, 'event'>;
  clock: HubClock;
  log?: LogFn;
  counters: TableCounters;
  /** After every change the displays must see: the table projects and publishes its state. */
  changed: () => void;
}

/** The referee's entries for the next shot the table cuts. */
export type NextShot = { declare: 'safety' | 'carom' | null; fouls: { foul: FoulKind; by: 'shooter' | 'opponent' }[] };

/**
 * A table's match: started, restored from its log, fed shots and referee lines, with the
 * shots that wait for a ruling. Every line is written to the store before it is published
 * (durable before visible); an input the rules refuse is neither.
 */
export class MatchSession {
  private readonly id: string;
  match: Match | null = null;
  matchId: number | null = null;
  setupLine: MatchSetup | null = null;
  /** Shots from the sensors that arrived while a prompt was open: applied after the ruling, in order. */
  readonly pending: { id: number; shot: Shot }[] = [];
  /** Fouls and a declaration the referee entered for the next shot the table cuts (extension `match/next-shot`). */
  nextShot: NextShot | null = null;
  /** When the match being played started (ISO 8601), for the displays' match clock. */
  matchStartedAt: string | null = null;

  constructor(
    private readonly config: TableConfig,
    private readonly deps: MatchSessionDeps,
  ) {
    this.id = config.id;
  }

  /** Rebuilds the match from the table's stored log (after a restart), or starts its default match. */
  restore(): void {
    const record = this.deps.store.latestMatches().find((m) => m.table === this.id);
    if (record) {
      const replayed = replayLog(record.lines.join('\n'));
      if (!replayed.ok) {
        this.deps.log?.('error', 'stored match does not replay; starting the table without it', { table: this.id, line: replayed.line, error: replayed.error });
      } else {
        this.match = replayed.match;
        this.matchId = record.id;
        this.matchStartedAt = record.startedAt;
        const first = decodeLine(record.lines[0]!);
        this.setupLine = first.ok && first.value.kind === 'match' ? first.value.match : null;
        for (const row of this.deps.store.pendingShots(record.id)) {
          const decoded = decodeLine(row.body);
          if (decoded.ok && decoded.value.kind === 'shot') this.pending.push({ id: row.id, shot: decoded.value.shot });
        }
        this.drainPending();
      }
    } else if (this.config.defaultMatch) {
      const started = this.startMatch(this.config.defaultMatch);
      if (!started.ok) this.deps.log?.('error', 'default match refused', { table: this.id, error: started.error });
    }
  }

  /** Starts the last match's setup again (the simulator between matches). */
  restartMatch(): Result<void> {
    return this.setupLine ? this.startMatch(this.setupLine) : err(`table ${this.id} has no match to restart`);
  }

  startMatch(setup: MatchSetup): Result<void> {
    const created = Match.create(setup);
    if (!created.ok) return created;
    const line = JSON.stringify({ match: setup });
    this.matchId = this.deps.store.startMatch(this.id, line, this.deps.clock.now(), this.deps.clock.iso());
    this.match = created.value;
    this.matchStartedAt = this.deps.clock.iso();
    this.setupLine = setup;
    this.pending.length = 0;
    this.deps.changed();
    this.deps.publisher.event(this.id, { type: 'match', table: this.id, at: this.deps.clock.iso(), action: 'started', detail: setup });
    return ok(undefined);
  }

  /** A shot or a referee line from the console, a tracker or the sensors. */
  input(input: MatchInput): Result<void> {
    const match = this.match;
    if (!match || this.matchId === null) return err(`table ${this.id} has no match: start one first`);
    const before = match.shotCount;
    const applied = match.apply(input);
    if (!applied.ok) return applied;
    const line = input.kind === 'shot' ? JSON.stringify({ shot: input.shot }) : JSON.stringify({ referee: input.referee });
    try {
      this.deps.store.append(this.id, this.matchId, input.kind, line, this.deps.clock.now(), this.deps.clock.iso());
    } catch (e) {
      match.apply({ kind: 'referee', referee: { action: 'undo' } }); // not stored, so not applied either
      return err(`the store refused the line: ${(e as Error).message}`);
    }
    this.afterInput(input, before);
    if (input.kind === 'referee') this.drainPending();
    return ok(undefined);
  }

  private afterInput(input: MatchInput, shotsBefore: number): void {
    const view = this.match!.view();
    if (input.kind === 'shot') {
      this.deps.counters.shots += 1;
      if (view.status === 'awaiting-referee') this.deps.counters.prompts += 1;
      const result = view.shots.length > shotsBefore ? view.shots[view.shots.length - 1]! : null;
      this.deps.publisher.event(this.id, { type: 'shot', table: this.id, at: this.deps.clock.iso(), result, events: [...input.shot.events], prompt: view.status === 'awaiting-referee' });
    } else {
      this.deps.publisher.event(this.id, { type: 'match', table: this.id, at: this.deps.clock.iso(), action: 'referee', detail: input.referee });
    }
    this.deps.changed();
  }

  /** The referee's fouls and declaration for the next shot; empty clears them. */
  setNextShot(next: NextShot): Result<void> {
    if (!this.match) return err(`table ${this.id} has no match: start one first`);
    this.nextShot = next.declare === null && next.fouls.length === 0 ? null : { declare: next.declare, fouls: [...next.fouls] };
    this.deps.changed();
    return ok(undefined);
  }

  /** A shot cut by the sensors or reported by a tracker, with what the referee entered for it. */
  withNextShot(shot: Shot): Shot {
    const next = this.nextShot;
    if (!next) return shot;
    this.nextShot = null;
    const fouls: ShotEvent[] = next.fouls.map((f) => ({ kind: 'foul', foul: f.foul, by: f.by }));
    return { ...shot, events: [...shot.events, ...fouls], ...(next.declare ? { declare: next.declare } : {}) };
  }

  /** Applies shots that waited for a ruling, while no new prompt opens. */
  private drainPending(): void {
    while (this.pending.length > 0 && this.match?.view().status === 'playing') {
      const next = this.pending.shift()!;
      const before = this.match.shotCount;
      const applied = this.match.apply({ kind: 'shot', shot: next.shot });
      if (!applied.ok) {
        this.deps.log?.('warn', 'a queued shot was refused', { table: this.id, error: applied.error });
        continue;
      }
      this.deps.store.append(this.id, this.matchId, 'shot', JSON.stringify({ shot: next.shot }), this.deps.clock.now(), this.deps.clock.iso(), { ref: next.id });
      this.afterInput({ kind: 'shot', shot: next.shot }, before);
    }
  }

  /** Scores a shot read at the table (queued while a prompt is open), or keeps it unscored for the record. */
  scoreShot(read: Shot, scoredHere: boolean): void {
    const events = [...read.events];
    const scored = scoredHere && this.match !== null;
    const shot: Shot = scored ? this.withNextShot(read) : read;
    const status = this.match?.view().status;
    if (this.match && this.matchId !== null && status === 'awaiting-referee' && (scoredHere || this.config.scoring === 'tracker')) {
      const id = this.deps.store.append(this.id, this.matchId, 'queued', JSON.stringify({ shot }), this.deps.clock.now(), this.deps.clock.iso());
      this.pending.push({ id, shot });
      this.deps.changed();
      return;
    }
    if (!scoredHere || !this.match || status !== 'playing') {
      // With a tracker, its shots (with ball ids) are scored; the sensors' view is kept for the record.
      // Or no match to score it in: kept in the log and shown, never scored.
      this.deps.counters.unscoredShots += 1;
      this.deps.store.append(this.id, this.matchId, 'sensor', JSON.stringify({ type: 'unscored-shot', events }), this.deps.clock.now(), this.deps.clock.iso());
      this.deps.publisher.event(this.id, { type: 'shot', table: this.id, at: this.deps.clock.iso(), result: null, events, prompt: false });
      return;
    }
    const result = this.input({ kind: 'shot', shot });
    if (!result.ok) this.deps.log?.('warn', 'a shot from the sensors was refused', { table: this.id, error: result.error });
  }


  exportLog(): Result<string> {
    if (this.matchId === null) return err(`table ${this.id} has no match to export`);
    return ok(exportMatchLog(this.deps.store.matchLines(this.matchId)));
  }

  exportCsv(): Result<string> {
    if (!this.match) return err(`table ${this.id} has no match to export`);
    return ok(exportInningsCsv(this.match.view(), this.match.adjustmentLog));
  }
}
