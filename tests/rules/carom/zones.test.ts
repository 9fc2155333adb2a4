import { describe, expect, it } from 'vitest';
import type { Point } from '../../../hub/rules/events.ts';
import { MATCH_TABLE } from '../../../hub/rules/options.ts';
import { BALKLINE_PRESETS, FREE_GAME_TRIANGLES, zoneOf } from '../../../hub/rules/zones.ts';
import { decodeLine } from '../../../hub/matchlog/decode.ts';
import { ball, caromShot, lastShot, newMatch, play, referee, scores, shotWith } from '../helpers.ts';

/** A carom for white whose balls come to rest at the given points. */
const caromTo = (positions: Record<string, Point>) => shotWith({ positions }, ball('white', 'red'), ball('white', 'yellow'));
const inHeadLeftCorner = { white: [1000, 700], red: [100, 100], yellow: [150, 60] } satisfies Record<string, Point>;
const inZoneC1 = { white: [100, 700], red: [1400, 700], yellow: [1500, 650] } satisfies Record<string, Point>;
const spread = { white: [100, 700], red: [1400, 700], yellow: [300, 200] } satisfies Record<string, Point>;

describe('free game (RULES §4)', () => {
  it('FG-1 every carom scores one point, no cushion needed', () => {
    const v = play(newMatch('free-game', 400), caromTo(spread), caromTo(spread));
    expect(scores(v)).toEqual([2, 0]);
    expect(lastShot(v).rules).toContain('FG-1');
  });

  it('FG-2 the set-up and break follow the general rules: red first on the break', () => {
    const v = play(newMatch('free-game', 400), shotWith({}, ball('white', 'yellow'), ball('white', 'red')));
    expect(lastShot(v)).toMatchObject({ foul: 'break-wrong-ball', turnPasses: true });
  });

  it('FG-3 with both object balls in a corner triangle one carom is allowed; the next must drive one out', () => {
    const m = newMatch('free-game', 400);
    play(m, caromTo(inHeadLeftCorner)); // the break carom leaves both object balls in the corner
    let v = play(m, caromTo(inHeadLeftCorner)); // first carom with them held: allowed
    expect(scores(v)).toEqual([2, 0]);
    v = play(m, caromTo(inHeadLeftCorner)); // second while held, and they stay: nothing, turn passes, no penalty
    expect(lastShot(v)).toMatchObject({ points: 0, foul: null, turnPasses: true, rules: ['FG-3', 'G-14'] });
    expect(scores(v)).toEqual([2, 0]);
  });

  it('FG-3 driving an object ball out of the triangle keeps the run going', () => {
    const m = newMatch('free-game', 400);
    play(m, caromTo(inHeadLeftCorner), caromTo(inHeadLeftCorner));
    const v = play(m, caromTo(spread));
    expect(lastShot(v)).toMatchObject({ points: 1, turnPasses: false });
  });

  it('FG-3 unknown positions where the limit could apply go to the referee', () => {
    const m = newMatch('free-game', 400);
    play(m, caromShot('white')); // the break starts outside every triangle; where the balls rest is unknown
    let v = play(m, caromShot('white')); // the count starts at 0 whatever the zone: one carom is always allowed
    expect(v).toMatchObject({ status: 'playing', prompt: null });
    v = play(m, caromShot('white')); // now the limit could apply
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['no-score', 'score']);
    expect(v.prompt!.facts).toEqual([expect.objectContaining({ kind: 'unobserved', field: 'assumption' })]);
    expect(play(m, referee({ ruling: 'score' })).players[0]!.score).toBe(3);
  });

  it('FG-3 held-out log: a count that must be 0 and rest positions outside every triangle need no prompt', () => {
    const m = newMatch('free-game', 400);
    play(m, caromShot('white'));
    const v = play(m, caromTo({ red: [1400, 700], yellow: [2000, 300], white: [600, 600] }));
    expect(v).toMatchObject({ status: 'playing', prompt: null, turn: 'Ana' });
    expect(scores(v)).toEqual([2, 0]);
  });

  it('FG-3 the triangle size is configuration (default 30 cm legs)', () => {
    expect(zoneOf(FREE_GAME_TRIANGLES, MATCH_TABLE, [100, 150])).toBe('head-left');
    expect(zoneOf(FREE_GAME_TRIANGLES, MATCH_TABLE, [200, 150])).toBeNull();
    expect(zoneOf({ kind: 'corner-triangles', name: 'wide', leg: 500, perZone: 1 }, MATCH_TABLE, [200, 150])).toBe('head-left');
    expect(zoneOf(FREE_GAME_TRIANGLES, MATCH_TABLE, [2800, 1400])).toBe('foot-right');
    expect(() => newMatch('free-game', 400, { triangleLeg: -1 })).toThrow(/options.triangleLeg/);
  });
});

describe('balkline (RULES §5)', () => {
  it('BK-1 47/1: one carom while both object balls lie in one zone, then one must leave', () => {
    const m = newMatch('balkline-47-1', 200);
    // The break position puts both object balls in the central zone: the break carom is its one carom.
    let v = play(m, caromTo(inZoneC1));
    expect(lastShot(v)).toMatchObject({ points: 1, turnPasses: false });
    v = play(m, caromTo(inZoneC1)); // second carom there, and they stayed: nothing, no penalty
    expect(lastShot(v)).toMatchObject({ points: 0, turnPasses: true, foul: null, rules: ['BK-1', 'BK-3', 'G-14'] });
  });

  it('BK-1 a ball that left may come back and earn one more carom there', () => {
    const m = newMatch('balkline-47-1', 200);
    // break (1st in zone) → drives yellow out; back in; one carom held; then drive out again; back in.
    play(m, caromTo(spread), caromTo(inZoneC1), caromTo(inZoneC1), caromTo(spread));
    const v = play(m, caromTo(inZoneC1));
    expect(scores(v)).toEqual([5, 0]);
    expect(v.turn).toBe('Ana');
  });

  it('BK-2 74/2 as the seed writes it: six zones, two caroms per zone', () => {
    const g = BALKLINE_PRESETS['balkline-74-2'];
    const zones = new Set<string | null>();
    for (const x of [100, 1400, 2800]) for (const y of [100, 1300]) zones.add(zoneOf(g, MATCH_TABLE, [x, y]));
    expect(zones.size).toBe(6);
    expect(zoneOf(g, MATCH_TABLE, [1400, 100])).not.toBe(zoneOf(g, MATCH_TABLE, [1400, 800]));
    const m = newMatch('balkline-74-2', 200);
    const held = { white: [100, 100], red: [1400, 300], yellow: [1500, 400] } satisfies Record<string, Point>;
    play(m, caromTo(held), caromTo(held), caromTo(held));
    const v = play(m, caromTo(held));
    expect(scores(v)).toEqual([3, 0]);
    expect(lastShot(v).turnPasses).toBe(true);
  });

  it('BK-3 the four presets are one engine with data: 47/1, 47/2, 71/2, 74/2', () => {
    expect(Object.values(BALKLINE_PRESETS).map((p) => `${p.name}:${p.perZone}`)).toEqual(['47/1:1', '47/2:2', '71/2:2', '74/2:2']);
    const g = BALKLINE_PRESETS['balkline-71-2'];
    // On a 142 cm wide table the two long lines at 71 cm meet at the middle: rows 0 and 2 only.
    expect(zoneOf(g, MATCH_TABLE, [700, 700])).toBe('c0r0');
    expect(zoneOf(g, MATCH_TABLE, [720, 720])).toBe('c1r2');
    expect(zoneOf(BALKLINE_PRESETS['balkline-47-2'], MATCH_TABLE, [720, 720])).toBe('c1r1');
  });

  it('BK-1, BK-3: a ball that may be off its place by positionsErrorMm (a camera\'s) and so may touch a line is read both ways; farther from it, decided', () => {
    // 47/1: the break carom is the central zone's one carom; the next must drive a ball out.
    // The red comes to rest 4 mm short of touching the 470 mm line: out of the zone, if exact.
    const nearLine = { white: [1400, 1000], red: [470 - 30.75 - 4, 700], yellow: [1500, 650] } satisfies Record<string, Point>;
    const next = (positionsErrorMm?: number) => {
      const m = newMatch('balkline-47-1', 200);
      play(m, caromTo(inZoneC1));
      return play(m, shotWith({ positions: nearLine, ...(positionsErrorMm === undefined ? {} : { positionsErrorMm }) }, ball('white', 'red'), ball('white', 'yellow')));
    };
    expect(lastShot(next())).toMatchObject({ points: 1, turnPasses: false });
    expect(lastShot(next(2))).toMatchObject({ points: 1, turnPasses: false });
    // Within 10 mm it may touch the line, so lie in balk in the zone it left: scored or not.
    const v = next(10);
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['no-score', 'score']);
    expect(scores(v)).toEqual([1, 0]);
  });

  it('the match log takes positionsErrorMm as mm from 0 to 100, and names it when it is not', () => {
    expect(decodeLine('{"shot":{"events":[],"positions":{"red":[400,700]},"positionsErrorMm":10}}')).toMatchObject({ ok: true });
    const bad = decodeLine('{"shot":{"events":[],"positionsErrorMm":-1}}');
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toMatch(/positionsErrorMm/);
  });

  it('BK-3 the in-zone count restarts at every change of turn', () => {
    const m = newMatch('balkline-47-2', 200);
    play(m, caromTo(inZoneC1), caromTo(inZoneC1)); // Ana: 1 in zone
    play(m, shotWith({ positions: inZoneC1 }, ball('white', 'red'))); // Ana misses: turn passes
    const yellowHeld = { white: [1400, 700], red: [1500, 650], yellow: [100, 100] } satisfies Record<string, Point>;
    // Ben's object balls are white and red, both in c1r1: two caroms allowed again.
    const v = play(m, shotWith({ positions: yellowHeld }, ball('yellow', 'red'), ball('yellow', 'white')), shotWith({ positions: yellowHeld }, ball('yellow', 'red'), ball('yellow', 'white')));
    expect(scores(v)).toEqual([2, 2]);
  });
});
