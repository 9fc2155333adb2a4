import { z } from 'zod';
import { caromGame, cushionsFirst, GENERAL_SPEC } from '../carom/game.ts';

/**
 * One-cushion (OC-1, OC-2): a cushion before the second object ball; every error costs
 * the offender a point. Decision: by default a shot failing OC-1 is an error too
 * (`oneCushionMissIsError: false` makes it simply pass the turn).
 */
export const oneCushion = caromGame({
  id: 'one-cushion',
  spec: {
    ...GENERAL_SPEC,
    scoring: cushionsFirst(1, 'OC-1'),
    missRule: 'OC-2',
    foulDeduction: 1,
    missDeduction: (options) => ((options as { oneCushionMissIsError?: boolean }).oneCushionMissIsError === false ? 0 : 1),
    penaltyRule: 'OC-2',
  },
  extraOptions: { oneCushionMissIsError: z.boolean().optional() },
  cushionCap: 1,
});
