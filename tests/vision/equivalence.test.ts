import { describe, expect, it } from 'vitest';
import { CASES, firstDifference, readFixture, runCase } from './equivalence.ts';

/**
 * A speed-up must not change what the tracker says: every message, every per-frame
 * sighting and the last shot's paths on rendered clips (carom and skittles, 30 and 60 fps,
 * 1280×720 and 640×360) are those recorded from the code before it (equivalence.ts).
 * Numbers may differ by 0.01 (mm or ms); events, ids and nulls not at all.
 */
describe('vision pipeline outputs', () => {
  const fixture = readFixture();
  for (const c of CASES) {
    it(`are unchanged: ${c.name}`, () => {
      const want = fixture[c.name];
      expect(want, `no recorded output for ${c.name}`).toBeDefined();
      const got = runCase(c);
      expect(firstDifference(got, want, 0.01)).toBeNull();
      // The clip is worth comparing: a shot with events came out.
      expect(got.paths.length).toBeGreaterThan(0);
    }, 60_000);
  }
});
