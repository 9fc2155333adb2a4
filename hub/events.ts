import type { TableEvent, TableHealth, TableState } from './contract/mqtt.ts';
import type { LogFn } from './ops/log.ts';
import { metric } from './ops/metrics.ts';

type EventOf<T extends TableEvent['type']> = Extract<TableEvent, { type: T }>;

/**
 * What happens in the hub's core, by name, for the extensions to react to (the Zigbee2MQTT
 * pattern): each is emitted after the fact is stored and published, never before.
 */
export interface HubEvents {
  /** A sensor event was stored and published on the table's events topic. */
  'sensor-event-stored': { table: string; event: EventOf<'sensor'> };
  /** A shot was scored (result set) or kept unscored for the record (result null). */
  'shot-scored': { table: string; event: EventOf<'shot'> };
  /** A match started on a table (by hand, the league, or the table's default match). */
  'match-started': { table: string; event: EventOf<'match'> };
  /** A match reached its end (finished, or drawn). */
  'match-ended': { table: string; state: TableState };
  /** A shot waits for the referee. */
  'prompt-raised': { table: string; state: TableState };
  /** The referee answered (the table plays on). */
  'prompt-answered': { table: string; state: TableState };
  /** Every table state, after it is published. */
  'table-state': { state: TableState };
  /** A table's health changed (computed, not yet published: the health extension publishes it). */
  'table-health-changed': { table: string; health: TableHealth };
  /** A table's board link went up or down. */
  'table-link': { table: string; state: 'up' | 'down' };
  /** A tracker's message arrived on the table's tracker topic (raw: the tracker extension decodes it). */
  'tracker-message': { table: string; payload: Buffer };
  /** The broker acknowledged a publish after this many milliseconds. */
  'publish-acked': { ms: number };
}

export type HubEventName = keyof HubEvents;
export type HubListener<E extends HubEventName> = (payload: HubEvents[E]) => void;

interface Subscription {
  owner: string;
  listener: (payload: never) => void;
}

/**
 * The hub's typed event bus. Every listener has an owner (an extension's name). A listener
 * that throws is caught: the failure is logged once per owner and event (with the owner's
 * name), counted for /metrics, and the event still reaches every other listener; the
 * emitter never sees the error. Listeners run synchronously, in subscription order.
 */
export class HubEventBus {
  private readonly subscriptions = new Map<HubEventName, Subscription[]>();
  /** Listener failures by `owner\u0000event`. */
  private readonly failures = new Map<string, number>();

  constructor(private readonly log: LogFn) {}

  /** Subscribes `listener` to `event` on behalf of `owner`; returns the unsubscribe. */
  on<E extends HubEventName>(event: E, owner: string, listener: HubListener<E>): () => void {
    const subscription: Subscription = { owner, listener: listener as (payload: never) => void };
    // A new array per change: an emit in progress keeps iterating the list it started with.
    this.subscriptions.set(event, [...(this.subscriptions.get(event) ?? []), subscription]);
    return () => this.subscriptions.set(event, (this.subscriptions.get(event) ?? []).filter((s) => s !== subscription));
  }

  /** Removes every listener `owner` holds (an extension being stopped). */
  off(owner: string): void {
    for (const [event, list] of this.subscriptions) this.subscriptions.set(event, list.filter((s) => s.owner !== owner));
  }

  /** Whether anyone listens (lets a hot path skip building a payload nobody reads). */
  has(event: HubEventName): boolean {
    return (this.subscriptions.get(event)?.length ?? 0) > 0;
  }

  emit<E extends HubEventName>(event: E, payload: HubEvents[E]): void {
    const list = this.subscriptions.get(event);
    if (!list) return;
    for (const { owner, listener } of list) {
      try {
        (listener as HubListener<E>)(payload);
      } catch (e) {
        this.failed(owner, event, e);
      }
    }
  }

  /** How many times each owner's listeners threw, by event. */
  failureCounts(): { owner: string; event: HubEventName; count: number }[] {
    return [...this.failures].map(([key, count]) => {
      const [owner, event] = key.split('\u0000') as [string, HubEventName];
      return { owner, event, count };
    });
  }

  /** The failure counter in Prometheus text (the metrics extension renders it). */
  renderMetrics(): string {
    return metric(
      'billiards_extension_failures_total',
      'counter',
      'Hub event listeners that threw (caught; the event reached the other listeners)',
      this.failureCounts().map(({ owner, event, count }) => ({ labels: { extension: owner, event }, value: count })),
    );
  }

  private failed(owner: string, event: HubEventName, error: unknown): void {
    const key = `${owner}\u0000${event}`;
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
    // Once per owner and event: a listener that throws on every sensor frame must not flood the log.
    if (count === 1) this.log('error', 'an extension failed on a hub event; it keeps receiving the others (logged once, counted in /metrics)', { extension: owner, event, error: (error as Error)?.message ?? String(error) });
  }
}
