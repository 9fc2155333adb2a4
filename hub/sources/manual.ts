import type { SensorEvent } from '../pipeline/sensor-events.ts';
import { ok, type Result } from '../rules/result.ts';
import type { SensorSource } from './source.ts';

/** A source fed by hand: recorded sensor logs, tests, a tracker-only table. */
export class ManualSource implements SensorSource {
  readonly kind = 'serial' as const;
  private sink: ((event: SensorEvent) => void) | null = null;
  thresholds: { channel: number; threshold: number; refractoryMs: number }[] = [];

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

  stats() {
    return { framesDropped: 0, linkUp: this.sink !== null };
  }
}
