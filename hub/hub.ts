import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { topics, type TableState } from './contract/mqtt.ts';
import { CommandHandler } from './commands.ts';
import type { HubConfig, TableConfig } from './config/schema.ts';
import { startEmbeddedBroker, type EmbeddedBroker, type RefusalReason } from './mqtt/broker.ts';
import { probeAnonymousPublish } from './mqtt/open-broker-probe.ts';
import type { InProcessClient } from './mqtt/in-process-client.ts';
import { MqttLink, type ReplyTo } from './mqtt/link.ts';
import { discoveryMessages } from './mqtt/home-assistant.ts';
import { Histogram, metric, processMetrics } from './ops/metrics.ts';
import { rateLimitedLog, silentLog, type LogFn } from './ops/log.ts';
import type { SensorSource } from './sources/source.ts';
import { EventStore } from './store/event-store.ts';
import { systemClock, type HubClock } from './tables/clock.ts';
import { TableService } from './tables/table-service.ts';
import { err, type Result } from './rules/result.ts';
import { trackerMessage } from './pipeline/tracker.ts';
import { LeagueStore } from './league/store.ts';
import { LeagueService, leagueCommands } from './league/service.ts';
import { TableCameras } from './camera/table-cameras.ts';
import { cameraAloneWarning } from './camera/scoring-safety.ts';
import { shed } from './ops/shed.ts';
import type { ProcessorSpec } from './camera/frame-processor.ts';


/**
 * The overload policy's thresholds (issue 18). 500 rows in one group commit is 150 ms of
 * 64 tables at the firmware's rate; past these the hub is behind, and status frames beyond
 * the essential ones are shed until it has caught up (it recovers as soon as the queues drain).
 */
const SHED_ABOVE_QUEUED_ROWS = 500;
const SHED_ABOVE_BROKER_BACKLOG = 2000;
export interface HubOptions {
  config: HubConfig;
  dataDir: string;
  /** External broker URL (MQTT_URL); when absent the embedded broker runs. */
  mqttUrl?: string;
  mqttUsername?: string;
  mqttPassword?: string;
  /** Start on an external broker that lets anonymous clients publish on the hub's topics (else refused). */
  allowOpenBroker?: boolean;
  mqttHost?: string;
  mqttPort?: number;
  mqttWsPort?: number | null;
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
}

/**
 * The hub: tables (sensor source → shots → rules → store), the MQTT link (embedded broker
 * by default) and the commands. Construction has no effects; start() and stop() do the work.
 */
export class Hub {
  readonly tables = new Map<string, TableService>();
  private readonly sources = new Map<string, SensorSource>();
  private store: EventStore | null = null;
  private broker: EmbeddedBroker | null = null;
  private link: MqttLink | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly shotEndTimers = new Map<string, NodeJS.Timeout>();
  private commands: CommandHandler | null = null;
  private leagueStore: LeagueStore | null = null;
  /** The house league (issue 8), kept in the same SQLite file on a connection of its own. */
  league: LeagueService | null = null;
  /** The tables' overhead cameras (hub/camera/), with their replay clips. */
  cameras: TableCameras | null = null;
  private readonly remoteTables = new Map<string, Set<string>>();
  /** What the embedded broker refused, by reason (for /metrics). */
  private readonly brokerRefusals = new Map<RefusalReason, number>();
  readonly publishLatency = new Histogram([0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000]);
  readonly eventLatency = new Histogram([0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000]);
  private readonly clock: HubClock;
  private readonly log: LogFn & { flush(): void };
  mqttUrl = '';
  /** The embedded broker's WebSocket endpoint, when it has one. */
  mqttWsUrl: string | null = null;

  constructor(private readonly options: HubOptions) {
    this.clock = options.clock ?? systemClock;
    // A failure that repeats with every frame (a full disk) is logged once a window, with a count.
    this.log = rateLimitedLog(options.log ?? silentLog);
  }

  get hubId(): string {
    return this.options.config.hub.id;
  }

  async start(): Promise<void> {
    const { config } = this.options;
    // Opened first: a store that cannot be opened stops the start before any port is taken.
    this.store = new EventStore(join(this.options.dataDir, 'hub.sqlite'), {
      checkpointInWorker: true,
      onGroupError: (error, rows) => this.log('error', 'sensor events could not be stored; they were not published', { rows, error: error.message }),
      onWritable: (failedWrites) => this.log('info', 'the store takes writes again', { failedWrites }),
    });
    const store = this.store;
    this.leagueStore = new LeagueStore(join(this.options.dataDir, 'hub.sqlite'));
    const league = new LeagueService({
      store: this.leagueStore,
      iso: () => this.clock.iso(),
      publish: (state) => this.link?.publishRaw(topics(config.hub.baseTopic).leagueState, state, true),
      startMatch: (id, setup) => this.tables.get(id)?.startMatch(setup) ?? err(`table: no table '${id}' on this hub`),
      log: this.log,
    });
    this.league = league;

    if (this.options.mqttUrl) {
      this.mqttUrl = this.options.mqttUrl;
      await this.refuseOpenBroker();
    } else {
      this.broker = await startEmbeddedBroker({
        host: this.options.mqttHost ?? '127.0.0.1',
        port: this.options.mqttPort ?? 1883,
        wsPort: this.options.mqttWsPort === undefined ? null : this.options.mqttWsPort,
        baseTopic: config.hub.baseTopic,
        users: config.broker.users,
        venue: config.venue ? { username: config.venue.username, passwordHash: config.venue.passwordHash } : null,
        allowAnonymousRead: config.broker.allowAnonymousRead,
        anonymousRead: config.homeAssistant.discovery ? [`${config.homeAssistant.prefix}/#`] : [],
        onRefused: (reason) => this.brokerRefusals.set(reason, (this.brokerRefusals.get(reason) ?? 0) + 1),
        log: this.log,
      });
      // Bound to every interface, it is reached on loopback from here; bound to one address, there.
      const host = reachableHost(this.options.mqttHost ?? '127.0.0.1');
      this.mqttUrl = `mqtt://${host}:${this.broker.port}`;
      this.mqttWsUrl = this.broker.wsPort === null ? null : `ws://${host}:${this.broker.wsPort}`;
    }

    const broker = this.broker;
    this.link = new MqttLink({
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
        extra: [
          ...(config.homeAssistant.discovery ? discoveryMessages(config.homeAssistant.prefix, config.hub.baseTopic, config.hub.id, config.tables.map((t) => ({ id: t.id, name: t.name }))) : []),
          { topic: topics(config.hub.baseTopic).leagueState, payload: league.state() },
        ],
      }),
      onRequest: (command, payload, replyTo) => void this.request(command, payload, replyTo),
      onTracker: (table, payload) => this.tracker(table, payload),
      onHubState: (hub, tables) => this.noteRemoteHub(hub, tables),
      observeLatency: (ms) => this.publishLatency.observe(ms),
      log: this.log,
    });

    const cameras = new TableCameras({ dataDir: this.options.dataDir, processor: this.options.cameraProcessor ?? null, realtime: this.options.cameraRealtime ?? true, clock: this.clock, log: this.log });
    this.cameras = cameras;
    const brokerNow = this.broker;
    // Behind: more rows waiting for this turn's commit, or more messages waiting in the broker, than a venue makes.
    const overloaded = () => store.queuedRows >= SHED_ABOVE_QUEUED_ROWS || (brokerNow?.backlog() ?? 0) >= SHED_ABOVE_BROKER_BACKLOG;
    for (const tableConfig of config.tables) {
      const unsafe = cameraAloneWarning(tableConfig);
      if (unsafe) this.log('warn', unsafe, { table: tableConfig.id });
      const source = this.options.sourceFor(tableConfig);
      const table = new TableService(tableConfig, { store, publisher: this.link, clock: this.clock, hubId: config.hub.id, simulated: source.simulated, log: this.log, onState: (state) => (this.leagueHook(state), cameras.onState(state)), cameraHealth: () => cameras.health(tableConfig.id), observeEventLatency: (ms) => this.eventLatency.observe(ms), statusFrames: { mode: config.store.statusFrames, keepAliveMs: config.store.keepAliveMs }, overloaded });
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
      table.restore();
      cameras.add(tableConfig, table);
    }
    this.commands = new CommandHandler({
      league: leagueCommands(league),
      table: (id) => this.tables.get(id),
      tables: () => [...this.tables.values()],
      ownedElsewhere: (id) => [...this.remoteTables.values()].some((set) => set.has(id)),
      setThresholds: (id, channels) => this.sources.get(id)?.setThresholds(channels) ?? Promise.resolve(err(`no table '${id}'`)),
      now: () => this.clock.now(),
    });
    await this.link.start();
    this.timer = setInterval(() => {
      for (const table of this.tables.values()) (table.tick(), this.armShotEnd(table));
    }, this.options.tickMs ?? 250);
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

  /**
   * An external broker must keep anonymous clients off the hub's topics (the Mosquitto recipe
   * in hub/deploy/mosquitto does): else anyone could spoof a table's state or send commands.
   */
  private async refuseOpenBroker(): Promise<void> {
    const allowed = this.options.allowOpenBroker ?? this.options.config.broker.allowOpenExternalBroker;
    const probe = await probeAnonymousPublish({ url: this.mqttUrl, baseTopic: this.options.config.hub.baseTopic, hubId: this.hubId, username: this.options.mqttUsername, password: this.options.mqttPassword });
    if (probe.kind === 'unknown') this.log('warn', 'the external broker could not be checked for anonymous access', { detail: probe.detail });
    if (probe.kind !== 'open') return;
    if (allowed) {
      this.log('warn', 'the external broker lets anonymous clients publish on the hub topics (allowed by broker.allowOpenExternalBroker)', { topic: probe.topic });
      return;
    }
    throw new Error(
      `the MQTT broker at ${redactUrl(this.mqttUrl)} lets anonymous clients publish on the hub's topics (${probe.topic}); give it an ACL (hub/deploy/mosquitto, docs/security.md) or set broker.allowOpenExternalBroker (MQTT_ALLOW_OPEN_BROKER=1) to accept that`,
    );
  }

  private leagueHook(state: TableState): void {
    try {
      this.league?.onTableState(state);
      this.options.onTableState?.(state);
    } catch (e) {
      // The league must never stop a table.
      this.log('error', 'league hook failed', { table: state.table, error: (e as Error).message });
    }
  }

  private tracker(tableId: string, payload: Buffer): void {
    const table = this.tables.get(tableId);
    if (!table) return;
    const message = trackerMessage(payload);
    if (!message.ok) {
      this.log('warn', 'tracker message refused', { table: tableId, error: message.error });
      return;
    }
    const m = message.value;
    if (m.type === 'strike') (table.strike(), this.armShotEnd(table));
    else if (m.type === 'rest') table.endShot('tracker');
    else {
      const applied = table.trackerShot(m.shot);
      if (!applied.ok) this.log('warn', 'tracker shot refused', { table: tableId, error: applied.error });
    }
  }

  /** Records which tables other hubs announce, so commands for them are left to those hubs. */
  noteRemoteHub(hub: string, tables: string[] | null): void {
    if (hub === this.hubId) return;
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
    const league = this.leagueStore?.healthy() ?? false;
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

  metrics(): string {
    const tables = [...this.tables.values()];
    const parts = [
      metric('billiards_sensor_events_total', 'counter', 'Sensor events received', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.sensorEvents }))),
      metric('billiards_frames_dropped_total', 'counter', 'Frames the bridge dropped (gaps, corrupt, board queue)', tables.map((t) => ({ labels: { table: t.id }, value: this.sources.get(t.id)?.stats().framesDropped ?? 0 }))),
      metric('billiards_shots_total', 'counter', 'Shots scored', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.shots }))),
      metric('billiards_prompts_total', 'counter', 'Shots that needed a referee', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.prompts }))),
      metric('billiards_status_frames_skipped_total', 'counter', 'Status frames not stored or published: no news (store.statusFrames: changes)', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.statusFramesSkipped }))),
      metric('billiards_board_settings', 'gauge', 'Board settings (thresholds, debounce, switch polarity) by state since the board last booted: confirmed by its ACK, pending, rejected, unsupported', tables.flatMap((t) => {
        const b = t.healthView().board;
        return b ? (['confirmed', 'pending', 'rejected', 'unsupported'] as const).map((state) => ({ labels: { table: t.id, state }, value: b[state] })) : [];
      })),
      metric('billiards_table_link_up', 'gauge', 'Sensor link of each table (1 up)', tables.map((t) => ({ labels: { table: t.id }, value: t.isOnline ? 1 : 0 }))),
      metric('billiards_mqtt_connected', 'gauge', 'Hub connected to the broker', [{ value: this.link?.connected ? 1 : 0 }]),
      metric('billiards_mqtt_refused_total', 'counter', 'Logins, messages, subscriptions and connections refused (by the embedded broker, or by the hub before parsing)', [
        ...[...this.brokerRefusals].map(([reason, value]) => ({ labels: { reason }, value })),
        ...Object.entries(this.link?.refused ?? {}).map(([reason, value]) => ({ labels: { reason }, value })),
      ]),
      metric('billiards_mqtt_events_lost_total', 'counter', 'Event messages not sent while the broker was away', [{ value: this.link?.dropped ?? 0 }]),
      this.publishLatency.render('billiards_publish_latency_ms', 'From publish to broker acknowledgement'),
      this.eventLatency.render('billiards_event_latency_ms', 'From a sensor event on the board (its time mapped to the hub clock) to its publish on the events topic, stored first: the serial line time and the hub'),
      shed.render(),
      ...(this.cameras?.metrics() ?? []),
      ...processMetrics(),
    ];
    return `${parts.join('\n')}\n`;
  }

  topics(): ReturnType<typeof topics> {
    return topics(this.options.config.hub.baseTopic);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const timer of this.shotEndTimers.values()) clearTimeout(timer);
    this.shotEndTimers.clear();
    await this.cameras?.stop();
    for (const source of this.sources.values()) await source.stop().catch(() => undefined);
    for (const table of this.tables.values()) this.link?.availability(table.id, { state: 'offline' });
    await this.link?.stop();
    await this.broker?.close();
    this.leagueStore?.close();
    this.leagueStore = null;
    this.league = null;
    await this.store?.close();
    this.log.flush();
    this.link = null;
    this.broker = null;
    this.store = null;
  }
}

export type { Result };

/** A broker URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function reachableHost(bound: string): string {
  if (bound === '0.0.0.0' || bound === '::' || bound === '') return '127.0.0.1';
  return bound.includes(':') ? `[${bound}]` : bound;
}
