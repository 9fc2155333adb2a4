import { skittleGame } from '../skittles/family.ts';
import { fivePromptExtras, fiveRefereeFoul, judgeFive } from '../skittles/five.ts';
import { CAROM_TABLE } from '../skittles/geometry.ts';
import { FIVE_SKITTLES_POLICY, FIVE_SKITTLES_STRICT_POLICY } from '../skittles/legality.ts';

/**
 * Five skittles on a carom table (SK5-1 … SK5-17): up to the agreed total, penalties
 * credited to the opponent. The judge ends the game itself when a shot brings a player to
 * the total (SK5-14), so the runner's own end-on-target test is switched off: a player who
 * got there by a carom alone plays on until a later shot credits them again.
 */
export const skittles5 = skittleGame({
  id: 'skittles-5',
  table: CAROM_TABLE,
  policy: (options) => (options.strictKnockDowns ? FIVE_SKITTLES_STRICT_POLICY : FIVE_SKITTLES_POLICY),
  defaults: { finishWithSafety: false },
  judge: judgeFive,
  refereeFoul: fiveRefereeFoul,
  promptExtras: fivePromptExtras,
  mayEnd: () => false,
  endRule: 'SK5-14',
});
