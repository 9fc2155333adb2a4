import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate, parseCorners } from '../../hub/vision/calibration.ts';
import { applyHomography, distort, homographyFrom, project, undistort } from '../../hub/vision/geometry.ts';
import { makeCamera } from '../../hardware/simulator/video/camera.ts';

const TABLE = { length: 2840, width: 1420 };

/** A camera above the table as someone might mount it: height, offsets, tilt, roll, field of view, barrel distortion. */
const cameraArb = fc.record({
  hfov: fc.double({ min: 55, max: 85, noNaN: true }),
  k1: fc.double({ min: -0.15, max: 0.02, noNaN: true }),
  cx: fc.double({ min: -300, max: 300, noNaN: true }),
  cy: fc.double({ min: -200, max: 200, noNaN: true }),
  tx: fc.double({ min: -80, max: 80, noNaN: true }),
  ty: fc.double({ min: -60, max: 60, noNaN: true }),
  extra: fc.double({ min: 1.0, max: 1.3, noNaN: true }),
  roll: fc.double({ min: -3, max: 3, noNaN: true }),
});

function cameraFrom(c: { hfov: number; k1: number; cx: number; cy: number; tx: number; ty: number; extra: number; roll: number }) {
  const tan = Math.tan((c.hfov * Math.PI) / 360);
  const h = ((TABLE.length + 340) / 2 / tan) * c.extra;
  return makeCamera({ width: 1280, height: 720, hfovDeg: c.hfov, k1: c.k1, centre: [TABLE.length / 2 + c.cx, TABLE.width / 2 + c.cy, h], target: [TABLE.length / 2 + c.tx, TABLE.width / 2 + c.ty, 0], rollDeg: c.roll }, TABLE);
}

describe('camera geometry', () => {
  it('a homography maps its four points exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true })), { minLength: 4, maxLength: 4 }), (jitter) => {
        const from: [number, number][] = [[0, 0], [2840, 0], [2840, 1420], [0, 1420]];
        const to = [[100, 600], [1180, 610], [1190, 90], [110, 100]].map((p, i) => [p[0]! + jitter[i]![0], p[1]! + jitter[i]![1]] as [number, number]);
        const h = homographyFrom(from, to)!;
        from.forEach((p, i) => {
          const q = applyHomography(h, p);
          expect(Math.hypot(q[0] - to[i]![0], q[1] - to[i]![1])).toBeLessThan(1e-6);
        });
      }),
    );
  });

  it('distortion and its inverse agree to well below a pixel over the image (property; barrel up to k1 = −0.12, the fold lies outside)', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.12, max: 0.05, noNaN: true }), fc.double({ min: 0, max: 1280, noNaN: true }), fc.double({ min: 0, max: 720, noNaN: true }), (k1, u, v) => {
        const lens = { width: 1280, height: 720, k1 };
        const back = distort(lens, undistort(lens, [u, v]));
        expect(Math.hypot(back[0] - u, back[1] - v)).toBeLessThan(0.01);
      }),
    );
  });

  it('four corners, the lens and the true field of view place any point at ball height to 0.5 mm (property)', () => {
    fc.assert(
      fc.property(cameraArb, fc.double({ min: 0, max: 2840, noNaN: true }), fc.double({ min: 0, max: 1420, noNaN: true }), (c, x, y) => {
        const cam = cameraFrom(c);
        const cal = calibrate({ width: 1280, height: 720, corners: cam.corners, table: TABLE, k1: c.k1, fovDeg: c.hfov });
        expect(cal.ok).toBe(true);
        if (!cal.ok) return;
        const px = cal.value.toPixel(x, y, 30.75)!;
        const back = cal.value.toTable(px, 30.75)!;
        expect(Math.hypot(back[0] - x, back[1] - y)).toBeLessThan(0.5);
        // And the pixel is where the rendering camera (a different construction) sees that point.
        const seen = project(cam.pose, cam.lens, [x, y, 30.75])!;
        expect(Math.hypot(seen[0] - px[0], seen[1] - px[1])).toBeLessThan(0.05);
      }),
      { numRuns: 200 },
    );
  });

  it('a 5° wrong field of view costs under 2 mm at the ball height (the parallax correction is robust)', () => {
    const cam = cameraFrom({ hfov: 70, k1: -0.05, cx: 150, cy: -80, tx: 20, ty: 10, extra: 1.05, roll: 1 });
    const truth = calibrate({ width: 1280, height: 720, corners: cam.corners, table: TABLE, k1: -0.05, fovDeg: 70 });
    const off = calibrate({ width: 1280, height: 720, corners: cam.corners, table: TABLE, k1: -0.05, fovDeg: 65 });
    if (!truth.ok || !off.ok) throw new Error('calibration failed');
    for (const [x, y] of [[40, 40], [2800, 1380], [1420, 710], [200, 1300]] as const) {
      const px = truth.value.toPixel(x, y, 30.75)!;
      const p = off.value.toTable(px, 30.75)!;
      expect(Math.hypot(p[0] - x, p[1] - y)).toBeLessThan(2);
    }
  });

  it('refuses corners that are not a table seen from above', () => {
    expect(parseCorners('1,2 3,4 5,6').ok).toBe(false);
    expect(parseCorners('1,2 3,4 5,6 a,b').ok).toBe(false);
    const crossed = calibrate({ width: 1280, height: 720, corners: [[100, 600], [1180, 90], [1180, 610], [100, 100]], table: TABLE });
    expect(crossed).toMatchObject({ ok: false, error: expect.stringMatching(/convex/) });
    const far = calibrate({ width: 1280, height: 720, corners: [[100, 600], [99999, 610], [1180, 90], [100, 100]], table: TABLE });
    expect(far).toMatchObject({ ok: false, error: expect.stringMatching(/outside/) });
  });
});
