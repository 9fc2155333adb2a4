import type { TableEvent } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import type { Rail, SkittleId } from '../rules/ids.ts';
import { ShotSegmenter, type SegmenterOutput } from '../pipeline/segmenter.ts';
import type { SensorEvent } from '../pipeline/sensor-events.ts';
import { StatusFrameFilter, type StatusFrameMode } from '../pipeline/status-frames.ts';
import type { EventStore } from '../store/event-store.ts';
import { shed } from '../ops/shed.ts';
import type { HubClock } from './clock.ts';
import type { TableCounters } from './counters.ts';
import type { TablePublisher } from './publisher.ts';

export interface SensorIntakeDeps {
  store: EventStore;
  publisher: Pick<TablePublisher, 'event'>;
  clock: HubClock;
  counters: TableCounters;
  /** The match the table's rows belong to (null: none). */
  matchId: () => number | null;
  /** Every event, stored or not, as the table's health reads it. */
  noteHealth: (event: SensorEvent, at: string) => void;
  /** Which status frames (vibration, heartbeats) are stored and published; all of them when absent. */
  statusFrames?: { mode: StatusFrameMode; keepAliveMs: number };
  /** Milliseconds from a sensor event on the board (hubTime: its board time on the hub clock) to its publish, stored first. */
  observeEventLatency?: (ms: number) => void;
  /** True while the hub is behind (a flood): status frames beyond the essential ones are shed. */
  overloaded?: () => boolean;
}

/**
 * A table's sensor events: each stored (group-committed) then published, status frames with
 * no news skipped and, under overload, shed; and all of them fed to the shot segmenter,
 * whose outputs (shots ended) the caller handles.
 */
export class SensorIntake {
  private readonly id: string;
  readonly segmenter: ShotSegmenter;
  private readonly statusFilter: StatusFrameFilter;
  /**
   * The status frames kept even under overload: a heartbeat whose skittle switches changed,
   * the first frames after the link or the board (re)starts, and one of each kind per
   * keep-alive interval (the rest level is never crossed, so moving samples are not essential).
   */
  private readonly essentialStatus: StatusFrameFilter;

  constructor(
    private readonly config: TableConfig,
    private readonly deps: SensorIntakeDeps,
  ) {
    this.id = config.id;
    const rails = Object.fromEntries(Object.entries(config.rails).map(([ch, rail]) => [Number(ch), rail])) as Record<number, Rail>;
    const skittles = Object.fromEntries(Object.entries(config.skittles).map(([i, s]) => [Number(i), s])) as Record<number, SkittleId>;
    this.segmenter = new ShotSegmenter({ rails, skittles, quietWindowMs: config.quietWindowMs, restVibrationLevel: config.restVibrationLevel, railMergeMs: config.railMergeMs, crossRailMs: config.crossRailMs, crossRailRatio: config.crossRailRatio, amplitudes: config.amplitudesCalibrated || config.source.type === 'simulator' });
    this.statusFilter = new StatusFrameFilter({ mode: deps.statusFrames?.mode ?? 'all', keepAliveMs: deps.statusFrames?.keepAliveMs ?? 60_000, restVibrationLevel: config.restVibrationLevel });
    this.essentialStatus = new StatusFrameFilter({ mode: 'changes', keepAliveMs: deps.statusFrames?.keepAliveMs ?? 60_000, restVibrationLevel: Infinity });
  }

  /** One event from the table's sensors: stored, published, and fed to the shot segmenter (what it ended is returned). */
  sensor(event: SensorEvent): SegmenterOutput[] {
    this.deps.counters.sensorEvents += 1;
    const at = this.deps.clock.iso();
    // The board's time and sequence go into the row's own columns (the event has both fields: no copy).
    const stamped = 'seq' in event ? event : NO_STAMP;
    const published = toTableEvent(this.id, event, at, this.config);
    // Asked of every event: a link or board event starts the status frames afresh.
    const news = this.statusFilter.keep(event);
    // Asked of every event too, so it knows the last kept frame when an overload begins.
    const essential = this.essentialStatus.keep(event);
    if (event.type === 'dropped') {
      // Counted, not logged row by row: line noise drops hundreds of frames a second.
      this.deps.store.addDrops(this.id, event.source, event.count);
      this.deps.noteHealth(event, at);
    } else if (event.type === 'link') {
      // Rare, and it changes the table's availability and health at once: stored now.
      this.deps.store.append(this.id, this.deps.matchId(), 'link', JSON.stringify(event), event.hubTime, at, stamped);
      this.deps.noteHealth(event, at);
      if (published) this.deps.publisher.event(this.id, published);
    } else if (!news) {
      // A status frame with no news (configured): the segmenter and health still read it.
      this.deps.counters.statusFramesSkipped += 1;
      this.deps.noteHealth(event, at);
    } else if (!essential && (event.type === 'vibration' || event.type === 'heartbeat') && this.deps.overloaded?.()) {
      // Overload policy (issue 18): a status frame the segmenter and health have read is
      // neither stored nor published while the hub is behind. Hits, clicks and skittles are never shed.
      shed.count('status-frame');
      this.deps.noteHealth(event, at);
    } else {
      // The stream itself: group-committed, published once stored. The segmenter reads it at
      // once; a shot it ends is stored after these rows (append commits the queue first).
      this.deps.noteHealth(event, at);
      this.deps.store.appendSoon(this.id, this.deps.matchId(), 'sensor', JSON.stringify(event), event.hubTime, at, stamped, () => {
        if (!published) return;
        this.deps.publisher.event(this.id, published);
        this.deps.observeEventLatency?.(this.deps.clock.now() - event.hubTime);
      });
    }
    return this.segmenter.push(event);
  }
}

const NO_STAMP = {};

function toTableEvent(table: string, event: SensorEvent, at: string, config: TableConfig): TableEvent | null {
  // One literal per kind, no shared base spread into it: this runs for every frame.
  const { hubTime } = event;
  const boardUs = 'boardUs' in event ? event.boardUs : null;
  const seq = 'seq' in event ? event.seq : null;
  switch (event.type) {
    case 'rail-hit':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'rail-hit', channel: event.channel, rail: config.rails[String(event.channel)] ?? 'unmapped', amplitude: event.amplitude };
    case 'click':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'click', amplitude: event.amplitude };
    case 'vibration':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'vibration', level: event.level };
    case 'skittle':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'skittle', skittle: config.skittles[String(event.index)] ?? `switch-${event.index}`, state: event.state };
    case 'link':
      return { type: 'sensor', table, at, hubTime, boardUs, seq, sensor: 'link', state: event.state };
    default:
      return null;
  }
}
