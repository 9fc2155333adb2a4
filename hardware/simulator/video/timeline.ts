import { advance, motionOf, type Ball } from '../physics/ball.ts';
import { simulate, type SimEvent, type SimOptions, type SimResult } from '../physics/engine.ts';
import type { TableGeometry } from '../physics/table.ts';

/**
 * A simulated shot as a function of time: the ball states the physics records at every
 * contact (an event, or a bounce off a skittle that stays up), advanced analytically to
 * any instant in between (through sliding → rolling → rest), and when each skittle fell.
 * What the renderer needs to draw frame after frame.
 */
export interface Timeline {
  table: TableGeometry;
  result: SimResult;
  /** Skittle id → time (s) it fell. */
  fellAt: Map<string, number>;
  /** Skittle id → the ball that felled it (for the direction it falls). */
  fellBy: Map<string, string>;
  ballsAt(t: number): Ball[];
}

export function simulateTimeline(table: TableGeometry, start: readonly Ball[], options: Omit<SimOptions, 'observe'>): Timeline {
  const states: { t: number; balls: Ball[] }[] = [];
  const fellAt = new Map<string, number>();
  const fellBy = new Map<string, string>();
  const observe = (t: number, balls: readonly Ball[], event: SimEvent | null) => {
    states.push({ t, balls: balls.map((b) => ({ ...b })) });
    if (event?.kind === 'skittle') {
      fellAt.set(event.skittle, t);
      fellBy.set(event.skittle, event.by);
    }
  };
  const result = simulate(table, start, { ...options, observe });
  return {
    table,
    result,
    fellAt,
    fellBy,
    ballsAt(t: number): Ball[] {
      let k = 0;
      // Last record at or before t (records are in time order; several may share an instant).
      let lo = 0;
      let hi = states.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (states[mid]!.t <= t) {
          k = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      const rec = states[k]!;
      return rec.balls.map((b) => freeMotion(b, Math.max(0, t - rec.t)));
    },
  };
}

/** Advances a ball with no contact for dt seconds, phase after phase. */
function freeMotion(b: Ball, dt: number): Ball {
  let ball = b;
  for (let k = 0; k < 4 && dt > 1e-9; k++) {
    const m = motionOf(ball);
    if (m.phase === 'rest') break;
    const step = Math.min(dt, m.until);
    ball = advance(ball, step);
    dt -= step;
  }
  return ball;
}
