import type { BallId, SkittleId } from '../ids.ts';
import type { Point, Positions } from '../events.ts';
import type { Instruction } from '../outcome.ts';
import {
  along,
  ballPlaceFree,
  ballSpots,
  centre,
  DIRECTION,
  isOccupied,
  OPPOSITE,
  round,
  skittleSpots,
  tableSpot,
  type SkittleLayout,
  type SkittleTable,
} from './geometry.ts';

/**
 * What the referee must put back before the next shot: balls that left the table or were
 * pocketed (SK5-13, SK7P-7/9, SK7C-7/11), then every felled skittle (SK5-16, SK7P-12,
 * SK7C-9). With the resting positions known the place is computed; otherwise the
 * instruction names the rule for the referee to apply.
 */
export interface SetupInput {
  table: SkittleTable;
  layout: SkittleLayout;
  cueBall: BallId;
  felled: readonly SkittleId[];
  /** Balls that left the table or went into a pocket. */
  gone: readonly BallId[];
  /** Of those, the ones that went into a pocket (SK7P-7) rather than off the table (SK7P-9). */
  pocketed?: readonly BallId[];
  /** Where the balls came to rest, when the shot gives it. */
  positions: Positions | undefined;
}

type Small = 'head' | 'foot' | 'left' | 'right';
const SMALL: readonly Small[] = ['head', 'foot', 'left', 'right'];
const isSmall = (s: SkittleId): s is Small => (SMALL as readonly string[]).includes(s);

export function setupInstructions(input: SetupInput): Instruction[] {
  const { balls, instructions } = respotBalls(input);
  return [...instructions, ...resetSkittles(input, balls)];
}

// ---------------------------------------------------------------------------------------------
// Balls

function respotBalls(input: SetupInput): { balls: Positions | null; instructions: Instruction[] } {
  const { table, layout, cueBall, gone, positions } = input;
  const instructions: Instruction[] = [];
  const rest: Record<string, Point> | null = positions
    ? Object.fromEntries(Object.entries(positions).filter(([b]) => !gone.includes(b as BallId)))
    : null;
  const L = table.size.length;
  const pocketRule = (ball: BallId): string => (input.pocketed?.includes(ball) ? 'SK7P-7' : 'SK7P-9');
  for (const ball of gone) {
    if (ball === cueBall) {
      instructions.push(cueInHand(input, rest));
      continue;
    }
    const other = (['one', 'two'] as const).find((b) => b !== ball)!;
    if (layout === 'pyramid-seven') {
      // SK7P-7, SK7P-9: near spot 1 or spot 3, on the side away from the other object ball.
      const at = rest?.[other];
      if (!rest || !at) {
        instructions.push({ item: ball, to: `near spot 1 or spot 3, on the side away from ball ${other}`, rule: pocketRule(ball) });
        continue;
      }
      const spot = at[0] < L / 2 ? 3 : 1;
      const place = freePlace(table, tableSpot(table, spot), [spot === 1 ? -1 : 1, 0], rest);
      rest[ball] = place;
      instructions.push({ item: ball, to: `near spot ${spot}`, at: round(place), rule: pocketRule(ball) });
      continue;
    }
    // SK5-13: a white goes back on its spot; SK7C-7, SK7C-11: on its start spot.
    const rule = layout === 'carom-five' ? 'SK5-13' : 'SK7C-11';
    const home = ballSpots(table, layout)[ball as 'one' | 'two'];
    if (!rest) {
      instructions.push({ item: ball, to: 'its start spot', at: round(home), rule });
      continue;
    }
    let place = home;
    if (!ballPlaceFree(table, home, rest)) {
      const alt = ballSpots(table, layout)[other];
      place = ballPlaceFree(table, alt, rest) ? alt : freePlace(table, home, [home[0] < L / 2 ? -1 : 1, 0], rest);
    }
    rest[ball] = place;
    instructions.push({ item: ball, to: place === home ? 'its start spot' : 'the nearest free spot', at: round(place), rule });
  }
  return { balls: rest, instructions };
}

/** SK5-13: the opponent plays in hand from a half holding a ball, or the other half when both whites lie in one. SK7P-9: from the kitchen. */
function cueInHand(input: SetupInput, rest: Positions | null): Instruction {
  if (input.layout !== 'carom-five') return { item: input.cueBall, to: 'in hand, from the kitchen', rule: input.layout === 'pyramid-seven' ? 'SK7P-9' : 'SK7C-11' };
  const half = (p: Point): 'head' | 'foot' => (p[0] < input.table.size.length / 2 ? 'head' : 'foot');
  const whites = (['one', 'two'] as const).map((b) => rest?.[b]).filter((p): p is Point => p !== undefined);
  if (whites.length === 2) {
    const [h1, h2] = whites.map(half);
    if (h1 === h2) return { item: input.cueBall, to: `in hand for the opponent, from the ${h1 === 'head' ? 'foot' : 'head'} half`, rule: 'SK5-13' };
    return { item: input.cueBall, to: 'in hand for the opponent, from either half', rule: 'SK5-13' };
  }
  return { item: input.cueBall, to: 'in hand for the opponent, from a half holding a ball (the other half if both whites lie in one)', rule: 'SK5-13' };
}

/** The first point from `start`, stepping by a ball diameter along `dir`, where a ball fits. */
function freePlace(table: SkittleTable, start: Point, dir: Point, balls: Positions): Point {
  for (let k = 0; k < 6; k++) {
    const p = along(start, dir, k * table.ball);
    if (ballPlaceFree(table, p, balls)) return p;
  }
  return start;
}

// ---------------------------------------------------------------------------------------------
// Skittles

function resetSkittles(input: SetupInput, balls: Positions | null): Instruction[] {
  const { table, layout, felled } = input;
  const spots = skittleSpots(table, layout);
  const item = (s: SkittleId): string => `skittle:${s}`;
  const generalRule = layout === 'carom-five' ? 'SK5-16' : layout === 'pyramid-seven' ? 'SK7P-12' : 'SK7C-9';
  if (felled.length === 0) return [];
  if (!balls) return felled.map((s) => ({ item: item(s), to: 'on its spot', at: round(spots[s]!), rule: generalRule }));

  const occupied = felled.filter((s) => isOccupied(table, spots[s]!, balls));
  const out: Instruction[] = [];
  const placed = new Map<SkittleId, { at: Point; to: string; rule: string }>();

  // Spot skittles (seven-skittle games).
  for (const s of occupied.filter((x) => x === 'spot1' || x === 'spot3')) {
    const own = spots[s]!;
    if (layout === 'pyramid-seven') {
      // SK7P-12: the midpoint of the segment joining spot 1 (3) and the centre spot.
      const c = centre(table);
      const spot = tableSpot(table, s === 'spot1' ? 1 : 3);
      placed.set(s, { at: [(spot[0] + c[0]) / 2, spot[1]], to: `midway between spot ${s === 'spot1' ? 1 : 3} and the centre spot`, rule: 'SK7P-12' });
    } else {
      // SK7C-9: on the long axis midway between its spot and the nearest central skittle.
      const near = spots[s === 'spot1' ? 'head' : 'foot']!;
      placed.set(s, { at: [(own[0] + near[0]) / 2, own[1]], to: 'midway between its spot and the nearest central skittle', rule: 'SK7C-9' });
    }
  }

  const central = occupied.filter((s) => s === 'king' || isSmall(s));
  if (central.length > 0) {
    const moves = layout === 'pyramid-seven' ? nearestTowardKing(table, central, balls, input.cueBall) : fiveSkittleScheme(table, central, balls[input.cueBall]);
    for (const [s, m] of moves) placed.set(s, m);
  }

  for (const s of felled) {
    const m = placed.get(s);
    out.push(m ? { item: item(s), to: m.to, at: round(m.at), rule: m.rule } : { item: item(s), to: 'on its spot', at: round(spots[s]!), rule: generalRule });
  }
  return out;
}

type Move = { at: Point; to: string; rule: string };

/**
 * SK5-16 (a)–(k), for the central skittles whose places balls occupy (at most three: there
 * are three balls). A row is built outward from a standing skittle, the king always last;
 * where both sides are possible the cue ball's side is taken (condition 2). Decision: in
 * (g) the seed's "ближе к противоположному короткому борту" is read as the side away from
 * the cue ball, the foot side when the cue ball lies on the short line through the king
 * (as it usually does there: the three balls hold the three places). Used for the central skittles of SK7C too (the seed's schemes are not
 * reproduced there).
 */
export function fiveSkittleScheme(table: SkittleTable, occupied: readonly SkittleId[], cue: Point | undefined): Map<SkittleId, Move> {
  const c = centre(table);
  const s = table.spacing;
  // The cue ball's side of the table; a cue ball on the line through the king (or unknown) counts as the foot side / right side.
  const onAxis = (d: number): boolean => !cue || Math.abs(d) < table.ball / 2;
  const longSide: Small = onAxis(cue ? cue[0] - c[0] : 0) || cue![0] > c[0] ? 'foot' : 'head';
  const shortSide: Small = onAxis(cue ? cue[1] - c[1] : 0) || cue![1] > c[1] ? 'right' : 'left';
  // (g) "ближе к противоположному короткому борту": away from the cue ball; the foot side when it lies on the short line.
  const awayLong: Small = onAxis(cue ? cue[0] - c[0] : 0) ? 'foot' : OPPOSITE[longSide];
  const king = occupied.includes('king');
  const small = occupied.filter(isSmall);
  const moves = new Map<SkittleId, Move>();
  const row = (beyond: Small, items: readonly SkittleId[], rule: string): void => {
    items.forEach((it, k) => moves.set(it, { at: along(c, DIRECTION[beyond], (k + 2) * s), to: `in the row beyond the ${beyond} skittle`, rule }));
  };
  const between = (it: Small, toward: Small, rule: string): void => {
    moves.set(it, { at: along(c, DIRECTION[toward], s / 2), to: `between the king and the ${toward} skittle`, rule });
  };
  const onLong = (x: Small): boolean => x === 'head' || x === 'foot';

  if (king && small.length === 0) row(longSide, ['king'], 'SK5-16(a)');
  else if (!king && small.length === 1) between(small[0]!, OPPOSITE[small[0]!], 'SK5-16(b)');
  else if (king && small.length === 1) row(OPPOSITE[small[0]!], [small[0]!, 'king'], 'SK5-16(c)');
  else if (!king && small.length === 2) {
    const [x, y] = small as [Small, Small];
    if (onLong(x) && onLong(y)) {
      between(x, 'left', 'SK5-16(d)');
      between(y, 'right', 'SK5-16(d)');
    } else if (!onLong(x) && !onLong(y)) {
      between(x, 'head', 'SK5-16(e)');
      between(y, 'foot', 'SK5-16(e)');
    } else {
      between(x, OPPOSITE[x], 'SK5-16(f)');
      between(y, OPPOSITE[y], 'SK5-16(f)');
    }
  } else if (king && small.length === 2) {
    const [x, y] = small as [Small, Small];
    if (!onLong(x) && !onLong(y)) row(awayLong, [x, y, 'king'], 'SK5-16(g)');
    else if (onLong(x) && onLong(y)) row(shortSide, [x, y, 'king'], 'SK5-16(k)');
    else {
      const longOne = onLong(x) ? x : y;
      row(OPPOSITE[longOne], [x, y, 'king'], 'SK5-16(h)');
    }
  } else if (!king && small.length === 3) {
    const standing = SMALL.find((x) => !small.includes(x))!;
    const ordered = [OPPOSITE[standing], ...small.filter((x) => x !== OPPOSITE[standing])];
    row(standing, ordered, 'SK5-16(i)');
  } else {
    // Four or more places taken cannot happen with three balls; say so rather than guess.
    for (const it of occupied) moves.set(it, { at: c, to: 'as near its spot as the balls allow (referee)', rule: 'SK5-16' });
  }
  return moves;
}

/** SK7P-12 Decision: the nearest free point on the skittle's line toward the king; the king on the long axis, cue ball's side first. */
function nearestTowardKing(table: SkittleTable, occupied: readonly SkittleId[], balls: Positions, cueBall: BallId): Map<SkittleId, Move> {
  const c = centre(table);
  const moves = new Map<SkittleId, Move>();
  const step = 5;
  for (const s of occupied) {
    if (isSmall(s)) {
      const start = along(c, DIRECTION[s], table.spacing);
      let at: Point | null = null;
      for (let d = step; d < table.spacing; d += step) {
        const p = along(start, DIRECTION[OPPOSITE[s]], d);
        if (!isOccupied(table, p, balls) && Math.hypot(p[0] - c[0], p[1] - c[1]) >= table.skittleBase) {
          at = p;
          break;
        }
      }
      moves.set(s, at ? { at, to: 'nearest free point on its line toward the king', rule: 'SK7P-12' } : { at: start, to: 'as near its spot as the balls allow (referee)', rule: 'SK7P-12' });
    } else {
      const cue = balls[cueBall];
      const first: Point = cue && cue[0] > c[0] ? [1, 0] : [-1, 0];
      let at: Point | null = null;
      for (let d = step; d < table.size.length / 4 && !at; d += step) {
        for (const dir of [first, [-first[0], 0] as Point]) {
          const p = along(c, dir, d);
          if (!isOccupied(table, p, balls)) {
            at = p;
            break;
          }
        }
      }
      moves.set(s, { at: at ?? c, to: at ? 'nearest free point on the long axis' : 'as near its spot as the balls allow (referee)', rule: 'SK7P-12' });
    }
  }
  return moves;
}
