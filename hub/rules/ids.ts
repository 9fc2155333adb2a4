/** Identifiers shared by the whole engine: balls, rails, skittles, fouls (RULES §0); game ids are in catalogue.ts. */

export const RAILS = ['head', 'foot', 'left', 'right'] as const;
export type Rail = (typeof RAILS)[number];

export const CAROM_BALLS = ['white', 'yellow', 'red'] as const;
export const SKITTLE_BALLS = ['cue', 'one', 'two'] as const;
export type CaromBall = (typeof CAROM_BALLS)[number];
export type SkittleBall = (typeof SKITTLE_BALLS)[number];
export type BallId = CaromBall | SkittleBall;

export const SKITTLES = ['king', 'head', 'foot', 'left', 'right', 'spot1', 'spot3'] as const;
export type SkittleId = (typeof SKITTLES)[number];

export const FOUL_KINDS = [
  'touch',
  'double-hit',
  'push',
  'no-foot',
  'moving-balls',
  'wrong-ball',
  'side-of-cue',
  'stopped-ball',
  'deflected-cue-ball',
] as const;
export type FoulKind = (typeof FOUL_KINDS)[number];

export function isRail(value: unknown): value is Rail {
  return typeof value === 'string' && (RAILS as readonly string[]).includes(value);
}
