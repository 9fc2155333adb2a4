import { EventEmitter } from 'node:events';
import type { Aedes, AedesPublishPacket } from 'aedes';

type Qos = 0 | 1;

/** What the hub's MQTT link needs of a client: mqtt.js's MqttClient has it, and so does InProcessClient. */
export interface BrokerClient extends EventEmitter {
  readonly connected: boolean;
  subscribe(topics: string[], opts: { qos: Qos }): unknown;
  publish(topic: string, payload: string, opts: { qos: Qos; retain: boolean }, callback?: (error?: Error) => void): unknown;
  publishAsync(topic: string, payload: string, opts: { qos: Qos; retain: boolean }): Promise<unknown>;
  endAsync(force?: boolean): Promise<unknown>;
}

type Deliver = (packet: AedesPublishPacket, done: () => void) => void;
interface Outgoing {
  topic: string;
  payload: Buffer;
  qos: Qos;
  retain: boolean;
  callback: ((error?: Error) => void) | undefined;
}

/**
 * The hub's own client of the embedded broker, without a socket: publishes go straight
 * into aedes (retained, queued and delivered as any client's would be) and subscriptions
 * are aedes's in-process ones. It spares every message a serialisation, a loopback round
 * trip, a parse and an acknowledgement. The broker lives and dies with the hub, so there is
 * no will and no reconnect.
 */
export class InProcessClient extends EventEmitter implements BrokerClient {
  private open = false;
  private readonly subscriptions: [string, Deliver][] = [];
  private readonly waiting: Outgoing[] = [];
  private retainedInFlight = false;

  constructor(private readonly broker: Aedes) {
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

  subscribe(topics: string[]): void {
    for (const topic of topics) {
      const deliver: Deliver = (packet, done) => {
        try {
          this.emit('message', packet.topic, packet.payload as Buffer);
        } catch (e) {
          // A handler's fault must not reach into the broker's delivery loop.
          this.emit('error', e as Error);
        }
        done();
      };
      this.broker.subscribe(topic, deliver, () => undefined);
      this.subscriptions.push([topic, deliver]);
    }
  }

  /**
   * In order, as over a client's connection. aedes stores a retained message before it
   * delivers it, and drops a broker message older than one it already delivered, so a
   * plain message must not overtake a retained one: whatever comes after a retained
   * publish waits until it is through. Plain messages are delivered as they are published,
   * so a run of them goes out at once.
   */
  publish(topic: string, payload: string, opts: { qos: Qos; retain: boolean }, callback?: (error?: Error) => void): void {
    if (!this.connected) return callback?.(new Error('the in-process MQTT client is closed'));
    this.waiting.push({ topic, payload: Buffer.from(payload), qos: opts.qos, retain: opts.retain, callback });
    this.release();
  }

  private release(): void {
    while (!this.retainedInFlight) {
      const next = this.waiting.shift();
      if (!next) return;
      if (next.retain) this.retainedInFlight = true;
      this.broker.publish({ cmd: 'publish', topic: next.topic, payload: next.payload, qos: next.qos, retain: next.retain, dup: false }, (error) => {
        next.callback?.(error ?? undefined);
        if (next.retain) {
          this.retainedInFlight = false;
          this.release();
        }
      });
    }
  }

  publishAsync(topic: string, payload: string, opts: { qos: Qos; retain: boolean }): Promise<void> {
    return new Promise((resolve, reject) => this.publish(topic, payload, opts, (error) => (error ? reject(error) : resolve())));
  }

  async endAsync(): Promise<void> {
    for (const [topic, deliver] of this.subscriptions.splice(0)) this.broker.unsubscribe(topic, deliver, () => undefined);
    this.open = false;
    // Whatever has not gone into the broker by now is not going out.
    for (const left of this.waiting.splice(0)) left.callback?.(new Error('the in-process MQTT client is closed'));
  }
}
