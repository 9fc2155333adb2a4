import { bothObjectBalls, caromGame, GENERAL_SPEC } from '../carom/game.ts';

/** The basic game (G-14): one point for each carom, first to the target. */
export const carom = caromGame({ id: 'carom', spec: { ...GENERAL_SPEC, scoring: bothObjectBalls('G-14') } });
