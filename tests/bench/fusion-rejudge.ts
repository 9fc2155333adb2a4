import { readFileSync } from 'node:fs';
import { fuseShot } from '../../hub/camera/fusion.ts';
import { fuseWithTracks } from '../../hub/camera/track-fusion.ts';
import type { MatchInput, MatchSetup, Shot, ShotEvent } from '../../hub/rules/events.ts';
import type { Match } from '../../hub/rules/match.ts';
import { createMatch, playTruth, replay } from '../../hardware/simulator/match-helpers.ts';
import { judge, truthShots, wrongFacts, type Decision, type ShotRecord } from '../../hardware/simulator/video/accuracy.ts';
import { withDoubts, cueBallDoubts, type DoubtEvent } from '../../hub/vision/doubts.ts';
import { findContacts } from '../../hub/vision/contacts.ts';
import { analysisStep, everyStep, hideDoubted, statedEvents, type ShotEventOut } from '../../hub/vision/tracker.ts';

/**
 * `npx tsx tests/bench/fusion-rejudge.ts RUN.jsonl [RUN2.jsonl …]`: the engine's decisions on
 * camera + sensors again, with today's fusion, on the shots of `accuracy:vision` runs written
 * with VISION_FUSION_INPUT=1 — without rendering. Each stream's truth is replayed from its
 * recorded shots (events and resting places), and each fused reading is judged by a match
 * kept in step with it, as the run itself does. Prints, per game and frame rate, decisions
 * with the recorded fusion (`then`) and with today's (`now`), and every wrong decision.
 * Safety short of a wrong decision is counted too: wrong facts, and "truth ruled out" — sensor
 * contacts whose candidates (what the paths did not rule out) leave the true ball or pair out.
 * An empty list only costs a prompt, but it is the same fault that names a wrong ball when one
 * other candidate is left (held-out 21215, five skittles 30 s0 #1).
 *
 * Camera shots recorded before `positionsErrorMm` get the error today's tracker states (two
 * pixels of the recorded mm per pixel, at least 5 mm): the zone games read a ball that near a
 * line both ways.
 *
 * The camera alone is judged again too: the recorded camera shot with today's doubts
 * (hub/vision/doubts.ts) applied over the recorded paths. The skittle watch's readings are
 * not recorded, so the "skittle a ball reached" doubt stays as the run's tracker stated it.
 *
 * `--contacts`: the camera's contacts found again in the recorded paths with today's
 * contacts.ts, as the tracker does (every other frame above 40 fps), before today's doubts;
 * its other events (skittle falls, pockets) as recorded. The detector's floor for a bend
 * needs the tracker's mm per pixel: recorded since 2026-12-02, else `--pixel-mm N` (5 if not
 * given; 640×360 renders are 4.5–6). The fused readings then use that camera too.
 *
 * A stream is judged only when it finished. Records written without the truth's resting
 * places get them from the physics again (`--seed N`: the run's VISION_SEED), checked against
 * the recorded truth's events.
 */
type Row = { shots: number; then: Record<Decision, number>; now: Record<Decision, number>; contacts: Record<Decision, number>; cameraThen: Record<Decision, number>; cameraNow: Record<Decision, number>; wrongFacts: number; ruledOut: number; fusedFirst: number; cameraFirst: number };
const zero = (): Record<Decision, number> => ({ correct: 0, prompted: 0, wrong: 0 });

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : null;
// --prompts: list every prompted shot, its fused reading beside the truth.
const showPrompts = args.includes('--prompts');
// --camera-changes: list every shot whose camera-alone decision differs from the run's.
const showCameraChanges = args.includes('--camera-changes');
const fromPaths = args.includes('--contacts');
const pixelAt = args.indexOf('--pixel-mm');
const pixelMm = pixelAt >= 0 ? Number(args[pixelAt + 1]) : 5;
if (!(pixelMm > 0 && pixelMm < 100)) {
  console.error(`--pixel-mm wants the tracker's mm per pixel (a number above 0, 640×360 renders are 4.5–6), not "${args[pixelAt + 1] ?? ''}"`);
  process.exit(2);
}
const valued = new Set([seedAt, pixelAt].filter((k) => k >= 0).flatMap((k) => [k, k + 1]));
const files = args.filter((a, k) => !['--prompts', '--contacts', '--camera-changes'].includes(a) && !valued.has(k));
if (!files.length) {
  console.error('usage: fusion-rejudge.ts RUN.jsonl [RUN2.jsonl …] [--seed N] [--prompts] [--camera-changes] [--contacts [--pixel-mm N]]');
  process.exit(2);
}
const streams = new Map<string, ShotRecord[]>();
const finished = new Set<string>();
for (const file of files) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r: ShotRecord | { type: 'stream'; variant: string; fps: number; stream: number; attempt: string };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      continue; // a line cut off when a run was stopped
    }
    const key = `${file}|${r.variant}|${r.fps}|${r.stream}|${r.attempt}`;
    if (r.type === 'stream') finished.add(key);
    else if (r.type === 'shot') streams.set(key, [...(streams.get(key) ?? []), r]);
  }
}

const rows = new Map<string, Row>();
const wrong: string[] = [];
const prompts: string[] = [];
let skipped = 0;
for (const [key, records] of streams) {
  records.sort((a, b) => a.index - b.index);
  if (!finished.has(key) || records.some((r, k) => !r.fusionInput || r.index !== k)) {
    skipped += 1;
    continue;
  }
  const { variant, fps } = records[0]!;
  if (records.some((r) => !r.fusionInput!.truthPositions)) {
    if (seed === null) {
      skipped += 1;
      continue;
    }
    const shots = truthShots({ variant, stream: records[0]!.stream, shots: records.length, seed });
    records.forEach((r, k) => {
      if (JSON.stringify(shots[k]!.events) !== JSON.stringify(r.fusionInput!.truth)) throw new Error(`${key} shot ${k}: the physics played another shot than the record's (wrong --seed?)`);
      r.fusionInput!.truthPositions = shots[k]!.positions;
    });
  }
  const setup: MatchSetup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} };
  let truth = createMatch(setup);
  let seen: Match = createMatch(setup);
  let seenContacts: Match = createMatch(setup);
  let seenCamera: Match = createMatch(setup);
  let log: MatchInput[] = [];
  const row = rows.get(`${variant} ${fps}`) ?? { shots: 0, then: zero(), now: zero(), contacts: zero(), cameraThen: zero(), cameraNow: zero(), wrongFacts: 0, ruledOut: 0, fusedFirst: 0, cameraFirst: 0 };
  rows.set(`${variant} ${fps}`, row);
  for (const r of records) {
    const view = truth.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      truth = createMatch(setup);
      seen = createMatch(setup);
      seenContacts = createMatch(setup);
      seenCamera = createMatch(setup);
      log = [];
    }
    const recorded = r.fusionInput!;
    const read = fromPaths && recorded.paths ? { ...recorded, camera: cameraFromPaths(recorded) } : recorded;
    // Runs before positionsErrorMm: the error today's tracker states (two pixels, at least 5 mm).
    const input = { ...read, camera: { ...read.camera, positionsErrorMm: read.camera.positionsErrorMm ?? Math.max(5, Math.round(2 * (read.pixelMm ?? 5))) } };
    const truthShot: Shot = { events: [...input.truth], positions: input.truthPositions! };
    const inputs = playTruth(truth, truthShot);
    const expected = truth.view().shots.at(-1)!;
    const contacts = fuseShot(input.sensors, input.camera, input.options).shot;
    const candidates = new Map<number, string[]>();
    const fused = input.paths ? fuseWithTracks(input.sensors, input.camera, input.paths, { ...input.options, onCandidates: (k, c) => candidates.set(k, c) }).shot : contacts;
    for (const k of truthLeftOut(input.sensors.events, input.truth, candidates)) {
      row.ruledOut += 1;
      wrong.push(`truth ruled out, ${variant} ${fps} s${r.stream} #${r.index} event ${k}: truth ${JSON.stringify(input.truth[k])}, candidates [${candidates.get(k)!.join(', ')}]`);
    }
    const d = judge(seen, fused, expected);
    const c = judge(seenContacts, contacts, expected);
    const k = judge(seenCamera, cameraNow(input, seenCamera.view().cueBall, fromPaths), expected);
    if (showCameraChanges && k.decision !== r.decisions.camera) prompts.push(`camera alone ${r.decisions.camera} → ${k.decision}, ${variant} ${fps} s${r.stream} #${r.index}:\n  truth ${JSON.stringify(input.truth)}\n  read  ${JSON.stringify(cameraNow(input, seenCamera.view().cueBall, fromPaths).events)}`);
    if (k.decision === 'wrong') wrong.push(`camera alone, ${variant} ${fps} s${r.stream} #${r.index}: ${k.note} — truth ${JSON.stringify(input.truth)}`);
    if (d.decision === 'prompted' && showPrompts) prompts.push(`${variant} ${fps} s${r.stream} #${r.index}:\n  truth ${JSON.stringify(input.truth)}\n  read  ${JSON.stringify(fused.events)}`);
    if (d.decision === 'wrong') wrong.push(`${variant} ${fps} s${r.stream} #${r.index}: ${d.note} — truth ${JSON.stringify(input.truth)} read ${JSON.stringify(fused.events)}`);
    if (!d.inStep) seen = replay(setup, [...log, ...inputs]);
    if (!c.inStep) seenContacts = replay(setup, [...log, ...inputs]);
    if (!k.inStep) seenCamera = replay(setup, [...log, ...inputs]);
    log.push(...inputs);
    row.shots += 1;
    const facts = wrongFacts(fused.events, input.truth);
    row.wrongFacts += Math.max(0, facts);
    if (facts > 0) wrong.push(`wrong fact(s), ${variant} ${fps} s${r.stream} #${r.index}: truth ${JSON.stringify(input.truth)} read ${JSON.stringify(fused.events)}`);
    row.then[r.decisions.fused] += 1;
    row.now[d.decision] += 1;
    row.contacts[c.decision] += 1;
    row.cameraThen[r.decisions.camera] += 1;
    row.cameraNow[k.decision] += 1;
    if (d.rank === 1) row.fusedFirst += 1;
    if (k.rank === 1) row.cameraFirst += 1;
  }
}
const per100 = (d: Record<Decision, number>, n: number) => ((100 * d.prompted) / Math.max(1, n)).toFixed(1);
console.log('| game | fps | shots | fused then: prompts /100 (wrong) | fused now: prompts /100 (wrong) | fused now: wrong facts | truth ruled out | contacts only now | camera alone then | camera alone now | prompts now with the truth offered first: fused; camera alone |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [key, r] of [...rows].sort()) {
  const [variant, fps] = key.split(' ');
  console.log(`| ${variant} | ${fps} | ${r.shots} | ${per100(r.then, r.shots)} (${r.then.wrong}) | ${per100(r.now, r.shots)} (${r.now.wrong}) | ${r.wrongFacts} | ${r.ruledOut} | ${per100(r.contacts, r.shots)} (${r.contacts.wrong}) | ${per100(r.cameraThen, r.shots)} (${r.cameraThen.wrong}) | ${per100(r.cameraNow, r.shots)} (${r.cameraNow.wrong}) | ${r.fusedFirst} of ${r.now.prompted}; ${r.cameraFirst} of ${r.cameraNow.prompted} |`);
}
if (skipped) console.log(`\n${skipped} stream(s) left out: unfinished, without fusion input, or without the truth's resting places (give --seed).`);
if (showPrompts || showCameraChanges) console.log(`\n${prompts.join('\n')}`);
console.log(wrong.length ? `\n${wrong.join('\n')}` : '\nno wrong decision, no wrong fact, no truth ruled out');

/**
 * The sensor contacts whose candidates (what the paths did not rule out) leave the truth's ball
 * or pair out: none may, or the engine, told to choose among them, could choose wrong. Judged
 * where the sensor events are the truth's one for one (the simulated sensors keep every contact).
 */
function truthLeftOut(sensed: readonly ShotEvent[], truth: readonly ShotEvent[], candidates: ReadonlyMap<number, string[]>): number[] {
  if (sensed.length !== truth.length || sensed.some((e, k) => e.kind !== truth[k]!.kind)) return [];
  return truth.flatMap((e, k) => {
    const c = candidates.get(k);
    if (!c || c.includes('(chain)')) return [];
    const want = e.kind === 'ball' ? [...e.balls].sort().join('+') : e.kind === 'cushion' ? e.ball : e.kind === 'skittle' ? e.by : null;
    return want === null || c.some((x) => x.split('+').sort().join('+') === want) ? [] : [k];
  });
}

/** The camera shot found again in the recorded paths: today's contacts, then today's doubts, as the tracker's analysis runs them. */
function cameraFromPaths(input: NonNullable<ShotRecord['fusionInput']>): Shot {
  const paths = input.paths!;
  const full = new Map(Object.entries(paths.paths).map(([ball, samples]) => [ball, samples.map((x) => ({ t: x.t, at: x.at, ...(x.bare ? { bare: true as const } : {}) }))]));
  const dt = frameMs(paths);
  const step = analysisStep(dt);
  const used = new Map([...full].map(([ball, samples]) => [ball, everyStep(samples, step)]));
  const spots = input.options.skittles ?? [];
  const obstacles = spots.filter((k) => !paths.standing || paths.standing.includes(k.id)).map((k) => ({ at: k.at, radius: k.radius }));
  const found = findContacts({ tracks: used, dt: dt * step, ballRadius: paths.ballRadius, table: input.options.table, obstacles, pixelMm: input.pixelMm ?? pixelMm });
  const read = input.camera.events.filter((e) => e.kind !== 'ball' && e.kind !== 'cushion') as ShotEventOut[];
  const stated = statedEvents(found, read, dt);
  const events = withDoubts({ ...doubtInput(input, full, dt), events: stated as DoubtEvent[] }) as ShotEventOut[];
  const doubt = paths.doubt;
  return { ...input.camera, events: hideDoubted(events, new Set(doubt?.balls ?? []), doubt?.since ?? Infinity) as Shot['events'] };
}

/**
 * The recorded camera shot with today's doubts over the recorded paths (the paths' frames are
 * every frame, on the camera's clock). `doubted`: its events have today's doubts already (found
 * again by cameraFromPaths), only those that need the cue ball are added. Otherwise the run's
 * doubts are in them and today's go over them: a doubt both add is there twice (one more maybe
 * contact), so the camera alone may ask a little more than today's tracker would.
 */
function cameraNow(input: NonNullable<ShotRecord['fusionInput']>, cueBall: string | null, doubted: boolean): Shot {
  const { camera, paths } = input;
  if (!paths) return camera;
  const tracks = new Map(Object.entries(paths.paths).map(([ball, samples]) => [ball, samples.map((x) => ({ t: x.t, at: x.at, ...(x.bare ? { bare: true as const } : {}) }))]));
  const events = doubted ? (camera.events as DoubtEvent[]) : withDoubts({ ...doubtInput(input, tracks, frameMs(paths)), events: camera.events as DoubtEvent[] });
  // As the hub scores the camera alone: with the doubts that need the match's cue ball.
  return { ...camera, events: (cueBall ? cueBallDoubts(events, paths.paths, cueBall) : events) as Shot['events'] };
}

/** The paths' frame interval: their span over their count (every frame is in them). */
function frameMs(paths: NonNullable<NonNullable<ShotRecord['fusionInput']>['paths']>): number {
  const times = Object.values(paths.paths)[0]?.map((x) => x.t) ?? [];
  return times.length > 1 ? (times.at(-1)! - times[0]!) / (times.length - 1) : 1000 / 30;
}

/** What doubts.ts needs of a recorded shot besides its events (the skittle watch's readings are not recorded). */
function doubtInput(input: NonNullable<ShotRecord['fusionInput']>, tracks: Map<string, { t: number; at: [number, number] | null }[]>, dt: number) {
  const paths = input.paths!;
  const spots = (input.options.skittles ?? []).map((k) => ({ id: k.id, at: k.at, base: 2 * k.radius }));
  // Records do not name the pockets: the skittle game on a 3.55 m table is the pyramid one, with pockets.
  return { tracks, dt, ballRadius: paths.ballRadius, table: input.options.table, spots, ...(paths.standing ? { standingBefore: paths.standing } : {}), partial: new Map(Object.entries(paths.paths).map(([ball, samples]) => [ball, new Set(samples.filter((x) => x.at && !x.clear).map((x) => x.t))])), pockets: input.options.skittles !== undefined && input.options.table.length > 3000 };
}
