import type { SensorEvent } from '../pipeline/sensor-events.ts';
import type { Result } from '../rules/variant.ts';

/**
 * Where a table's sensor events come from: a board through the firmware bridge (serial,
 * StandardFirmata), or the table simulator through the same bridge. Construction has no
 * effects; start() begins delivering events, stop() ends it.
 */
export interface SensorSource {
  readonly kind: 'serial' | 'firmata' | 'simulator';
  readonly simulated: boolean;
  start(onEvent: (event: SensorEvent) => void): Promise<void>;
  stop(): Promise<void>;
  /** Sends new thresholds to the board. */
  setThresholds(channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>>;
  /** Dropped-frame and link counters for /metrics. */
  stats(): { framesDropped: number; linkUp: boolean };
}
