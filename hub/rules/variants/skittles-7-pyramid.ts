import { skittleGame, type SkittleCtx } from '../skittles/family.ts';
import { PYRAMID_TABLE } from '../skittles/geometry.ts';
import { PYRAMID_POLICY } from '../skittles/legality.ts';
import { judgeSeven, sevenRefereeFoul, type SevenSpec } from '../skittles/seven.ts';
import type { SkittleTrace } from '../skittles/trace.ts';

/**
 * SK7P-5 … SK7P-9: the fouls of the pyramid game, in the order a referee names them. Only
 * the miss, the pocketed cue ball and the failed called carom cost 5 of their own; every
 * foul adds the value felled on the shot.
 */
function pyramidFouls(ctx: SkittleCtx, t: SkittleTrace): { name: string; rules: string[]; fixed: number } | null {
  const referee = ctx.refereeFouls[0];
  if (referee) return { name: referee, rules: ['SK7P-5'], fixed: 0 };
  if (t.offTable.length > 0) return { name: t.offTable.includes(ctx.cueBall) ? 'cue-ball-off-table' : 'ball-off-table', rules: ['SK7P-9'], fixed: 0 };
  if (t.pocketed.includes(ctx.cueBall)) return { name: 'cue-ball-pocketed', rules: ['SK7P-6'], fixed: 5 };
  if (t.cueHit.length === 0) return { name: 'miss', rules: ['SK7P-6'], fixed: 5 };
  if (t.cueFelled) return { name: 'illegal-knock-down', rules: ['SK7P-5'], fixed: 0 }; // one foul name for both knock-down fouls: same effect, no needless prompt
  if (t.directFelled) return { name: 'illegal-knock-down', rules: ['SK7P-4', 'SK7P-5'], fixed: 0 };
  if (ctx.shot.declare === 'carom' && t.cueHit.length < 2) return { name: 'called-carom-missed', rules: ['SK7P-8'], fixed: 5 };
  return null;
}

const SPEC: SevenSpec = {
  layout: 'pyramid-seven',
  valueRule: 'SK7P-3',
  countdownRule: 'SK7P-2',
  foulPenalty: 0,
  foulRule: 'SK7P-5',
  caromRule: 'SK7P-8',
  pocketRule: 'SK7P-7',
  fouls: pyramidFouls,
  harmlessOff: () => false,
};

/** Seven skittles on a pyramid table (SK7P-1 … SK7P-12): write off the starting total. */
export const skittles7Pyramid = skittleGame({
  id: 'skittles-7-pyramid',
  table: PYRAMID_TABLE,
  policy: () => PYRAMID_POLICY,
  defaults: { finishWithSafety: false },
  judge: (ctx, trace) => judgeSeven(SPEC, ctx, trace),
  refereeFoul: (ctx) => sevenRefereeFoul(SPEC, ctx),
  mayEnd: (_outcome, ctx) => !ctx.options.finishWithSafety,
  endRule: 'SK7P-2',
});

