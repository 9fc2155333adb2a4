import { SENSOR_CALIBRATION } from '../../../hub/rules/bounds.ts';
import { seededRandom } from '../../../hub/rules/random.ts';

/**
 * The amplitude a rail piezo or the click channel reports for a contact the physics resolved
 * (hub/rules/bounds.ts SENSOR_CALIBRATION): proportional to the impact's normal speed (mm/s),
 * times how well the impact couples to the sensor — drawn between 0.75 (far from it) and 1 —
 * times the sensor's spread (±7 %), rounded to the converter's 8 bits, read as the floor below
 * the firmware's threshold and clipped at saturation. The draw is seeded by the shot itself, so
 * adding amplitudes leaves the planner's random stream (and every later shot) as it was.
 */
export const COUPLING = [0.75, 1] as const;
export const SPREAD = 0.07;

export function amplitudeOf(speed: number, random: () => number): number {
  const c = SENSOR_CALIBRATION;
  const coupling = COUPLING[0] + (COUPLING[1] - COUPLING[0]) * random();
  const spread = 1 + SPREAD * (2 * random() - 1);
  const raw = Math.round(Math.abs(speed) * c.perMmS * coupling * spread);
  return Math.min(c.ceiling, Math.max(c.floor, raw));
}

/** A random stream seeded by a shot's contacts (times and speeds), for its sensor amplitudes. */
export function shotSensorRandom(contacts: readonly { t: number; speed?: number }[]): () => number {
  let h = 2166136261;
  for (const e of contacts) {
    for (const x of [Math.round(e.t * 1e6), Math.round(e.speed ?? 0)]) {
      h ^= x & 0xffff;
      h = Math.imul(h, 16777619);
      h ^= x >>> 16;
      h = Math.imul(h, 16777619);
    }
  }
  return seededRandom(h >>> 0);
}
