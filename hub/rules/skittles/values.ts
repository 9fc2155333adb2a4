import type { SkittleId } from '../ids.ts';

/**
 * What one shot's fallen skittles are worth (SK5-6, SK7P-3, SK7C-6). Skittles are stood up
 * again after every shot, so "the four small ones stayed standing" means none of them fell
 * on this shot.
 */
export const CENTRAL_SMALL = ['head', 'foot', 'left', 'right'] as const satisfies readonly SkittleId[];
export const SPOT_SKITTLES = ['spot1', 'spot3'] as const satisfies readonly SkittleId[];
export const FIVE_SKITTLES = ['king', ...CENTRAL_SMALL] as const satisfies readonly SkittleId[];
export const SEVEN_SKITTLES = [...FIVE_SKITTLES, ...SPOT_SKITTLES] as const satisfies readonly SkittleId[];

export interface SkittleValue {
  points: number;
  /** All seven skittles fell (SK7P-3, SK7C-6): a win on a legal shot. */
  allSeven: boolean;
  rule: string;
}

function count(felled: readonly SkittleId[]): { king: boolean; small: number; spots: number } {
  const set = new Set(felled);
  return {
    king: set.has('king'),
    small: CENTRAL_SMALL.filter((s) => set.has(s)).length,
    spots: SPOT_SKITTLES.filter((s) => set.has(s)).length,
  };
}

/** SK5-6: small 2 each; king alone or with one small 5; with two 7; with three 9; all five 30. */
export function fiveSkittleValue(felled: readonly SkittleId[]): SkittleValue {
  const { king, small } = count(felled);
  let points: number;
  if (!king) points = 2 * small;
  else points = [5, 5, 7, 9, 30][small]!;
  return { points, allSeven: false, rule: 'SK5-6' };
}

/**
 * SK7P-3 and SK7C-6: small 5 each; the king 25 when a small one fell with it, 50 when it
 * fell without any small one; all five central 100 in place of the per-skittle values;
 * spot skittles 30 each. Decision: the king's value depends on the four small skittles
 * only ("без окружающих его кеглей"), so king + a spot skittle is 50 + 30.
 */
export function sevenSkittleValue(felled: readonly SkittleId[], rule: 'SK7P-3' | 'SK7C-6'): SkittleValue {
  const { king, small, spots } = count(felled);
  const central = king && small === 4 ? 100 : king ? (small > 0 ? 25 : 50) + 5 * small : 5 * small;
  return { points: central + 30 * spots, allSeven: king && small === 4 && spots === 2, rule };
}
