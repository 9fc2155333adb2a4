import type { BallId } from '../ids.ts';
import type { Instruction, Judgement, Outcome } from '../outcome.ts';
import type { SkittleLayout } from './geometry.ts';
import { setupInstructions } from './setup.ts';
import { felledInEvents, type SkittleTrace } from './trace.ts';
import { sevenSkittleValue } from './values.ts';
import { playsOn, unique, type SkittleCarry, type SkittleCtx } from './family.ts';

/**
 * One shot of the two seven-skittle games on a pocket table (SK7P, SK7C). Each player
 * writes off a starting total: legal points are awards (subtracted by the countdown),
 * penalties negative awards (added). Decision: overshooting zero counts as reaching zero,
 * so the award is capped at what is left.
 */
export interface SevenSpec {
  layout: Extract<SkittleLayout, 'pyramid-seven' | 'carom-seven'>;
  valueRule: 'SK7P-3' | 'SK7C-6';
  countdownRule: 'SK7P-2' | 'SK7C-4';
  /** Added on every foul besides the felled value (SK7C-7: 5; SK7P: only the fouls of SK7P-6/8). */
  foulPenalty: number;
  /** Rule cited with every foul (SK7P-5, SK7C-7). */
  foulRule: string;
  caromRule: string;
  pocketRule: string;
  /** The fouls the game names, first applicable wins (one foul per shot). */
  fouls(ctx: SkittleCtx, t: SkittleTrace): { name: string; rules: string[]; fixed: number } | null;
  /** Balls whose leaving the table passes the turn without a foul (SK7C-11). */
  harmlessOff(ctx: SkittleCtx, ball: BallId): boolean;
}

const FIVE = 5;

export function judgeSeven(spec: SevenSpec, ctx: SkittleCtx, t: SkittleTrace): Judgement<SkittleCarry> {
  if (t.unexplained.length > 0 && spec.fouls(ctx, t) === null) {
    const who = 'a white the sensors did not see set moving';
    return [
      { ...(judgeSeven(spec, ctx, { ...t, unexplained: [] }) as Outcome<SkittleCarry>), assumption: `${who} came to the skittles legally` },
      { ...(judgeSeven(spec, ctx, { ...t, unexplained: [], directFelled: true }) as Outcome<SkittleCarry>), assumption: `${who} was sent straight at them` },
    ];
  }
  const { shooter } = ctx;
  const value = sevenSkittleValue(t.felled, spec.valueRule);
  const carom = t.cueHit.length === 2;
  const objectsPocketed = t.pocketed.filter((b) => b !== ctx.cueBall);
  const made = value.points + (carom ? FIVE : 0) + FIVE * objectsPocketed.length;
  const instructions = setupInstructions({
    table: ctx.options.table,
    layout: spec.layout,
    cueBall: ctx.cueBall,
    felled: t.felled,
    gone: [...t.offTable, ...t.pocketed.filter((b) => !t.offTable.includes(b))],
    pocketed: t.pocketed,
    positions: ctx.shot.positions,
  });
  const finishing = ctx.options.finishWithSafety && ctx.carry.finishing[shooter] === true;
  const foul = spec.fouls(ctx, t);

  if (finishing) {
    // SK7C-8: the finishing safety: no skittle felled, a ball reaches a cushion, no foul.
    if (!foul && t.felled.length === 0 && t.anyCushion) {
      return { awards: [], foul: null, turnPasses: false, rules: ['SK7C-8'], carry: after(ctx, false, 0), instructions, ends: { winner: shooter, rule: 'SK7C-8' } };
    }
    const felledPenalty = value.allSeven ? ctx.options.targets[shooter]! : value.points;
    return penalty(spec, ctx, 'finishing-safety-failed', ['SK7C-8', ...(foul?.rules ?? [])], FIVE + felledPenalty, instructions);
  }

  if (foul) {
    // SK7P-3, SK7C-6: all seven on a foul add the starting total. Otherwise (RULES §11, fouls and other
    // points) every point the shot made — skittles, a carom, pocketed whites — is added, plus the foul's own.
    const felledPenalty = value.allSeven ? ctx.options.targets[shooter]! : made;
    const run = ctx.options.foulForfeitsRun ? ctx.carry.run : 0;
    const rules = [...foul.rules, spec.foulRule, ...(value.allSeven ? [spec.valueRule] : [])];
    return penalty(spec, ctx, foul.name, rules, (value.allSeven ? 0 : foul.fixed) + felledPenalty + run, instructions);
  }

  const remaining = Math.max(0, ctx.scores[shooter]!);
  const award = Math.min(made, remaining);
  const rules: string[] = [];
  if (t.felled.length > 0) rules.push(spec.layout === 'pyramid-seven' ? 'SK7P-4' : 'SK7C-5', spec.valueRule);
  if (carom) rules.push(spec.caromRule);
  if (objectsPocketed.length > 0) rules.push(spec.pocketRule);
  if (made > remaining) rules.push(spec.countdownRule);
  const awards = award > 0 ? [{ player: shooter, points: award }] : [];

  if (value.allSeven) {
    return { awards, foul: null, turnPasses: false, rules: rules.filter(unique), carry: after(ctx, false, award), instructions, ends: { winner: shooter, rule: spec.valueRule } };
  }
  const whiteOff = t.offTable.some((b) => spec.harmlessOff(ctx, b));
  if (whiteOff) rules.push(spec.layout === 'carom-seven' ? 'SK7C-11' : 'SK7P-9');
  const continues = made > 0 && !whiteOff && playsOn(ctx);
  if (!continues) rules.push(spec.layout === 'pyramid-seven' ? 'SK7P-10' : 'SK7C-10');
  const reachesZero = award > 0 && award === remaining;
  if (reachesZero && ctx.options.finishWithSafety) rules.push('SK7C-8');
  const carry = after(ctx, continues, award);
  return {
    awards,
    foul: null,
    turnPasses: !continues,
    rules: rules.filter(unique),
    carry: reachesZero && ctx.options.finishWithSafety ? { ...carry, finishing: set(carry.finishing, shooter, true) } : carry,
    instructions,
  };
}

function penalty(spec: SevenSpec, ctx: SkittleCtx, name: string, rules: string[], points: number, instructions: readonly Instruction[]): Outcome<SkittleCarry> {
  const offer: Instruction[] =
    spec.layout === 'pyramid-seven' ? [{ item: 'turn', to: 'the opponent may require the offender to play on from the position', rule: 'SK7P-10' }] : [];
  return {
    awards: points > 0 ? [{ player: ctx.shooter, points: -points }] : [],
    foul: name,
    turnPasses: true,
    rules: rules.filter(unique),
    carry: { ...after(ctx, false, 0), finishing: points > 0 ? set(ctx.carry.finishing, ctx.shooter, false) : ctx.carry.finishing },
    instructions: [...instructions, ...offer],
  };
}

function after(ctx: SkittleCtx, continues: boolean, points: number): SkittleCarry {
  return { ...ctx.carry, opening: false, run: continues ? ctx.carry.run + points : 0 };
}

function set(flags: readonly boolean[], i: number, v: boolean): boolean[] {
  const copy = [...flags];
  copy[i] = v;
  return copy;
}

/** The referee rules a foul the sensors did not show: the felled value (and the game's foul penalty) is added. */
export function sevenRefereeFoul(spec: SevenSpec, ctx: SkittleCtx): Outcome<SkittleCarry> {
  const value = sevenSkittleValue(felledInEvents(ctx.shot.events), spec.valueRule);
  const felled = value.allSeven ? ctx.options.targets[ctx.shooter]! : value.points;
  const fixed = value.allSeven ? 0 : spec.foulPenalty;
  const finishing = ctx.options.finishWithSafety && ctx.carry.finishing[ctx.shooter] === true;
  const points = finishing ? FIVE + felled : fixed + felled + (ctx.options.foulForfeitsRun ? ctx.carry.run : 0);
  return penalty(spec, ctx, 'referee', finishing ? ['SK7C-8', spec.foulRule] : [spec.foulRule], points, []);
}
