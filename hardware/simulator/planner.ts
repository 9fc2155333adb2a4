import type { Shot, ShotEvent } from '../../hub/rules/events.ts';
import { RAILS, type Rail } from '../../hub/rules/ids.ts';

/**
 * A scripted shot planner: plausible event sequences with their ground truth, drawn from a
 * seeded random source. It knows no rules — the hub's engine judges what it plays — only
 * what can happen: a ball at rest moves only once something hits it. The simulated table
 * and the accuracy measure now use the physics planner (physics/planner.ts); this one stays
 * for comparison (`planScriptedShot`).
 */
export interface PlannedShot {
  shot: Shot;
  /** Length of the shot in ms, until every ball is at rest. */
  durationMs: number;
}

export interface PlanContext {
  variant: string;
  cueBall: string;
  isBreak: boolean;
  /** Artistic: the figure's sequence the player attempts. */
  figure?: readonly string[];
  random: () => number;
  table: { length: number; width: number };
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

/** The scripted planner, kept for comparison with the physics planner (physics/planner.ts). */
export function planScriptedShot(ctx: PlanContext): PlannedShot {
  if (ctx.variant.startsWith('skittles')) return skittleShot(ctx);
  if (ctx.variant === 'artistic' && ctx.figure) return figureShot(ctx, ctx.figure);
  return caromShot(ctx);
}

function positions(ctx: PlanContext, balls: readonly string[]): Record<string, [number, number]> {
  const r = ctx.random;
  return Object.fromEntries(balls.map((b) => [b, [Math.round(40 + r() * (ctx.table.length - 80)), Math.round(40 + r() * (ctx.table.width - 80))] as [number, number]]));
}

function caromShot(ctx: PlanContext): PlannedShot {
  const { random: r, cueBall: cue } = ctx;
  const other = cue === 'white' ? 'yellow' : 'white';
  const events: ShotEvent[] = [];
  let t = 80 + r() * 80;
  const at = (gap: number) => Math.round((t += gap));
  const first = ctx.isBreak ? (r() < 0.95 ? 'red' : other) : r() < 0.5 ? 'red' : other;
  const second = first === 'red' ? other : 'red';
  for (let i = Math.floor(r() * r() * 4); i > 0; i--) events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: cue, t: at(250 + r() * 300) });
  events.push({ kind: 'ball', balls: [cue, first], t: at(150 + r() * 250) });
  const rails = Math.floor(r() * 5);
  let lastRail: Rail | null = null;
  for (let i = 0; i < rails; i++) {
    if (r() < 0.25) events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: first, t: at(60 + r() * 200) });
    let rail = pick(RAILS, r);
    if (rail === lastRail) rail = pick(RAILS, r);
    lastRail = rail;
    events.push({ kind: 'cushion', rail, ball: cue, t: at(250 + r() * 350) });
  }
  if (r() < 0.08) events.push({ kind: 'ball', balls: [first, second], t: at(100 + r() * 300) }); // a kiss
  if (r() < 0.55) events.push({ kind: 'ball', balls: [cue, second], t: at(200 + r() * 400) });
  if (r() < 0.01) events.push({ kind: 'off-table', ball: pick([cue, first], r), t: at(100) });
  const shot: Shot = { events, positions: positions(ctx, ['white', 'yellow', 'red']) };
  return { shot, durationMs: t + 900 + r() * 1200 };
}

function figureShot(ctx: PlanContext, figure: readonly string[]): PlannedShot {
  const { random: r, cueBall: cue } = ctx;
  const other = cue === 'white' ? 'yellow' : 'white';
  const success = r() < 0.5;
  const tokens = success ? [...figure] : figure.slice(0, Math.max(1, Math.floor(r() * figure.length)));
  let t = 100;
  const events: ShotEvent[] = tokens.map((token) => {
    t += 250 + Math.round(r() * 300); // ≥ 0.25 s: a ball crossing the table from rail to rail needs 0.23 s at the fastest (hub/rules/bounds.ts)
    if (token === 'red' || token === 'other') return { kind: 'ball', balls: [cue, token === 'red' ? 'red' : other], t };
    const rail = token === 'cushion' ? pick(RAILS, r) : (token.slice('cushion:'.length) as Rail);
    return { kind: 'cushion', rail, ball: cue, t };
  });
  if (!success) events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: cue, t: t + 250 });
  return { shot: { events }, durationMs: t + 1200 };
}

const CENTRAL = ['king', 'head', 'foot', 'left', 'right'] as const;

function skittleShot(ctx: PlanContext): PlannedShot {
  const { random: r } = ctx;
  const cue = 'cue';
  const pocketTable = ctx.variant !== 'skittles-5';
  const white = r() < 0.5 ? 'one' : 'two';
  const otherWhite = white === 'one' ? 'two' : 'one';
  const events: ShotEvent[] = [];
  let t = 100;
  const at = (gap: number) => Math.round((t += gap));
  if (r() < 0.1) {
    events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: cue, t: at(300) }); // a miss off the rails
    return { shot: { events }, durationMs: t + 1500 };
  }
  if (r() < 0.3) events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: cue, t: at(250) });
  events.push({ kind: 'ball', balls: [cue, white], t: at(200 + r() * 200) });
  if (r() < 0.6) events.push({ kind: 'cushion', rail: pick(RAILS, r), ball: white, t: at(200 + r() * 300) });
  const fells = Math.floor(r() * r() * 4);
  const pool = pocketTable ? [...CENTRAL, 'spot1', 'spot3'] : [...CENTRAL];
  const fallen = new Set<string>();
  for (let i = 0; i < fells; i++) {
    const skittle = pick(pool, r);
    if (fallen.has(skittle)) continue;
    fallen.add(skittle);
    events.push({ kind: 'skittle', skittle: skittle as 'king', by: r() < 0.9 ? white : cue, t: at(60 + r() * 150) });
  }
  if (r() < 0.15) events.push({ kind: 'ball', balls: [cue, otherWhite], t: at(250) });
  if (pocketTable && r() < 0.05) events.push({ kind: 'pocket', ball: white, t: at(200) });
  return { shot: { events, positions: positions(ctx, ['cue', 'one', 'two']) }, durationMs: t + 1000 + r() * 800 };
}
