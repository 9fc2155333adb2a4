import type { MatchInput, MatchSetup, Shot, ShotEvent } from '../../../hub/rules/events.ts';
import { createMatch, must, playTruth, replay } from '../match-helpers.ts';
import type { Match } from '../../../hub/rules/match.ts';
import { seededRandom } from '../../../hub/rules/random.ts';
import type { ShotResult } from '../../../hub/rules/view.ts';
import type { ShotPaths, TrackerMessage } from '../../../hub/vision/tracker.ts';
import { cueBallDoubts, type DoubtEvent } from '../../../hub/vision/doubts.ts';
import { clipTracker } from './clip-tracker.ts';
import { sensorView } from '../accuracy.ts';
import { makeClip } from './clip.ts';
import { VideoShotPlanner } from './shots.ts';

/**
 * Accuracy over rendered video (issues 15 and 16). A *stream* is a run of real match shots
 * played by the physics from a break: each shot rendered as an overhead camera films it,
 * tracked from the frames alone, and read three ways — the camera alone, the sensors
 * alone (the physics' sensor trace: every contact timed, no ball ids) and the two fused:
 * `contacts` by the camera's contact events only (hub/camera/fusion.ts), `fused` with the
 * camera's paths as well (hub/camera/track-fusion.ts), both handed in by the bench. Each reading is scored
 * by the engine in a match of its own kept in step with the truth; one record per shot,
 * so a long run can be written as it goes, resumed and summarised (tests/bench/vision-accuracy.ts).
 */
export type Decision = 'correct' | 'prompted' | 'wrong';
export type Reading = 'camera' | 'sensors' | 'contacts' | 'fused';
export const READINGS: readonly Reading[] = ['camera', 'sensors', 'contacts', 'fused'];
/** Readings with events to compare (records written before track fusion have no `contacts`). */
export type EventReading = 'camera' | 'contacts' | 'fused';
export const EVENT_READINGS: readonly EventReading[] = ['camera', 'contacts', 'fused'];

export interface KindCount {
  truth: number;
  found: number;
  matched: number;
}

export interface ShotRecord {
  type: 'shot';
  variant: string;
  fps: number;
  stream: number;
  /** Identifies one execution of the stream (a stream cut short and run again gets a new one). */
  attempt: string;
  index: number;
  decisions: Record<Reading, Decision>;
  /** Per reading prompted with options: whether the truth was the option offered first, as most likely (records before 2026-12-06 have none). */
  offeredFirst?: Partial<Record<Reading, boolean>>;
  /** Shot messages the tracker sent for this one play, when not one (records before 2026-12-05 have none). */
  cameraShots?: number;
  /** The whole event sequence equals the truth's (kinds, rails, ids, order; pair order ignored). */
  exact: Record<EventReading, boolean>;
  kinds: Record<EventReading, Record<string, KindCount>>;
  /** Facts left `null` (an event with an unknown id). */
  nullFacts: Record<EventReading, number>;
  /** Rest-position errors (mm) of the balls the camera placed; balls it left out. */
  positionErrors: number[];
  positionsOmitted: number;
  frames: number;
  renderMs: number;
  trackMs: number;
  /** For a wrong decision: what was read and what happened. */
  wrong?: string[];
  /** Ids the fused readings stated that the truth contradicts (wrongFacts; records before 2026-12-03 have none). A wrong fact may not change the decision, but it must never be stated. */
  wrongFacts?: { contacts: number; fused: number };
  /** The truth's and the camera's events (t: ms from the strike, camera on the video clock minus the lead), for timing and diagnosis. */
  events: { truth: readonly ShotEvent[]; camera: readonly ShotEvent[] };
  /** The camera's resting places (the truth's are in the physics). */
  positions: Record<string, readonly [number, number]>;
  /** `paths` null: the camera saw no single shot (fused = contacts only). `truthPositions`: the truth's resting places (records written before it have none; they cannot be judged again). `pixelMm`: the tracker's, for finding the contacts in the paths again (records before 2026-12-02 have none). */
  fusionInput?: { sensors: Shot; camera: Shot; paths: ShotPaths | null; options: TrackFuseOptions; truth: readonly ShotEvent[]; truthPositions?: Shot['positions']; firstT: number; pixelMm?: number };
}

export interface StreamSpec {
  variant: string;
  fps: number;
  stream: number;
  shots: number;
  /** Base seed; the stream's own seed is derived from it, the variant and the stream number (not the frame rate: 30 and 60 fps film the same shots). */
  seed: number;
  width: number;
  height: number;
  attempt: string;
}

/** A string hash (FNV-1a), to derive a stream's seed. */
export function streamSeed(seed: number, variant: string, stream: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of `${variant}#${stream}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0 || 1;
}

/** An event's identity for matching (ball pairs unordered, times ignored). */
export function signature(e: ShotEvent): string {
  if (e.kind === 'ball') return `ball:${[...e.balls].map((b) => b ?? '?').sort().join('+')}`;
  if (e.kind === 'cushion') return `cushion:${e.rail}:${e.ball ?? '?'}`;
  if (e.kind === 'skittle') return `skittle:${e.skittle}:${e.by ?? '?'}`;
  return `${e.kind}:${'ball' in e ? e.ball : ''}`;
}

/**
 * How many ids a sensor-sequence reading (the fused ones: the sensors' contacts in order, camera
 * facts placed among them) states that the truth's contact at the same place contradicts — an
 * id, or a `candidates` list that leaves the truth's out (the engine chooses among those). The
 * model's sensors sense every contact in order, so the contacts align one to one; −1 when they
 * do not (nothing can be said).
 */
export function wrongFacts(read: readonly ShotEvent[], truth: readonly ShotEvent[]): number {
  const contacts = (es: readonly ShotEvent[]) => es.filter((e) => e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle');
  const r = contacts(read);
  const t = contacts(truth);
  if (r.length !== t.length) return -1;
  let wrong = 0;
  r.forEach((e, i) => {
    const u = t[i]!;
    if (e.kind !== u.kind) wrong += 1;
    else if (e.kind === 'ball' && u.kind === 'ball') wrong += e.balls.filter((b) => b !== null && !u.balls.includes(b)).length + (e.balls[0] !== null && e.balls[0] === e.balls[1] ? 1 : 0) + (e.candidates && !e.candidates.some((p) => u.balls.every((b) => p.includes(b!))) ? 1 : 0);
    else if (e.kind === 'cushion' && u.kind === 'cushion') wrong += (e.rail !== u.rail ? 1 : 0) + (e.ball !== null && e.ball !== u.ball ? 1 : 0) + (e.candidates && !e.candidates.includes(u.ball!) ? 1 : 0);
    else if (e.kind === 'skittle' && u.kind === 'skittle') wrong += (e.skittle !== u.skittle ? 1 : 0) + (e.by !== null && e.by !== u.by ? 1 : 0) + (e.candidates && !e.candidates.includes(u.by!) ? 1 : 0);
  });
  return wrong;
}

const outcome = (r: ShotResult) => JSON.stringify([r.points, r.foul, r.turnPasses, r.awards ?? []]);

/**
 * Camera + sensors: hub/camera/fusion.ts's `fuseShot`, handed in by the bench (the simulator
 * may not import the hub beyond its rules and vision; docs/architecture.md).
 */
export type Fuse = (sensors: Shot, camera: Shot, options: { offsetMs: number; toleranceMs: number }) => { shot: Shot };

/** Camera + sensors with the camera's paths: hub/camera/track-fusion.ts's `fuseWithTracks`. */
export interface TrackFuseOptions {
  offsetMs: number;
  toleranceMs: number;
  pathToleranceMs: number;
  table: { length: number; width: number };
  skittles?: { id: string; at: [number, number]; radius: number }[];
}
export type FuseTracks = (sensors: Shot, camera: Shot, paths: ShotPaths, options: TrackFuseOptions) => { shot: Shot };

/**
 * The truth's shots of a stream (events and resting places), as runStream plays them, without
 * rendering a frame: the planner and the physics draw from the same seeded streams, and a
 * clip's frames are drawn only when asked for. For re-judging records written without the
 * truth's resting places (tests/bench/fusion-rejudge.ts).
 */
export function truthShots(spec: Pick<StreamSpec, 'variant' | 'stream' | 'shots' | 'seed'>): Shot[] {
  const setup: MatchSetup = { variant: spec.variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  const random = seededRandom(streamSeed(spec.seed, spec.variant, spec.stream));
  const planner = new VideoShotPlanner(spec.variant);
  let truth = createMatch(setup);
  let isBreak = true;
  const out: Shot[] = [];
  for (let index = 0; index < spec.shots; index++) {
    let view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      truth = createMatch(setup);
      isBreak = true;
      view = truth.view();
    }
    const shot = planner.plan(view.cueBall!, isBreak, view.instructions, random);
    isBreak = false;
    const clip = makeClip({ ...shot, fps: 30, width: 64, height: 36, seed: Math.floor(random() * 2 ** 31) });
    planner.rested(clip.timeline.result.balls);
    playTruth(truth, clip.truth.shot);
    out.push(clip.truth.shot);
  }
  return out;
}

/** Runs one stream, handing each shot's record to `onShot` as soon as it is scored. */
export function runStream(spec: StreamSpec, onShot: (r: ShotRecord) => void, fuseShot: Fuse, fuseTracks: FuseTracks): void {
  const { variant, fps } = spec;
  const setup: MatchSetup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  const random = seededRandom(streamSeed(spec.seed, variant, spec.stream));
  const clockRandom = seededRandom(streamSeed(spec.seed ^ 0x5eed, variant, spec.stream));
  let truth = createMatch(setup);
  let log: MatchInput[] = [];
  const seen: Record<Reading, Match> = { camera: createMatch(setup), sensors: createMatch(setup), contacts: createMatch(setup), fused: createMatch(setup) };
  const planner = new VideoShotPlanner(variant);
  const skittleGame = variant.startsWith('skittles');
  let isBreak = true;
  for (let index = 0; index < spec.shots; index++) {
    let view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      truth = createMatch(setup);
      log = [];
      for (const r of READINGS) seen[r] = createMatch(setup);
      isBreak = true;
      view = truth.view();
    }
    const shot = planner.plan(view.cueBall!, isBreak, view.instructions, random);
    isBreak = false;
    const r0 = performance.now();
    const clip = makeClip({ ...shot, fps, width: spec.width, height: spec.height, seed: Math.floor(random() * 2 ** 31) });
    const tracker = clipTracker(clip, shot, planner, variant);
    const messages: TrackerMessage[] = [];
    let trackMs = 0;
    for (let i = 0; i < clip.frameCount; i++) {
      const frame = clip.frame(i);
      const t0 = performance.now();
      messages.push(...tracker.push(frame, Math.round((i * 1000) / fps)));
      trackMs += performance.now() - t0;
    }
    messages.push(...tracker.finish());
    const renderMs = performance.now() - r0 - trackMs;
    planner.rested(clip.timeline.result.balls);
    const truthShot: Shot = clip.truth.shot;
    const shotMsgs = messages.filter((m) => m.type === 'shot');
    // One shot per video. None (the tracker saw no ball leave its place, or no strike): live,
    // nothing is scored by the camera and the referee enters the shot — counted as a prompt;
    // with sensors, their shot is scored alone. Several: live, each is scored as a shot of its
    // own and the match goes out of step — counted wrong in every reading that used the camera.
    const cameraShots = shotMsgs.length;
    const camShot: Shot = cameraShots === 1 && shotMsgs[0]!.type === 'shot' ? { events: shotMsgs[0]!.shot.events as ShotEvent[], positions: shotMsgs[0]!.shot.positions, positionsErrorMm: shotMsgs[0]!.shot.positionsErrorMm } : { events: [] };
    // The sensors: every contact, times from the first one (as the segmenter cuts a shot), no ids.
    const timed = truthShot.events.filter((e) => e.t !== undefined);
    const firstT = timed[0]?.t ?? 0;
    const sensors: Shot = { events: sensorView(truthShot).events.map((e) => (e.t === undefined ? e : { ...e, t: Math.max(0, Math.round((e.t - firstT + (clockRandom() - 0.5) * 0.1) * 10) / 10) })) };
    // Fused by hub/camera/fusion.ts: the camera's t = 0 is the video's first frame, mapped to
    // the sensors' clock with an error of up to ±4 ms. The tracker interpolates contact times
    // inside the frame interval (measured: mostly within ±10 ms of the truth, some ±20 ms, at
    // 30 fps), so the window is centred on the camera's time, a frame and the clock error wide
    // either way — not the "up to a frame late" window shot-pairing.ts assumes for a camera
    // that reports frames. Fusion's guarantee needs every camera contact within the window of
    // its own sensor event; a wider window only links more (and agrees on less).
    const frameMs = 1000 / fps;
    const clockTolerance = 4;
    const clockError = (clockRandom() * 2 - 1) * clockTolerance;
    const sensorStartedAt = clip.strikeAt * 1000 + firstT; // the sensors' t = 0 on the video clock
    const fuseOptions = { offsetMs: clockError - sensorStartedAt, toleranceMs: frameMs + clockTolerance };
    const contacts = fuseShot(sensors, camShot, fuseOptions);
    // With the paths: frames are stamped at mid-exposure, so a path's time is off by the clock
    // error and the stamps' rounding (±0.5 ms) only.
    const paths = shotMsgs.length === 1 ? tracker.lastShotPaths : null;
    const trackOptions: TrackFuseOptions = { ...fuseOptions, pathToleranceMs: clockTolerance + 2, table: { length: shot.table.length, width: shot.table.width }, ...(skittleGame ? { skittles: planner.table.skittles.map((k) => ({ id: k.id, at: [k.at[0], k.at[1]] as [number, number], radius: k.radius })) } : {}) };
    const fused = cameraShots === 0 ? { shot: sensors } : paths ? fuseTracks(sensors, camShot, paths, trackOptions) : contacts;
    // Camera alone as the hub scores it: with the doubts that need the match's cue ball (doubts.ts).
    const cameraAlone: Shot = paths ? { ...camShot, events: cueBallDoubts(camShot.events as DoubtEvent[], paths.paths, view.cueBall!) as ShotEvent[] } : camShot;
    const readings: Record<Reading, Shot> = { camera: cameraAlone, sensors, contacts: cameraShots === 0 ? sensors : contacts.shot, fused: fused.shot };

    // Truth and the engine's expected decision.
    const inputs = playTruth(truth, truthShot);
    const expected = truth.view().shots.at(-1)!;
    const decisions = {} as Record<Reading, Decision>;
    const offeredFirst: Partial<Record<Reading, boolean>> = {};
    const wrong: string[] = [];
    for (const r of READINGS) {
      const d: ReturnType<typeof judge> =
        r !== 'sensors' && cameraShots > 1
          ? { decision: 'wrong' as const, inStep: false, note: `the camera cut the play into ${cameraShots} shots` }
          : r === 'camera' && cameraShots === 0
            ? { decision: 'prompted' as const, inStep: false }
            : judge(seen[r], readings[r], expected);
      decisions[r] = d.decision;
      if (d.rank !== undefined) offeredFirst[r] = d.rank === 1;
      if (d.decision === 'wrong') wrong.push(`${r}: ${d.note} — truth ${JSON.stringify(truthShot.events)} read ${JSON.stringify(readings[r].events)}`);
      if (!d.inStep) seen[r] = replay(setup, [...log, ...inputs]);
    }
    log.push(...inputs);

    const ts = truthShot.events.map(signature);
    const compare = (s: Shot) => {
      const cs = s.events.map(signature);
      const kinds: Record<string, KindCount> = {};
      const kind = (k: string) => (kinds[k] ??= { truth: 0, found: 0, matched: 0 });
      const pool = [...ts];
      for (const x of ts) kind(x.split(':')[0]!).truth += 1;
      let nulls = 0;
      for (const x of cs) {
        kind(x.split(':')[0]!).found += 1;
        if (x.includes('?')) nulls += 1;
        const k = pool.indexOf(x);
        if (k >= 0) {
          pool.splice(k, 1);
          kind(x.split(':')[0]!).matched += 1;
        }
      }
      return { exact: ts.length === cs.length && ts.every((x, i) => x === cs[i]), kinds, nulls };
    };
    const c = compare(cameraAlone);
    const k = compare(contacts.shot);
    const f = compare(fused.shot);
    const positionErrors: number[] = [];
    let positionsOmitted = 0;
    for (const [id, p] of Object.entries(truthShot.positions ?? {})) {
      const q = camShot.positions?.[id];
      if (q) positionErrors.push(Math.round(Math.hypot(q[0] - p[0], q[1] - p[1]) * 100) / 100);
      else positionsOmitted += 1;
    }
    onShot({
      type: 'shot',
      variant,
      fps,
      stream: spec.stream,
      attempt: spec.attempt,
      index,
      decisions,
      offeredFirst,
      ...(cameraShots !== 1 ? { cameraShots } : {}),
      exact: { camera: c.exact, contacts: k.exact, fused: f.exact },
      kinds: { camera: c.kinds, contacts: k.kinds, fused: f.kinds },
      nullFacts: { camera: c.nulls, contacts: k.nulls, fused: f.nulls },
      positionErrors,
      positionsOmitted,
      frames: clip.frameCount,
      renderMs: Math.round(renderMs),
      trackMs: Math.round(trackMs),
      ...(wrong.length ? { wrong } : {}),
      wrongFacts: { contacts: wrongFacts(contacts.shot.events, truthShot.events), fused: wrongFacts(fused.shot.events, truthShot.events) },
      events: { truth: truthShot.events, camera: cameraAlone.events.map((e) => (e.t === undefined ? e : { ...e, t: e.t - clip.strikeAt * 1000 })) },
      positions: camShot.positions ?? {},
      // Everything fusion was given, to try fusion again without rendering (VISION_FUSION_INPUT=1).
      ...(process.env.VISION_FUSION_INPUT === '1' ? { fusionInput: { sensors, camera: camShot, paths, options: trackOptions, truth: truthShot.events, ...(truthShot.positions ? { truthPositions: truthShot.positions } : {}), firstT, pixelMm: tracker.pixelMm } } : {}),
    });
  }
}

/** Scores one reading of the shot; `inStep` false when the match left the truth's path. */
/** A shot read into `match` and judged against the truth's result; a prompt's `rank`: the truth's place among its options (1: offered first, as most likely), of `offered`. */
export function judge(match: Match, reading: Shot, expected: ShotResult): { decision: Decision; inStep: boolean; note?: string; rank?: number; offered?: number } {
  const applied = match.apply({ kind: 'shot', shot: reading });
  if (!applied.ok) return { decision: 'wrong', inStep: false, note: `refused: ${applied.error}` };
  const sensed = match.view();
  if (sensed.status === 'awaiting-referee') {
    const options = sensed.prompt!.options;
    const at = options.findIndex((o) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses);
    if (at < 0) return { decision: 'wrong', inStep: false, note: 'prompt without the truth among its options' };
    const option = options[at]!;
    must(match.apply({ kind: 'referee', referee: { ruling: option.ruling, option: option.index } }));
    return { decision: 'prompted', inStep: true, rank: at + 1, offered: options.length };
  }
  const got = sensed.shots.at(-1)!;
  if (outcome(got) === outcome(expected)) return { decision: 'correct', inStep: true };
  return { decision: 'wrong', inStep: false, note: `decided ${outcome(got)}, truth ${outcome(expected)}` };
}


export interface RowSummary {
  variant: string;
  fps: number;
  shots: number;
  decisions: Record<Reading, Record<Decision, number>>;
  /** Prompts with options (of records that say), and of those the ones that offered the truth first. */
  offeredFirst: Record<Reading, { first: number; prompts: number }>;
  exact: Record<EventReading, number>;
  kinds: Record<EventReading, Record<string, KindCount>>;
  nullFacts: Record<EventReading, number>;
  positionMean: number;
  positionP99: number;
  positions: number;
  positionsOmitted: number;
  frames: number;
  renderMs: number;
  trackMs: number;
  wrong: string[];
  /** Summed over the records that have them (`shots` of them; −1 readings, not aligned, left out). */
  wrongFacts: { contacts: number; fused: number; shots: number };
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
}

/** Per variant and frame rate, over the records given. */
export function summarise(records: readonly ShotRecord[]): RowSummary[] {
  const rows = new Map<string, { row: RowSummary; errors: number[] }>();
  for (const r of records) {
    const key = `${r.variant}|${r.fps}`;
    let e = rows.get(key);
    if (!e) {
      const zero = () => ({ correct: 0, prompted: 0, wrong: 0 });
      const none = () => ({ first: 0, prompts: 0 });
      e = {
        row: { variant: r.variant, fps: r.fps, shots: 0, decisions: { camera: zero(), sensors: zero(), contacts: zero(), fused: zero() }, offeredFirst: { camera: none(), sensors: none(), contacts: none(), fused: none() }, exact: { camera: 0, contacts: 0, fused: 0 }, kinds: { camera: {}, contacts: {}, fused: {} }, nullFacts: { camera: 0, contacts: 0, fused: 0 }, positionMean: NaN, positionP99: NaN, positions: 0, positionsOmitted: 0, frames: 0, renderMs: 0, trackMs: 0, wrong: [], wrongFacts: { contacts: 0, fused: 0, shots: 0 } },
        errors: [],
      };
      rows.set(key, e);
    }
    const row = e.row;
    row.shots += 1;
    // A record from before track fusion read the shot with contacts only: that was its `fused`.
    const old = r.decisions.contacts === undefined;
    const from = (k: EventReading): EventReading => (old && k === 'contacts' ? 'fused' : k);
    for (const k of READINGS) row.decisions[k][r.decisions[k === 'contacts' ? from(k) : k]] += 1;
    for (const [k, first] of Object.entries(r.offeredFirst ?? {}) as [Reading, boolean][]) {
      row.offeredFirst[k].prompts += 1;
      if (first) row.offeredFirst[k].first += 1;
    }
    for (const k0 of EVENT_READINGS) {
      const k = from(k0);
      if (r.exact[k]) row.exact[k0] += 1;
      row.nullFacts[k0] += r.nullFacts[k];
      for (const [kind, c] of Object.entries(r.kinds[k])) {
        const t = (row.kinds[k0][kind] ??= { truth: 0, found: 0, matched: 0 });
        t.truth += c.truth;
        t.found += c.found;
        t.matched += c.matched;
      }
    }
    e.errors.push(...r.positionErrors);
    row.positionsOmitted += r.positionsOmitted;
    row.frames += r.frames;
    row.renderMs += r.renderMs;
    row.trackMs += r.trackMs;
    if (r.wrong) row.wrong.push(...r.wrong);
    if (r.wrongFacts) {
      row.wrongFacts.shots += 1;
      row.wrongFacts.contacts += Math.max(0, r.wrongFacts.contacts);
      row.wrongFacts.fused += Math.max(0, r.wrongFacts.fused);
    }
  }
  return [...rows.values()].map(({ row, errors }) => ({ ...row, positions: errors.length, positionMean: errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length), positionP99: quantile(errors, 0.99) }));
}
