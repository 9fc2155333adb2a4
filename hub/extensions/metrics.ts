import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Histogram, metric, processMetrics } from '../ops/metrics.ts';
import { shed } from '../ops/shed.ts';
import type { Extension, HubContext } from './extension.ts';

/**
 * /metrics (Prometheus text): the tables' counters, the board and broker links, the publish
 * and event latencies (measured from the bus), the overload policy, every running
 * extension's own lines and the bus's listener failures.
 */
export class MetricsExtension implements Extension {
  readonly name = 'metrics';
  readonly publishLatency = new Histogram([0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000]);
  readonly eventLatency = new Histogram([0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000]);

  /** How late the hub's thread ran a 10 ms timer: what any event waited behind the work in front of it (GC, scoring, a long turn). */
  private loopDelay: IntervalHistogram | null = null;
  private static readonly LOOP_RESOLUTION_MS = 10;

  constructor(private readonly hub: HubContext) {}

  start(): void {
    const { events, clock } = this.hub;
    this.loopDelay = monitorEventLoopDelay({ resolution: MetricsExtension.LOOP_RESOLUTION_MS });
    this.loopDelay.enable();
    events.on('publish-acked', this.name, ({ ms }) => this.publishLatency.observe(ms));
    // From a sensor event on the board (its time mapped to the hub clock) to its publish, stored first.
    events.on('sensor-event-stored', this.name, ({ event }) => this.eventLatency.observe(clock.now() - event.hubTime));
  }

  stop(): void {
    this.loopDelay?.disable();
  }

  /**
   * The event loop's delay since the last scrape, under prom-client's names (its Node.js
   * default metrics read and reset the same histogram on each collect): percentiles of one
   * scrape interval, not of the process's life.
   */
  private renderLoopDelay(): string[] {
    const h = this.loopDelay;
    if (!h || h.count === 0) return [];
    // Node records the time between the monitor's timer ticks: the period itself is no delay.
    const s = (ns: number) => [{ value: Math.max(0, Math.round(ns / 1e3 - MetricsExtension.LOOP_RESOLUTION_MS * 1e3)) / 1e6 }];
    const lines = [
      metric('nodejs_eventloop_lag_p50_seconds', 'gauge', 'The 50th percentile of the event loop delay since the last scrape', s(h.percentile(50))),
      metric('nodejs_eventloop_lag_p99_seconds', 'gauge', 'The 99th percentile of the event loop delay since the last scrape', s(h.percentile(99))),
      metric('nodejs_eventloop_lag_max_seconds', 'gauge', 'The longest event loop delay since the last scrape', s(h.max)),
    ];
    h.reset();
    return lines;
  }

  render(): string {
    const { hub } = this;
    const tables = [...hub.tables.values()];
    const link = hub.link;
    const parts = [
      metric('billiards_sensor_events_total', 'counter', 'Sensor events received', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.sensorEvents }))),
      metric('billiards_frames_dropped_total', 'counter', 'Frames the bridge dropped (gaps, corrupt, board queue)', tables.map((t) => ({ labels: { table: t.id }, value: hub.sources.get(t.id)?.stats().framesDropped ?? 0 }))),
      metric('billiards_shots_total', 'counter', 'Shots scored', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.shots }))),
      metric('billiards_prompts_total', 'counter', 'Shots that needed a referee', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.prompts }))),
      metric('billiards_strikes_withdrawn_total', 'counter', 'Tracker or camera strikes taken back: a rest with no shot, no ball left its place (a knock on the camera)', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.strikesWithdrawn }))),
      metric('billiards_status_frames_skipped_total', 'counter', 'Status frames not stored or published: no news (store.statusFrames: changes)', tables.map((t) => ({ labels: { table: t.id }, value: t.counters.statusFramesSkipped }))),
      metric('billiards_board_settings', 'gauge', 'Board settings (thresholds, debounce, switch polarity) by state since the board last booted: confirmed by its ACK, pending, rejected, unsupported', tables.flatMap((t) => {
        const b = t.healthView().board;
        return b ? (['confirmed', 'pending', 'rejected', 'unsupported'] as const).map((state) => ({ labels: { table: t.id, state }, value: b[state] })) : [];
      })),
      metric('billiards_table_link_up', 'gauge', 'Sensor link of each table (1 up)', tables.map((t) => ({ labels: { table: t.id }, value: t.isOnline ? 1 : 0 }))),
      metric('billiards_mqtt_connected', 'gauge', 'Hub connected to the broker', [{ value: link.connected ? 1 : 0 }]),
      metric('billiards_mqtt_refused_total', 'counter', 'Logins, messages, subscriptions and connections refused (by the embedded broker, or by the hub before parsing)', [
        ...[...hub.brokerRefusals].map(([reason, value]) => ({ labels: { reason }, value })),
        ...Object.entries(link.refused).map(([reason, value]) => ({ labels: { reason }, value })),
      ]),
      // Where an overload waits (the shedding signals): rows not yet committed, messages not yet delivered.
      metric('billiards_store_queued_rows', 'gauge', 'Rows waiting for their group commit (queued, or with the writer thread): not yet published', [{ value: hub.store.queuedRows }]),
      metric('billiards_broker_backlog_messages', 'gauge', 'Messages waiting to go into the embedded broker (its in-process clients) or for a delivery slot in it', [{ value: hub.brokerBacklog() }]),
      metric('billiards_mqtt_events_lost_total', 'counter', 'Event messages not sent while the broker was away', [{ value: link.dropped }]),
      this.publishLatency.render('billiards_publish_latency_ms', 'From publish to broker acknowledgement'),
      this.eventLatency.render('billiards_event_latency_ms', 'From a sensor event on the board (its time mapped to the hub clock) to its publish on the events topic, stored first: the serial line time and the hub'),
      shed.render(),
      hub.inputHold.render(performance.now()),
      ...hub.extensions().flatMap((e) => (e === this ? [] : (e.metrics?.() ?? []))),
      hub.events.renderMetrics(),
      ...processMetrics(),
      ...this.renderLoopDelay(),
    ];
    return `${parts.join('\n')}\n`;
  }
}
