import { metric } from './metrics.ts';

/** Held above this many messages and rows behind (about 0.6 s of a 34k-frames/s flood; shedding starts at 2,000 messages or 500 rows). */
export const HOLD_ABOVE = 20_000;
/** Read again once the backlog is down to this. */
export const RESUME_AT = 2_000;

/**
 * Backpressure on the boards' links under a sustained overload (issue 18): past what the hub
 * can work through, it stops reading the links, so the backlog waits where it is bounded (the
 * operating system's socket and serial buffers, a TCP peer's send buffer) and not in the hub's
 * memory (476 MB after 6 s at twice its capacity, and growing), and the event loop stays free
 * for the timers, the web panel and the broker. Hysteresis: held above HOLD_ABOVE, read again
 * at RESUME_AT. A serial board whose buffer fills while held loses frames there: the bridge
 * counts them as sequence gaps (only beyond the hub's capacity, never below it).
 */
export class InputHold {
  private held = false;
  private holds = 0;
  private heldMs = 0;
  private heldSince = 0;

  /** The backlog now (rows not yet committed and messages not yet delivered): whether the links are to be held, when that changes. */
  update(backlog: number, nowMs: number): boolean | null {
    if (!this.held && backlog > HOLD_ABOVE) {
      this.held = true;
      this.holds += 1;
      this.heldSince = nowMs;
      return true;
    }
    if (this.held && backlog <= RESUME_AT) {
      this.held = false;
      this.heldMs += nowMs - this.heldSince;
      return false;
    }
    return null;
  }

  get isHeld(): boolean {
    return this.held;
  }

  render(nowMs: number): string {
    const heldMs = this.heldMs + (this.held ? nowMs - this.heldSince : 0);
    return [
      metric('billiards_board_input_held', 'gauge', 'Whether the hub holds the boards\' links (backpressure: more behind than it can work through)', [{ value: this.held ? 1 : 0 }]),
      metric('billiards_board_input_holds_total', 'counter', 'Times the hub held the boards\' links under overload', [{ value: this.holds }]),
      metric('billiards_board_input_held_seconds_total', 'counter', 'Time the boards\' links were held under overload', [{ value: heldMs / 1000 }]),
    ].join('\n');
  }
}
