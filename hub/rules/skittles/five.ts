import type { FoulKind } from '../ids.ts';
import type { Instruction, Judgement, Outcome } from '../outcome.ts';
import { setupInstructions } from './setup.ts';
import { felledInEvents, type SkittleTrace } from './trace.ts';
import { fiveSkittleValue } from './values.ts';
import { playsOn, unique, type SkittleCarry, type SkittleCtx } from './family.ts';

/**
 * One shot of five skittles on a carom table (SK5-1 … SK5-17). Points count up; a foul
 * credits everything the shot made to the opponent (SK5-8); reaching the agreed total ends
 * the game whoever made the points, except by a carom alone (SK5-14).
 */

/** SK5-8 … SK5-11: a foul the referee enters, with the extra points it costs and its rule. */
const REFEREE_FOUL: Record<FoulKind, { extra: number; rule: string }> = {
  touch: { extra: 0, rule: 'SK5-11' },
  'double-hit': { extra: 0, rule: 'SK5-8' },
  push: { extra: 0, rule: 'SK5-8' },
  'no-foot': { extra: 0, rule: 'SK5-8' },
  'moving-balls': { extra: 0, rule: 'SK5-8' },
  'wrong-ball': { extra: 0, rule: 'SK5-8' },
  'side-of-cue': { extra: 2, rule: 'SK5-9' },
  'stopped-ball': { extra: 30, rule: 'SK5-10' },
  'deflected-cue-ball': { extra: 30, rule: 'SK5-10' },
};

interface ShotFoul {
  name: string;
  rules: string[];
  extra: number;
}

function shooterFoul(ctx: SkittleCtx, t: SkittleTrace): ShotFoul | null {
  const referee = ctx.refereeFouls[0];
  if (referee) return { name: referee, rules: [REFEREE_FOUL[referee].rule], extra: REFEREE_FOUL[referee].extra };
  if (t.offTable.includes(ctx.cueBall)) return { name: 'cue-ball-off-table', rules: ['SK5-8', 'SK5-13'], extra: 0 };
  if (t.cueFelled) return { name: 'illegal-knock-down', rules: ['SK5-4'], extra: 0 };
  if (t.cueHit.length === 0) return { name: 'miss', rules: ['SK5-8'], extra: 0 };
  if (t.undeterminedFeller) return { name: 'undetermined-feller', rules: ['SK5-5'], extra: 0 };
  if (t.directFelled) return { name: 'direct-knock-down', rules: ['SK5-4'], extra: 0 };
  return null;
}

export function judgeFive(ctx: SkittleCtx, t: SkittleTrace): Judgement<SkittleCarry> {
  // A white no event shows moving felled a skittle: the events are incomplete, the referee says how it moved.
  if (t.unexplained.length > 0 && shooterFoul(ctx, t) === null) {
    const balls = 'a white the sensors did not see set moving';
    return [
      { ...(judgeFive(ctx, { ...t, unexplained: [] }) as Outcome<SkittleCarry>), assumption: `${balls} came to the skittles legally (SK5-3)` },
      { ...(judgeFive(ctx, { ...t, unexplained: [], directFelled: true }) as Outcome<SkittleCarry>), assumption: `${balls} was sent straight at them (SK5-4)` },
    ];
  }
  const value = fiveSkittleValue(t.felled);
  const carom = t.cueHit.length === 2;
  const made = t.felled.length > 0 ? value.points : carom ? 3 : 0;
  const instructions = setupInstructions({
    table: ctx.options.table,
    layout: 'carom-five',
    cueBall: ctx.cueBall,
    felled: t.felled,
    gone: t.offTable,
    positions: ctx.shot.positions,
  });
  const carry = (continues: boolean, points: number): SkittleCarry => ({ ...ctx.carry, opening: false, run: continues ? ctx.carry.run + points : 0 });

  const foul = shooterFoul(ctx, t);
  if (foul) return foulOutcome(ctx, foul, made, instructions);

  const opponent = ctx.opponentFouls[0];
  // SK5-10 (RULES §11): `stopped-ball` names the ball it stopped, a white when it names none.
  const stopped = ctx.shot.events.find((e) => e.kind === 'foul' && e.by === 'opponent' && e.foul === 'stopped-ball');
  const cueStopped = opponent === 'deflected-cue-ball' || (stopped?.kind === 'foul' && stopped.ball === ctx.cueBall);
  if (opponent === 'stopped-ball' && !cueStopped) {
    // SK5-10: the opponent stopped a rolling white: 30 to the shooter, balls stay, the shooter goes on.
    const points = 30 + (t.felled.length > 0 ? value.points : 0);
    return withEnd(ctx, { awards: [{ player: ctx.shooter, points }], foul: null, turnPasses: false, rules: ['SK5-10'], carry: carry(true, points), instructions });
  }

  const whiteOff = t.offTable.some((b) => b !== ctx.cueBall);
  const extraRules = whiteOff ? ['SK5-13'] : [];
  const held: Instruction[] =
    cueStopped ? [{ item: ctx.cueBall, to: 'the shooter may place it anywhere on the table', rule: 'SK5-10' }] : [];
  if (t.felled.length > 0) {
    const continues = playsOn(ctx) && !whiteOff;
    const rules = ['SK5-3', value.rule, ...extraRules, ...(held.length ? ['SK5-10'] : []), ...(playsOn(ctx) ? [] : ['SK5-15'])];
    return withEnd(ctx, {
      awards: [{ player: ctx.shooter, points: value.points }],
      foul: null,
      turnPasses: !continues,
      rules: rules.filter(unique),
      carry: carry(continues, value.points),
      instructions: [...instructions, ...held],
    });
  }
  if (carom) {
    // SK5-7: a carom with no skittle down scores 3 and the turn passes; alone it never ends the game.
    return { awards: [{ player: ctx.shooter, points: 3 }], foul: null, turnPasses: true, rules: ['SK5-7', ...extraRules], carry: carry(false, 3), instructions: [...instructions, ...held] };
  }
  return withEnd(ctx, { awards: [], foul: null, turnPasses: true, rules: ['SK5-15', ...extraRules], carry: carry(false, 0), instructions: [...instructions, ...held] });
}

/** SK5-8: every point the shot made goes to the opponent; Decision: nothing made credits `foulPenalty` (0). */
function foulOutcome(ctx: SkittleCtx, foul: ShotFoul, made: number, instructions: readonly Instruction[]): Outcome<SkittleCarry> {
  const credited = made + foul.extra > 0 ? made + foul.extra : ctx.options.foulPenalty;
  const restore: Instruction[] = foul.name === 'touch' ? [{ item: 'position', to: 'restore the balls and skittles as they lay before the touch', rule: 'SK5-11' }] : [];
  return withEnd(ctx, {
    awards: credited > 0 ? [{ player: ctx.opponent, points: credited }] : [],
    foul: foul.name,
    turnPasses: true,
    rules: [...foul.rules, 'SK5-8'].filter(unique),
    carry: { ...ctx.carry, opening: false, run: 0 },
    instructions: restore.length ? restore : instructions,
  });
}

/**
 * SK5-14 (RULES §11): the game ends after the first shot at whose end a player holds at least
 * the total, scored or received as penalties — unless that shot scored by a carom alone (SK5-7,
 * whose outcome does not come here). The higher total wins; equal totals draw.
 */
function withEnd(ctx: SkittleCtx, outcome: Outcome<SkittleCarry>): Outcome<SkittleCarry> {
  const totals = ctx.scores.map((s, i) => s + outcome.awards.filter((a) => a.player === i).reduce((sum, a) => sum + a.points, 0));
  if (!totals.some((t, i) => t >= ctx.options.targets[i]!)) return outcome;
  const best = Math.max(...totals);
  const leaders = totals.flatMap((t, i) => (t === best ? [i] : []));
  return { ...outcome, ends: { winner: leaders.length === 1 ? leaders[0]! : null, rule: 'SK5-14' }, rules: [...outcome.rules, 'SK5-14'] };
}

/**
 * SK5-5 (RULES §11): when the sensors could not name the ball that felled a skittle and the
 * referee is asked, "could not tell" is one of the answers, and it is a foul as the seed says.
 */
export function fivePromptExtras(ctx: SkittleCtx): Outcome<SkittleCarry>[] {
  if (ctx.options.undeterminedFellerIsFoul) return [];
  if (!ctx.shot.events.some((e) => e.kind === 'skittle' && e.by === null)) return [];
  const felled = felledInEvents(ctx.shot.events);
  const outcome = foulOutcome(ctx, { name: 'undetermined-feller', rules: ['SK5-5'], extra: 0 }, fiveSkittleValue(felled).points, []);
  return [{ ...outcome, assumption: 'the referee could not tell which ball felled a skittle (SK5-5)' }];
}

/** The referee rules a foul the sensors did not show: the skittles that fell go to the opponent (SK5-8). */
export function fiveRefereeFoul(ctx: SkittleCtx): Outcome<SkittleCarry> {
  const felled = felledInEvents(ctx.shot.events);
  return foulOutcome(ctx, { name: 'referee', rules: ['SK5-8'], extra: 0 }, felled.length > 0 ? fiveSkittleValue(felled).points : 0, []);
}
