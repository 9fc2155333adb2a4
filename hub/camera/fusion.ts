import type { Shot, ShotEvent } from '../rules/events.ts';

/**
 * Camera + sensors (issue 16). The piezos time every rail hit and click to ~0.1 ms but cannot
 * tell which ball; the camera names the balls but, at 30 fps, cannot order two contacts
 * within one frame interval, and it loses balls under an arm or a cue. The fused shot keeps
 * the sensors' events — their order, their times, their count (nothing invented) — and
 * takes each ball id from the camera only where the camera's contact is surely the same
 * contact. Anything less sure becomes `null`, so the engine asks (RULES §10): never a wrong
 * fact to make a prompt disappear.
 *
 * When is a camera contact "surely" a sensor event's? Put the camera's times on the sensor
 * clock (`offsetMs`) and link every camera contact to each sensor event of the same kind
 * (cushion: same rail; skittle: same skittle) within `toleranceMs` (a frame interval plus
 * the clock uncertainty). Each connected group of the links is judged alone:
 * - as many camera contacts as sensor events: since the camera invents no contact and each
 *   camera contact lies within tolerance of its true sensor event, every sensor event's
 *   true camera contact is among its links; a fact all its links agree on is the truth;
 * - fewer camera contacts (one hidden, or its ball out of view): a sensor event's own
 *   contact may be the missing one, so the group gets no ids;
 * - more camera contacts (the sensors merged or missed one): the sensors' count is not
 *   trusted either, so no ids, and the extra contacts are counted, not added.
 * The premise "the camera invents no contact" fails inside a burst (contacts within one
 * window of a click: inBurst), so there the camera's ids are not taken.
 * Shot facts the sensors cannot see (off-table, pocket, resting positions) come from the
 * camera; an off-table contact is placed among the sensor events by its time.
 */
export interface FusionOptions {
  /** Add to a camera event's `t` to get the sensor shot's `t` (both ms). */
  offsetMs: number;
  /** Largest |camera t + offset − sensor t| of one contact: a frame interval plus the clock uncertainty. */
  toleranceMs: number;
}

export interface FusionReport {
  shot: Shot;
  /** Sensor events that took at least one id from the camera. */
  identified: number;
  /** Sensor contact events left with an unknown id (no camera contact, or not a sure one). */
  unknown: number;
  /** Camera contacts with no sure sensor event: counted, never added. */
  unmatchedCamera: number;
}

type Contact = Extract<ShotEvent, { kind: 'ball' | 'cushion' | 'skittle' }>;

const isContact = (e: ShotEvent): e is Contact => e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle';

function sameKind(a: Contact, b: Contact): boolean {
  if (a.kind === 'ball') return b.kind === 'ball';
  if (a.kind === 'cushion') return b.kind === 'cushion' && b.rail === a.rail;
  return b.kind === 'skittle' && b.skittle === a.skittle;
}

export function fuseShot(sensor: Shot, camera: Shot, options: FusionOptions): FusionReport {
  const contacts = fuseContacts(sensor, camera, options);
  const burst = inBurst(sensor.events, options.toleranceMs);
  const events = contacts.events.map((e, k) => (burst.has(k) ? unknownIds(e) : e));
  const identified = events.filter((e) => knownIds(e) > 0).length;
  const { shot, unknown } = withCameraFacts(sensor, events, camera, options.offsetMs, options.toleranceMs);
  return { shot, identified, unknown, unmatchedCamera: contacts.unmatchedCamera };
}

/**
 * Sensor contacts in a burst: within twice `windowMs` of a ball click other than themselves, or
 * of another contact of the same kind (the same rail, the same skittle). There the
 * camera's contacts are not trusted to be right or absent, which contact fusion assumes:
 * - within one window (a frame interval plus the clock error) the camera sees that balls met,
 *   not who met whom: three balls meeting within a frame (yellow on white, white on red 19 ms
 *   later: held-out seed 6060) came out of the tracker as yellow–white and yellow–red, and the
 *   wrong id became a point the truth did not make;
 * - two hits of one rail 34 ms apart (a struck ball, then the cue ball behind it: seed 6262),
 *   of which the camera saw one and timed it 42 ms early, linked to the wrong hit alone;
 * - a struck ball hitting two rails in a corner between two clicks 56 ms apart (seed 6262,
 *   60 fps): the camera gave the cue ball's name to the rail hit 29 ms after the first click.
 * Twice the window because the camera's contact times were measured up to 42 ms off.
 * So there the ids come from the paths alone (track-fusion.ts), whose rules hold whatever the
 * camera's contacts say; without paths they stay unknown, and the engine asks.
 */
export function inBurst(events: readonly ShotEvent[], windowMs: number): Set<number> {
  const timed = events.flatMap((e, k) => (isContact(e) && e.t !== undefined ? [{ e, k, t: e.t }] : []));
  const out = new Set<number>();
  for (const a of timed) {
    const near = timed.some((b) => b.k !== a.k && (b.e.kind === 'ball' || sameKind(a.e, b.e)) && Math.abs(b.t - a.t) <= 2 * windowMs);
    if (near) out.add(a.k);
  }
  return out;
}


/** The sensor events, one for one (same index), with the ids the camera's contacts surely give. */
export function fuseContacts(sensor: Shot, camera: Shot, options: FusionOptions): { events: ShotEvent[]; identified: number; unmatchedCamera: number } {
  const { offsetMs, toleranceMs } = options;
  if (!(toleranceMs >= 0) || !Number.isFinite(offsetMs)) throw new Error('fusion: toleranceMs must be ≥ 0 and offsetMs finite');
  const s = sensor.events.map((e, i) => ({ e, i })).filter((x): x is { e: Contact; i: number } => isContact(x.e));
  // A camera's maybe events (hub/vision/doubts.ts) say what it could not rule out: the sensors
  // say what happened, so only the camera's stated contacts lend their ids.
  const c = camera.events.filter((e): e is Contact => isContact(e) && !('maybe' in e && e.maybe));
  // Links: sensor index ↔ camera index, same kind, within tolerance. Untimed events link to nothing.
  const links = s.map((se) =>
    c.flatMap((ce, j) => (se.e.t !== undefined && ce.t !== undefined && sameKind(se.e, ce) && Math.abs(ce.t + offsetMs - se.e.t) <= toleranceMs ? [j] : [])),
  );
  // Connected groups over the bipartite links (union–find on sensor events + camera contacts).
  const parent = [...Array(s.length + c.length).keys()];
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  links.forEach((js, i) => js.forEach((j) => (parent[find(i)] = find(s.length + j))));
  const size = new Map<number, { sensors: number; cameras: number }>();
  for (let k = 0; k < parent.length; k++) {
    const root = find(k);
    const g = size.get(root) ?? { sensors: 0, cameras: 0 };
    if (k < s.length) g.sensors += 1;
    else g.cameras += 1;
    size.set(root, g);
  }
  const events: ShotEvent[] = sensor.events.map(unknownIds);
  let identified = 0;
  let unmatchedCamera = 0;
  for (const g of size.values()) if (g.cameras > g.sensors) unmatchedCamera += g.cameras;
  s.forEach((se, k) => {
    const g = size.get(find(k))!;
    if (g.sensors !== g.cameras) return;
    const fused = agree(se.e, links[k]!.map((j) => c[j]!));
    events[se.i] = fused;
    if (knownIds(fused) > 0) identified += 1;
  });
  return { events, identified, unmatchedCamera };
}

/**
 * The fused shot from the sensor events with their ids (one for one with `sensor.events`):
 * the camera's off-table and pocket events placed among them by time, and its resting places.
 * A camera fact the sensor shot already has (a pocket switch, or the referee) is not doubled:
 * the same kind within `toleranceMs` of it, naming the same ball or one of the two naming none
 * (the camera leaves a ball unnamed when same-coloured balls may have swapped). Where only the
 * camera names the ball, its name is taken.
 */
export function withCameraFacts(sensor: Shot, events: readonly ShotEvent[], camera: Shot, offsetMs: number, toleranceMs = 0): { shot: Shot; unknown: number } {
  const unknown = events.filter((e) => isContact(e) && idsMissing(e)).length;
  type Fact = Extract<ShotEvent, { kind: 'off-table' | 'pocket' }>;
  const isFact = (e: ShotEvent): e is Fact => e.kind === 'off-table' || e.kind === 'pocket';
  const out = [...events];
  const taken = new Set<number>();
  // A camera's maybe (a ball it lost for good) is no fact: the sensors say what left the table.
  const cameraOnly = camera.events.filter(isFact).filter((c) => !c.maybe).filter((c) => {
    const k = out.findIndex((s, i) => {
      if (taken.has(i) || !isFact(s) || s.kind !== c.kind) return false;
      const sameBall = s.ball === c.ball || s.ball === null || c.ball === null;
      const sameTime = s.t === undefined || c.t === undefined ? s.ball === c.ball : Math.abs(c.t + offsetMs - s.t) <= toleranceMs;
      return sameBall && sameTime;
    });
    if (k < 0) return true;
    taken.add(k);
    const s = out[k] as Fact;
    if (s.ball === null && c.ball !== null) out[k] = { ...s, ball: c.ball };
    return false;
  });
  const shot: Shot = { ...sensor, events: insertByTime(out, cameraOnly, offsetMs) };
  if (camera.positions) {
    shot.positions = camera.positions;
    if (camera.positionsErrorMm !== undefined) shot.positionsErrorMm = camera.positionsErrorMm;
  }
  return { shot, unknown };
}

/** A sensor event as the sensors alone tell it: every ball id unknown. */
export function unknownIds(e: ShotEvent): ShotEvent {
  if (e.kind === 'ball') return { ...e, balls: [null, null] };
  if (e.kind === 'cushion') return { ...e, ball: null };
  if (e.kind === 'skittle') return { ...e, by: null };
  return e;
}

/** The sensor event with the ids every candidate camera contact states (one of them is its own). */
function agree(se: Contact, candidates: Contact[]): Contact {
  if (candidates.length === 0) return unknownIds(se) as Contact;
  if (se.kind === 'cushion') {
    const ids = new Set(candidates.map((x) => (x as typeof se).ball));
    const [only] = ids;
    return { ...se, ball: ids.size === 1 ? (only ?? null) : null };
  }
  if (se.kind === 'skittle') {
    const ids = new Set(candidates.map((x) => (x as typeof se).by));
    const [only] = ids;
    return { ...se, by: ids.size === 1 ? (only ?? null) : null };
  }
  // A pair: the ids named in every candidate. With one candidate its order (the striker first) is kept.
  const pairs = candidates.map((x) => (x as Extract<Contact, { kind: 'ball' }>).balls);
  if (pairs.length === 1) return { ...se, balls: [pairs[0]![0], pairs[0]![1]] };
  const common = [...new Set(pairs[0]!.filter((b): b is string => b !== null))].filter((b) => pairs.every((p) => p.includes(b)));
  return { ...se, balls: [common[0] ?? null, common[1] ?? null] };
}

function knownIds(e: ShotEvent): number {
  if (e.kind === 'ball') return e.balls.filter((b) => b !== null).length;
  if (e.kind === 'cushion') return e.ball === null ? 0 : 1;
  if (e.kind === 'skittle') return e.by === null ? 0 : 1;
  return 0;
}

function idsMissing(e: ShotEvent): boolean {
  if (e.kind === 'ball') return e.balls.includes(null);
  return knownIds(e) === 0 && (e.kind === 'cushion' || e.kind === 'skittle');
}

/** Camera-only events (off-table, pocket) among the sensor events, by time on the sensor clock. */
function insertByTime(events: ShotEvent[], extra: ShotEvent[], offsetMs: number): ShotEvent[] {
  const out = [...events];
  for (const e of extra) {
    const t = e.t === undefined ? Infinity : e.t + offsetMs;
    let at = out.length;
    while (at > 0 && (out[at - 1]!.t ?? -Infinity) > t) at -= 1;
    out.splice(at, 0, e.t === undefined ? e : { ...e, t: Math.max(0, Math.round(t * 10) / 10) });
  }
  return out;
}
