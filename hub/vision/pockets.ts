import type { TrackSample } from './contacts.ts';

/**
 * Pocketed balls, from tracks (pocket tables: the seven-skittle games, SK7P-6/7). A ball
 * drops when its centre enters a pocket's circle; the camera then never sees it again. So a
 * ball is pocketed when its track ends for good (not seen once in the rest of the shot,
 * rest frames included) and the line it was running on at its last sightings enters a
 * pocket's circle within the time it was out of sight, before it could have stopped.
 *
 * Anything less sure is not stated: a ball last seen away from every pocket, or too slow
 * to reach one, or seen again later, was hidden (under an arm, a cue) — not pocketed.
 */
export interface PocketSpec {
  /** The pocket's centre, table mm. */
  at: [number, number];
  /** A ball whose centre comes this close to `at` drops (mm). */
  radius: number;
}

export interface PocketEvent {
  ball: string;
  /** ms, when the centre entered the pocket's circle. */
  t: number;
}

/**
 * The pockets of a pyramid (Russian billiards) table: four corners, two in the middle of the
 * long rails — the physics simulator's table (hardware/simulator/physics/table.ts). Defined
 * here again because hub/vision/ is served to the browser module by module and imports
 * nothing outside its folder.
 */
export function pyramidPockets(table: { length: number; width: number }, ballRadius: number): PocketSpec[] {
  const d = 2 * ballRadius;
  const corner = 1.05 * d;
  const middle = 0.8 * d;
  const { length: L, width: W } = table;
  return [
    { at: [0, 0], radius: corner },
    { at: [L, 0], radius: corner },
    { at: [0, W], radius: corner },
    { at: [L, W], radius: corner },
    { at: [L / 2, 0], radius: middle },
    { at: [L / 2, W], radius: middle },
  ];
}

/** Rolling resistance, mm/ms² (μ ≈ 0.01): a rolling ball covers at least v²/(2·this) before it stops. */
const ROLLING_DECELERATION = 0.0001;

export function findPockets(input: { tracks: Map<string, TrackSample[]>; pockets: readonly PocketSpec[]; dt: number }): PocketEvent[] {
  const out: PocketEvent[] = [];
  const { dt } = input;
  for (const [ball, samples] of input.tracks) {
    let k = samples.length - 1;
    while (k >= 0 && !samples[k]!.at) k--;
    // Seen at the end, or never: nothing to say.
    if (k < 0 || k === samples.length - 1) continue;
    const hiddenFor = samples[samples.length - 1]!.t - samples[k]!.t;
    // Out of sight for a moment only (the end of a clip cut short): not enough to call it gone.
    if (hiddenFor < GONE_AFTER_FRAMES * dt) continue;
    // The line it was on: the last two sightings that are one frame apart.
    const a = samples[k - 1];
    const b = samples[k]!;
    if (!a?.at || b.t - a.t > 1.5 * dt) continue;
    const v: [number, number] = [(b.at![0] - a.at[0]) / (b.t - a.t), (b.at![1] - a.at[1]) / (b.t - a.t)];
    const s = dropsAfter(b.at!, v, input.pockets, dt);
    if (s !== null) out.push({ ball, t: b.t + s });
  }
  return out.sort((x, y) => x.t - y.t);
}

/**
 * How long (ms) after its last sighting, at `at` running at `v` (mm/ms), a ball entered a
 * pocket's circle — null if its line enters none before the next frames would have shown it.
 */
export function dropsAfter(at: readonly [number, number], v: readonly [number, number], pockets: readonly PocketSpec[], dt: number): number | null {
  const speed = Math.hypot(v[0], v[1]);
  if (speed < 0.05) return null; // still or nearly: it could not have gone anywhere unseen
  // The next frames would have shown it unless it dropped: the entry must come before the
  // first frame it should have been seen in (a frame's slack for where the centroid was).
  const reach = Math.min(speed * 2 * dt, (speed * speed) / (2 * ROLLING_DECELERATION));
  for (const p of pockets) {
    const s = entry(at, v, p);
    if (s !== null && s * speed <= reach) return s;
  }
  return null;
}

/** A track not seen for this many frame intervals, its line into a pocket, has dropped (findPockets). */
export const GONE_AFTER_FRAMES = 4;

/** Time (ms, ≥ 0) at which p + v·s enters the pocket's circle, or null if it does not. */
function entry(p: readonly [number, number], v: readonly [number, number], pocket: PocketSpec): number | null {
  const d = [p[0] - pocket.at[0], p[1] - pocket.at[1]];
  const A = v[0] * v[0] + v[1] * v[1];
  const B = 2 * (d[0]! * v[0] + d[1]! * v[1]);
  const C = d[0]! * d[0]! + d[1]! * d[1]! - pocket.radius * pocket.radius;
  if (C <= 0) return 0; // already inside at its last sighting
  const disc = B * B - 4 * A * C;
  if (disc < 0 || A < 1e-12) return null;
  const s = (-B - Math.sqrt(disc)) / (2 * A);
  return s >= 0 ? s : null;
}
