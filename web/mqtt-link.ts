import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { MqttClient } from 'mqtt';
import { disableNagle } from '../hub/mqtt/no-delay.ts';
import { commandResponseSchema, commandSchemas, parseTopic, topics, type CommandName, type CommandResponse } from '../hub/contract/mqtt.ts';
import type { PanelMqttClient, ResolvedOptions } from './options.ts';
import type { TableStore } from './store.ts';
import type { LeagueCache } from './league-store.ts';
import '../hub/mqtt/packet-cache.ts';
import { describeIssues } from '../hub/rules/result.ts';

export class HubRequestError extends Error {
  constructor(
    readonly status: 502 | 503 | 504 | 422,
    message: string,
  ) {
    super(message);
  }
}

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Topics whose reading is remembered (a venue's tables × their topics fit many times over). */
const PARSED_TOPICS = 4096;

interface Pending {
  command: string;
  resolve: (data: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The panel's own MQTT client: subscribes to every table of every hub, feeds the store,
 * and sends commands as requests, matching responses by transaction id.
 */
export class MqttLink {
  private client: PanelMqttClient | null = null;
  /** The client this link connected itself (and ends), when it was not given one. */
  private ownClient: MqttClient | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly t: ReturnType<typeof topics>;
  private readonly onMessage = (topic: string, payload: Buffer) => this.message(topic, payload);
  private readonly onConnect = () => this.subscribe();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly store: TableStore,
    private readonly league?: LeagueCache,
  ) {
    this.t = topics(options.baseTopic);
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  start(): void {
    const o = this.options.mqtt;
    if ('client' in o) {
      this.client = o.client;
    } else {
      // mqtt.js loads only for a panel with its own connection (the hub's panel rides its in-process client).
      const mqtt = createRequire(import.meta.url)('mqtt') as typeof import('mqtt');
      this.client = this.ownClient = mqtt.connect(o.url, {
        username: o.username,
        password: o.password,
        clientId: o.clientId ?? `billiards-web-${randomUUID().slice(0, 8)}`,
        reconnectPeriod: 1000,
        connectTimeout: 10_000,
        resubscribe: false,
      });
      this.ownClient.on('error', () => undefined);
      disableNagle(this.ownClient);
    }
    this.client.on('message', this.onMessage);
    this.client.on('connect', this.onConnect);
    if (this.client.connected) this.subscribe();
  }

  async stop(): Promise<void> {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new HubRequestError(503, 'the web panel is stopping'));
      this.pending.delete(id);
    }
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.off('message', this.onMessage);
    client.off('connect', this.onConnect);
    const own = this.ownClient;
    this.ownClient = null;
    if (own) await own.endAsync(true);
    else if (client.connected) await client.unsubscribeAsync(this.subscriptions()).catch(() => undefined);
  }

  /** Sends one command and waits for its response; the caller's fields are validated by the contract schema. */
  async request<C extends CommandName>(command: C, fields: Record<string, unknown>): Promise<unknown> {
    const client = this.client;
    if (!client || !client.connected) throw new HubRequestError(503, 'the panel is not connected to the MQTT broker');
    const transaction = randomUUID();
    const body = { transaction, ...fields };
    const checked = commandSchemas[command].safeParse(body);
    if (!checked.success) throw new HubRequestError(422, `${command}: ${describeIssues('', checked.error, { first: true })}`);
    const timeoutMs = this.options.requestTimeoutMs;
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new HubRequestError(504, `the hub did not answer ${command} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(transaction, { command, resolve, reject, timer });
    });
    // The answer can come (and be a refusal) before publishAsync has resolved, while nothing
    // awaits it yet: observed here, so that rejection is never "unhandled" (it killed the hub).
    answer.catch(() => undefined);
    try {
      await client.publishAsync(this.t.request(command), JSON.stringify(body), { qos: 1 });
    } catch (e) {
      const p = this.pending.get(transaction);
      if (p) clearTimeout(p.timer);
      this.pending.delete(transaction);
      throw new HubRequestError(503, `could not publish ${command}: ${(e as Error).message}`);
    }
    return answer;
  }

  private subscriptions(): string[] {
    const t = this.t;
    return [t.allTableStates, t.allTableAvailability, t.allTableHealth, t.allTableEvents, t.allHubStates, t.allResponses, t.leagueState];
  }

  private subscribe(): void {
    // The sensor event stream is live display only (the hub stores it): QoS 0 spares the
    // broker an acknowledgement per hit. Everything else is retained state or an answer.
    const events = this.t.allTableEvents;
    const map = Object.fromEntries(this.subscriptions().map((topic) => [topic, { qos: topic === events ? 0 : 1 }] as const));
    this.client?.subscribe(map, () => undefined);
  }

  /** Topics read so far (bounded): every message's topic was split again, thousands a second at a venue (issue 18). */
  private readonly parsedTopics = new Map<string, ReturnType<typeof parseTopic>>();

  private parse(topic: string): ReturnType<typeof parseTopic> {
    let parsed = this.parsedTopics.get(topic);
    if (parsed === undefined) {
      parsed = parseTopic(this.options.baseTopic, topic);
      if (this.parsedTopics.size >= PARSED_TOPICS) this.parsedTopics.clear();
      this.parsedTopics.set(topic, parsed);
    }
    return parsed;
  }

  private message(topic: string, payload: Buffer): void {
    const parsed = this.parse(topic);
    switch (parsed?.kind) {
      case 'table':
        this.store.ingest(parsed.table, parsed.topic, payload);
        return;
      case 'hub-state':
        this.store.ingestHub(parsed.hub, payload);
        return;
      case 'league-state':
        this.league?.ingest(payload);
        return;
      case 'response':
        this.response(payload);
        return;
    }
  }

  private response(payload: Buffer): void {
    // An answer is at most a match log; a bigger "response" is not the hub's and is not parsed.
    if (payload.length > MAX_RESPONSE_BYTES) return;
    let raw: CommandResponse;
    try {
      const parsed = commandResponseSchema.safeParse(JSON.parse(payload.toString()));
      if (!parsed.success) return;
      raw = parsed.data;
    } catch {
      return;
    }
    if (raw.transaction === null) return;
    const p = this.pending.get(raw.transaction);
    if (!p) return;
    this.pending.delete(raw.transaction);
    clearTimeout(p.timer);
    if (raw.status === 'ok') p.resolve(raw.data ?? null);
    else p.reject(new HubRequestError(422, typeof raw.error === 'string' && raw.error !== '' ? raw.error : `${p.command} failed`));
  }
}
