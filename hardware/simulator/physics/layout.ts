import type { Positions } from '../../../hub/rules/events.ts';
import { ballSpots } from '../../../hub/rules/skittles/geometry.ts';
import type { Instruction } from '../../../hub/rules/outcome.ts';
import { skittleLayoutOf, skittleTableOf, type TableGeometry } from './table.ts';
import { dist, type Vec } from './vec.ts';
import { gameEntry } from '../../../hub/rules/catalogue.ts';
import { CAROM_BALLS } from '../../../hub/rules/ids.ts';

/**
 * Where the balls lie before a shot: the break position, the previous shot's resting
 * places, and balls put back on the table as the hub's instructions say (or on a free
 * spot, or in hand in the kitchen).
 */
export type Layout = Record<string, Vec>;

/** The game's balls (the catalogue's); the carom balls for an unknown game. */
export function ballsOf(variant: string): string[] {
  return [...(gameEntry(variant)?.balls ?? CAROM_BALLS)];
}

/** Free place nearest `at` (stepping along the long axis, then across), inside the cushions. */
export function freePlace(table: TableGeometry, layout: Layout, at: Vec, except?: string): Vec {
  const R = table.ballRadius;
  const clamp = (p: Vec): Vec => [Math.min(table.length - R - 1, Math.max(R + 1, p[0])), Math.min(table.width - R - 1, Math.max(R + 1, p[1]))];
  const free = (p: Vec) =>
    Object.entries(layout).every(([id, q]) => id === except || dist(p, q) >= 2 * R + 2) && table.skittles.every((s) => dist(p, s.at) >= R + s.radius + 2);
  for (let k = 0; k < 200; k++) {
    const step = Math.ceil(k / 2) * (R + 2) * (k % 2 ? 1 : -1);
    const p = clamp([at[0] + step, at[1] + (k > 60 ? ((k * 37) % 11) * R : 0)]);
    if (free(p)) return p;
  }
  return clamp(at);
}

/** The break position of a game, with `cueBall` to play. */
export function breakLayout(variant: string, table: TableGeometry, cueBall: string, random: () => number): Layout {
  const L = table.length;
  const W = table.width;
  const layoutId = skittleLayoutOf(variant);
  if (layoutId) {
    const spots = ballSpots(skittleTableOf(variant), layoutId);
    const layout: Layout = { one: [spots.one[0], spots.one[1]], two: [spots.two[0], spots.two[1]] };
    layout.cue = inHand(table, layout, random);
    return layout;
  }
  // G-4: red on the foot spot, the opponent's ball on the head spot, the cue ball on the head string 182 mm beside it.
  const other = cueBall === 'white' ? 'yellow' : 'white';
  return { red: [(3 * L) / 4, W / 2], [other]: [L / 4, W / 2], [cueBall]: [L / 4, W / 2 + (random() < 0.5 ? -182 : 182)] };
}

/** A ball in hand: somewhere free in the kitchen (behind the head string). */
export function inHand(table: TableGeometry, layout: Layout, random: () => number): Vec {
  const R = table.ballRadius;
  return freePlace(table, layout, [R + 60 + random() * (table.length / 4 - 2 * R - 80), R + 80 + random() * (table.width - 2 * R - 160)]);
}

/**
 * The layout for the next shot: the resting positions, with every ball missing from the
 * table put back where an instruction with a place says, else on its start spot, the cue
 * ball in hand. `all balls → the break position` restarts the layout.
 */
export function nextLayout(variant: string, table: TableGeometry, resting: Positions | null, cueBall: string, instructions: readonly Instruction[], random: () => number): Layout {
  if (!resting || instructions.some((i) => i.item === 'all balls')) return breakLayout(variant, table, cueBall, random);
  const layout: Layout = {};
  for (const [id, p] of Object.entries(resting)) layout[id] = [p[0], p[1]];
  for (const i of instructions) {
    if (!ballsOf(variant).includes(i.item)) continue;
    delete layout[i.item];
    if (i.at) layout[i.item] = freePlace(table, layout, i.at, i.item);
  }
  const home = breakLayout(variant, table, cueBall, random);
  for (const id of ballsOf(variant)) {
    if (layout[id]) continue;
    if (id === cueBall) layout[id] = skittleLayoutOf(variant) !== null ? inHand(table, layout, random) : freePlace(table, layout, home[id]!);
    else layout[id] = freePlace(table, layout, home[id]!);
  }
  return layout;
}
