import type { HubConfig } from '../config/schema.ts';
import type { HubEventBus } from '../events.ts';
import type { RefusalReason } from '../mqtt/broker.ts';
import type { MqttLink } from '../mqtt/link.ts';
import type { LogFn } from '../ops/log.ts';
import type { SensorSource } from '../sources/source.ts';
import type { EventStore } from '../store/event-store.ts';
import type { HubClock } from '../tables/clock.ts';
import type { TableService } from '../tables/table-service.ts';
import type { ProcessorSpec } from '../camera/frame-processor.ts';
import type { InputHold } from '../ops/input-hold.ts';

/**
 * A feature around the hub's core (Zigbee2MQTT's extensions): started after the core is
 * built, stopped in reverse order. It reacts to the core through the event bus and reaches
 * it through the HubContext; it may add retained messages to every MQTT snapshot and lines
 * to /metrics. One that fails to start is logged and left out; the hub runs without it.
 */
export interface Extension {
  /** Names it in logs and in the bus's failure counts. */
  readonly name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
  /** Retained messages published with every snapshot (on each connect to the broker). */
  retained?(): { topic: string; payload: unknown }[];
  /** Its own lines for /metrics (Prometheus text, one metric a string). */
  metrics?(): string[];
}

/** What an extension may reach of the hub's core. */
export interface HubContext {
  readonly config: HubConfig;
  readonly dataDir: string;
  readonly events: HubEventBus;
  readonly clock: HubClock;
  readonly log: LogFn;
  readonly tables: ReadonlyMap<string, TableService>;
  readonly sources: ReadonlyMap<string, SensorSource>;
  readonly store: EventStore;
  readonly link: MqttLink;
  /** What the embedded broker refused, by reason (empty on an external broker). */
  readonly brokerRefusals: ReadonlyMap<RefusalReason, number>;
  /** Messages waiting to go into the embedded broker or for a delivery slot in it (EmbeddedBroker.backlog; 0 on an external broker). */
  brokerBacklog(): number;
  /** Backpressure on the boards' links (its state and counts for /metrics). */
  readonly inputHold: InputHold;
  /** The tables' camera detector and pacing (HubOptions). */
  readonly camera: { processor: ProcessorSpec | null; realtime: boolean };
  /** After an input that may start or end a shot: (re)arms the table's shot-end timer. */
  wake(table: TableService): void;
  /** The extensions running now, in start order (metrics reads their contributions). */
  extensions(): readonly Extension[];
}

export type ExtensionFactory = (hub: HubContext) => Extension;

/** Starts extensions in order, leaving out (and logging) any that fails; stops them in reverse. */
export class ExtensionRunner {
  private running: Extension[] = [];

  constructor(
    private readonly log: LogFn,
    private readonly events: HubEventBus,
  ) {}

  get active(): readonly Extension[] {
    return this.running;
  }

  async start(extensions: readonly Extension[]): Promise<void> {
    for (const extension of extensions) {
      try {
        await extension.start();
        this.running.push(extension);
      } catch (e) {
        this.log('error', 'an extension failed to start; the hub runs without it', { extension: extension.name, error: (e as Error).message });
        // What it had set up before failing goes too (its listeners, timers).
        this.events.off(extension.name);
        await Promise.resolve()
          .then(() => extension.stop())
          .catch(() => undefined);
      }
    }
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = [];
    for (const extension of [...running].reverse()) {
      try {
        this.events.off(extension.name);
        await extension.stop();
      } catch (e) {
        this.log('error', 'an extension failed to stop', { extension: extension.name, error: (e as Error).message });
      }
    }
  }
}
