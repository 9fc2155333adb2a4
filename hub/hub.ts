import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { topics, type TableState } from './contract/mqtt.ts';
import { CommandHandler } from './commands.ts';
import type { HubConfig, TableConfig } from './config/schema.ts';
import { HubEventBus } from './events.ts';
import { CameraExtension, DEFAULT_EXTENSIONS, LeagueExtension, MetricsExtension, type Extension, type ExtensionFactory, type HubContext } from './extensions/index.ts';
import { ExtensionRunner } from './extensions/extension.ts';
import type { EmbeddedBroker, RefusalReason } from './mqtt/broker.ts';
import { reachBroker, type ReachBrokerOptions } from './mqtt/reach-broker.ts';
import type { InProcessClient } from './mqtt/in-process-client.ts';
import { MqttLink, type ReplyTo } from './mqtt/link.ts';
import { rateLimitedLog, silentLog, type LogFn } from './ops/log.ts';
import type { SensorSource } from './sources/source.ts';
import { EventStore } from './store/event-store.ts';
import { busPublisher } from './tables/bus-publisher.ts';
import { systemClock, type HubClock } from './tables/clock.ts';
import { TableService } from './tables/table-service.ts';
import { err, type Result } from './rules/result.ts';
import { leagueCommands, type LeagueService } from './league/service.ts';
import type { TableCameras } from './camera/table-cameras.ts';
import { cameraAloneWarning } from './camera/scoring-safety.ts';
import type { ProcessorSpec } from './camera/frame-processor.ts';
import { InputHold } from './ops/input-hold.ts';

/**
 * The overload policy's thresholds (issue 18). 500 rows in one group commit is 150 ms of
 * 64 tables at the firmware's rate; past these the hub is behind, and status frames beyond
 * the essential ones are shed until it has caught up (it recovers as soon as the queues drain).
 */
const SHED_ABOVE_QUEUED_ROWS = 500;
const SHED_ABOVE_BROKER_BACKLOG = 2000;
const HOLD_CHECK_MS = 100;
/** The broker settings are reachBroker's (hub/mqtt/reach-broker.ts), which says what each means. */
export interface HubOptions extends Pick<ReachBrokerOptions, 'mqttUrl' | 'mqttUsername' | 'mqttPassword' | 'allowOpenBroker' | 'mqttHost' | 'mqttPort' | 'mqttWsPort'> {
  config: HubConfig;
  dataDir: string;
  /** Builds each table's sensor source; injected so tests and the simulator can plug in. */
  sourceFor: (table: TableConfig) => SensorSource;
  clock?: HubClock;
  log?: LogFn;
  /**
   * Each shot in progress has a timer for the end of its quiet window; this sweep (ms) is
   * the backstop behind those timers.
   */
  tickMs?: number;
  /** False: no per-shot timers, shots end only at the sweep or by hand (tests that drive time). */
  shotEndTimers?: boolean;
  /** The detector the tables' cameras run (issue 15's hub/vision/); without one, cameras give health and clips only. */
  cameraProcessor?: ProcessorSpec | null;
  /** Camera files play at their own frame rate (default) or as fast as they decode (tests). */
  cameraRealtime?: boolean;
  /** Each table state, after the league has read it (the demo's league director). */
  onTableState?: (state: TableState) => void;
  /**
   * The features around the core, in start order (hub/extensions/): the composition root
   * registers them; absent, the hub runs DEFAULT_EXTENSIONS.
   */
  extensions?: readonly ExtensionFactory[];
}

/**
 * The hub's core: tables (sensor source → shots → rules → store), the MQTT link (embedded
 * broker by default) and the commands; everything else (league, Home Assistant, metrics,
 * tracker and camera input, health publishing) is an extension (hub/extensions/) that
 * reacts to the event bus (hub/events.ts). Construction has no effects; start() builds the
 * core, starts the extensions, then restores the tables, connects and starts the sources;
 * stop() undoes it in reverse.
 */
export class Hub {
  readonly tables = new Map<string, TableService>();
  private readonly sources = new Map<string, SensorSource>();
  private store: EventStore | null = null;
  private broker: EmbeddedBroker | null = null;
  private link: MqttLink | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Backpressure on the boards' links under a sustained overload, checked every HOLD_CHECK_MS. */
  private readonly inputHold = new InputHold();
  private holdTimer: NodeJS.Timeout | null = null;
  private readonly shotEndTimers = new Map<string, NodeJS.Timeout>();
  private commands: CommandHandler | null = null;
  private readonly remoteTables = new Map<string, Set<string>>();
  /** What the embedded broker refused, by reason (for /metrics). */
  private readonly brokerRefusals = new Map<RefusalReason, number>();
  private readonly clock: HubClock;
  private readonly log: LogFn & { flush(): void };
  /** What happens in the core, for the extensions (a failing listener is isolated and counted). */
  readonly events: HubEventBus;
  private readonly runner: ExtensionRunner;
  /** Every extension built for this start (running or not: one may have failed to start). */
  private extensions: Extension[] = [];
  mqttUrl = '';
  /** The embedded broker's WebSocket endpoint, when it has one. */
  mqttWsUrl: string | null = null;

  constructor(private readonly options: HubOptions) {
    this.clock = options.clock ?? systemClock;
    // A failure that repeats with every frame (a full disk) is logged once a window, with a count.
    this.log = rateLimitedLog(options.log ?? silentLog);
    this.events = new HubEventBus(this.log);
    this.runner = new ExtensionRunner(this.log, this.events);
  }

  /** The house league (issue 8), while its extension runs. */
  get league(): LeagueService | null {
    return this.running(LeagueExtension)?.service ?? null;
  }

  /** The tables' overhead cameras (hub/camera/), with their replay clips, while their extension runs. */
  get cameras(): TableCameras | null {
    return this.running(CameraExtension)?.cameras ?? null;
  }

  private running<T extends Extension>(kind: abstract new (...args: never[]) => T): T | null {
    return (this.runner.active.find((e) => e instanceof kind) as T | undefined) ?? null;
  }

  get hubId(): string {
    return this.options.config.hub.id;
  }

  async start(): Promise<void> {
    const { config } = this.options;
    // Opened first: a store that cannot be opened stops the start before any port is taken.
    this.store = new EventStore(join(this.options.dataDir, 'hub.sqlite'), {
      checkpointInWorker: true,
      writeInWorker: config.store.writerThread,
      onWriterReady: () => this.log('info', "the sensor stream is busy: the store's group commits go to its writer thread"),
      onWriterLost: (error) => this.log('warn', "the store's writer thread failed; the hub thread writes from now on", { error: error.message }),
      groupCommitMs: config.store.groupCommitMs,
      onGroupError: (error, rows) => this.log('error', 'sensor events could not be stored; they were not published', { rows, error: error.message }),
      onWritable: (failedWrites) => this.log('info', 'the store takes writes again', { failedWrites }),
    });
    const store = this.store;

    const reached = await reachBroker({ ...this.options, log: this.log, onRefused: (reason) => this.brokerRefusals.set(reason, (this.brokerRefusals.get(reason) ?? 0) + 1) });
    this.broker = reached.broker;
    this.mqttUrl = reached.mqttUrl;
    this.mqttWsUrl = reached.mqttWsUrl;

    const broker = this.broker;
    const link = new MqttLink({
      url: this.mqttUrl,
      ...(broker ? { connect: () => broker.client() } : {}),
      username: this.options.mqttUsername,
      password: this.options.mqttPassword,
      baseTopic: config.hub.baseTopic,
      hubId: config.hub.id,
      snapshot: () => ({
        states: [...this.tables.values()].map((t) => t.state()),
        availability: [...this.tables.values()].map((t) => [t.id, { state: t.isOnline ? 'online' : 'offline' }] as [string, { state: 'online' | 'offline' }]),
        health: [...this.tables.values()].map((t) => t.healthView()),
        extra: this.runner.active.flatMap((e) => e.retained?.() ?? []),
      }),
      onRequest: (command, payload, replyTo) => void this.request(command, payload, replyTo),
      onTracker: (table, payload) => this.events.emit('tracker-message', { table, payload }),
      onHubState: (hub, tables) => this.noteRemoteHub(hub, tables),
      observeLatency: (ms) => this.events.emit('publish-acked', { ms }),
      log: this.log,
    });
    this.link = link;

    const brokerNow = this.broker;
    // Behind: more rows waiting for this turn's commit, or more messages waiting in the broker, than a venue makes.
    const overloaded = () => store.queuedRows >= SHED_ABOVE_QUEUED_ROWS || (brokerNow?.backlog() ?? 0) >= SHED_ABOVE_BROKER_BACKLOG;
    const publisher = busPublisher(link, this.events);
    for (const tableConfig of config.tables) {
      const unsafe = cameraAloneWarning(tableConfig);
      if (unsafe) this.log('warn', unsafe, { table: tableConfig.id });
      const source = this.options.sourceFor(tableConfig);
      const table = new TableService(tableConfig, { store, publisher, clock: this.clock, hubId: config.hub.id, simulated: source.simulated, log: this.log, cameraHealth: () => this.cameras?.health(tableConfig.id) ?? null, statusFrames: { mode: config.store.statusFrames, keepAliveMs: config.store.keepAliveMs }, overloaded });
      this.tables.set(tableConfig.id, table);
      this.sources.set(tableConfig.id, source);
      source.attach?.({
        state: () => table.state(),
        trackerShot: (shot) => {
          const applied = table.trackerShot(shot);
          if (!applied.ok) this.log('warn', 'simulated tracker shot refused', { table: table.id, error: applied.error });
        },
        restartMatch: () => void table.restartMatch(),
      });
    }

    // The core is built: the extensions start (a failing one is logged and left out), before
    // any table state is published, so they see the tables' first states too.
    const context = this.context(store, link);
    this.extensions = (this.options.extensions ?? DEFAULT_EXTENSIONS).map((make) => make(context));
    await this.runner.start(this.extensions);
    // Read at each state, not now: the demo's league director is set once the hub runs.
    this.events.on('table-state', 'onTableState', ({ state }) => this.options.onTableState?.(state));

    const league = this.league;
    this.commands = new CommandHandler({
      ...(league ? { league: leagueCommands(league) } : {}),
      table: (id) => this.tables.get(id),
      tables: () => [...this.tables.values()],
      ownedElsewhere: (id) => [...this.remoteTables.values()].some((set) => set.has(id)),
      setThresholds: (id, channels) => this.sources.get(id)?.setThresholds(channels) ?? Promise.resolve(err(`no table '${id}'`)),
      now: () => this.clock.now(),
    });
    for (const table of this.tables.values()) table.restore();
    await link.start();
    this.timer = setInterval(() => {
      for (const table of this.tables.values()) (table.tick(), this.armShotEnd(table));
    }, this.options.tickMs ?? 250);
    // The backlog the overload policy reads, past shedding: the boards' links held until it drains.
    const behind = () => store.queuedRows + (this.broker?.backlog() ?? 0);
    this.holdTimer = setInterval(() => {
      const backlog = behind();
      // Wall time held, for /metrics: the timer's own clock, not the hub's (a test's may stand still).
      const held = this.inputHold.update(backlog, performance.now());
      if (held === null) return;
      for (const source of this.sources.values()) source.hold?.(held);
      if (held) this.log('warn', "holding the boards' links: the hub is behind", { backlog });
      else this.log('info', "reading the boards' links again", { backlog });
    }, HOLD_CHECK_MS);
    this.holdTimer.unref();
    for (const [id, source] of this.sources) {
      const table = this.tables.get(id)!;
      await source.start((event) => {
        try {
          table.sensor(event);
          this.armShotEnd(table);
        } catch (e) {
          // One bad event must not stop the table, nor the others.
          this.log('error', 'sensor event failed', { table: id, error: (e as Error).message });
        }
      });
    }
  }

  /** What the extensions reach of the core. */
  private context(store: EventStore, link: MqttLink): HubContext {
    return {
      config: this.options.config,
      dataDir: this.options.dataDir,
      events: this.events,
      clock: this.clock,
      log: this.log,
      tables: this.tables,
      sources: this.sources,
      store,
      link,
      brokerRefusals: this.brokerRefusals,
      brokerBacklog: () => this.broker?.backlog() ?? 0,
      inputHold: this.inputHold,
      camera: { processor: this.options.cameraProcessor ?? null, realtime: this.options.cameraRealtime ?? true },
      wake: (table) => this.armShotEnd(table),
      extensions: () => this.runner.active,
    };
  }

  /**
   * A shot ends the moment its quiet window runs out, not at the next sweep: one timer per
   * table, set when none is pending. When it fires early (more hits came meanwhile) it is
   * set again for the new end.
   */
  private armShotEnd(table: TableService): void {
    if (this.shotEndTimers.has(table.id) || !this.timer || this.options.shotEndTimers === false) return;
    const due = table.shotEndDue;
    if (due === null) return;
    // At least 1 ms: a window that is due but cannot end (a late, loud vibration) never spins.
    const timer = setTimeout(() => {
      this.shotEndTimers.delete(table.id);
      table.tick();
      this.armShotEnd(table);
    }, Math.max(1, Math.ceil(due - this.clock.now())));
    this.shotEndTimers.set(table.id, timer);
  }

  private async request(command: string, payload: Buffer, replyTo?: ReplyTo): Promise<void> {
    if (!this.commands || !this.link) return;
    // Never throws: this runs with nothing awaiting it. The link may be gone (stop) by the time the answer is ready.
    try {
      const response = await this.commands.handle(command, payload);
      if (response) this.link?.respond(command, response, replyTo);
    } catch (e) {
      this.log('error', 'command failed', { command, error: (e as Error).message });
      try {
        this.link?.respond(command, { transaction: null, status: 'error', error: 'internal error' }, replyTo);
      } catch {
        // nothing more to do: logged above
      }
    }
  }

  /** Records which tables other hubs announce, so commands for them are left to those hubs. */
  noteRemoteHub(hub: string, tables: string[] | null): void {
    if (hub === this.hubId) return;
    // Topics name a table, not its hub: two hubs with one table id would overwrite each other's state.
    const clash = tables?.filter((id) => this.tables.has(id) && !this.remoteTables.get(hub)?.has(id)) ?? [];
    if (clash.length > 0) this.log('error', 'another hub on this broker has a table with the same id: table ids must be unique across hubs and bridged venues (docs/deployment.md)', { hub, tables: clash });
    if (tables) this.remoteTables.set(hub, new Set(tables));
    else this.remoteTables.delete(hub);
  }

  /**
   * How a web panel in the hub's process reaches the broker: in process on the embedded one
   * (no socket, no login, no per-message parse), with the hub's credentials on an external one.
   */
  panelMqtt(clientId: string): { client: InProcessClient } | { url: string; clientId: string; username?: string; password?: string } {
    if (this.broker) return { client: this.broker.client() };
    const { mqttUsername: username, mqttPassword: password } = this.options;
    // A random suffix: a client that took the panel's id would throw it off the broker.
    return { url: this.mqttUrl, clientId: `${clientId}-${randomBytes(6).toString('hex')}`, ...(username ? { username } : {}), ...(password ? { password } : {}) };
  }

  /**
   * What /healthz reports: ok when the store takes writes (a failed write makes it false
   * until one succeeds), the league answers and the broker link is up. Each table's board
   * link is reported, and does not make the hub unhealthy: an unplugged table is a table
   * problem, which the overview shows.
   */
  health(): { ok: boolean; store: boolean; storeError?: string; storeFailingSince?: string; league: boolean; broker: boolean; tables: number; boards: Record<string, 'up' | 'down' | 'simulated'> } {
    const store = this.store?.healthy() ?? false;
    const writes = this.store?.writeStatus();
    // A hub built without the league extension has no league to be unhealthy; one whose league failed to start does.
    const leagueExtension = this.extensions.find((e): e is LeagueExtension => e instanceof LeagueExtension);
    const league = leagueExtension ? leagueExtension.healthy() : true;
    const broker = this.link?.connected ?? false;
    const boards = Object.fromEntries([...this.tables.values()].map((t) => [t.id, this.sources.get(t.id)?.simulated ? 'simulated' : t.isOnline ? 'up' : 'down'] as const));
    return {
      ok: store && league && broker,
      store,
      ...(writes && !writes.writable ? { storeError: `writes fail: ${writes.error}`, storeFailingSince: writes.failingSince! } : {}),
      league,
      broker,
      tables: this.tables.size,
      boards,
    };
  }

  /** /metrics, from the metrics extension (empty when it does not run). */
  metrics(): string {
    return this.running(MetricsExtension)?.render() ?? '';
  }

  topics(): ReturnType<typeof topics> {
    return topics(this.options.config.hub.baseTopic);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.holdTimer) clearInterval(this.holdTimer);
    this.timer = this.holdTimer = null;
    for (const timer of this.shotEndTimers.values()) clearTimeout(timer);
    this.shotEndTimers.clear();
    for (const source of this.sources.values()) await source.stop().catch(() => undefined);
    for (const table of this.tables.values()) this.link?.availability(table.id, { state: 'offline' });
    // The extensions stop in reverse order, before the link and the store they use.
    await this.runner.stop();
    await this.link?.stop();
    await this.broker?.close();
    await this.store?.close();
    this.log.flush();
    this.link = null;
    this.broker = null;
    this.store = null;
  }
}

export type { Result };
