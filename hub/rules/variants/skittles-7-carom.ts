import { skittleGame, type SkittleCtx } from '../skittles/family.ts';
import { PYRAMID_TABLE } from '../skittles/geometry.ts';
import { SEVEN_CAROM_POLICY } from '../skittles/legality.ts';
import { judgeSeven, sevenRefereeFoul, type SevenSpec } from '../skittles/seven.ts';
import type { SkittleTrace } from '../skittles/trace.ts';

/**
 * SK7C-2, SK7C-5, SK7C-7: every foul adds 5 plus the value felled. Decisions: the cue ball
 * pocketed or off the table is a foul, 5 plus that shot's felled value; a shot touching
 * neither white outside the break is a foul (RULES §11; `missIsFoul: false` turns it off).
 */
function caromSevenFouls(ctx: SkittleCtx, t: SkittleTrace): { name: string; rules: string[]; fixed: number } | null {
  const referee = ctx.refereeFouls[0];
  if (referee) return { name: referee, rules: ['SK7C-7'], fixed: 5 };
  if (ctx.isBreak && t.cueFirst !== 'one') return { name: 'illegal-break', rules: ['SK7C-2'], fixed: 5 };
  if (t.offTable.includes(ctx.cueBall)) return { name: 'cue-ball-off-table', rules: ['SK7C-7'], fixed: 5 };
  if (t.pocketed.includes(ctx.cueBall)) return { name: 'cue-ball-pocketed', rules: ['SK7C-7'], fixed: 5 };
  if (ctx.options.missIsFoul && t.cueHit.length === 0) return { name: 'miss', rules: ['SK7C-7'], fixed: 5 };
  if (t.cueFelled) return { name: 'illegal-knock-down', rules: ['SK7C-5'], fixed: 5 };
  if (t.directFelled) return { name: 'illegal-knock-down', rules: ['SK7C-5'], fixed: 5 };
  if (ctx.shot.declare === 'carom' && t.cueHit.length < 2) return { name: 'called-carom-missed', rules: ['SK7P-8', 'SK7C-7'], fixed: 5 };
  return null;
}

const SPEC: SevenSpec = {
  layout: 'carom-seven',
  valueRule: 'SK7C-6',
  countdownRule: 'SK7C-4',
  foulPenalty: 5,
  foulRule: 'SK7C-7',
  caromRule: 'SK7C-7',
  pocketRule: 'SK7C-7',
  fouls: caromSevenFouls,
  harmlessOff: (ctx, ball) => ball !== ctx.cueBall,
};

/** Seven skittles, carom game on a pocket table (SK7C-1 … SK7C-11): the red `cue` ball, countdown, finishing safety. */
export const skittles7Carom = skittleGame({
  id: 'skittles-7-carom',
  table: PYRAMID_TABLE,
  policy: () => SEVEN_CAROM_POLICY,
  // RULES §11 (SK7C series): a miss outside the break is a foul, +5; `missIsFoul: false` restores the old reading.
  defaults: { finishWithSafety: true, missIsFoul: true },
  judge: (ctx, trace) => judgeSeven(SPEC, ctx, trace),
  refereeFoul: (ctx) => sevenRefereeFoul(SPEC, ctx),
  mayEnd: (_outcome, ctx) => !ctx.options.finishWithSafety,
  endRule: 'SK7C-4',
});
