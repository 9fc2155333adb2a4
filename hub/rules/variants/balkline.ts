import { bothObjectBalls, caromGame, GENERAL_SPEC } from '../carom/game.ts';
import { BALKLINE_PRESETS } from '../zones.ts';

/** Balkline (BK-1 … BK-3): one zone-geometry engine, four presets. */
function balkline(id: keyof typeof BALKLINE_PRESETS) {
  const geometry = BALKLINE_PRESETS[id];
  return caromGame({ id, spec: { ...GENERAL_SPEC, scoring: bothObjectBalls('G-14'), zones: () => geometry } });
}

export const balkline47x1 = balkline('balkline-47-1');
export const balkline47x2 = balkline('balkline-47-2');
export const balkline71x2 = balkline('balkline-71-2');
export const balkline74x2 = balkline('balkline-74-2');
