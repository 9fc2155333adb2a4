import { readFileSync } from 'node:fs';
import { findContacts, type TrackSample } from '../../hub/vision/contacts.ts';
import { withDoubts, type DoubtEvent } from '../../hub/vision/doubts.ts';
import { analysisStep, everyStep, statedEvents } from '../../hub/vision/tracker.ts';
import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import { createMatch, playTruth } from '../../hardware/simulator/match-helpers.ts';

/**
 * Shots of held-out runs cut into fixtures (tests/vision/fixtures): the tracker's paths
 * ([t, place, 1 when seen in part], 0.1 mm), the events the skittle watch read, the resting
 * places and the truth's events (simulator clock), read again through today's contact finder
 * and doubts, and scored by the engine beside the truth.
 */
export type Path = ([number, number[], 1] | [number, number[] | null])[];
export type Fixture = {
  /** The video's frame rate (default 60). */
  fps?: number;
  pixelMm: number;
  ballRadius: number;
  table: { length: number; width: number };
  skittles?: { id: string; at: [number, number]; radius: number }[];
  standing?: string[];
  read: DoubtEvent[];
  positions: Shot['positions'];
  truth: ShotEvent[];
  paths: Record<string, Path>;
};
export const load = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Fixture;
export const pair = (e: DoubtEvent) => (e.kind === 'ball' ? [...e.balls].sort().join('+') : e.kind);
export const dt = 1000 / 60;

/** The camera's events as the tracker states them: contacts on the analysed frames, the watch's falls, then the doubts over every frame. */
export function cameraEvents(fixture: Fixture, read: readonly DoubtEvent[]): DoubtEvent[] {
  const dt = 1000 / (fixture.fps ?? 60);
  const tracks = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, samples.map(([t, at]): TrackSample => ({ t, at: at as [number, number] | null }))]));
  const partial = new Map(Object.entries(fixture.paths).map(([ball, samples]) => [ball, new Set(samples.filter((x) => x[2] === 1).map((x) => x[0]))]));
  const step = analysisStep(dt);
  const used = new Map([...tracks].map(([ball, samples]) => [ball, everyStep(samples, step)]));
  const obstacles = (fixture.skittles ?? []).map((k) => ({ at: k.at, radius: k.radius }));
  const found = findContacts({ tracks: used, dt: dt * step, ballRadius: fixture.ballRadius, table: fixture.table, obstacles, pixelMm: fixture.pixelMm });
  const stated = statedEvents(found, read as never, dt) as DoubtEvent[];
  const spots = (fixture.skittles ?? []).map((k) => ({ id: k.id, at: k.at, base: 2 * k.radius }));
  return withDoubts({ tracks, dt, ballRadius: fixture.ballRadius, table: fixture.table, spots, partial, events: stated, ...(fixture.standing ? { standingBefore: fixture.standing } : {}) });
}

/**
 * The camera alone's shot on a fresh match beside the truth's: what the engine decided, or the
 * prompt's options. `cueBall`: the ball the shot was played with (default: the first player's).
 */
export function scored(variant: string, fixture: Fixture, events: readonly DoubtEvent[], cueBall?: string) {
  const setup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: {} } as const;
  // Past the break (G-5: its first contact must be the red): two misses, and one more until the cue ball is the one asked for.
  const pastTheBreak = () => {
    const m = createMatch(setup);
    for (let k = 0; k < 2 || (cueBall !== undefined && m.view().cueBall !== cueBall && k < 4); k++) playTruth(m, { events: [], positions: fixture.positions });
    if (cueBall !== undefined && m.view().cueBall !== cueBall) throw new Error(`no turn with the ${cueBall} to play`);
    return m;
  };
  const truth = pastTheBreak();
  playTruth(truth, { events: fixture.truth, positions: fixture.positions });
  const expected = truth.view().shots.at(-1)!;
  const camera = pastTheBreak();
  const applied = camera.apply({ kind: 'shot', shot: { events: events as ShotEvent[], positions: fixture.positions } });
  if (!applied.ok) throw new Error(applied.error);
  const view = camera.view();
  const truthOption = (o: { points: number; foul: string | null; turnPasses: boolean }) => o.points === expected.points && o.foul === expected.foul && o.turnPasses === expected.turnPasses;
  return { expected, prompt: view.status === 'awaiting-referee', truthOffered: view.prompt?.options.some(truthOption) ?? false, decided: view.status === 'awaiting-referee' ? null : view.shots.at(-1)! };
}
