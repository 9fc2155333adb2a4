import type { TableEvent, TableHealth, TableState } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import { decodeLine } from '../matchlog/decode.ts';
import { replayLog } from '../matchlog/replay.ts';
import type { MatchInput, MatchSetup, Shot, ShotEvent } from '../rules/events.ts';
import type { FoulKind, Rail, SkittleId } from '../rules/ids.ts';
import { Match } from '../rules/match.ts';
import { err, ok, type Result } from '../rules/result.ts';
import { ShotSegmenter, type SegmenterOutput } from '../pipeline/segmenter.ts';
import type { SensorEvent } from '../pipeline/sensor-events.ts';
import type { EventStore } from '../store/event-store.ts';
import { exportInningsCsv, exportMatchLog } from '../store/export.ts';
import type { HubClock } from './clock.ts';
import { HealthTracker } from './health.ts';
import type { TablePublisher } from './publisher.ts';
import { shed } from '../ops/shed.ts';
import { StatusFrameFilter, type StatusFrameMode } from '../pipeline/status-frames.ts';
import { ShotPairing, type PairedBy } from '../camera/shot-pairing.ts';

/** How many shots the retained state carries (CONTRACT §3). */
const STATE_SHOTS = 20;
/** While a board is online its heartbeats publish the health at most this often. */
const HEALTH_EVERY_MS = 3000;

export interface TableDeps {
  store: EventStore;
  publisher: TablePublisher;
  clock: HubClock;
  hubId: string;
  simulated: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** Called with every state the table publishes, after it is published (the league's hook). */
  onState?: (state: TableState) => void;
  /** Which status frames (vibration, heartbeats) are stored and published; all of them when absent. */
  statusFrames?: { mode: StatusFrameMode; keepAliveMs: number };
  /** Milliseconds from a sensor event on the board (hubTime: its board time on the hub clock) to its publish, stored first. */
  observeEventLatency?: (ms: number) => void;
  /** The table's overhead camera, if it has one: frame rate, drops, detection state (hub/camera/). */
  cameraHealth?: () => TableHealth['camera'] | null;
  /** True while the hub is behind (a flood): status frames beyond the essential ones are shed. */
  overloaded?: () => boolean;
}

export interface TableCounters {
  sensorEvents: number;
  shots: number;
  prompts: number;
  unscoredShots: number;
  /** Status frames not stored (and not published) because they carried no news. */
  statusFramesSkipped: number;
}

/**
 * One table: its sensors' shots, its match, its log. Every change is written to the store
 * before it is published (durable before visible); an input the rules refuse is neither.
 */
export class TableService {
  readonly id: string;
  private match: Match | null = null;
  private matchId: number | null = null;
  private setupLine: MatchSetup | null = null;
  private readonly segmenter: ShotSegmenter;
  private readonly statusFilter: StatusFrameFilter;
  /**
   * The status frames kept even under overload: a heartbeat whose skittle switches changed,
   * the first frames after the link or the board (re)starts, and one of each kind per
   * keep-alive interval (the rest level is never crossed, so moving samples are not essential).
   */
  private readonly essentialStatus: StatusFrameFilter;
  private readonly health: HealthTracker;
  /** Shots from the sensors that arrived while a prompt was open: applied after the ruling, in order. */
  private readonly pending: { id: number; shot: Shot }[] = [];
  /** Fouls and a declaration the referee entered for the next shot the table cuts (extension `match/next-shot`). */
  private nextShot: { declare: 'safety' | 'carom' | null; fouls: { foul: FoulKind; by: 'shooter' | 'opponent' }[] } | null = null;
  private seq: number;
  private updatedAt: string;
  private lastShotEndedAt: string | null = null;
  private online = false;
  /** `camera+sensors`: the camera's and the sensors' readings of a shot meet here (hub/camera/). */
  readonly pairing: ShotPairing | null;
  /** Hub time of the tracker's last strike: its shot's `t` count from there. */
  private strikeAt: number | null = null;
  /** When the health was last published, and whether drops since then still need publishing. */
  private healthPublishedAt = -Infinity;
  private healthDue = false;
  /** When the match being played started (ISO 8601), for the displays' match clock. */
  private matchStartedAt: string | null = null;
  readonly counters: TableCounters = { sensorEvents: 0, shots: 0, prompts: 0, unscoredShots: 0, statusFramesSkipped: 0 };

  constructor(
    readonly config: TableConfig,
    private readonly deps: TableDeps,
  ) {
    this.id = config.id;
    const rails = Object.fromEntries(Object.entries(config.rails).map(([ch, rail]) => [Number(ch), rail])) as Record<number, Rail>;
    const skittles = Object.fromEntries(Object.entries(config.skittles).map(([i, s]) => [Number(i), s])) as Record<number, SkittleId>;
    this.segmenter = new ShotSegmenter({ rails, skittles, quietWindowMs: config.quietWindowMs, restVibrationLevel: config.restVibrationLevel, railMergeMs: config.railMergeMs, crossRailMs: config.crossRailMs, crossRailRatio: config.crossRailRatio });
    this.statusFilter = new StatusFrameFilter({ mode: deps.statusFrames?.mode ?? 'all', keepAliveMs: deps.statusFrames?.keepAliveMs ?? 60_000, restVibrationLevel: config.restVibrationLevel });
    this.essentialStatus = new StatusFrameFilter({ mode: 'changes', keepAliveMs: deps.statusFrames?.keepAliveMs ?? 60_000, restVibrationLevel: Infinity });
    this.health = new HealthTracker(config.id, Object.values(rails), deps.clock.iso());
    this.pairing =
      config.scoring === 'camera+sensors'
        ? new ShotPairing({ waitMs: config.camera?.pairWaitMs ?? 5000, frameMs: 1000 / (config.camera?.fps ?? 30), clockToleranceMs: config.camera?.clockToleranceMs ?? 40, score: (shot, how) => this.pairedShot(shot, how) })
        : null;
    this.seq = deps.store.changes(config.id);
    this.updatedAt = deps.clock.iso();
  }

  /** Rebuilds the table from its stored log (after a restart), or starts its default match. */
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
    this.publishState();
    this.publishHealth();
    this.deps.publisher.availability(this.id, { state: this.online ? 'online' : 'offline' });
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
    this.changed();
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
      this.counters.shots += 1;
      if (view.status === 'awaiting-referee') this.counters.prompts += 1;
      const result = view.shots.length > shotsBefore ? view.shots[view.shots.length - 1]! : null;
      this.deps.publisher.event(this.id, { type: 'shot', table: this.id, at: this.deps.clock.iso(), result, events: [...input.shot.events], prompt: view.status === 'awaiting-referee' });
    } else {
      this.deps.publisher.event(this.id, { type: 'match', table: this.id, at: this.deps.clock.iso(), action: 'referee', detail: input.referee });
    }
    this.changed();
  }

  /** The referee's fouls and declaration for the next shot; empty clears them. */
  setNextShot(next: { declare: 'safety' | 'carom' | null; fouls: { foul: FoulKind; by: 'shooter' | 'opponent' }[] }): Result<void> {
    if (!this.match) return err(`table ${this.id} has no match: start one first`);
    this.nextShot = next.declare === null && next.fouls.length === 0 ? null : { declare: next.declare, fouls: [...next.fouls] };
    this.changed();
    return ok(undefined);
  }

  /** A shot cut by the sensors or reported by a tracker, with what the referee entered for it. */
  private withNextShot(shot: Shot): Shot {
    const next = this.nextShot;
    if (!next) return shot;
    this.nextShot = null;
    const fouls: ShotEvent[] = next.fouls.map((f) => ({ kind: 'foul', foul: f.foul, by: f.by }));
    return { ...shot, events: [...shot.events, ...fouls], ...(next.declare ? { declare: next.declare } : {}) };
  }

  /** A tracker's shot (ball ids known): scored like any shot, with the referee's entries for it. */
  trackerShot(shot: Shot): Result<void> {
    if (this.pairing) return this.cameraShot(shot, this.strikeAt);
    return this.input({ kind: 'shot', shot: this.withNextShot(shot) });
  }

  /**
   * `camera+sensors`: the camera's shot, its `t` counted from hub time `timeBase` (null: not
   * known), waits for the sensors' shot of the same play and is fused with it.
   */
  cameraShot(shot: Shot, timeBase: number | null): Result<void> {
    if (!this.pairing) return this.input({ kind: 'shot', shot: this.withNextShot(shot) });
    this.pairing.cameraShot(shot, timeBase, this.deps.clock.now());
    return ok(undefined);
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

  /** One event from the table's sensors: stored, published, and fed to the shot segmenter. */
  sensor(event: SensorEvent): void {
    this.counters.sensorEvents += 1;
    const at = this.deps.clock.iso();
    const stamped = 'seq' in event ? { boardUs: event.boardUs, seq: event.seq } : {};
    const published = toTableEvent(this.id, event, at, this.config);
    // Asked of every event: a link or board event starts the status frames afresh.
    const news = this.statusFilter.keep(event);
    // Asked of every event too, so it knows the last kept frame when an overload begins.
    const essential = this.essentialStatus.keep(event);
    if (event.type === 'dropped') {
      // Counted, not logged row by row: line noise drops hundreds of frames a second.
      this.deps.store.addDrops(this.id, event.source, event.count);
      this.noteHealth(event, at);
    } else if (event.type === 'link') {
      // Rare, and it changes the table's availability and health at once: stored now.
      this.deps.store.append(this.id, this.matchId, 'link', JSON.stringify(event), event.hubTime, at, stamped);
      this.noteHealth(event, at);
      if (published) this.deps.publisher.event(this.id, published);
    } else if (!news) {
      // A status frame with no news (configured): the segmenter and health still read it.
      this.counters.statusFramesSkipped += 1;
      this.noteHealth(event, at);
    } else if (!essential && (event.type === 'vibration' || event.type === 'heartbeat') && this.deps.overloaded?.()) {
      // Overload policy (issue 18): a status frame the segmenter and health have read is
      // neither stored nor published while the hub is behind. Hits, clicks and skittles are never shed.
      shed.count('status-frame');
      this.noteHealth(event, at);
    } else {
      // The stream itself: group-committed, published once stored. The segmenter reads it at
      // once; a shot it ends is stored after these rows (append commits the queue first).
      this.noteHealth(event, at);
      this.deps.store.appendSoon(this.id, this.matchId, 'sensor', JSON.stringify(event), event.hubTime, at, stamped, () => {
        if (!published) return;
        this.deps.publisher.event(this.id, published);
        this.deps.observeEventLatency?.(this.deps.clock.now() - event.hubTime);
      });
    }
    this.handle(this.segmenter.push(event));
  }

  /** Hub time at which `tick` may end the shot in progress; null when the balls are at rest. */
  get shotEndDue(): number | null {
    return this.segmenter.quietUntil;
  }

  /** Timer: ends a shot after the quiet window. */
  tick(now = this.deps.clock.now()): void {
    this.handle(this.segmenter.tick(now));
    this.pairing?.tick(now);
    if (this.healthDue && this.deps.clock.now() - this.healthPublishedAt >= 1000) this.publishHealth();
  }

  /** A tracker or the referee says the balls are at rest, or a cue strike was seen. */
  endShot(by: 'referee' | 'tracker', seenAt?: number): void {
    this.handle(this.segmenter.end(this.deps.clock.now(), by, seenAt));
  }

  /** `late`: the strike happened at hub time `at`, seen up to `lateMs` late (a camera's; see ShotSegmenter.strike). */
  strike(late?: { at: number; lateMs: number }): void {
    this.strikeAt = this.deps.clock.now();
    this.handle(this.segmenter.strike(this.deps.clock.now(), late));
  }

  private handle(outputs: SegmenterOutput[]): void {
    for (const out of outputs) {
      if (out.type !== 'shot-complete') continue;
      this.lastShotEndedAt = this.deps.clock.iso();
      this.health.shot(new Set(out.events.flatMap((e) => (e.kind === 'cushion' ? [e.rail] : []))));
      this.sensorShot(out.events, out.startedAt);
      this.publishHealth();
    }
  }

  private sensorShot(events: ShotEvent[], startedAt: number): void {
    if (this.pairing) this.pairing.sensorShot(events, startedAt, this.deps.clock.now());
    else this.scoreShot({ events }, this.config.scoring === 'sensors');
  }

  /** A shot from the camera and sensors together (or one of them alone, when the other did not come). */
  private pairedShot(shot: Shot, how: PairedBy): void {
    if (how !== 'fused') this.deps.log?.('info', 'camera+sensors: shot not fused', { table: this.id, how });
    this.scoreShot(shot, how !== 'late');
  }

  /** Scores a shot read at the table (queued while a prompt is open), or keeps it unscored for the record. */
  private scoreShot(read: Shot, scoredHere: boolean): void {
    const events = [...read.events];
    const scored = scoredHere && this.match !== null;
    const shot: Shot = scored ? this.withNextShot(read) : read;
    const status = this.match?.view().status;
    if (this.match && this.matchId !== null && status === 'awaiting-referee' && (scoredHere || this.config.scoring === 'tracker')) {
      const id = this.deps.store.append(this.id, this.matchId, 'queued', JSON.stringify({ shot }), this.deps.clock.now(), this.deps.clock.iso());
      this.pending.push({ id, shot });
      this.changed();
      return;
    }
    if (!scoredHere || !this.match || status !== 'playing') {
      // With a tracker, its shots (with ball ids) are scored; the sensors' view is kept for the record.
      // Or no match to score it in: kept in the log and shown, never scored.
      this.counters.unscoredShots += 1;
      this.deps.store.append(this.id, this.matchId, 'sensor', JSON.stringify({ type: 'unscored-shot', events }), this.deps.clock.now(), this.deps.clock.iso());
      this.deps.publisher.event(this.id, { type: 'shot', table: this.id, at: this.deps.clock.iso(), result: null, events, prompt: false });
      return;
    }
    const result = this.input({ kind: 'shot', shot });
    if (!result.ok) this.deps.log?.('warn', 'a shot from the sensors was refused', { table: this.id, error: result.error });
  }

  private noteHealth(event: SensorEvent, at: string): void {
    switch (event.type) {
      case 'link':
        this.online = event.state === 'up';
        this.health.linkChanged(event.state, at);
        this.deps.publisher.availability(this.id, { state: this.online ? 'online' : 'offline' });
        this.publishHealth();
        break;
      case 'heartbeat':
        this.health.heartbeat(at);
        // Boards beat several times a second: publish every few seconds so the overview's heartbeat age stays true.
        if (this.deps.clock.now() - this.healthPublishedAt >= HEALTH_EVERY_MS) this.publishHealth();
        break;
      case 'dropped':
        this.health.dropped(event.count);
        // At most once a second (the rest at the next tick): not a health message per dropped frame.
        if (this.deps.clock.now() - this.healthPublishedAt >= 1000) this.publishHealth();
        else this.healthDue = true;
        break;
      case 'board':
        if (event.reason === 'reset') this.health.boardReset();
        break;
      case 'board-settings': {
        const { type: _type, hubTime: _hubTime, ...board } = event;
        this.health.boardSettings(board);
        this.publishHealth();
        break;
      }
      case 'skittle': {
        const skittle = this.config.skittles[String(event.index)];
        if (skittle) this.health.skittle(skittle, event.state);
        break;
      }
      default:
        break;
    }
  }

  private changed(): void {
    this.seq += 1;
    this.updatedAt = this.deps.clock.iso();
    this.publishState();
  }

  private publishState(): void {
    const state = this.state();
    this.deps.publisher.state(this.id, state);
    this.deps.onState?.(state);
  }

  private publishHealth(): void {
    this.healthDue = false;
    this.healthPublishedAt = this.deps.clock.now();
    this.deps.publisher.health(this.id, this.healthView());
  }

  /** Publishes the table's health now (the camera's state changed). */
  refreshHealth(): void {
    this.publishHealth();
  }

  healthView(): TableHealth {
    const view = this.health.view(this.match?.view().status === 'awaiting-referee', this.deps.clock.iso());
    const camera = this.deps.cameraHealth?.();
    return { ...view, ...(camera ? { camera } : {}), scoring: this.config.scoring };
  }

  get isOnline(): boolean {
    return this.online;
  }

  state(): TableState {
    const view = this.match?.view();
    const common = {
      table: this.id,
      seq: this.seq,
      updatedAt: this.updatedAt,
      hub: this.deps.hubId,
      simulated: this.deps.simulated,
      lastShotEndedAt: this.lastShotEndedAt,
      pendingShots: this.pending.length,
      nextShot: this.nextShot,
      ...(this.config.name ? { name: this.config.name } : {}),
      ...(this.matchStartedAt ? { matchStartedAt: this.matchStartedAt } : {}),
      adjustments: this.match ? this.match.adjustmentLog.map((a) => ({ ...a })) : [],
      match: this.setupLine ? { variant: this.setupLine.variant, players: [...this.setupLine.players], target: this.setupLine.target, options: { ...(this.setupLine.options ?? {}) } } : null,
    };
    if (!view) {
      return { variant: null, family: null, scoring: null, status: 'idle', winner: null, turn: null, players: [], prompt: null, shots: [], cueBall: null, endRule: null, instructions: [], shotCount: 0, ...common };
    }
    return { ...view, shots: view.shots.slice(-STATE_SHOTS), shotCount: view.shots.length, ...common };
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

function toTableEvent(table: string, event: SensorEvent, at: string, config: TableConfig): TableEvent | null {
  // One literal per kind, no shared base spread into it: this runs for every frame.
  const { hubTime } = event;
  const boardUs = 'boardUs' in event ? event.boardUs : null;
  const seq = 'seq' in event ? event.seq : null;
  switch (event.type) {
    case 'rail-hit':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'rail-hit', channel: event.channel, rail: config.rails[String(event.channel)] ?? 'unmapped', amplitude: event.amplitude };
    case 'click':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'click', amplitude: event.amplitude };
    case 'vibration':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'vibration', level: event.level };
    case 'skittle':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'skittle', skittle: config.skittles[String(event.index)] ?? `switch-${event.index}`, state: event.state };
    case 'link':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'link', state: event.state };
    default:
      return null;
  }
}
