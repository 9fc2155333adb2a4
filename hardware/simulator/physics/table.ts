import type { Rail } from '../../../hub/rules/ids.ts';
import { CAROM_TABLE, PYRAMID_TABLE, skittleSpots, type SkittleLayout, type SkittleTable } from '../../../hub/rules/skittles/geometry.ts';
import type { Vec } from './vec.ts';
import { gameEntry } from '../../../hub/rules/catalogue.ts';

/**
 * The playing surface as the physics sees it: a rectangle bounded by the cushion noses
 * (mm from the head-left corner, x toward the foot rail, y toward the right rail), balls
 * of one radius, skittles as small static circles, pockets as circles a ball's centre
 * must enter.
 */
export interface Skittle {
  id: string;
  at: Vec;
  radius: number;
}

export interface Pocket {
  at: Vec;
  radius: number;
}

export interface TableGeometry {
  length: number;
  width: number;
  ballRadius: number;
  skittles: readonly Skittle[];
  pockets: readonly Pocket[];
  /** Coefficients of restitution. */
  ballRestitution: number;
  cushionRestitution: number;
}

export const CAROM_SIZE = { length: 2840, width: 1420, ball: 61.5 } as const;
export const PYRAMID_SIZE = { length: 3550, width: 1775, ball: 68 } as const;

export function caromTable(skittles: readonly Skittle[] = []): TableGeometry {
  return { length: CAROM_SIZE.length, width: CAROM_SIZE.width, ballRadius: CAROM_SIZE.ball / 2, skittles, pockets: [], ballRestitution: 0.95, cushionRestitution: 0.8 };
}

/** Six pockets: four corners and the middle of the long rails. A ball's centre entering the circle drops. */
export function pyramidPockets(length = PYRAMID_SIZE.length, width = PYRAMID_SIZE.width, ball = PYRAMID_SIZE.ball): Pocket[] {
  const corner = ball * 1.05;
  const middle = ball * 0.8;
  return [
    { at: [0, 0], radius: corner },
    { at: [length, 0], radius: corner },
    { at: [0, width], radius: corner },
    { at: [length, width], radius: corner },
    { at: [length / 2, 0], radius: middle },
    { at: [length / 2, width], radius: middle },
  ];
}

export function pyramidTable(skittles: readonly Skittle[] = []): TableGeometry {
  return { length: PYRAMID_SIZE.length, width: PYRAMID_SIZE.width, ballRadius: PYRAMID_SIZE.ball / 2, skittles, pockets: pyramidPockets(), ballRestitution: 0.95, cushionRestitution: 0.8 };
}

/** The game's skittle set-up (the catalogue's), or null for a game without skittles. */
export function skittleLayoutOf(variant: string): SkittleLayout | null {
  return gameEntry(variant)?.layout ?? null;
}

/** Five skittles stand on a carom table (SK5-1); the seven-skittle games need a pocket table (SK7P-1, SK7C-1). */
export function skittleTableOf(variant: string): SkittleTable {
  return skittleLayoutOf(variant) === 'carom-five' ? CAROM_TABLE : PYRAMID_TABLE;
}

/** The table a game is played on, with every skittle of the game standing on its spot. */
export function tableFor(variant: string): TableGeometry {
  const layout = skittleLayoutOf(variant);
  if (!layout) return caromTable();
  const st = skittleTableOf(variant);
  const skittles = Object.entries(skittleSpots(st, layout)).map(([id, at]) => ({ id, at: [at[0], at[1]] as Vec, radius: st.skittleBase / 2 }));
  return layout === 'carom-five' ? caromTable(skittles) : pyramidTable(skittles);
}

/** Inward normal of each rail. */
export const RAIL_NORMAL: Record<Rail, Vec> = { head: [1, 0], foot: [-1, 0], left: [0, 1], right: [0, -1] };
