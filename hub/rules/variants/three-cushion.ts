import { caromGame, cushionsFirst, GENERAL_SPEC } from '../carom/game.ts';

/** Three-cushion (TC-1 … TC-6): three cue-ball cushions before the second object ball. */
export const threeCushion = caromGame({
  id: 'three-cushion',
  spec: {
    ...GENERAL_SPEC,
    scoring: cushionsFirst(3, 'TC-1'),
    missRule: 'TC-2',
    anyBallOffIsFoul: true,
    frozenObjectSafety: true,
    breakRule: 'TC-3',
    penaltyRule: 'TC-6',
  },
  cushionCap: 3,
});
