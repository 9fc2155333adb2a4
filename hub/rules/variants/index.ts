import { isVariantId, type VariantId } from '../catalogue.ts';
import type { AnyVariant } from '../variant.ts';
import { artistic } from './artistic.ts';
import { balkline47x1, balkline47x2, balkline71x2, balkline74x2 } from './balkline.ts';
import { carom } from './carom.ts';
import { freeGame } from './free-game.ts';
import { oneCushion } from './one-cushion.ts';
import { skittles5 } from './skittles-5.ts';
import { skittles7Carom } from './skittles-7-carom.ts';
import { skittles7Pyramid } from './skittles-7-pyramid.ts';
import { threeCushion } from './three-cushion.ts';

/**
 * The engine's games, one for every entry of the catalogue (catalogue.ts), keyed by the
 * names the match log uses (CONTRACT §1.1). The type makes a missing game a compile error.
 */
export const VARIANTS: Readonly<Record<VariantId, AnyVariant>> = Object.freeze({
  carom,
  'one-cushion': oneCushion,
  'three-cushion': threeCushion,
  'free-game': freeGame,
  'balkline-47-1': balkline47x1,
  'balkline-47-2': balkline47x2,
  'balkline-71-2': balkline71x2,
  'balkline-74-2': balkline74x2,
  artistic,
  'skittles-5': skittles5,
  'skittles-7-pyramid': skittles7Pyramid,
  'skittles-7-carom': skittles7Carom,
});

export function variantById(id: string): AnyVariant | undefined {
  return isVariantId(id) ? VARIANTS[id] : undefined;
}
