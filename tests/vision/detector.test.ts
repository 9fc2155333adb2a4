import { describe, expect, it } from 'vitest';
import { Detector } from '../../hub/vision/detector.ts';
import { BALL_RGB, type FrameScene } from '../../hardware/simulator/video/render.ts';
import { calibrationOf, CAROM, clipOf, dist, still } from './helpers.ts';

/** The detector on rendered frames: balls found where they lie, nothing else taken for a ball. */
describe('ball detector', () => {
  const balls: [string, [number, number]][] = [
    ['white', [400, 300]],
    ['yellow', [1500, 1100]],
    ['red', [2600, 80]],
  ];

  for (const seed of [3, 11, 19]) {
    it(`finds each ball within 4 mm, seed ${seed} (camera, lens, cloth, light and noise vary; a ball in a dark vignetted corner is the worst)`, () => {
      const clip = clipOf(balls.map(([id, p]) => still(id, p)), { seed, player: false });
      const det = new Detector(calibrationOf(clip), { ballRadius: CAROM.ballRadius });
      const found = det.detect(clip.frame(0));
      expect(found.map((d) => d.colour).sort()).toEqual(['red', 'white', 'yellow']);
      for (const [id, p] of balls) expect(dist(found.find((d) => d.colour === id)!.at, p)).toBeLessThan(4);
    });
  }

  it('finds two balls that touch as two', () => {
    const clip = clipOf([still('white', [1000, 700]), still('yellow', [1000 + CAROM.ballRadius * 2, 700]), still('red', [1000, 700 + CAROM.ballRadius * 2])], { player: false });
    const found = new Detector(calibrationOf(clip), { ballRadius: CAROM.ballRadius }).detect(clip.frame(0));
    expect(found).toHaveLength(3);
  });

  it('false-positive guard: a hand, a white sleeve, a chalk cube (white or blue), a fallen skittle and a cue on the cloth are not balls', () => {
    const clip = clipOf([still('white', [400, 300])]);
    const scene: FrameScene = {
      balls: [{ colour: BALL_RGB.white!, path: [[400, 300]] }],
      ballRadius: CAROM.ballRadius,
      shadows: [{ centre: [1200, 700], radii: [500, 300], angle: 0.3, strength: 0.45 }],
      // A fallen skittle lying on the cloth.
      skittles: [{ at: [2000, 400], standing: false, dir: [0.6, 0.8], base: 25, height: 60 }],
      capsules: [
        // A resting hand (skin) and a hand with a white sleeve over the cloth.
        { a: [1200, 600, 25], b: [1200, 660, 25], ra: 42, rb: 38, colour: [224, 172, 140] },
        { a: [1150, 660, 45], b: [900, 900, 160], ra: 40, rb: 50, colour: [232, 232, 232] },
        { a: [2400, 900, 25], b: [2400, 960, 25], ra: 42, rb: 38, colour: [236, 196, 170] },
        // A cue lying across the table, maple shaft and dark butt.
        { a: [600, 1000, 8], b: [1900, 1200, 15], ra: 6.5, rb: 15, colour: [226, 200, 150], split: { at: 0.62, colour: [54, 34, 26] } },
      ],
      chalk: { at: [1700, 300], size: 22, colour: [240, 240, 236] },
    };
    const det = new Detector(calibrationOf(clip), { ballRadius: CAROM.ballRadius });
    const found = det.detect(clip.renderer.render(scene));
    expect(found.map((d) => [d.colour, Math.round(d.at[0]), Math.round(d.at[1])])).toEqual([['white', expect.any(Number), expect.any(Number)]]);
    expect(dist(found[0]!.at, [400, 300])).toBeLessThan(3);
    // And a blue chalk cube with a yellow-ish hand.
    const scene2: FrameScene = { ...scene, chalk: { at: [1700, 300], size: 22, colour: [40, 110, 210] }, capsules: [{ a: [1700, 700, 25], b: [1760, 700, 25], ra: 44, rb: 40, colour: [236, 190, 120] }] };
    expect(det.detect(clip.renderer.render(scene2)).map((d) => d.colour)).toEqual(['white']);
  });

  it('finds a white ball in a player’s shadow', () => {
    const clip = clipOf([still('white', [1200, 700])]);
    const scene: FrameScene = { balls: [{ colour: BALL_RGB.white!, path: [[1200, 700]] }], ballRadius: CAROM.ballRadius, shadows: [{ centre: [1200, 700], radii: [500, 300], angle: 0, strength: 0.5 }], skittles: [], capsules: [] };
    const found = new Detector(calibrationOf(clip), { ballRadius: CAROM.ballRadius }).detect(clip.renderer.render(scene));
    expect(found).toHaveLength(1);
    expect(dist(found[0]!.at, [1200, 700])).toBeLessThan(3);
  });
});

/**
 * At 640×360 a chroma sample is about 10 mm of table: a ball's own colour often bleeds onto the
 * inner ring checked around it (1.25 radii) though nothing lies over it. Such a sighting is
 * `edgeOnly`: as sure as a clear one (track fusion takes it so). Anything over a ball's edge
 * reaches past the outer ring, or the outer ring cannot be seen there: never edge-only.
 */
describe('ball detector: edge-only sightings', () => {
  const R = CAROM.ballRadius;
  const small = { width: 640, height: 360, player: false } as const;
  const sceneOf = (at: [number, number], capsules: FrameScene['capsules'] = []): FrameScene => ({ balls: [{ colour: BALL_RGB.yellow!, path: [at] }], ballRadius: R, shadows: [], skittles: [], capsules });

  it('a lone ball at rest, sub-pixel positions over the table: clear or edge-only, never off by more than a clear one can be', () => {
    const clip = clipOf([still('yellow', [700, 500])], small);
    const det = new Detector(calibrationOf(clip), { ballRadius: R });
    let edge = 0;
    for (let k = 0; k < 60; k++) {
      const at: [number, number] = [300 + 37.3 * k, 200 + ((k * 53.7) % 1000)];
      const [d] = det.detect(clip.renderer.render(sceneOf(at)));
      expect(d, `ball at ${at}`).toBeDefined();
      expect(d!.clear || d!.edgeOnly, `ball at ${at}`).toBe(true);
      if (d!.edgeOnly) edge += 1;
      expect(dist(d!.at, at)).toBeLessThan(8);
    }
    // The case is real at this size (else the test proves nothing).
    expect(edge).toBeGreaterThan(0);
  });

  it('a cue over its edge, a finger on it, or a hand reaching over the rail onto a ball beside it: covered, not edge-only', () => {
    const clip = clipOf([still('yellow', [700, 500])], small);
    const det = new Detector(calibrationOf(clip), { ballRadius: R });
    const cue = { a: [700 + 0.8 * R, 500, 40] as const, b: [700 + 0.8 * R + 900, 500 + 200, 90] as const, ra: 6.5, rb: 12, colour: [226, 200, 150] as const };
    const finger = { a: [1400 + 0.9 * R, 800, 20] as const, b: [1400 + 3 * R, 800 + 10, 30] as const, ra: 8, rb: 9, colour: [224, 172, 140] as const };
    // A ball 10 mm off the right rail, a hand over the rail onto its edge: past the rail, no ring to see.
    const nearRail: [number, number] = [2000, CAROM.width - R - 10];
    const hand = { a: [2000, CAROM.width - 5, 50] as const, b: [2000, CAROM.width + 120, 60] as const, ra: 14, rb: 30, colour: [224, 172, 140] as const };
    for (const [at, c] of [[[700, 500], cue], [[1400, 800], finger], [nearRail, hand]] as const) {
      const [d] = det.detect(clip.renderer.render(sceneOf([at[0], at[1]], [c as never])));
      expect(d, `ball at ${at}`).toBeDefined();
      expect(d!.clear, `ball at ${at}`).toBe(false);
      expect(d!.edgeOnly, `ball at ${at}`).toBeUndefined();
    }
  });
});
