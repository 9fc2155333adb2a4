import type { SensorEvent } from './sensor-events.ts';

/**
 * Which of a board's status frames go into the log (and so onto the events topic: nothing
 * is published that is not stored). The firmware sends the bed vibration every 100 ms and a
 * heartbeat every 250 ms whether anything happens or not: 14 rows a second per table, about
 * 3 GB a day for 16 tables, nearly all of it saying "still at rest, still alive".
 *
 * - `all` (the default): every frame is stored.
 * - `changes`: every vibration sample above the rest level is stored (the balls are
 *   moving: every sample matters), and so is the first one back at rest; at rest, one
 *   sample per keep-alive interval. A heartbeat is stored when the skittle switches it
 *   reports differ from the last stored one, the first after the link comes up, and once
 *   per keep-alive interval. Hits, clicks, skittle and link events are always stored.
 *
 * The segmenter and the table's health see every frame either way: this decides only
 * what is kept. Pure: times are the events' own.
 */
export type StatusFrameMode = 'all' | 'changes';

export interface StatusFrameOptions {
  mode: StatusFrameMode;
  keepAliveMs: number;
  /** The table's rest level (at or below it the balls are taken to be at rest). */
  restVibrationLevel: number;
}

export class StatusFrameFilter {
  private vibrationAt: number | null = null;
  private movingStored = false;
  private heartbeatAt: number | null = null;
  private skittleMask: number | null = null;

  constructor(private readonly options: StatusFrameOptions) {}

  /** True when the event is to be stored and published. */
  keep(event: SensorEvent): boolean {
    if (this.options.mode === 'all') return true;
    switch (event.type) {
      case 'vibration':
        return this.keepVibration(event.level, event.hubTime);
      case 'heartbeat':
        return this.keepHeartbeat(event.skittleMask, event.hubTime);
      case 'link':
      case 'board':
        // A new link or a board (re)start: the next status frames start afresh.
        this.vibrationAt = this.heartbeatAt = this.skittleMask = null;
        this.movingStored = false;
        return true;
      default:
        return true;
    }
  }

  private keepVibration(level: number, at: number): boolean {
    const moving = level > this.options.restVibrationLevel;
    const news = moving || this.movingStored || this.vibrationAt === null || at - this.vibrationAt >= this.options.keepAliveMs;
    if (news) {
      this.vibrationAt = at;
      this.movingStored = moving;
    }
    return news;
  }

  private keepHeartbeat(skittleMask: number, at: number): boolean {
    const news = this.heartbeatAt === null || skittleMask !== this.skittleMask || at - this.heartbeatAt >= this.options.keepAliveMs;
    if (news) {
      this.heartbeatAt = at;
      this.skittleMask = skittleMask;
    }
    return news;
  }
}
