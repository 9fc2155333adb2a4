import type { SensorEvent } from '../pipeline/sensor-events.ts';
import type { TableState } from '../contract/mqtt.ts';
import type { Shot } from '../rules/events.ts';
import type { Result } from '../rules/result.ts';

/** What a source that plays matches itself (the simulator) may see and do at its table. */
export interface TableHandle {
  state(): TableState;
  /** The overhead tracker's account of a shot, with ball ids. */
  trackerShot(shot: Shot): void;
  /** Starts the same match again once one has ended. */
  restartMatch(): void;
}

/**
 * Where a table's sensor events come from: a board through the firmware bridge (serial,
 * StandardFirmata), or the table simulator through the same bridge. Construction has no
 * effects; start() begins delivering events, stop() ends it.
 */
export interface SensorSource {
  readonly kind: 'serial' | 'tcp' | 'firmata' | 'simulator';
  readonly simulated: boolean;
  start(onEvent: (event: SensorEvent) => void): Promise<void>;
  stop(): Promise<void>;
  /** Sends new thresholds to the board. */
  setThresholds(channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>>;
  /** Called once before start() for sources that need their table (the simulator). */
  attach?(table: TableHandle): void;
  /** Holds the board's input (the hub is behind: backpressure) or reads it again; sources with no link of their own need not. */
  hold?(held: boolean): void;
  /** Dropped-frame and link counters for /metrics. */
  stats(): { framesDropped: number; linkUp: boolean };
}
