import type { SensorEvent } from '../pipeline/sensor-events.ts';
import { ok, type Result } from '../rules/result.ts';
import type { SensorSource } from './source.ts';

/** A source fed by hand: recorded sensor logs, tests, a tracker-only table. */
export class ManualSource implements SensorSource {
  readonly kind = 'serial' as const;
  private sink: ((event: SensorEvent) => void) | null = null;
  thresholds: { channel: number; threshold: number; refractoryMs: number }[] = [];
  /** The hub's backpressure: every hold and release asked of it, in order (nothing here pauses; tests read it). */
  readonly holds: boolean[] = [];

  constructor(readonly simulated = false) {}

  async start(onEvent: (event: SensorEvent) => void): Promise<void> {
    this.sink = onEvent;
  }

  async stop(): Promise<void> {
    this.sink = null;
  }

  emit(event: SensorEvent): void {
    this.sink?.(event);
  }

  async setThresholds(channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>> {
    this.thresholds = channels;
    return ok({ channels });
  }

  hold(held: boolean): void {
    this.holds.push(held);
  }

  stats() {
    return { framesDropped: 0, linkUp: this.sink !== null };
  }
}
