import type { Shot, ShotEvent } from '../../../hub/rules/events.ts';
import type { Instruction } from '../../../hub/rules/outcome.ts';
import { seededRandom } from '../../../hub/rules/random.ts';
import type { PlanContext, PlannedShot } from '../planner.ts';
import type { Ball } from './ball.ts';
import { simulate, type SimEvent, type SimResult } from './engine.ts';
import { amplitudeOf, shotSensorRandom } from './sensors.ts';
import { ballsOf, nextLayout, type Layout } from './layout.ts';
import { tableFor, type TableGeometry } from './table.ts';
import { angleOf, dist, fromAngle, sub, type Vec } from './vec.ts';

/**
 * A physics shot planner that plays real matches: it keeps the balls where they came to
 * rest, and for each shot simulates a small number of candidate strokes (direction, speed,
 * top/back spin, side spin) aimed for the game's scoring shot, keeps the best, and then
 * plays it with a seeded execution error. The result is the ground truth of a shot in the
 * scripted planner's shape (with the sensors' amplitudes, physics/sensors.ts), plus the impact speeds.
 */
export interface PhysicsPlannedShot extends PlannedShot {
  /** Per event of `shot.events`: the impact speed in mm/s (cushion, ball, skittle), for the sensor amplitude. */
  speeds: (number | null)[];
}

export interface PhysicsPlanContext extends PlanContext {
  /** The hub's instructions after the previous shot (balls and skittles to place). */
  instructions?: readonly Instruction[];
}

/** Candidate strokes simulated per shot, at most. */
export const SEARCH_BUDGET = 100;

export interface Stroke {
  angle: number;
  speed: number;
  /** Cue tip offset, −1…1 of the usable range: + top spin, − draw. */
  follow: number;
  /** + left English (counter-clockwise side spin). */
  english: number;
}

/** The cue ball as the stroke leaves it: speed, in-plane spin (roll) and side spin. */
export function strike(id: string, at: Vec, s: Stroke): Ball {
  const dir = fromAngle(s.angle);
  return { id, p: at, v: [dir[0] * s.speed, dir[1] * s.speed], roll: [dir[0] * s.speed * 1.25 * s.follow, dir[1] * s.speed * 1.25 * s.follow], side: s.speed * 1.0 * s.english };
}

export class PhysicsTable {
  readonly table: TableGeometry;
  layout: Layout | null = null;

  constructor(readonly variant: string) {
    this.table = tableFor(variant);
  }

  /** Forget the balls' places: the next shot is a break. */
  reset(): void {
    this.layout = null;
  }

  plan(ctx: PhysicsPlanContext): PhysicsPlannedShot {
    const random = ctx.random;
    const layout = nextLayout(this.variant, this.table, ctx.isBreak ? null : this.layout, ctx.cueBall, ctx.instructions ?? [], random);
    // Skittles stand again: where an instruction puts them (SK5-16, SK7P-12, SK7C-9), else on their
    // spots — unless a ball lies there.
    const placed = new Map((ctx.instructions ?? []).filter((i) => i.item.startsWith('skittle:') && i.at).map((i) => [i.item.slice('skittle:'.length), i.at!] as const));
    const skittles = this.table.skittles
      .map((s) => (placed.has(s.id) ? { ...s, at: [placed.get(s.id)![0], placed.get(s.id)![1]] as Vec } : s))
      .filter((s) => Object.values(layout).every((p) => dist(p, s.at) >= this.table.ballRadius + s.radius + 0.5));
    const table = { ...this.table, skittles };
    const search = seededRandom(Math.floor(random() * 2 ** 32));
    const goal = goalFor(ctx);
    let best: { stroke: Stroke; score: number } | null = null;
    for (let k = 0; k < SEARCH_BUDGET; k++) {
      const stroke = candidate(ctx, layout, table, search);
      const run = simulate(table, ballsAt(layout, ctx.cueBall, stroke), { random: search, maxTime: 6, maxEvents: 40, stopWhen: goal.decided });
      const score = goal.score(run) + search() * 0.01;
      if (!best || score > best.score) best = { stroke, score };
      if (score >= goal.success) break;
    }
    // Execution error: a little off in direction, speed and spin.
    const s = best!.stroke;
    const played: Stroke = {
      angle: s.angle + gauss(random) * (0.35 * Math.PI) / 180,
      speed: s.speed * (1 + gauss(random) * 0.04),
      follow: clamp(s.follow + gauss(random) * 0.08, -1, 1),
      english: clamp(s.english + gauss(random) * 0.08, -1, 1),
    };
    const run = simulate(table, ballsAt(layout, ctx.cueBall, played), { random });
    this.layout = Object.fromEntries(run.balls.filter((b) => !b.gone).map((b) => [b.id, b.p]));
    return toPlanned(run);
  }
}

export function toPlanned(run: SimResult): PhysicsPlannedShot {
  const ms = (t: number) => Math.max(1, Math.round(t * 1000));
  const events: ShotEvent[] = [];
  const speeds: (number | null)[] = [];
  const sensor = shotSensorRandom(run.events);
  for (const e of run.events) {
    if (e.kind === 'ball') events.push({ kind: 'ball', balls: [e.balls[0], e.balls[1]], t: ms(e.t), amplitude: amplitudeOf(e.speed, sensor) });
    else if (e.kind === 'cushion') events.push({ kind: 'cushion', rail: e.rail, ball: e.ball, t: ms(e.t), amplitude: amplitudeOf(e.speed, sensor) });
    else if (e.kind === 'skittle') events.push({ kind: 'skittle', skittle: e.skittle as 'king', by: e.by, t: ms(e.t) });
    else events.push({ kind: e.kind, ball: e.ball, t: ms(e.t) });
    speeds.push('speed' in e ? Math.round(Math.abs(e.speed)) : null);
  }
  const positions = Object.fromEntries(run.balls.filter((b) => !b.gone).map((b) => [b.id, [Math.round(b.p[0] * 10) / 10, Math.round(b.p[1] * 10) / 10] as [number, number]]));
  const shot: Shot = { events, positions };
  return { shot, durationMs: Math.round(run.duration * 1000) + 300, speeds };
}

function ballsAt(layout: Layout, cueBall: string, stroke: Stroke): Ball[] {
  return Object.entries(layout).map(([id, p]) => (id === cueBall ? strike(id, p, stroke) : { id, p, v: [0, 0], roll: [0, 0], side: 0 }));
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

function gauss(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A candidate stroke: mostly aimed at an object ball with a random cut, sometimes anywhere (rail-first shots). */
function candidate(ctx: PlanContext, layout: Layout, table: TableGeometry, r: () => number): Stroke {
  const cue = layout[ctx.cueBall]!;
  const skittleGame = ctx.variant.startsWith('skittles');
  const objects = ballsOf(ctx.variant).filter((b) => b !== ctx.cueBall && layout[b]);
  const target = ctx.isBreak && !skittleGame ? 'red' : objects[Math.floor(r() * objects.length)]!;
  const threeCushion = ctx.variant === 'three-cushion';
  const railFirst = !ctx.isBreak && r() < (threeCushion ? 0.35 : skittleGame ? 0.25 : 0.1);
  let angle: number;
  if (railFirst || !layout[target]) angle = r() * 2 * Math.PI;
  else {
    const to = sub(layout[target]!, cue);
    const d = Math.hypot(to[0], to[1]);
    const cut = (r() * 2 - 1) * 0.95; // fraction of the full ball-to-ball offset
    angle = angleOf(to) + Math.asin(clamp((cut * 2 * table.ballRadius) / d, -1, 1));
  }
  const [lo, hi] = threeCushion ? [1800, 4600] : skittleGame ? [1200, 3800] : ctx.variant === 'artistic' ? [900, 3600] : [700, 3200];
  return { angle, speed: lo + r() * (hi - lo), follow: r() * 1.6 - 0.8, english: r() * 1.2 - 0.6 };
}

interface Goal {
  score(run: SimResult): number;
  success: number;
  decided(events: readonly SimEvent[]): boolean;
}

function goalFor(ctx: PlanContext): Goal {
  const cue = ctx.cueBall;
  const objects = ballsOf(ctx.variant).filter((b) => b !== cue);
  if (ctx.variant.startsWith('skittles')) return skittleGoal(cue);
  if (ctx.variant === 'artistic' && ctx.figure) return figureGoal(cue, ctx.figure);
  const cushionsNeeded = ctx.variant === 'three-cushion' ? 3 : ctx.variant === 'one-cushion' ? 1 : 0;
  const bothHit = (events: readonly SimEvent[]) => {
    const hit = new Set<string>();
    for (const e of events) if (e.kind === 'ball' && e.balls.includes(cue)) hit.add(e.balls[0] === cue ? e.balls[1] : e.balls[0]);
    return objects.every((o) => hit.has(o));
  };
  return {
    success: 3,
    decided: (events) => bothHit(events) || events.some((e) => e.kind === 'off-table'),
    score(run) {
      let first: string | null = null;
      let cushions = 0;
      for (const e of run.events) {
        if (e.kind === 'off-table') return -1;
        if (e.kind === 'cushion' && e.ball === cue) cushions += 1;
        if (e.kind !== 'ball' || !e.balls.includes(cue)) continue;
        const other = e.balls[0] === cue ? e.balls[1] : e.balls[0];
        if (ctx.isBreak && first === null && other !== 'red') return 0;
        if (first === null) first = other;
        else if (other !== first) return cushions >= cushionsNeeded ? 3 : 1.5 + cushions / 10;
      }
      return first === null ? 0 : 1 + Math.min(cushions, cushionsNeeded) / 10;
    },
  };
}

function figureGoal(cue: string, figure: readonly string[]): Goal {
  const tokens = (events: readonly SimEvent[]) =>
    events.flatMap((e) => {
      if (e.kind === 'cushion' && e.ball === cue) return [`cushion:${e.rail}`];
      if (e.kind === 'ball' && e.balls.includes(cue)) return [e.balls.includes('red') ? 'red' : 'other'];
      return [];
    });
  const matches = (token: string, want: string) => token === want || (want === 'cushion' && token.startsWith('cushion:'));
  return {
    success: figure.length,
    decided: (events) => tokens(events).length >= figure.length + 2,
    score(run) {
      const seen = tokens(run.events);
      let n = 0;
      while (n < figure.length && n < seen.length && matches(seen[n]!, figure[n]!)) n++;
      return n;
    },
  };
}

/** Skittle games: a white, after a cushion, fells skittles; the cue ball must fell none. */
function skittleGoal(cue: string): Goal {
  return {
    success: 3,
    decided: () => false,
    score(run) {
      const railed = new Set<string>();
      let hitWhite = false;
      let score = 0;
      for (const e of run.events) {
        if (e.kind === 'off-table' || (e.kind === 'pocket' && e.ball === cue)) return -1;
        if (e.kind === 'cushion') railed.add(e.ball);
        if (e.kind === 'ball' && e.balls.includes(cue)) hitWhite = true;
        if (e.kind === 'skittle') {
          if (e.by === cue) return -1;
          score += railed.has(e.by) ? 1 : -0.5;
        }
      }
      return (hitWhite ? 1 : 0) + (score > 0 ? 2 + score / 10 : score);
    },
  };
}
