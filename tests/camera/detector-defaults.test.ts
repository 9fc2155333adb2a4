import { describe, expect, it } from 'vitest';
import { detectorDefaults } from '../../hub/camera/detector-defaults.ts';
import { visionOptions } from '../../hub/camera/vision-options.ts';
import { parseTrackArgs } from '../../hub/track/cli.ts';
import { skittleSetup } from '../../hub/track/skittle-setup.ts';
import { CAROM_TABLE, PYRAMID_TABLE, skittleSpots, tableSpot } from '../../hub/rules/skittles/geometry.ts';

/**
 * What a table's game tells its camera's detector (hub/camera/detector-defaults.ts) and where
 * the detector then watches skittles (hub/track/skittle-setup.ts). End to end through the hub:
 * tests/camera/hub-vision-e2e.test.ts.
 */
const ids = (setup: ReturnType<typeof skittleSetup>) => setup.skittles.map((s) => s.id).sort();

describe('the detector follows the table\'s game', () => {
  it('a carom game: carom balls, the match table (RULES §0) or the table its options give', () => {
    expect(detectorDefaults({ variant: 'three-cushion' })).toEqual({ balls: 'carom', table: { length: 2840, width: 1420 } });
    expect(detectorDefaults({ variant: 'balkline-47-2', options: { table: { length: 2100, width: 1050 } } })).toEqual({ balls: 'carom', table: { length: 2100, width: 1050 } });
    // A table option the engine would refuse is not the detector's to take.
    expect(detectorDefaults({ variant: 'carom', options: { table: { length: -1, width: 1050 } } })).toEqual({ balls: 'carom', table: { length: 2840, width: 1420 } });
  });

  it('SK5-12, SK7P-11, SK7C-3: a skittle game: the skittle balls, its layout and its own table', () => {
    expect(detectorDefaults({ variant: 'skittles-5' })).toEqual({ balls: 'skittles', layout: 'carom-five', table: CAROM_TABLE.size });
    expect(detectorDefaults({ variant: 'skittles-7-pyramid' })).toEqual({ balls: 'skittles', layout: 'pyramid-seven', table: PYRAMID_TABLE.size });
    expect(detectorDefaults({ variant: 'skittles-7-carom' })).toEqual({ balls: 'skittles', layout: 'carom-seven', table: PYRAMID_TABLE.size });
  });

  it('no game, or one the catalogue does not know: nothing (the camera\'s own settings and the detector\'s defaults stand)', () => {
    expect(detectorDefaults(undefined)).toEqual({});
    expect(detectorDefaults({ variant: 'snooker' })).toEqual({});
  });

  it('a layout the detector does not know is refused by name', () => {
    expect(() => visionOptions({ balls: 'skittles', layout: 'nine-pin' })).toThrow(/layout 'nine-pin' is not one of carom-five, pyramid-seven, carom-seven/);
    expect(visionOptions({ balls: 'skittles', layout: 'carom-seven' })).toMatchObject({ layout: 'carom-seven' });
    expect(parseTrackArgs(['v.y4m', '--corners', '0,0 10,0 10,5 0,5', '--layout', 'nine-pin'])).toEqual({ ok: false, error: '--layout "nine-pin" is not one of carom-five, pyramid-seven, carom-seven' });
  });
});

describe('where the detector watches skittles', () => {
  it('SK5-12: five skittles on a carom table, no spot skittles (the whites lie on spots 1 and 3)', () => {
    expect(ids(skittleSetup(CAROM_TABLE.size))).toEqual(['foot', 'head', 'king', 'left', 'right']);
    expect(ids(skittleSetup(CAROM_TABLE.size, 'carom-five'))).toEqual(['foot', 'head', 'king', 'left', 'right']);
  });

  it('SK7C-3: the seven-skittle carom game stands its spot skittles on the spots themselves; SK7P-11 beside them', () => {
    const t = { ...PYRAMID_TABLE };
    const carom = skittleSetup(PYRAMID_TABLE.size, 'carom-seven');
    const pyramid = skittleSetup(PYRAMID_TABLE.size);
    expect(carom.skittles.find((s) => s.id === 'spot1')!.at).toEqual(tableSpot(t, 1));
    expect(pyramid.skittles.find((s) => s.id === 'spot1')!.at).toEqual(skittleSpots(t, 'pyramid-seven').spot1);
    expect(pyramid.skittles.find((s) => s.id === 'spot1')!.at).not.toEqual(tableSpot(t, 1));
    // Both on a pyramid table: its six pockets.
    expect(carom.pockets).toHaveLength(6);
    expect(pyramid.pockets).toHaveLength(6);
    expect(skittleSetup(CAROM_TABLE.size).pockets).toHaveLength(0);
  });
});
