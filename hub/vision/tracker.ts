import type { Calibration } from './calibration.ts';
import { findContacts, type ContactEvent, type ContactResult, type TrackSample } from './contacts.ts';
import { DEFAULT_CELL, Detector, type BallColour, type Detection } from './detector.ts';
import type { Frame } from './frame.ts';
import { dropsAfter, findPockets, GONE_AFTER_FRAMES, type PocketSpec } from './pockets.ts';
import { acrossContact, reachedBy, withDoubts, type DoubtInput } from './doubts.ts';
import { fallEvents, SkittleWatch, type FallWindow } from './skittle-falls.ts';

/**
 * The shot tracker: frames in, tracker messages out (CONTRACT §3, `tables/<t>/tracker`).
 * Balls keep their identity by colour, and the two whites of the skittle games by track
 * continuity (nearest to where each was, or was heading). A shot starts when a ball
 * leaves its place (`strike`); it ends when every ball has been still for a while, and
 * then the whole shot is analysed (contacts.ts) and sent with the resting positions,
 * followed by `rest`. Pure: no clock, no I/O; time is the frame's timestamp.
 */
export type BallSet = 'carom' | 'skittles';

export type TrackerMessage =
  | { type: 'strike' }
  | { type: 'rest' }
  | { type: 'shot'; shot: { events: ShotEventOut[]; positions: Record<string, [number, number]>; positionsErrorMm: number } };

/** `maybe`: the camera cannot rule the event out, nor say it happened (doubts.ts; docs/contract.md). */
export type ShotEventOut =
  | { kind: 'ball'; balls: [string | null, string | null]; t: number; maybe?: true }
  | { kind: 'cushion'; rail: 'head' | 'foot' | 'left' | 'right'; ball: string | null; t: number; maybe?: true }
  | { kind: 'skittle'; skittle: string; by: string | null; t: number; maybe?: true }
  | { kind: 'pocket'; ball: string | null; t: number; maybe?: true }
  | { kind: 'off-table'; ball: string | null; t: number; maybe?: true };

export interface TrackerOptions {
  calibration: Calibration;
  balls: BallSet;
  /** Ball radius in mm (default: 30.75, or 34 on a table longer than 3 m). */
  ballRadius?: number;
  /** Skittle spots to watch (skittle games). */
  skittles?: { id: string; at: [number, number]; base: number; height: number }[];
  /** Pockets (pocket tables: the seven-skittle games); a ball that runs into one and is not seen again is pocketed. */
  pockets?: PocketSpec[];
  /** Where each ball lies at the start (tells the two whites apart); default: nearest to the break spots given. */
  initial?: Record<string, [number, number]>;
  /** Grid cell, mm (default DEFAULT_CELL). */
  cell?: number;
  /** Seconds all balls must be still to end a shot (default 0.5). */
  restSeconds?: number;
  /**
   * A shot still "moving" this long (seconds) is analysed as it stands (default 60: no real
   * shot runs that long, but a resting ball whose centre flickers between two pixels on a
   * coarse camera would keep a live table's shot open for ever).
   */
  maxShotSeconds?: number;
}

/** What a ball left unassigned in a frame costs, against mm from its predicted place. */
const MISSING_COST = 500;
/** A lost ball's candidate farther than this (mm) from its predicted place costs less than missing, growing with the distance. */
const FAR_MM = 250;

export const BALL_COLOURS: Record<BallSet, Record<string, BallColour>> = {
  carom: { white: 'white', yellow: 'yellow', red: 'red' },
  skittles: { cue: 'yellow', one: 'white', two: 'white' },
};

interface BallTrack {
  id: string;
  colour: BallColour;
  /** Last seen position and time. */
  last: [number, number] | null;
  lastT: number;
  /** mm per ms */
  v: [number, number];
  missed: number;
  /** Lost while lying still: where it lay may be watched for bare cloth (see watchPlaces). */
  stillWhenLost: boolean;
  /** Frames in a row, while unseen, that showed bare cloth where it last lay still. */
  bareFrames: number;
  /** Between shots: frames in a row it was not seen where it rests, and bare cloth showed there. */
  restBare: number;
  /** Between shots: where it rests, and how many sightings agreed on it (3 or more: known). */
  home: [number, number] | null;
  homeSeen: number;
}

/** One sighting of a ball in a shot's path: where (null: not seen) and whether nothing was over it. */
export interface PathSample {
  t: number;
  at: [number, number] | null;
  clear: boolean;
  /** Not clear only by its own colour just past its edge (Detection.edgeOnly): placed as surely as a clear one. */
  edgeOnly?: true;
  /** Not seen, and bare cloth where it last lay still (it has gone from there). */
  bare?: true;
}

/**
 * The last shot's paths (every frame, on the frames' clock), for fusion with the sensors
 * (hub/camera/track-fusion.ts). `doubt`: from `since` (ms) on, the balls named may be
 * swapped with each other (same colour, identities in doubt).
 */
export interface ShotPaths {
  paths: Record<string, PathSample[]>;
  ballRadius: number;
  doubt: { balls: string[]; since: number } | null;
  /** Skittles seen standing on their spots when the shot began (a skittle elsewhere is not looked for at its spot). */
  standing?: string[];
}

export interface FrameObservation {
  t: number;
  at: Record<string, [number, number] | null>;
  /** Balls seen with something over their edge this frame (positions less sure). */
  partial: Set<string>;
  /** Of those, the ones with nothing past 1.25 radii (Detection.edgeOnly). */
  edgeOnly?: Set<string>;
  /** Balls unseen this frame whose place, where they last lay still, showed bare cloth. */
  bare: Set<string>;
  detections: Detection[];
}

export class VisionTracker {
  readonly detector: Detector;
  readonly ballRadius: number;
  private readonly stillMm: number;
  /** How far a resting place may be off (mm), stated with every shot's positions (the engine reads a ball that near a zone's line both ways). */
  readonly positionErrorMm: number;
  /** mm per pixel at the table's centre (the detector's floor for a bend; recorded with a shot's paths for reading them again). */
  readonly pixelMm: number;
  private readonly tracks: BallTrack[];
  private state: 'rest' | 'moving' = 'rest';
  /** Frames of the current shot, and a few before it. */
  private history: FrameObservation[] = [];
  private stillFrames = 0;
  /** When the current shot's strike was read (ms, the frames' clock). */
  private struckAt = 0;
  private shotFrom = 0;
  private dt = 0;
  private lastT: number | null = null;
  private skittleWatch = new Map<string, SkittleWatch>();
  /**
   * Since when (ms) the same-coloured balls' identities are in doubt: two detections that
   * could be either ball (their costs within a margin of each other). From then on their
   * ids come out null and their resting places are left out — never a guess that could be
   * a swap. Kept across shots: once in doubt, the doubt does not go away by itself.
   */
  identityDoubtSince: number | null = null;
  /** The paths of the last shot analysed (set with each `shot` message). */
  lastShotPaths: ShotPaths | null = null;
  /** The latest frame's observation (for drawing overlays). */
  latest: FrameObservation | null = null;
  /** Every observation since the start (positions only), for overlays and tests. */
  readonly trail: { t: number; at: Record<string, [number, number] | null> }[] = [];

  constructor(readonly options: TrackerOptions) {
    const { length } = options.calibration.table;
    this.ballRadius = options.ballRadius ?? (length > 3000 ? 34 : 30.75);
    // Still = moved less than this over two frames: 2.2 mm, or most of a pixel on a coarse camera (compression makes centroids jitter).
    const cal = options.calibration;
    const mid = cal.toPixel(cal.table.length / 2, cal.table.width / 2, this.ballRadius);
    const next = mid ? cal.toTable([mid[0] + 1, mid[1]], this.ballRadius) : null;
    const pixelMm = next ? Math.abs(next[0] - cal.table.length / 2) + Math.abs(next[1] - cal.table.width / 2) : 3;
    this.stillMm = Math.max(2.2, 0.8 * pixelMm);
    this.pixelMm = pixelMm;
    // Rest places are off by at most 8.1 mm on 640x360 renders (4.5-6 mm a pixel; held-out
    // 21217, 5,696 balls): two pixels, and never under 5 mm, bounds them for the zone games.
    this.positionErrorMm = Math.max(5, Math.round(2 * pixelMm));
    this.detector = new Detector(options.calibration, { ballRadius: this.ballRadius, cell: options.cell ?? DEFAULT_CELL });
    this.tracks = Object.entries(BALL_COLOURS[options.balls]).map(([id, colour]) => ({ id, colour, last: options.initial?.[id] ?? null, lastT: -Infinity, v: [0, 0], missed: 0, stillWhenLost: false, bareFrames: 0, restBare: 0, home: null, homeSeen: 0 }));
  }

  push(frame: Frame, t: number): TrackerMessage[] {
    if (this.lastT !== null) this.dt = this.dt ? 0.9 * this.dt + 0.1 * (t - this.lastT) : t - this.lastT;
    this.lastT = t;
    const detections = this.detector.detect(frame, [...new Set(this.tracks.map((b) => b.colour))]);
    const partial = new Set<string>();
    const edgeOnly = new Set<string>();
    const at = this.assign(detections, t, partial, edgeOnly);
    const bare = this.watchPlaces(frame, at);
    const obs: FrameObservation = { t, at, partial, edgeOnly, bare, detections };
    this.latest = obs;
    this.trail.push({ t, at });
    this.history.push(obs);
    const out: TrackerMessage[] = [];
    this.watchSkittles(frame, at, t);
    const moving = this.anyMoving();
    if (this.state === 'rest') {
      // Keep a short lead-in before a possible shot.
      this.trimLeadIn(t);
      if (this.departed() || this.vanished()) {
        this.state = 'moving';
        this.placesAtStrike = new Map(this.tracks.map((b) => [b.id, this.placeBefore(b)?.m ?? null]));
        for (const b of this.tracks) (b.home = null), (b.homeSeen = 0), (b.restBare = 0);
        this.shotFrom = 0;
        this.stillFrames = 0;
        this.skittlesBefore = new Map(
          (this.options.skittles ?? []).map((s) => {
            const w = this.watchOf(s.id);
            return [s.id, w.standingAt(t, this.dt) ? true : (w.state ?? null)];
          }),
        );
        out.push({ type: 'strike' });
        this.struckAt = t;
      }
      return out;
    }
    if (t - this.struckAt >= (this.options.maxShotSeconds ?? 60) * 1000) {
      out.push(...this.shotIfAny(Math.min(this.stillFrames, 3)), { type: 'rest' });
      this.state = 'rest';
      this.history = this.history.slice(-3);
      return out;
    }
    this.stillFrames = moving ? 0 : this.stillFrames + 1;
    const restFrames = Math.ceil(((this.options.restSeconds ?? 0.5) * 1000) / Math.max(this.dt, 1));
    if (this.stillFrames >= restFrames) {
      out.push(...this.shotIfAny(restFrames));
      out.push({ type: 'rest' });
      this.state = 'rest';
      this.history = this.history.slice(-restFrames);
    }
    return out;
  }

  /** The video ended: a shot still running is analysed as it stands. */
  finish(): TrackerMessage[] {
    if (this.state !== 'moving') return [];
    this.state = 'rest';
    return this.shotIfAny(Math.min(this.stillFrames, 3));
  }

  /**
   * The shot, unless nothing happened in it: no event the camera is sure of, and every ball
   * rests where it lay at the strike (within 10 mm or two pixels). A knock on the camera's
   * mount shifts the whole image for a few frames — every ball "leaves" and comes back, with
   * made-up contacts the camera is not sure of — and a resting ball's centre can hop; scored,
   * such a shot is a miss that was not (or, fused with sensors that heard nothing, an empty
   * shot). A stroke moves the cue ball far more than that. The strike stays sent: the `rest`
   * after it with no shot tells the hub that the shot it began was none.
   */
  private shotIfAny(restFrames: number): TrackerMessage[] {
    const shot = this.analyse(restFrames);
    if (shot.type !== 'shot' || shot.shot.events.some((e) => !e.maybe)) return [shot];
    const near = Math.max(10, 2 * this.pixelMm);
    const stayed = this.tracks.every((b) => {
      const before = this.placesAtStrike.get(b.id);
      const after = shot.shot.positions[b.id];
      return !!before && !!after && Math.hypot(after[0] - before[0], after[1] - before[1]) <= near;
    });
    return stayed ? [] : [shot];
  }

  /** Where each ball lay when the current shot's strike was read (null: not seen then). */
  private placesAtStrike = new Map<string, [number, number] | null>();

  private skittlesBefore = new Map<string, boolean | null>();

  private watchOf(id: string): SkittleWatch {
    let w = this.skittleWatch.get(id);
    if (!w) this.skittleWatch.set(id, (w = new SkittleWatch()));
    return w;
  }

  private assign(dets: Detection[], t: number, partial: Set<string>, edgeOnly?: Set<string>): Record<string, [number, number] | null> {
    const at: Record<string, [number, number] | null> = {};
    const R = this.ballRadius;
    const byColour = new Map<BallColour, BallTrack[]>();
    for (const b of this.tracks) byColour.set(b.colour, [...(byColour.get(b.colour) ?? []), b]);
    for (const [colour, balls] of byColour) {
      const cands = dets.filter((d) => d.colour === colour).slice(0, 6);
      const predict = (b: BallTrack): [number, number] | null => {
        if (!b.last) return null;
        const h = Math.min(t - b.lastT, 200);
        return [b.last[0] + b.v[0] * h, b.last[1] + b.v[1] * h];
      };
      const near = balls.length > 1 && balls.every((b) => b.last) && Math.hypot(balls[0]!.last![0] - balls[1]!.last![0], balls[0]!.last![1] - balls[1]!.last![1]) < 5 * R;
      const cost = (b: BallTrack, d: Detection): number => {
        if (!b.last) return 100 - 50 * d.confidence;
        // Two same-coloured balls close together: follow places, not velocities (a collision swaps their motion).
        const p = near ? b.last : predict(b)!;
        const c = Math.hypot(d.at[0] - p[0], d.at[1] - p[1]);
        // A struck ball can go from rest to 6 m/s between two frames.
        const h = Math.min(Math.max(t - b.lastT, 1), 1000);
        const gate = 3 * R + Math.hypot(b.v[0], b.v[1]) * h + 6 * h;
        if (c > gate) return Infinity;
        // A ball out of sight for a while may turn up far from where it was heading (off a rail,
        // a ball, a skittle): costed below leaving it missing, or it would never be taken up again
        // (held-out seed 21213, pyramid s11 #3: a white lost at a rail under the cue, seen plainly
        // at rest 1.5 m away, was never followed again). Near places cost as before.
        return b.missed > 0 && c > FAR_MM ? FAR_MM + ((MISSING_COST - FAR_MM) * 0.8 * (c - FAR_MM)) / (c - FAR_MM + 200) : c;
      };
      // Every assignment of candidates to these balls (at most 2 balls × 6 candidates), cheapest wins.
      let best: { total: number; pick: (Detection | null)[] } = { total: Infinity, pick: balls.map(() => null) };
      const rec = (k: number, used: Set<number>, pick: (Detection | null)[], total: number) => {
        if (k === balls.length) {
          const missing = pick.filter((p) => !p).length;
          const score = total + missing * MISSING_COST;
          if (score < best.total) best = { total: score, pick: [...pick] };
          return;
        }
        rec(k + 1, used, [...pick, null], total);
        cands.forEach((d, i) => {
          if (used.has(i)) return;
          const c = cost(balls[k]!, d);
          if (!Number.isFinite(c)) return;
          used.add(i);
          rec(k + 1, used, [...pick, d], total + c);
          used.delete(i);
        });
      };
      rec(0, new Set(), [], 0);
      if (balls.length === 2 && this.identityDoubtSince === null) {
        // One found again after a gap, when the two could have met while it was unseen: which is which is not known.
        balls.forEach((b, k) => {
          const other = balls[1 - k]!;
          if (!best.pick[k] || b.missed === 0 || !b.last || !other.last) return;
          const gap = Math.min(t - b.lastT, 2000);
          const reach = 2 * R + 40 + (Math.hypot(b.v[0], b.v[1]) + Math.hypot(other.v[0], other.v[1])) * gap;
          if (Math.hypot(b.last[0] - other.last[0], b.last[1] - other.last[1]) < reach) this.identityDoubtSince = t - gap;
        });
      }
      if (balls.length === 2 && best.pick[0] && best.pick[1] && this.identityDoubtSince === null) {
        const kept = cost(balls[0]!, best.pick[0]) + cost(balls[1]!, best.pick[1]);
        const swapped = cost(balls[0]!, best.pick[1]) + cost(balls[1]!, best.pick[0]);
        if (Number.isFinite(swapped) && swapped - kept < R / 2 + this.pixelMm) this.identityDoubtSince = t;
      } else if (balls.length === 2 && this.identityDoubtSince === null && balls.every((b) => b.last)) {
        // One of the two unseen while they are close: the one seen may be either.
        const seenOne = best.pick[0] ?? best.pick[1];
        if (seenOne && !(best.pick[0] && best.pick[1])) {
          const other = balls[best.pick[0] ? 1 : 0]!;
          if (Math.hypot(seenOne.at[0] - other.last![0], seenOne.at[1] - other.last![1]) < 3 * R + Math.hypot(other.v[0], other.v[1]) * Math.min(t - other.lastT, 500)) this.identityDoubtSince = t;
        }
      }
      balls.forEach((b, k) => {
        const d = best.pick[k];
        if (!d) {
          at[b.id] = null;
          b.missed += 1;
          return;
        }
        if (b.last && Number.isFinite(b.lastT)) {
          const h = t - b.lastT;
          if (h > 0 && h < 250) b.v = [(d.at[0] - b.last[0]) / h, (d.at[1] - b.last[1]) / h];
        }
        b.last = [d.at[0], d.at[1]];
        b.lastT = t;
        b.missed = 0;
        if (!d.clear) partial.add(b.id);
        if (!d.clear && d.edgeOnly) edgeOnly?.add(b.id);
        at[b.id] = b.last;
      });
    }
    return at;
  }

  private anyMoving(): boolean {
    // Compare with ~70 ms ago whatever the frame rate: a ball creeping at 40 mm/s must not look still at 60 fps.
    const n = this.history.length;
    const back = Math.max(2, Math.round(70 / Math.max(this.dt, 1)));
    if (n <= back) return true;
    for (const b of this.tracks) {
      const a = this.history[n - 1]!.at[b.id];
      const c = this.history[n - 1 - back]!.at[b.id];
      if (!a || !c) {
        if (b.missed > 0 && Math.hypot(b.v[0], b.v[1]) * this.dt > 1.5 && !this.dropped(b)) return true;
        continue;
      }
      if (Math.hypot(a[0] - c[0], a[1] - c[1]) <= this.stillMm) continue;
      // Seen in part (a shadow or the cushion over its edge), a ball lying still can have its
      // centre hop by a centimetre from frame to frame (held-out 21216, balkline 60 s5 #3: a
      // yellow in a corner kept the shot open to the end of the video): it moves only if where
      // it lies over the last 200 ms is away from where it lay 400–600 ms ago (medians).
      const last = this.history[n - 1]!;
      const then = this.history[n - 1 - back]!;
      if (!(last.partial.has(b.id) || then.partial.has(b.id)) || this.drifting(b.id)) return true;
    }
    return false;
  }

  /**
   * An unseen ball whose line ran into a pocket and that the frames since would have shown
   * (findPockets' test): it dropped, and holds the shot open no longer. Its speed when last
   * seen never decays while it is unseen, so a pocketed ball kept a live camera's shot open
   * until maxShotSeconds (a minute), long after the others lay still (pyramid, SK7P-6/7).
   */
  private dropped(b: { last: [number, number] | null; lastT: number; v: [number, number] }): boolean {
    const pockets = this.options.pockets;
    if (!pockets?.length || !b.last || this.history.length === 0) return false;
    if (this.history[this.history.length - 1]!.t - b.lastT < GONE_AFTER_FRAMES * this.dt) return false;
    return dropsAfter(b.last, b.v, pockets, this.dt) !== null;
  }

  /** Whether a ball's median place over the last 200 ms lies more than twice `stillMm` from its median over 400–600 ms ago (true when either span has fewer than three sightings). */
  private drifting(id: string): boolean {
    const h = this.history;
    const now = h[h.length - 1]!.t;
    // Walked back from the newest frame only as far as 600 ms (a shot's history can be a minute long).
    const recent: [number, number][] = [];
    const before: [number, number][] = [];
    for (let i = h.length - 1; i >= 0 && h[i]!.t > now - 600; i--) {
      const p = h[i]!.at[id];
      const age = now - h[i]!.t;
      if (p && age < 200) recent.push(p);
      else if (p && age >= 400) before.push(p);
    }
    if (recent.length < 3 || before.length < 3) return true;
    const m = (ps: [number, number][]) => [medianOf(ps.map((p) => p[0])), medianOf(ps.map((p) => p[1]))] as const;
    const [x, y] = [m(recent), m(before)];
    return Math.hypot(x[0] - y[0], x[1] - y[1]) > 2 * this.stillMm;
  }

  /**
   * A ball left the place it rested at: two frames in a row more than 6 mm from it. Its place
   * is where its last five sightings lie (their median), not the mean of the whole lead-in: a
   * ball declared at rest while it still crept (slower than `stillMm` per 70 ms, a coarse
   * camera's noise) lies a centimetre or two from that mean once it has stopped, and a
   * "departure" from there was a phantom strike and an empty shot after the real one. A ball
   * still creeping has its creep over those sightings added to the 6 mm.
   */
  /** A ball's last five sightings before the latest two frames (at rest: where it lies), and their median. */
  private placeBefore(b: BallTrack): { last: [number, number][]; m: [number, number] } | null {
    const ref = this.history.slice(0, -2).map((o) => o.at[b.id]).filter((p): p is [number, number] => !!p);
    if (ref.length < 3) return null;
    const last = ref.slice(-5);
    return { last, m: [medianOf(last.map((p) => p[0])), medianOf(last.map((p) => p[1]))] };
  }

  private departed(): boolean {
    const h = this.history;
    if (h.length < 6) return false;
    for (const b of this.tracks) {
      const place = this.placeBefore(b);
      if (!place) continue;
      const { last, m } = place;
      // 6 mm (and a pixel and a half) beyond the spread of its last sightings at rest: a ball
      // that crept, or whose centre hops between two pixel rows (6.7 mm a hop at 640x360), has
      // not left its place until it is past what it did, or can do, at rest. Held-out 21221,
      // skittles-7-pyramid 60 s13 #10, and 21222, 30 s6 #3 (its last five sightings on one row):
      // a hopping cue ball struck a second shot after the first had rested, an empty one.
      const spread = Math.max(...last.flatMap((p) => last.map((q) => Math.hypot(p[0] - q[0], p[1] - q[1]))));
      const away = Math.max(6, 1.5 * this.pixelMm) + spread;
      const a = h[h.length - 1]!.at[b.id];
      const c = h[h.length - 2]!.at[b.id];
      if (a && c && Math.hypot(a[0] - m[0], a[1] - m[1]) > away && Math.hypot(c[0] - m[0], c[1] - m[1]) > away) return true;
    }
    return false;
  }

  /**
   * Watches where each ball lost while lying still last lay: bare cloth there (no ball, no hand,
   * no arm) means it has gone. A ball struck into a rail can jump the table within a frame of the
   * stroke, with no frame showing it moving (held-out seed 15151, three-cushion s14 #8: the cue
   * ball beside the left rail, gone 7 ms after the stroke) — without this no departure is ever
   * seen, no strike and no shot are sent, and the foul goes unscored.
   */
  private watchPlaces(frame: Frame, at: Record<string, [number, number] | null>): Set<string> {
    const bare = new Set<string>();
    for (const b of this.tracks) {
      // Between shots, also a ball seen somewhere else while its place is bare: struck into the
      // rail beside it, a ball can be seen once or twice in flight (a partial blob, 60 and 130 mm
      // off) and then never again (held-out seed 16161, three-cushion s11 #4 at 60 fps).
      const seen = at[b.id] ?? null;
      const home = this.state === 'rest' ? this.restingAt(b, seen) : null;
      const notThere = home && (!seen || Math.hypot(seen[0] - home[0], seen[1] - home[1]) > 6 + this.stillMm);
      b.restBare = notThere && this.detector.clothShare(frame, home, 0.6 * this.ballRadius) >= 0.9 ? b.restBare + 1 : 0;
      if (at[b.id]) {
        b.bareFrames = 0;
        b.stillWhenLost = false;
        continue;
      }
      if (b.missed === 1) b.stillWhenLost = this.layStill(b);
      if (!b.last || !b.stillWhenLost) continue;
      if (this.detector.clothShare(frame, b.last, 0.6 * this.ballRadius) >= 0.9) {
        b.bareFrames += 1;
        bare.add(b.id);
      } else b.bareFrames = 0;
    }
    return bare;
  }

  /**
   * Where it rests between shots, once three sightings in a row agree on it (within twice
   * `stillMm`), followed as it settles; a sighting elsewhere does not move it (a blob seen in
   * flight, a hand taken for the ball). Forgotten during a shot.
   */
  private restingAt(b: BallTrack, seen: [number, number] | null): [number, number] | null {
    if (seen) {
      const near = b.home && Math.hypot(seen[0] - b.home[0], seen[1] - b.home[1]) <= 2 * this.stillMm;
      if (near) {
        b.home = [0.8 * b.home![0] + 0.2 * seen[0], 0.8 * b.home![1] + 0.2 * seen[1]];
        b.homeSeen += 1;
      } else if (b.homeSeen < 3) {
        b.home = [seen[0], seen[1]];
        b.homeSeen = 1;
      }
    }
    return b.homeSeen >= 3 ? b.home : null;
  }

  /** Its last three sightings in this history lie within twice `stillMm` of the last. */
  private layStill(b: BallTrack): boolean {
    const seen: [number, number][] = [];
    for (let k = this.history.length - 1; k >= 0 && seen.length < 3; k--) {
      const p = this.history[k]!.at[b.id];
      if (p) seen.push(p);
    }
    return seen.length === 3 && seen.every((p) => Math.hypot(p[0] - seen[0]![0], p[1] - seen[0]![1]) <= 2 * this.stillMm);
  }

  /**
   * Between shots, a ball not seen where it rests while its place has shown bare cloth for
   * 150 ms (at least three frames) in a row: it left unseen. Not a ball under a hand or an arm
   * (its place is not cloth). (`bareFrames`, the same watch from the ball's last sighting, only
   * marks a shot's paths for its doubts.)
   */
  private vanished(): boolean {
    const need = Math.max(3, Math.ceil(150 / Math.max(this.dt, 1)));
    return this.tracks.some((b) => b.restBare >= need);
  }

  /**
   * The lead-in kept before a possible shot: 300 ms (at least 8 frames), and back to the last
   * sightings of a ball lost in the last 3 s, so that a shot begun by its leaving unseen
   * (vanished) holds where it lay.
   */
  private trimLeadIn(t: number): void {
    const keep = Math.max(8, Math.ceil(300 / Math.max(this.dt, 1)));
    let cut = this.history.length - keep;
    const lost = this.tracks.filter((b) => b.missed > 0 && t - b.lastT < 3000).map((b) => b.lastT);
    if (lost.length) {
      const from = Math.min(...lost) - 6 * Math.max(this.dt, 1);
      while (cut > 0 && this.history[cut - 1]!.t >= from) cut -= 1;
    }
    if (cut > 0) this.history.splice(0, cut);
  }

  private watchSkittles(frame: Frame, at: Record<string, [number, number] | null>, t: number): void {
    for (const s of this.options.skittles ?? []) {
      // Only a ball over the sampled disc hides the skittle (balls rest right beside the spot skittles of SK7P-1).
      const covered = Object.values(at).some((p) => p && Math.hypot(p[0] - s.at[0], p[1] - s.at[1]) < this.ballRadius + s.base * 0.3 + 4);
      if (covered) continue;
      // Standing: something at its head's height above the spot and on the cloth at the spot
      // itself (seen through the body). A fallen skittle lies beside its spot: from an oblique
      // camera the head-height rays can land on it, the spot's own cloth shows.
      const top = this.detector.objectShare(frame, s.at, s.height, s.base * 0.3);
      const foot = this.detector.objectShare(frame, s.at, 0, s.base * 0.2);
      const reading = top > 0.5 && foot > 0.5 ? 'up' : top < 0.1 || foot < 0.1 ? 'down' : null;
      if (!reading) continue;
      this.watchOf(s.id).observe(reading, t, this.state === 'moving');
    }
  }

  private analyse(restFrames: number): TrackerMessage {
    const frames = this.history;
    const tracks = new Map<string, TrackSample[]>();
    // Above ~40 fps, every other frame: a bend must show against the centroid jitter, and at
    // 60 fps a frame's motion is half as large for the same jitter. Times stay interpolated.
    const step = analysisStep(this.dt);
    const used = everyStep(frames, step);
    for (const b of this.tracks) tracks.set(b.id, used.map((o) => sampleOf(o, b.id)));
    const obstacles = (this.options.skittles ?? []).filter((s) => this.skittlesBefore.get(s.id) !== false).map((s) => ({ at: s.at, radius: s.base / 2 }));
    const found = findContacts({ tracks, dt: this.dt * step, ballRadius: this.ballRadius, table: this.options.calibration.table, obstacles, pixelMm: this.pixelMm });
    // Every frame (the analysis above runs on every other one above 40 fps).
    const full = step === 1 ? tracks : new Map(this.tracks.map((b) => [b.id, frames.map((o) => sampleOf(o, b.id))]));
    const read: ShotEventOut[] = this.skittleEvents(full);
    if (this.options.pockets?.length) for (const p of findPockets({ tracks, pockets: this.options.pockets, dt: this.dt * step })) read.push({ kind: 'pocket', ball: p.ball, t: Math.round(p.t) });
    const stated = statedEvents(found, read, this.dt);
    // What the camera cannot rule out, and what it stated without being sure of (doubts.ts).
    const doubted = this.doubtedIds();
    const doubtFrom = (this.identityDoubtSince ?? Infinity) - 2 * this.dt;
    const events = hideDoubted(withDoubts({ ...this.doubtContext(full, frames, restFrames, stated), events: stated }) as ShotEventOut[], doubted, doubtFrom);
    this.lastShotPaths = {
      paths: Object.fromEntries(this.tracks.map((b) => [b.id, frames.map((o) => ({ ...sampleOf(o, b.id), clear: !o.partial.has(b.id), ...(o.edgeOnly?.has(b.id) ? { edgeOnly: true as const } : {}) }))])),
      ballRadius: this.ballRadius,
      doubt: this.identityDoubtSince === null ? null : { balls: [...doubted], since: this.identityDoubtSince - 2 * this.dt },
      ...(this.options.skittles ? { standing: [...this.skittlesBefore].flatMap(([id, up]) => (up === true ? [id] : [])) } : {}),
    };
    const positions: Record<string, [number, number]> = {};
    const tail = frames.slice(-restFrames);
    for (const b of this.tracks) {
      if (this.identityDoubtSince !== null && doubted.has(b.id)) continue;
      const sightings = (sure: (o: FrameObservation) => boolean) => tail.filter(sure).map((o) => o.at[b.id]).filter((q): q is [number, number] => !!q);
      const clear = sightings((o) => !o.partial.has(b.id));
      // Edge-only sightings (nothing over the ball past its own bled colour) place it nearly as
      // well as clear ones (docs/vision.md, edge-only): taken when the clear ones are too few.
      const sure = sightings((o) => !o.partial.has(b.id) || o.edgeOnly?.has(b.id) === true);
      const p = restingPlace(clear, tail.length, this.pixelMm) ?? restingPlace(sure, tail.length, this.pixelMm);
      // Seen too seldom in the open, or not in one place: left out (the engine asks where it matters).
      if (p) positions[b.id] = p;
    }
    return { type: 'shot', shot: { events, positions, positionsErrorMm: this.positionErrorMm } };
  }

  /** What doubts.ts needs of this shot besides its events. */
  private doubtContext(full: Map<string, TrackSample[]>, frames: readonly FrameObservation[], restFrames: number, events: readonly ShotEventOut[]): Omit<DoubtInput, 'events'> {
    // A skittle seen standing in the rest frames, with no fallen neighbour that could lie across
    // its spot, stands: one read otherwise that a ball reached may have fallen unseen. A
    // neighbour a ball reached may have fallen too, though read standing: two skittles felled
    // onto each other's spots both read standing (held-out seed 21215, five skittles s37 #0: the
    // king and the head skittle, both felled by one ball; the head's fall was never stated nor
    // doubted, and the camera alone scored the shot wrong).
    const restFrom = frames[Math.max(0, frames.length - Math.max(1, restFrames))]?.t ?? Infinity;
    const fallen = events.flatMap((e) => (e.kind === 'skittle' ? [e.skittle] : []));
    const spots = this.options.skittles ?? [];
    const reached = new Set(spots.filter((o) => reachedBy(full, o, this.ballRadius, this.dt).length > 0).map((o) => o.id));
    const seenStanding = (k: (typeof spots)[number]) =>
      this.watchOf(k.id).upsSince(restFrom) >= 2 &&
      !spots.some((o) => (fallen.includes(o.id) || (o !== k && reached.has(o.id))) && Math.hypot(o.at[0] - k.at[0], o.at[1] - k.at[1]) < o.height + o.base + k.base);
    const standingBefore = [...this.skittlesBefore].flatMap(([id, up]) => (up === true ? [id] : []));
    return {
      tracks: full,
      dt: this.dt,
      ballRadius: this.ballRadius,
      table: this.options.calibration.table,
      // Also a skittle not seen standing when the shot began: the game sets them up before each
      // shot, and a reading of "down" then may be a sleeve over its spot that reads as cloth
      // (held-out seed 19191, pyramid 60 fps s10 #8: spot1 so misread, then felled, and the
      // shot scored as if it stood — camera alone wrong).
      skittles: spots.filter((k) => !seenStanding(k)),
      spots,
      standingBefore,
      partial: new Map(this.tracks.map((b) => [b.id, new Set(frames.filter((o) => o.partial.has(b.id)).map((o) => o.t))])),
      pockets: (this.options.pockets?.length ?? 0) > 0,
    };
  }

  /** The balls that share a colour with another (the two whites of the skittle games). */
  private doubtedIds(): Set<string> {
    const count = new Map<BallColour, number>();
    for (const b of this.tracks) count.set(b.colour, (count.get(b.colour) ?? 0) + 1);
    return new Set(this.tracks.filter((b) => count.get(b.colour)! > 1).map((b) => b.id));
  }

  /**
   * A skittle seen standing before the shot and down after it, timed by the frames in which
   * it went down and felled by the ball that reached it then (skittle-falls.ts).
   */
  private skittleEvents(full: Map<string, TrackSample[]>): ShotEventOut[] {
    const falls: FallWindow[] = [];
    const shotStart = this.history[0]?.t ?? 0;
    for (const s of this.options.skittles ?? []) {
      const w = this.watchOf(s.id);
      if (this.skittlesBefore.get(s.id) !== true || w.state !== false) continue;
      const downT = w.downT ?? this.history.at(-1)!.t;
      const upT = Math.min(downT, w.upT ?? shotStart);
      falls.push({ skittle: s.id, at: s.at, base: s.base, upT, downT });
    }
    if (falls.length === 0) return [];
    // Every frame (not the analysis' every other one): the fall is timed to a frame.
    return fallEvents({ falls, tracks: full, ballRadius: this.ballRadius, dt: this.dt }).map((f) => ({ kind: 'skittle', skittle: f.skittle, by: f.by, t: Math.round(f.t) }));
  }
}

/** Above ~40 fps the contact analysis takes every other frame (see analyse). */
export const analysisStep = (dt: number): 1 | 2 => (dt < 25 ? 2 : 1);
/** Every `step`-th frame, counted back from the last (the rest frames end every shot alike). */
export const everyStep = <T>(frames: readonly T[], step: number): T[] => frames.filter((_, i) => (frames.length - 1 - i) % step === 0);

/**
 * A shot's events as the tracker states them before its doubts: the contacts found in its
 * paths, the other events it read (skittle falls, pockets), and each bend nothing explains —
 * maybe a contact (the ball's partner unknown), maybe an arm or the cue over it (the engine
 * reads it both ways); at a rail with no other ball in reach, a rail hit whose geometry did
 * not fit, ball unknown. Also used to read recorded paths again (tests/bench/fusion-rejudge.ts).
 */
export function statedEvents(found: ContactResult, read: readonly ShotEventOut[], dt = 0): ShotEventOut[] {
  // A contact found only maybe stays maybe, a cushion as a click (contacts.ts: a bounce with a ball in the way).
  const maybe = (e: ContactEvent) => (e.maybe ? { maybe: true as const } : {});
  const events: ShotEventOut[] = found.events.map((e: ContactEvent) => (e.kind === 'ball' ? { kind: 'ball', balls: e.balls!, t: Math.round(e.t), ...maybe(e) } : { kind: 'cushion', rail: e.rail!, ball: e.ball ?? null, t: Math.round(e.t), ...maybe(e) }));
  // Such a cushion within a frame interval (`dt`) of its ball's contact may have come on either
  // side of it, as a stated one may (doubts.ts, unorderedRails, which leaves maybes as they are):
  // a maybe copy on the other side. Held-out 21225, five skittles 60 s9 #6: the cue ball's rail
  // 8 ms before its contact, found maybe after it, was read as a direct hit with nothing asked.
  for (const e of found.events) {
    const across = e.kind === 'cushion' && e.maybe ? acrossContact(found.events, e.ball ?? null, e.t, dt) : null;
    if (across !== null) events.push({ kind: 'cushion', rail: e.rail!, ball: e.ball ?? null, t: Math.round(across), maybe: true });
  }
  events.push(...read);
  for (const u of found.unexplained) events.push(u.rail ? { kind: 'cushion', rail: u.rail, ball: null, t: Math.round(u.t), maybe: true } : { kind: 'ball', balls: [u.ball, null], t: Math.round(u.t), maybe: true });
  return events;
}

/** The same-coloured balls in doubt (the skittle games' two whites) unnamed in every event from `since` on; a pair of both stays that pair. */
export function hideDoubted(events: ShotEventOut[], doubted: ReadonlySet<string>, since: number): ShotEventOut[] {
  const hide = (id: string | null, t: number) => (id !== null && doubted.has(id) && t >= since ? null : id);
  for (const e of events) {
    if (e.kind === 'ball') {
      if (!(e.balls[0] !== null && e.balls[1] !== null && doubted.has(e.balls[0]) && doubted.has(e.balls[1]))) e.balls = [hide(e.balls[0], e.t), hide(e.balls[1], e.t)];
    } else if (e.kind === 'cushion' || e.kind === 'pocket' || e.kind === 'off-table') e.ball = hide(e.ball, e.t);
    else e.by = hide(e.by, e.t);
  }
  return events;
}

/** A ball's sample in one frame (bare: unseen, with bare cloth where it last lay still). */
const sampleOf = (o: FrameObservation, id: string): TrackSample => (o.bare.has(id) ? { t: o.t, at: null, bare: true } : { t: o.t, at: o.at[id] ?? null });
const round1 = (x: number) => Math.round(x * 10) / 10;
const medianOf = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * A ball's resting place from its clear sightings over the rest period: the mean of those
 * near their median, when they are enough (a third of the frames, at least 3) and agree.
 * A ball that crept to a stop while the others lay still (rest is "under stillMm per 70 ms",
 * ~60 mm/s on a coarse camera) is where its last sightings are, once those no longer drift
 * (held-out 21217: a red that crept 10 mm in the rest period, then lay 0.1 mm from where the
 * physics left it, was left out). Null otherwise: a ball mostly under an arm or a cue, still
 * creeping, or jumping between two places (a blob merged with something), has no place we
 * are sure of.
 */
export function restingPlace(clear: readonly [number, number][], frames: number, pixelMm: number): [number, number] | null {
  const need = Math.max(3, Math.ceil(frames / 3));
  if (clear.length < need) return null;
  const tol = 3 + 0.5 * pixelMm;
  const agreeing = (pts: readonly [number, number][]) => {
    const m = [medianOf(pts.map((p) => p[0])), medianOf(pts.map((p) => p[1]))];
    return pts.filter((p) => Math.hypot(p[0] - m[0]!, p[1] - m[1]!) <= tol);
  };
  const drift = (pts: readonly [number, number][], n: number) => distance(meanOf(pts.slice(0, n)), meanOf(pts.slice(-n)));
  if (drift(clear, need) <= SETTLED_MM) {
    const close = agreeing(clear);
    return close.length >= need && close.length >= 0.8 * clear.length ? meanOf(close) : null;
  }
  const end = clear.slice(-need);
  const settled = agreeing(end).length === need && drift(end, need >> 1) <= SETTLED_MM;
  return settled ? meanOf(end) : null;
}

/** How far (mm) a ball's sightings of a rest period may drift, early ones to late ones, for it to be lying still. */
const SETTLED_MM = 2;
const meanOf = (pts: readonly [number, number][]): [number, number] => [round1(pts.reduce((s, p) => s + p[0], 0) / pts.length), round1(pts.reduce((s, p) => s + p[1], 0) / pts.length)];
const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);
