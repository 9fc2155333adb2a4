import { pyramidPockets } from '../vision/pockets.ts';
import { CAROM_TABLE, PYRAMID_TABLE, ballSpots, skittleSpots, type SkittleLayout } from '../rules/skittles/geometry.ts';

/**
 * Where a table's skittles stand, the whites' start spots and the pockets (a pyramid table's),
 * for the detector. The layout is the game's (the catalogue's: five skittles on a carom
 * table, seven on a pyramid table, or the seven-skittle carom game with its spot skittles on
 * the spots themselves, SK7C-3); without one, a table longer than 3 m is taken for a pyramid
 * table and a shorter one for five skittles. A skittle the game does not stand was once
 * watched on a five-skittle table (spots 1 and 3, under the whites), and its spot left bare
 * read as a fall.
 */
export function skittleSetup(table: { length: number; width: number }, layout?: SkittleLayout) {
  const pyramid = table.length > 3000;
  const game: SkittleLayout = layout ?? (pyramid ? 'pyramid-seven' : 'carom-five');
  const base = game === 'carom-five' ? CAROM_TABLE : PYRAMID_TABLE;
  const t = { ...base, size: table };
  const spots = skittleSpots(t, game);
  const skittles = Object.entries(spots).map(([id, at]) => ({ id, at: [at![0], at![1]] as [number, number], base: t.skittleBase, height: 60 }));
  const whites = ballSpots(t, game);
  // The tracker's default ball radius on a table longer than 3 m is 34 mm (a 68 mm pyramid ball).
  const pockets = pyramid ? pyramidPockets(table, 34) : [];
  return { skittles, pockets, initial: { one: [whites.one[0], whites.one[1]] as [number, number], two: [whites.two[0], whites.two[1]] as [number, number] } };
}
