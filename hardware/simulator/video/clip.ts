import type { Vec2, Vec3 } from '../../../hub/vision/geometry.ts';
import { seededRandom } from '../../../hub/rules/random.ts';
import type { Frame } from '../../../hub/vision/frame.ts';
import type { Ball } from '../physics/ball.ts';
import { toPlanned, type PhysicsPlannedShot } from '../physics/planner.ts';
import type { TableGeometry } from '../physics/table.ts';
import { randomCamera, type Camera } from './camera.ts';
import { BALL_RGB, gauss, Renderer, type Capsule, type FrameScene, type RGB, type SoftShadow, type Style } from './render.ts';
import { simulateTimeline, type Timeline } from './timeline.ts';

/**
 * One rendered shot: the player aims (practice strokes, bridge hand on the cloth, the cue
 * over the table, their shadow), strikes at `lead` seconds, withdraws; the balls run as
 * the physics says; the video goes on for `tail` seconds after everything is at rest.
 * Everything that varies (camera, lens, cloth, light, noise, exposure, the player's moves,
 * a chalk cube on the cloth, a cue held over the table during the shot) is drawn from a
 * seed.
 */
export interface ClipSpec {
  table: TableGeometry;
  /** The balls as the stroke leaves them (the cue ball moving). */
  start: Ball[];
  cueBall: string;
  variant: string;
  fps: number;
  width: number;
  height: number;
  seed: number;
  /** Seconds of aiming before the strike (default 0.6) and of rest after (default 0.8). */
  lead?: number;
  tail?: number;
  /** Force the distractors on or off (tests); default: drawn from the seed. */
  chalk?: boolean;
  hoverCue?: boolean;
  /** Draw the player (cue, hands, arm, shadow); default true. */
  player?: boolean;
  /** Exposure in s (default drawn, 2–10 ms). */
  exposure?: number;
}

export interface Clip {
  camera: Camera;
  fps: number;
  frameCount: number;
  /** Seconds into the video of the cue strike. */
  strikeAt: number;
  timeline: Timeline;
  /** The physics' ground truth, event times in ms from the strike. */
  truth: PhysicsPlannedShot;
  frame(i: number): Frame;
  /** The scene of a frame (for tests that draw extra things). */
  scene(i: number): FrameScene;
  renderer: Renderer;
}

export const BALL_COLOUR: Record<string, string> = { white: 'white', yellow: 'yellow', red: 'red', cue: 'yellow', one: 'white', two: 'white' };

const CLOTHS: RGB[] = [
  [38, 92, 168], // tournament blue
  [30, 112, 62], // green
  [44, 78, 140], // darker blue
  [58, 104, 150], // grey-blue
];

export function randomStyle(random: () => number, fps: number): Style {
  const cloth = CLOTHS[Math.floor(random() * CLOTHS.length)]!;
  const light: Vec3 = [(random() - 0.5) * 0.5, (random() - 0.5) * 0.4, 1];
  const m = Math.hypot(...light);
  return {
    cloth: [cloth[0] * (0.9 + random() * 0.2), cloth[1] * (0.9 + random() * 0.2), cloth[2] * (0.9 + random() * 0.2)],
    rail: [92 + random() * 40, 52 + random() * 20, 30 + random() * 10],
    floor: [60, 58, 55],
    falloff: 0.1 + random() * 0.25,
    tilt: [(random() - 0.5) * 0.16, (random() - 0.5) * 0.12],
    vignette: 0.1 + random() * 0.3,
    noise: 1.5 + random() * 3,
    exposure: Math.min(1 / fps, 0.002 + random() * 0.008),
    light: [light[0] / m, light[1] / m, light[2] / m],
    gain: 0.92 + random() * 0.16,
  };
}

const SKIN: RGB[] = [
  [224, 172, 140],
  [198, 140, 104],
  [140, 96, 70],
  [236, 196, 170],
];
const SLEEVES: RGB[] = [
  [30, 30, 34],
  [230, 230, 232],
  [120, 30, 40],
  [60, 70, 110],
  [200, 200, 190],
];

export function makeClip(spec: ClipSpec): Clip {
  const random = seeded(spec.seed);
  const lead = spec.lead ?? 0.6;
  const tail = spec.tail ?? 0.8;
  const timeline = simulateTimeline(spec.table, spec.start, { random: seeded(spec.seed ^ 0x5bd1e995) });
  const truth = toPlanned(timeline.result);
  const camera = randomCamera(spec.width, spec.height, spec.table, random);
  const style = randomStyle(random, spec.fps);
  if (spec.exposure !== undefined) style.exposure = spec.exposure;
  const renderer = new Renderer(camera, spec.table, style, random);
  const R = spec.table.ballRadius;
  const cue = spec.start.find((b) => b.id === spec.cueBall)!;
  const speed = Math.hypot(cue.v[0], cue.v[1]) || 1;
  const dir: Vec2 = [cue.v[0] / speed, cue.v[1] / speed];
  const side = random() < 0.5 ? 1 : -1;
  const skin = SKIN[Math.floor(random() * SKIN.length)]!;
  const sleeve = SLEEVES[Math.floor(random() * SLEEVES.length)]!;
  const hasChalk = spec.chalk ?? random() < 0.5;
  const chalkAt: Vec2 = [200 + random() * (spec.table.length - 400), 150 + random() * (spec.table.width - 300)];
  const hover = spec.hoverCue ?? random() < 0.5;
  const hoverFrom: Vec2 = [random() * spec.table.length, -300];
  const hoverTo: Vec2 = [random() * spec.table.length, spec.table.width + 300];
  const walk: Vec2 = [(random() - 0.5) * 600, (random() - 0.5) * 400];
  const strokes = 1 + random() * 1.5;
  const duration = lead + timeline.result.duration + tail;
  const frameCount = Math.ceil(duration * spec.fps);
  const exposure = style.exposure;

  /** Where the cue's tip is, seconds from the strike (negative before). */
  const tipBack = (t: number): number => {
    if (t < -0.15) return R + 25 + 60 * Math.abs(Math.sin(Math.PI * strokes * t)); // practice strokes
    if (t < 0) return R + 85 * (-t / 0.15); // the stroke
    if (t < 0.08) return R - 110 * (t / 0.08); // follow-through
    return R - 110 + 1400 * Math.min(1, (t - 0.08) / 0.6); // withdrawn
  };

  const scene = (i: number): FrameScene => {
    const tv = i / spec.fps; // video time
    const t = tv - lead; // shot time
    const subs = Math.max(1, Math.min(7, Math.ceil((exposure * 4000) / R)));
    const balls = spec.start.map((b) => ({ colour: BALL_RGB[BALL_COLOUR[b.id]!]!, path: [] as Vec2[], id: b.id }));
    for (let s = 0; s < subs; s++) {
      const ts = t - exposure / 2 + (subs === 1 ? exposure / 2 : (exposure * s) / (subs - 1));
      const now = ts <= 0 ? spec.start.map((b) => ({ ...b })) : timeline.ballsAt(ts);
      now.forEach((b, k) => {
        if (!b.gone) balls[k]!.path.push([b.p[0], b.p[1]]);
      });
    }
    const capsules: Capsule[] = [];
    const shadows: SoftShadow[] = [];
    const lift = t > 0.08 ? Math.min(1, (t - 0.08) / 0.6) : 0;
    if (spec.player === false) {
      // No one at the table.
    } else if (t < 0.75) {
      const back = tipBack(t);
      const tip: Vec3 = [cue.p[0] - dir[0] * back, cue.p[1] - dir[1] * back, R * 1.1 + 200 * lift];
      const butt: Vec3 = [tip[0] - dir[0] * 1450, tip[1] - dir[1] * 1450, tip[2] + 220];
      capsules.push({ a: tip, b: butt, ra: 6.5, rb: 15, colour: [226, 200, 150], split: { at: 0.62, colour: [54, 34, 26] } });
      // The bridge hand on the cloth behind the ball, the forearm rising toward the player.
      const handBack = back + 170;
      const hand: Vec3 = [cue.p[0] - dir[0] * handBack, cue.p[1] - dir[1] * handBack, 22 + 250 * lift];
      const across: Vec2 = [-dir[1] * side, dir[0] * side];
      if (t < 0.2) {
        capsules.push({ a: [hand[0] + across[0] * 25, hand[1] + across[1] * 25, hand[2]], b: [hand[0] - across[0] * 25, hand[1] - across[1] * 25, hand[2]], ra: 42, rb: 38, colour: skin });
        const elbow: Vec3 = [hand[0] - dir[0] * 250 + across[0] * 180, hand[1] - dir[1] * 250 + across[1] * 180, hand[2] + 170];
        capsules.push({ a: [hand[0] - dir[0] * 40, hand[1] - dir[1] * 40, hand[2] + 20], b: elbow, ra: 38, rb: 50, colour: sleeve });
      }
      shadows.push({ centre: [hand[0] - dir[0] * 300 + across[0] * 150, hand[1] - dir[1] * 300 + across[1] * 150], radii: [520, 300], angle: Math.atan2(dir[1], dir[0]), strength: 0.35 });
    } else {
      // The player walks around the table: their shadow drifts over the cloth.
      const k = t - 0.75;
      const hand: Vec2 = [cue.p[0] - dir[0] * 400 + walk[0] * k, cue.p[1] - dir[1] * 400 + walk[1] * k];
      shadows.push({ centre: hand, radii: [560, 320], angle: Math.atan2(dir[1], dir[0]) + 0.3 * k, strength: 0.3 });
    }
    if (hover && t > 0.4 && t < 2.6) {
      // A cue carried across over the table, 30 cm above the cloth.
      const f = (t - 0.4) / 2.2;
      const mid: Vec2 = [hoverFrom[0] + (hoverTo[0] - hoverFrom[0]) * f, hoverFrom[1] + (hoverTo[1] - hoverFrom[1]) * f];
      const a = 0.6 + f;
      capsules.push({ a: [mid[0] - Math.cos(a) * 700, mid[1] - Math.sin(a) * 700, 300], b: [mid[0] + Math.cos(a) * 700, mid[1] + Math.sin(a) * 700, 330], ra: 7, rb: 14, colour: [226, 200, 150], split: { at: 0.6, colour: [54, 34, 26] } });
    }
    const skittles = spec.table.skittles.map((s) => {
      const fell = timeline.fellAt.get(s.id);
      const down = fell !== undefined && fell <= t;
      let d: Vec2 | undefined;
      if (down) {
        const by = timeline.ballsAt(fell!).find((b) => b.id === timeline.fellBy.get(s.id));
        const v: Vec2 = by ? [s.at[0] - by.p[0], s.at[1] - by.p[1]] : [1, 0];
        const m = Math.hypot(v[0], v[1]) || 1;
        d = [v[0] / m, v[1] / m];
      }
      return { at: [s.at[0], s.at[1]] as Vec2, standing: !down, ...(d ? { dir: d } : {}), king: s.id === 'king', base: s.radius * 2, height: 60 };
    });
    return {
      // A ball off the table (jumped a cushion) for the whole exposure is not drawn: it has no place.
      balls: balls.filter((b) => b.path.length > 0),
      ballRadius: R,
      skittles,
      capsules,
      shadows,
      ...(hasChalk ? { chalk: { at: chalkAt, size: 22, colour: [40, 110, 210] as RGB } } : {}),
    };
  };

  return { camera, fps: spec.fps, frameCount, strikeAt: lead, timeline, truth, scene, renderer, frame: (i) => renderer.render(scene(i)) };
}

/** mulberry32, the engine's seeded randomness: the same seed renders the same clip everywhere. */
export const seeded = seededRandom;

export { gauss };
