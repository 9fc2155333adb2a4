import type { Instruction } from '../../../hub/rules/outcome.ts';
import type { Positions } from '../../../hub/rules/events.ts';
import type { Ball } from '../physics/ball.ts';
import { simulate } from '../physics/engine.ts';
import { nextLayout, ballsOf, type Layout } from '../physics/layout.ts';
import { strike, type Stroke } from '../physics/planner.ts';
import { tableFor, type TableGeometry } from '../physics/table.ts';

/**
 * Shots for the video tests: the balls where the match left them, a stroke chosen from a
 * few seeded candidates aimed at an object ball (the one whose simulation gives the most
 * contacts of the cue ball), played with a little execution error. Unlike the accuracy
 * planner it hands back the starting balls, so the renderer can replay the shot in time.
 */
export interface VideoShot {
  table: TableGeometry;
  start: Ball[];
  cueBall: string;
  variant: string;
}

export class VideoShotPlanner {
  readonly table: TableGeometry;
  private layout: Layout | null = null;

  constructor(readonly variant: string) {
    this.table = tableFor(variant);
  }

  plan(cueBall: string, isBreak: boolean, instructions: readonly Instruction[], random: () => number): VideoShot {
    const layout = nextLayout(this.variant, this.table, isBreak ? null : (this.layout as Positions | null), cueBall, instructions, random);
    const table = { ...this.table, skittles: this.table.skittles.filter((s) => Object.values(layout).every((p) => Math.hypot(p[0] - s.at[0], p[1] - s.at[1]) >= this.table.ballRadius + s.radius + 0.5)) };
    let best: { stroke: Stroke; score: number } | null = null;
    for (let k = 0; k < 12; k++) {
      const stroke = candidate(this.variant, cueBall, layout, table, random);
      const run = simulate(table, ballsAt(layout, cueBall, stroke), { random, maxTime: 5, maxEvents: 30 });
      const hit = new Set<string>();
      for (const e of run.events) if (e.kind === 'ball' && e.balls.includes(cueBall)) hit.add(e.balls[0] === cueBall ? e.balls[1] : e.balls[0]);
      const score = hit.size + (run.events.some((e) => e.kind === 'off-table' || e.kind === 'pocket') ? -2 : 0) + random() * 0.5;
      if (!best || score > best.score) best = { stroke, score };
    }
    const s = best!.stroke;
    const played: Stroke = { ...s, angle: s.angle + gauss(random) * 0.006, speed: s.speed * (1 + gauss(random) * 0.04) };
    return { table, start: ballsAt(layout, cueBall, played), cueBall, variant: this.variant };
  }

  /** Where the balls came to rest (the next shot starts there). */
  rested(balls: readonly Ball[]): void {
    this.layout = Object.fromEntries(balls.filter((b) => !b.gone).map((b) => [b.id, [b.p[0], b.p[1]]]));
  }
}

function ballsAt(layout: Layout, cueBall: string, stroke: Stroke): Ball[] {
  return Object.entries(layout).map(([id, p]) => (id === cueBall ? strike(id, [p[0], p[1]], stroke) : { id, p: [p[0], p[1]], v: [0, 0], roll: [0, 0], side: 0 }));
}

function candidate(variant: string, cueBall: string, layout: Layout, table: TableGeometry, r: () => number): Stroke {
  const cue = layout[cueBall]!;
  const objects = ballsOf(variant).filter((b) => b !== cueBall && layout[b]);
  const target = objects[Math.floor(r() * objects.length)];
  let angle = r() * 2 * Math.PI;
  if (target && r() > 0.2) {
    const to = [layout[target]![0] - cue[0], layout[target]![1] - cue[1]];
    const d = Math.hypot(to[0]!, to[1]!);
    const cut = (r() * 2 - 1) * 0.9;
    angle = Math.atan2(to[1]!, to[0]!) + Math.asin(Math.max(-1, Math.min(1, (cut * 2 * table.ballRadius) / d)));
  }
  const [lo, hi] = variant === 'three-cushion' ? [1800, 4600] : variant.startsWith('skittles') ? [1200, 3800] : [700, 3200];
  return { angle, speed: lo + r() * (hi - lo), follow: r() * 1.6 - 0.8, english: r() * 1.2 - 0.6 };
}

function gauss(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
