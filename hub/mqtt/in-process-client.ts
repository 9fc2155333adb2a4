import { EventEmitter } from 'node:events';
import type { Aedes, AedesPublishPacket } from 'aedes';
import { Fifo } from './fifo.ts';
import type { BusEntry } from './mq-emitter.ts';

type Qos = 0 | 1;

/** What the hub's MQTT link needs of a client: mqtt.js's MqttClient has it, and so does InProcessClient. */
export interface BrokerClient {
  readonly connected: boolean;
  on(event: 'connect' | 'offline', listener: () => void): unknown;
  on(event: 'message', listener: (topic: string, payload: Buffer, packet: { retain?: boolean; properties?: { responseTopic?: string; correlationData?: Buffer } }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'connect', listener: () => void): unknown;
  /** `rap` (MQTT 5, retain as published): the retain flag of live messages is kept, so a retained request is seen as one. */
  subscribe(topics: string[], opts: { qos: Qos; rap?: boolean }): unknown;
  publish(topic: string, payload: string, opts: { qos: Qos; retain: boolean; properties?: { correlationData?: Buffer } }, callback?: (error?: Error) => void): unknown;
  publishAsync(topic: string, payload: string, opts: { qos: Qos; retain: boolean }): Promise<unknown>;
  endAsync(force?: boolean): Promise<unknown>;
}

/** Topics to subscribe: a list, or mqtt.js's map of topic to options (QoS means nothing in process). */
type Subscriptions = string[] | Record<string, { qos: Qos }>;

type Deliver = (packet: AedesPublishPacket, done: () => void) => void;
/** The part of aedes's persistence a subscribe reads (its typings leave persistence out). */
interface RetainedStore {
  createRetainedStreamCombi(patterns: string[]): NodeJS.ReadableStream;
}
/** aedes's persistence, checked once it is read: a broker without one is a programming error, said so. */
function retainedStoreOf(broker: object): RetainedStore {
  const persistence: unknown = 'persistence' in broker ? broker.persistence : undefined;
  if (typeof persistence === 'object' && persistence !== null && 'createRetainedStreamCombi' in persistence && typeof persistence.createRetainedStreamCombi === 'function') return persistence as RetainedStore;
  throw new Error('the aedes broker has no retained-message store (persistence.createRetainedStreamCombi)');
}

interface Outgoing {
  topic: string;
  payload: Buffer;
  qos: Qos;
  retain: boolean;
  callback: ((error?: Error) => void) | undefined;
}

/**
 * A client of the embedded broker inside the hub's process, without a socket: the hub's
 * own link and the web panel's. Publishes go straight into aedes (retained, queued and
 * delivered as any client's would be) and subscriptions are aedes's in-process ones, with
 * the retained messages replayed on subscribe as the broker does for a socket client. It
 * spares every message a serialisation, a loopback write, a parse and an acknowledgement.
 * The broker lives and dies with the hub, so there is no will and no reconnect.
 */
export class InProcessClient extends EventEmitter implements BrokerClient {
  private open = false;
  private readonly subscriptions: [string, Deliver][] = [];
  /** O(1) at any backlog: Array.shift copies a long array, which made a flood's drain quadratic. */
  private readonly waiting = new Fifo<Outgoing>();
  private retainedInFlight = false;

  /** `busEntry`: the broker's bus watched, so that a retained message holds the next ones back only until it is on the bus. */
  constructor(
    private readonly broker: Aedes,
    private readonly busEntry?: BusEntry,
  ) {
    super();
    setImmediate(() => {
      if (this.broker.closed) return;
      this.open = true;
      this.emit('connect');
    });
  }

  get connected(): boolean {
    return this.open && !this.broker.closed;
  }

  /** Messages published and not yet handed to the broker (held behind a retained one). */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Subscribes, then replays the retained messages the topics match. A live message that
   * arrives during the replay waits until it is over, so it is never overtaken by an older
   * retained one of the same topic.
   */
  subscribe(topics: Subscriptions, optsOrCallback?: unknown, callback?: (error: Error | null) => void): void {
    const done = typeof optsOrCallback === 'function' ? (optsOrCallback as typeof callback) : callback;
    const list = Array.isArray(topics) ? topics : Object.keys(topics);
    if (!this.connected) return done?.(new Error('the in-process MQTT client is closed'));
    let held: AedesPublishPacket[] | null = [];
    for (const topic of list) {
      const deliver: Deliver = (packet, next) => {
        if (held) held.push(packet);
        else this.deliver(packet);
        next();
      };
      this.broker.subscribe(topic, deliver, () => undefined);
      this.subscriptions.push([topic, deliver]);
    }
    const release = (error: Error | null) => {
      if (held === null) return; // once: an error may be followed by the end
      const live = held;
      held = null;
      for (const packet of live) this.deliver(packet);
      done?.(error);
    };
    const retained = retainedStoreOf(this.broker).createRetainedStreamCombi(list);
    retained.on('data', (packet: AedesPublishPacket) => this.deliver(packet));
    retained.on('error', (e: Error) => release(e));
    retained.on('end', () => release(null));
  }

  /** Calls back once the broker has dropped every matching subscription. */
  unsubscribe(topics: string | string[], callback?: (error?: Error) => void): void {
    const list = typeof topics === 'string' ? [topics] : topics;
    const leaving = this.subscriptions.filter(([topic]) => list.includes(topic));
    this.subscriptions.splice(0, this.subscriptions.length, ...this.subscriptions.filter((s) => !leaving.includes(s)));
    let left = leaving.length;
    if (left === 0) return callback?.();
    for (const [topic, deliver] of leaving) this.broker.unsubscribe(topic, deliver, () => --left === 0 && callback?.());
  }

  unsubscribeAsync(topics: string | string[]): Promise<void> {
    return new Promise((resolve) => this.unsubscribe(topics, () => resolve()));
  }

  private deliver(packet: AedesPublishPacket): void {
    try {
      this.emit('message', packet.topic, packet.payload as Buffer, packet);
    } catch (e) {
      // A handler's fault must not reach into the broker's delivery loop.
      if (this.listenerCount('error') > 0) this.emit('error', e as Error);
      else process.emitWarning(e as Error);
    }
  }

  /**
   * In order, as over a client's connection. aedes stores a retained message before it puts
   * it on its bus (where messages keep their order), and drops a message older than one it
   * already delivered, so a plain message must not overtake a retained one: whatever comes
   * after a retained publish waits until it is on the bus. Only until then (issue 18): held
   * until its delivery was through, every retained state held the events behind the broker's
   * whole backlog, and at a flood's rate they queued here by the ten thousand. Without a
   * watched bus, until its publish is through. Plain messages go in as they are published.
   */
  publish(topic: string, payload: string, opts: { qos: Qos; retain?: boolean }, callback?: (error?: Error) => void): void {
    if (!this.connected) return callback?.(new Error('the in-process MQTT client is closed'));
    this.waiting.push({ topic, payload: Buffer.from(payload), qos: opts.qos, retain: opts.retain === true, callback });
    this.release();
  }

  private release(): void {
    while (!this.retainedInFlight) {
      const next = this.waiting.shift();
      if (!next) return;
      let through: (() => void) | undefined;
      if (next.retain) {
        this.retainedInFlight = true;
        let done = false;
        through = () => {
          if (done) return;
          done = true;
          this.retainedInFlight = false;
          this.release();
        };
        this.busEntry?.when(next.payload, through);
      }
      this.broker.publish({ cmd: 'publish', topic: next.topic, payload: next.payload, qos: next.qos, retain: next.retain, dup: false }, (error) => {
        next.callback?.(error ?? undefined);
        through?.(); // a failed store never reaches the bus
      });
    }
  }

  publishAsync(topic: string, payload: string, opts: { qos: Qos; retain?: boolean }): Promise<void> {
    return new Promise((resolve, reject) => this.publish(topic, payload, opts, (error) => (error ? reject(error) : resolve())));
  }

  async endAsync(): Promise<void> {
    for (const [topic, deliver] of this.subscriptions.splice(0)) this.broker.unsubscribe(topic, deliver, () => undefined);
    this.open = false;
    // Whatever has not gone into the broker by now is not going out.
    for (const left of this.waiting.drain()) left.callback?.(new Error('the in-process MQTT client is closed'));
    this.emit('end');
  }
}
