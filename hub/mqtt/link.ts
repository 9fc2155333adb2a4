import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PAYLOAD_LIMITS } from './access.ts';
import { parseTopic, topics, type Availability, type TableEvent, type TableHealth, type TableState } from '../contract/mqtt.ts';
import type { TablePublisher } from '../tables/publisher.ts';
import type { BrokerClient } from './in-process-client.ts';
import { disableNagle } from './no-delay.ts';
import './packet-cache.ts';

export interface MqttLinkOptions {
  url: string;
  /** A client that needs no socket (the embedded broker's in-process one); otherwise mqtt.js connects to `url`. */
  connect?: () => BrokerClient;
  username?: string;
  password?: string;
  baseTopic: string;
  hubId: string;
  /** Everything retained that must be (re)published after each (re)connect. */
  snapshot: () => { states: TableState[]; availability: [string, Availability][]; health: TableHealth[]; extra?: { topic: string; payload: unknown }[] };
  onRequest: (command: string, payload: Buffer, replyTo?: ReplyTo) => void;
  onTracker?: (table: string, payload: Buffer) => void;
  /** Another hub's retained state (its tables), or null when it went offline. */
  onHubState?: (hub: string, tables: string[] | null) => void;
  /** Publish latency, ms from the call to the broker's acknowledgement (QoS 1). */
  observeLatency?: (ms: number) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  now?: () => number;
}

const RETAINED = { qos: 1, retain: true } as const;

/** MQTT 5: where the requester asked for its answer, and the correlation data to send back. */
export interface ReplyTo {
  topic: string;
  correlationData?: Buffer;
}

interface IncomingPacket {
  retain?: boolean;
  properties?: { responseTopic?: string; correlationData?: Buffer };
}
/** The hub's own retained state (another hub's) is small; anything bigger is not parsed. */
const HUB_STATE_LIMIT = 16 * 1024;

/** Messages the link would not act on, by why (for /metrics). */
export interface LinkRefusals {
  'request-size': number;
  'tracker-size': number;
  'hub-state-size': number;
  'retained-request': number;
}

/**
 * The hub's MQTT client (Zigbee2MQTT-style): retained JSON state per table, availability,
 * the bridge state with a last will, request/response commands. While the broker is away
 * scoring goes on; on every (re)connect the retained topics are published afresh.
 */
export class MqttLink implements TablePublisher {
  private client: BrokerClient | null = null;
  private readonly t: ReturnType<typeof topics>;
  dropped = 0;
  readonly refused: LinkRefusals = { 'request-size': 0, 'tracker-size': 0, 'hub-state-size': 0, 'retained-request': 0 };

  constructor(private readonly opts: MqttLinkOptions) {
    this.t = topics(opts.baseTopic);
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  start(): Promise<void> {
    const { opts } = this;
    const client: BrokerClient = opts.connect?.() ?? this.connectTcp();
    this.client = client;
    client.on('connect', () => {
      opts.log?.('info', 'connected to the MQTT broker', { url: opts.url });
      // Retain as published (MQTT 5): a retained request is recognised even when it arrives live.
      client.subscribe([this.t.allRequests], { qos: 1, rap: true });
      client.subscribe([this.t.allTableTrackers, this.t.allHubStates], { qos: 1 });
      this.publishSnapshot();
    });
    client.on('message', (topic: string, payload: Buffer, packet?: IncomingPacket) => {
      try {
        this.message(topic, payload, packet ?? {});
      } catch (e) {
        // One message must never take the link down (nor the process).
        opts.log?.('error', 'MQTT message failed', { topic, error: (e as Error).message });
      }
    });
    client.on('offline', () => opts.log?.('warn', 'MQTT broker unreachable; scoring goes on, state will be republished', { url: opts.url }));
    client.on('error', (e: Error) => opts.log?.('warn', 'MQTT error', { error: e.message }));
    return new Promise((resolve) => {
      // Resolve at once either way: the hub must score without a broker.
      if (client.connected) resolve();
      client.once('connect', () => resolve());
      setTimeout(resolve, 3000).unref();
    });
  }

  /**
   * Sizes are checked before anything is parsed. A retained request is never run: it would
   * run again at every reconnect (a replay anyone could plant); it is cleared instead.
   */
  private message(topic: string, payload: Buffer, packet: IncomingPacket): void {
    const retained = packet.retain === true;
    const { opts } = this;
    const parsed = parseTopic(opts.baseTopic, topic);
    if (parsed?.kind === 'request') {
      if (payload.length === 0) return; // a cleared retained request
      if (retained) {
        this.refused['retained-request'] += 1;
        opts.log?.('warn', 'a retained request was ignored and cleared: requests are never retained', { topic });
        this.client?.publish(topic, '', RETAINED);
        return;
      }
      if (payload.length > PAYLOAD_LIMITS.request) return void (this.refused['request-size'] += 1);
      // An answer only to the requester's own topic (MQTT 5), and only under the response topics: never onto a hub-owned one.
      const responseTopic = packet.properties?.responseTopic;
      const replyTo = responseTopic && parseTopic(opts.baseTopic, responseTopic)?.kind === 'response' && !/[+#]/.test(responseTopic) ? { topic: responseTopic, ...(packet.properties?.correlationData ? { correlationData: packet.properties.correlationData } : {}) } : undefined;
      opts.onRequest(parsed.command, payload, replyTo);
    } else if (parsed?.kind === 'table' && parsed.topic === 'tracker') {
      if (payload.length > PAYLOAD_LIMITS.tracker) return void (this.refused['tracker-size'] += 1);
      opts.onTracker?.(parsed.table, payload);
    } else if (parsed?.kind === 'hub-state') {
      if (payload.length > HUB_STATE_LIMIT) return void (this.refused['hub-state-size'] += 1);
      opts.onHubState?.(parsed.hub, hubTables(payload));
    }
  }

  private connectTcp(): BrokerClient {
    const { opts } = this;
    // mqtt.js loads only when the hub uses an external broker (a quicker start on the embedded one).
    const mqtt = createRequire(import.meta.url)('mqtt') as typeof import('mqtt');
    const client = mqtt.connect(opts.url, {
      // MQTT 5: retain-as-published subscriptions and answers to a requester's own response topic.
      protocolVersion: 5,
      // Not guessable: a client that connects with the hub's id would throw the hub off the broker.
      clientId: `billiards-hub-${opts.hubId}-${randomBytes(8).toString('hex')}`,
      username: opts.username,
      password: opts.password,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
      queueQoSZero: false,
      will: { topic: this.t.bridgeState, payload: Buffer.from(JSON.stringify({ state: 'offline' })), qos: 1, retain: true },
    });
    disableNagle(client);
    return client;
  }

  private publishSnapshot(): void {
    const snap = this.opts.snapshot();
    this.send(this.t.bridgeState, { state: 'online' }, true);
    this.send(this.t.hubState(this.opts.hubId), { state: 'online', tables: snap.states.map((s) => s.table) }, true);
    for (const s of snap.states) this.send(this.t.tableState(s.table), s, true);
    for (const [table, a] of snap.availability) this.send(this.t.tableAvailability(table), a, true);
    for (const h of snap.health) this.send(this.t.tableHealth(h.table), h, true);
    for (const m of snap.extra ?? []) this.send(m.topic, m.payload, true);
  }

  state(table: string, state: TableState): void {
    this.send(this.t.tableState(table), state, true);
  }

  availability(table: string, availability: Availability): void {
    this.send(this.t.tableAvailability(table), availability, true);
  }

  health(table: string, health: TableHealth): void {
    this.send(this.t.tableHealth(table), health, true);
  }

  event(table: string, event: TableEvent): void {
    this.send(this.t.tableEvents(table), event, false);
  }

  respond(command: string, response: unknown, replyTo?: ReplyTo): void {
    if (!replyTo) return this.send(this.t.response(command), response, false);
    if (!this.client?.connected) return void (this.dropped += 1);
    const properties = replyTo.correlationData ? { correlationData: replyTo.correlationData } : {};
    this.client.publish(replyTo.topic, JSON.stringify(response), { qos: 1, retain: false, properties }, () => undefined);
  }

  /** Raw publish for extensions (Home Assistant discovery). */
  publishRaw(topic: string, payload: unknown, retain: boolean): void {
    this.send(topic, payload, retain);
  }

  private send(topic: string, payload: unknown, retain: boolean): void {
    const client = this.client;
    // Offline: retained topics are republished from the snapshot on reconnect; events are counted as lost.
    if (!client?.connected) {
      if (!retain) this.dropped += 1;
      return;
    }
    const started = this.opts.now?.() ?? performance.now();
    client.publish(topic, JSON.stringify(payload), retain ? RETAINED : { qos: 1, retain: false }, (error) => {
      if (!error) this.opts.observeLatency?.((this.opts.now?.() ?? performance.now()) - started);
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (client.connected) {
      // A clean stop: say so on the retained topics the will would otherwise cover.
      await client.publishAsync(this.t.bridgeState, JSON.stringify({ state: 'offline' }), RETAINED).catch(() => undefined);
      await client.publishAsync(this.t.hubState(this.opts.hubId), JSON.stringify({ state: 'offline' }), RETAINED).catch(() => undefined);
    }
    await client.endAsync(true).catch(() => undefined);
    this.client = null;
  }
}

function hubTables(payload: Buffer): string[] | null {
  try {
    const state = JSON.parse(payload.toString('utf8')) as { state?: string; tables?: unknown };
    return state.state === 'online' && Array.isArray(state.tables) ? state.tables.filter((t): t is string => typeof t === 'string') : null;
  } catch {
    return null;
  }
}
