import { describe, expect, it } from 'vitest';
import { gameMarkings } from '../../hub/camera/game-markings.ts';
import { spotsOf } from '../../hub/rules/table.ts';
import { findTableCorners } from '../../hub/vision/find-corners.ts';
import { frameFromRgb } from '../../hub/vision/frame.ts';
import { tableLines } from '../../hub/vision/table-lines.ts';
import { applyMask, insideMask, tableMask } from '../../hub/vision/table-mask.ts';
import { CAROM, calibrationOf, clipOf, dist, still } from './helpers.ts';

/**
 * The calibration page's helpers (issue 16): the table's lines drawn through a calibration
 * land where the rendered camera shows them, and "find automatically" finds the corners of
 * a rendered table to a few pixels.
 */
const TABLE = { length: CAROM.length, width: CAROM.width };
const balls = [still('white', [700, 400]), still('yellow', [1500, 900]), still('red', [2100, 300])];

describe('table lines through the calibration', () => {
  const clip = clipOf(balls, { player: false });
  const cal = calibrationOf(clip);

  it('the cushion lines start and end at the four corners, and the spots project where the camera sees them', () => {
    const lines = tableLines(cal, gameMarkings('carom', TABLE));
    const cushions = lines.filter((l) => l.kind === 'cushion');
    expect(cushions).toHaveLength(4);
    cushions.forEach((l, k) => {
      expect(dist(l.points[0]!, clip.camera.corners[k]!)).toBeLessThan(0.5);
      expect(dist(l.points.at(-1)!, clip.camera.corners[(k + 1) % 4]!)).toBeLessThan(0.5);
      // Sampled every 5 cm: the lens bends them.
      expect(l.points.length).toBeGreaterThan(20);
    });
    const spots = lines.filter((l) => l.kind === 'spot');
    expect(spots).toHaveLength(3);
    const truth = Object.values(spotsOf(TABLE));
    spots.forEach((s, k) => {
      const centre = [s.points.reduce((a, p) => a + p[0], 0) / s.points.length, s.points.reduce((a, p) => a + p[1], 0) / s.points.length];
      expect(dist(centre, cal.toPixel(truth[k]![0], truth[k]![1], 0)!)).toBeLessThan(1);
    });
    expect(lines.filter((l) => l.kind === 'diamond')).toHaveLength(2 * 7 + 2 * 3);
    expect(lines.filter((l) => l.kind === 'zone')).toHaveLength(0);
  });

  it('BK-3: a balkline game draws its lines (47/2: four), the free game its corner triangles (FG-3)', () => {
    const bk = tableLines(cal, gameMarkings('balkline-47-2', TABLE)).filter((l) => l.kind === 'zone');
    expect(bk).toHaveLength(4);
    // The 47 cm line from the head rail runs at x = 470 mm: its ends on the left and right cushions.
    expect(dist(bk[0]!.points[0]!, cal.toPixel(470, 0, 0)!)).toBeLessThan(0.5);
    expect(dist(bk[0]!.points.at(-1)!, cal.toPixel(470, TABLE.width, 0)!)).toBeLessThan(0.5);
    expect(tableLines(cal, gameMarkings('balkline-74-2', TABLE)).filter((l) => l.kind === 'zone')).toHaveLength(3);
    expect(tableLines(cal, gameMarkings('free-game', TABLE)).filter((l) => l.kind === 'zone')).toHaveLength(4);
  });
});

describe('finding the corners automatically', () => {
  // Seed 3's player hides a corner's rail in the first frame: the edges' lines still cross there.
  it.each([1, 3, 4])('finds the cushion noses of a rendered table (seed %i, the player in view) within 3 px, head-left first', (seed) => {
    const clip = clipOf([{ ...balls[0]!, v: [1500, 300] }, balls[1]!, balls[2]!], { seed });
    const found = findTableCorners(clip.frame(0), { table: TABLE, k1: clip.camera.spec.k1 });
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    found.corners.forEach((c, k) => expect(dist(c, clip.camera.corners[k]!)).toBeLessThan(3));
  });

  it('keeps the orientation of corners saved before (head-left may be any image corner)', () => {
    const clip = clipOf(balls, { seed: 2, player: false });
    const c = clip.camera.corners;
    const turned = [c[2]!, c[3]!, c[0]!, c[1]!]; // the same table seen with head and foot swapped
    const found = findTableCorners(clip.frame(0), { table: TABLE, k1: clip.camera.spec.k1, near: turned });
    expect(found.ok).toBe(true);
    if (found.ok) found.corners.forEach((p, k) => expect(dist(p, turned[k]!)).toBeLessThan(8));
  });

  it('says why when there is no table in view', () => {
    const grey = frameFromRgb(64, 48, new Uint8Array(64 * 48 * 3).fill(90));
    const found = findTableCorners(grey, { table: TABLE });
    expect(found.ok).toBe(false);
    if (!found.ok) expect(found.error).toMatch(/cloth/);
  });
});

describe('the mask outside the table', () => {
  const corners: [number, number][] = [[20, 80], [180, 80], [180, 20], [20, 20]];

  it('keeps the quadrilateral and its margin, blanks the rest (either orientation)', () => {
    for (const quad of [corners, [...corners].reverse()]) {
      const mask = tableMask(200, 100, quad, 10);
      expect(insideMask(mask, 100, 50)).toBe(true);
      expect(insideMask(mask, 12, 50)).toBe(true); // within the margin
      expect(insideMask(mask, 8, 50)).toBe(false);
      expect(insideMask(mask, 100, 5)).toBe(false);
      expect(insideMask(mask, 100, 95)).toBe(false);
    }
    const data = new Uint8Array(200 * 100 * 1.5).fill(200);
    applyMask(tableMask(200, 100, corners, 10), data);
    expect(data[50 * 200 + 100]).toBe(200);
    expect(data[50 * 200 + 2]).toBe(0);
    expect(data[200 * 100 + 25 * 100 + 50]).toBe(200); // chroma inside
    expect(data[200 * 100 + 1 * 100 + 50]).toBe(128); // chroma outside, neutral
  });
});
