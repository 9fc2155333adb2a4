import type { Shot } from '../rules/events.ts';
import type { PathSample, ShotPaths } from '../vision/tracker.ts';
import { IMPULSE_SHARE, SENSOR_CALIBRATION, speedRange } from '../rules/bounds.ts';
import { MAX_SPEED, dist, restingPlace, sureSighting, type SightingError, type Vec } from './ball-path.ts';

/**
 * The same-coloured balls' identity doubt (tracker.ts: from `since` on, either sighting may be
 * either ball), begun later while the paths still tell the two apart. The tracker weighs costs;
 * this takes only what cannot be otherwise, two ways one after the other:
 * - at rest (`stillUntil`): one of the two lay at rest before the doubt, and nothing sensed since
 *   may have struck it;
 * - apart (`apartUntil`): each one's sighting is farther from the other's last sure one than the
 *   top speed can have taken that one since.
 * The doubt then begins a frame before the first frame where neither holds (a segment's speed
 * bound looks one chord ahead), and track fusion reads the contacts before it as if there were
 * no doubt. A sighting in between that may be either ball's is left out of the paths (out of
 * sight: the fusion only knows less). Held-out 21234, five skittles s2 #11: both whites out of
 * sight for a frame or two under the arm while one lay still 150 mm from the other's way; the
 * other's three rails went to a prompt, and so did its last click, 900 mm from the still one
 * ("the cue with one or two": a carom, SK5-7, or not). Pure.
 */
export interface DoubtOptions {
  /** Add to a path sample's `t` to get the sensor shot's `t`. */
  offsetMs: number;
  /** Largest |true time on the camera clock − (sensor t − offset)|, ms. */
  toleranceMs: number;
  /** The sightings' errors (track fusion's). */
  error: SightingError;
  /** The ball the cue struck, when one alone was seen moving before the shot's first sensed contact (null: not known). */
  cueBall: string | null;
  /** false: the "at rest" way is not used (TrackFusionOptions.restUntilStruck). */
  restUntilStruck?: boolean;
}

/** The most a contact too soft for the sensors can add to a ball's speed, mm/ms (bounds.ts IMPULSE_SHARE at the sensors' floor). */
export const UNSENSED_GAIN = (IMPULSE_SHARE * speedRange(SENSOR_CALIBRATION.floor)[1]) / 1000;

type Seen = PathSample & { at: [number, number] };

/** Nothing sensed (camera clock) in [from, to], within `tol`; an event not timed may have been anywhere. */
export const quietBetween = (sensor: Shot, offset: number, tol: number) => (from: number, to: number) =>
  sensor.events.every((o) => o.t !== undefined && (o.t - offset < from - tol || o.t - offset > to + tol));

/** `shotPaths` with its doubt begun as late as the paths allow (null: none in this shot), and the sightings that may be either ball's left out. */
export function narrowDoubt(shotPaths: ShotPaths, sensor: Shot, options: DoubtOptions, frameMs: number): ShotPaths {
  const tracked = shotPaths.doubt;
  if (!tracked || tracked.balls.length !== 2) return shotPaths;
  const [one, two] = tracked.balls as [string, string];
  const frames = [...new Set([...shotPaths.paths[one]!, ...shotPaths.paths[two]!].map((x) => x.t))].sort((x, y) => x - y);
  const trusted = frames.filter((t) => t < tracked.since).at(-1);
  if (trusted === undefined) return shotPaths;
  const still = stillUntil(shotPaths, sensor, options, frameMs);
  // Its sightings that may be the other's are out of sight from here on (the "apart" way too).
  const paths = !still || still.either.size === 0 ? shotPaths.paths : { ...shotPaths.paths, [still.ball]: shotPaths.paths[still.ball]!.map((x) => (still.either.has(x.t) ? { t: x.t, at: null, clear: true } : x)) };
  const sure = apartUntil(paths, [one, two], frames, Math.max(trusted, still?.verified ?? -Infinity), options.error);
  const since = sure - frameMs;
  if (since <= tracked.since) return shotPaths;
  return { ...shotPaths, paths, doubt: sure >= frames.at(-1)! ? null : { balls: tracked.balls, since } };
}

const noiseOf = (x: PathSample, error: SightingError) => (sureSighting(x) ? error.noise : error.partialNoise);

/**
 * The last frame up to which the ids are sure because one of the two lay at rest, and the frames
 * whose sighting of it may be the other's. RULES §10: a ball at rest moves only when struck. One
 * that lay at rest before the doubt (sure sightings, while the ids were still trusted), and not the
 * ball the cue may yet strike (unsensed, before the shot's first contact), is until the next thing
 * sensed that may strike it (a click, a skittle's fall, an event not timed) within a crawl of where it lay: its
 * place's error, and what a kiss too soft for the sensors can give it (UNSENSED_GAIN) since it
 * was last surely seen there. So, frame by frame: a sighting of the colour farther than that crawl
 * is the other ball's, and then the one at its place is its own; so is one at its place when the
 * other cannot stand there (this one gone two radii, less the errors, to make room); else that
 * sighting may be either's. Undefined: neither lay at rest then.
 */
function stillUntil(shotPaths: ShotPaths, sensor: Shot, options: DoubtOptions, frameMs: number): { ball: string; verified: number; either: Set<number> } | undefined {
  const tracked = shotPaths.doubt!;
  const { offsetMs: offset, toleranceMs: tol, error } = options;
  const firstSensed = sensor.events.find((e) => e.t !== undefined)?.t;
  if (options.restUntilStruck === false || firstSensed === undefined) return undefined;
  const quiet = quietBetween(sensor, offset, tol);
  const R = shotPaths.ballRadius;
  for (const [still, other] of [tracked.balls, [...tracked.balls].reverse()] as [string, string][]) {
    const home = restingPlace(shotPaths.paths[still]!, tracked.since, frameMs, error.jitter, true, quiet);
    if (!home || tracked.since - home.lastSeen > 2 * frameMs) continue;
    // Not a ball the cue may yet strike (its stroke comes before the first contact).
    if (home.t < firstSensed - offset + tol && (options.cueBall === null || options.cueBall === still)) continue;
    const striking = sensor.events.find((e) => e.t === undefined || ((e.kind === 'ball' || e.kind === 'skittle') && e.t - offset + tol >= home.t));
    if (striking && striking.t === undefined) continue;
    const until = striking ? striking.t! - offset - tol - frameMs / 2 : Infinity;
    const seenAt = (b: string) => new Map(shotPaths.paths[b]!.filter((x): x is Seen => x.at !== null && x.t > home.t && x.t <= until).map((x) => [x.t, x]));
    const [mine, theirs] = [seenAt(still), seenAt(other)];
    // How far from its resting place it can be: its place's error and a crawl since, or since it was last surely seen there.
    let last = { t: home.t, off: error.rest };
    const reach = (t: number) => last.off + UNSENSED_GAIN * (t - last.t);
    let verified = home.t;
    const either = new Set<number>();
    for (const t of [...new Set([...mine.keys(), ...theirs.keys()])].sort((x, y) => x - y)) {
      const own = mine.get(t);
      const their = theirs.get(t);
      // The other's sighting is surely not this ball's; this one's is at its place.
      const apart = their ? dist(their.at, home.at) > noiseOf(their, error) + reach(t) : null;
      const off = own ? dist(own.at, home.at) : 0;
      if (apart === false || (own && off > (sureSighting(own) ? 2 * error.rest : error.partialNoise + error.rest))) break;
      verified = t;
      if (!own) continue;
      if (apart === true || reach(t) < 2 * R - off - noiseOf(own, error)) {
        if (sureSighting(own)) last = { t, off: Math.min(reach(t), off + noiseOf(own, error)) };
      } else either.add(t);
    }
    return { ball: still, verified, either };
  }
  return undefined;
}

/**
 * From frame `from` (ids sure up to it), the last frame up to which each one's sighting is surely
 * not the other ball's: farther from the other's last sure sighting than the top speed
 * (MAX_SPEED) can have taken it since, with both sightings' errors — and within its own reach.
 */
function apartUntil(paths: ShotPaths['paths'], balls: readonly [string, string], frames: readonly number[], from: number, error: SightingError): number {
  const seen = (b: string) => paths[b]!.filter((x): x is Seen => x.at !== null);
  const last = new Map(balls.map((b) => [b, seen(b).filter((x) => x.t <= from).at(-1)]));
  const at = new Map(balls.map((b) => [b, new Map(seen(b).map((x) => [x.t, x]))]));
  const reach = (b: string, t: number) => noiseOf(last.get(b)!, error) + MAX_SPEED * (t - last.get(b)!.t);
  let verified = from;
  for (const t of frames) {
    if (t <= from) continue;
    if (!last.get(balls[0]) || !last.get(balls[1])) break;
    const now = balls.map((b) => [b, at.get(b)!.get(t)] as const);
    const fits = now.every(([b, x]) => {
      const other = b === balls[0] ? balls[1] : balls[0];
      return !x || (dist(x.at, last.get(other)!.at as Vec) > noiseOf(x, error) + reach(other, t) && dist(x.at, last.get(b)!.at as Vec) <= noiseOf(x, error) + reach(b, t));
    });
    if (!fits) break;
    for (const [b, x] of now) if (x) last.set(b, x);
    verified = t;
  }
  return verified;
}
