import type { TableHealth, TableState } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import type { MatchInput, MatchSetup, Shot, ShotEvent } from '../rules/events.ts';
import { ok, type Result } from '../rules/result.ts';
import type { SegmenterOutput } from '../pipeline/segmenter.ts';
import type { SensorEvent } from '../pipeline/sensor-events.ts';
import type { EventStore } from '../store/event-store.ts';
import type { HubClock } from './clock.ts';
import type { TableCounters } from './counters.ts';
import { HealthMonitor } from './health-monitor.ts';
import { MatchSession, type NextShot } from './match-session.ts';
import type { TablePublisher } from './publisher.ts';
import { SensorIntake } from './sensor-intake.ts';
import { StateProjection } from './state-projection.ts';
import type { StatusFrameMode } from '../pipeline/status-frames.ts';
import { ShotPairing, type PairedBy } from '../camera/shot-pairing.ts';
import type { CameraPaths } from '../camera/frame-processor.ts';

export type { TableCounters };

export interface TableDeps {
  store: EventStore;
  publisher: TablePublisher;
  clock: HubClock;
  hubId: string;
  simulated: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** Called with every state the table publishes, after it is published (the hub announces states on its event bus instead: hub/tables/bus-publisher.ts). */
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

/**
 * One table, as the rest of the hub sees it: a thin facade over its parts, each with one job:
 * the match (match-session.ts), the sensor stream (sensor-intake.ts), the published state
 * (state-projection.ts) and the health (health-monitor.ts). What is left here is the wiring:
 * where a shot the sensors, a tracker or a camera read goes.
 */
export class TableService {
  readonly id: string;
  private readonly session: MatchSession;
  private readonly intake: SensorIntake;
  private readonly projection: StateProjection;
  private readonly health: HealthMonitor;
  /** `camera+sensors`: the camera's and the sensors' readings of a shot meet here (hub/camera/). */
  readonly pairing: ShotPairing | null;
  /** Hub time of the tracker's last strike: its shot's `t` count from there. */
  private strikeAt: number | null = null;
  /** A tracker struck a shot and has not sent it yet. */
  private trackerStruck = false;
  readonly counters: TableCounters = { sensorEvents: 0, shots: 0, prompts: 0, unscoredShots: 0, statusFramesSkipped: 0, strikesWithdrawn: 0 };

  constructor(
    readonly config: TableConfig,
    private readonly deps: TableDeps,
  ) {
    this.id = config.id;
    const { store, publisher, clock, log, counters } = { ...deps, counters: this.counters };
    this.session = new MatchSession(config, { store, publisher, clock, log, counters, changed: () => this.changed() });
    this.health = new HealthMonitor(config, { publisher, clock, promptWaiting: () => this.session.match?.view().status === 'awaiting-referee', cameraHealth: deps.cameraHealth });
    this.intake = new SensorIntake(config, {
      store,
      publisher,
      clock,
      counters,
      matchId: () => this.session.matchId,
      noteHealth: (event, at) => this.health.note(event, at),
      statusFrames: deps.statusFrames,
      observeEventLatency: deps.observeEventLatency,
      overloaded: deps.overloaded,
    });
    this.pairing =
      config.scoring === 'camera+sensors'
        ? new ShotPairing({ waitMs: config.camera?.pairWaitMs ?? 5000, frameMs: 1000 / (config.camera?.fps ?? 30), clockToleranceMs: config.camera?.clockToleranceMs ?? 40, score: (shot, how) => this.pairedShot(shot, how) })
        : null;
    this.projection = new StateProjection(config, { clock, hubId: deps.hubId, simulated: deps.simulated, changesSoFar: store.changes(config.id) });
  }

  /** Rebuilds the table from its stored log (after a restart), or starts its default match. */
  restore(): void {
    this.session.restore();
    this.publishState();
    this.health.publishHealth();
    this.health.publishAvailability();
  }

  /** Starts the last match's setup again (the simulator between matches). */
  restartMatch(): Result<void> {
    return this.session.restartMatch();
  }

  startMatch(setup: MatchSetup): Result<void> {
    return this.session.startMatch(setup);
  }

  /** A shot or a referee line from the console, a tracker or the sensors. */
  input(input: MatchInput): Result<void> {
    return this.session.input(input);
  }

  /** The referee's fouls and declaration for the next shot; empty clears them. */
  setNextShot(next: NextShot): Result<void> {
    return this.session.setNextShot(next);
  }

  /** The ball the player at the table strikes next (null: no match, or none to strike). */
  cueBall(): string | null {
    return this.session.match?.view().cueBall ?? null;
  }

  /** A tracker's shot (ball ids known): scored like any shot, with the referee's entries for it. */
  trackerShot(shot: Shot): Result<void> {
    this.trackerStruck = false;
    if (this.pairing) return this.cameraShot(shot, this.strikeAt);
    return this.input({ kind: 'shot', shot: this.session.withNextShot(shot) });
  }

  /**
   * `camera+sensors`: the camera's shot, its `t` counted from hub time `timeBase` (null: not
   * known), waits for the sensors' shot of the same play and is fused with it.
   */
  cameraShot(shot: Shot, timeBase: number | null, paths?: CameraPaths): Result<void> {
    this.trackerStruck = false;
    if (!this.pairing) return this.input({ kind: 'shot', shot: this.session.withNextShot(shot) });
    this.pairing.cameraShot(shot, timeBase, this.deps.clock.now(), paths);
    return ok(undefined);
  }

  /** One event from the table's sensors: stored, published, and fed to the shot segmenter. */
  sensor(event: SensorEvent): void {
    this.handle(this.intake.sensor(event));
  }

  /** Hub time at which `tick` may end the shot in progress; null when the balls are at rest. */
  get shotEndDue(): number | null {
    return this.intake.segmenter.quietUntil;
  }

  /** Timer: ends a shot after the quiet window. */
  tick(now = this.deps.clock.now()): void {
    this.handle(this.intake.segmenter.tick(now));
    this.pairing?.tick(now);
    this.health.tick();
  }

  /** A tracker or the referee says the balls are at rest, or a cue strike was seen. */
  endShot(by: 'referee' | 'tracker', seenAt?: number): void {
    this.handle(this.intake.segmenter.end(this.deps.clock.now(), by, seenAt));
  }

  /**
   * A tracker (the table's camera, or one on MQTT) says the balls are at rest. With no shot
   * from it since its strike, it saw no ball leave its place (a knock on the camera's mount,
   * a resting ball's centre hopping: tracker.ts, shotIfAny) and takes the strike back: the
   * shot the strike began is dropped when the sensors heard nothing in it, before or after
   * the sensors' own shot ended; otherwise it ends as at any rest. Counted and logged here.
   */
  trackerRest(seenAt?: number): void {
    if (!this.trackerStruck) return this.endShot('tracker', seenAt);
    this.trackerStruck = false;
    this.counters.strikesWithdrawn += 1;
    let dropped = this.intake.segmenter.withdraw();
    if (!dropped) {
      this.endShot('tracker', seenAt);
      dropped = this.pairing?.noCameraShot() ?? false;
    }
    this.deps.log?.('info', 'tracker: a strike taken back (rest with no shot: no ball left its place)', { table: this.id, shotDropped: dropped });
  }

  /** `late`: the strike happened at hub time `at`, seen up to `lateMs` late (a camera's; see ShotSegmenter.strike). */
  strike(late?: { at: number; lateMs: number }): void {
    this.trackerStruck = true;
    this.strikeAt = this.deps.clock.now();
    this.handle(this.intake.segmenter.strike(this.deps.clock.now(), late));
  }

  private handle(outputs: SegmenterOutput[]): void {
    for (const out of outputs) {
      if (out.type !== 'shot-complete') continue;
      this.projection.shotEnded();
      this.health.shot(new Set(out.events.flatMap((e) => (e.kind === 'cushion' ? [e.rail] : []))));
      this.sensorShot(out.events, out.startedAt);
      this.health.publishHealth();
    }
  }

  private sensorShot(events: ShotEvent[], startedAt: number): void {
    if (this.pairing) this.pairing.sensorShot(events, startedAt, this.deps.clock.now());
    else this.session.scoreShot({ events }, this.config.scoring === 'sensors');
  }

  /** A shot from the camera and sensors together (or one of them alone, when the other did not come). */
  private pairedShot(shot: Shot, how: PairedBy): void {
    if (how !== 'fused') this.deps.log?.('info', 'camera+sensors: shot not fused', { table: this.id, how });
    this.session.scoreShot(shot, how !== 'late');
  }


  private changed(): void {
    this.projection.changed();
    this.publishState();
  }

  private publishState(): void {
    const state = this.state();
    this.deps.publisher.state(this.id, state);
    this.deps.onState?.(state);
  }

  /** Publishes the table's health now (the camera's state changed). */
  refreshHealth(): void {
    this.health.publishHealth();
  }

  healthView(): TableHealth {
    return this.health.healthView();
  }

  get isOnline(): boolean {
    return this.health.isOnline;
  }

  state(): TableState {
    return this.projection.state(this.session);
  }

  exportLog(): Result<string> {
    return this.session.exportLog();
  }

  exportCsv(): Result<string> {
    return this.session.exportCsv();
  }
}
