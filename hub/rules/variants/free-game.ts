import { z } from 'zod';
import { bothObjectBalls, caromGame, GENERAL_SPEC } from '../carom/game.ts';
import { FREE_GAME_TRIANGLES } from '../zones.ts';

/** The free game (FG-1 … FG-3): every carom scores; one carom only while both object balls sit in a corner triangle. */
export const freeGame = caromGame({
  id: 'free-game',
  spec: {
    ...GENERAL_SPEC,
    scoring: bothObjectBalls('FG-1'),
    zones: (options) => {
      const leg = (options as { triangleLeg?: number }).triangleLeg;
      return leg === undefined ? FREE_GAME_TRIANGLES : { ...FREE_GAME_TRIANGLES, leg };
    },
  },
  extraOptions: { triangleLeg: z.number().positive().max(1400).optional() },
});
