import { pyramidPockets } from '../vision/pockets.ts';
import { CAROM_TABLE, PYRAMID_TABLE, ballSpots, skittleSpots } from '../rules/skittles/geometry.ts';

/** Skittle spots, the whites' start spots and the pockets (a pyramid table's) for a table of this size. */
export function skittleSetup(table: { length: number; width: number }) {
  const pyramid = table.length > 3000;
  const base = pyramid ? PYRAMID_TABLE : CAROM_TABLE;
  const t = { ...base, size: table };
  const spots = skittleSpots(t, pyramid ? 'pyramid-seven' : 'carom-seven');
  const skittles = Object.entries(spots).map(([id, at]) => ({ id, at: [at![0], at![1]] as [number, number], base: t.skittleBase, height: 60 }));
  const whites = ballSpots(t, pyramid ? 'pyramid-seven' : 'carom-five');
  // The tracker's default ball radius on a table longer than 3 m is 34 mm (a 68 mm pyramid ball).
  const pockets = pyramid ? pyramidPockets(table, 34) : [];
  return { skittles, pockets, initial: { one: [whites.one[0], whites.one[1]] as [number, number], two: [whites.two[0], whites.two[1]] as [number, number] } };
}
