import { describe, expect, it } from 'vitest';
import { enumerateWorlds, type ResolvedEvent, type Scanner } from '../../hub/rules/worlds.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { shotSchema } from '../../hub/matchlog/schema.ts';
import { ball, lastShot, newMatch, play, rail, rejects, shotWith } from './helpers.ts';

/**
 * The `moved` extension (docs/contract.md, issue 16): a shot may name the balls a camera saw set
 * moving by it. RULES §10's stated rule — a ball at rest moves only when struck — then says each
 * of them was in one of the shot's contacts, and readings in which one never was are dropped.
 */
const recorder: Scanner<string[]> = {
  init: () => [],
  step: (s, e: ResolvedEvent) => [...s, e.kind === 'ball' ? e.balls.join('+') : e.kind === 'cushion' ? `${e.rail}:${e.ball}` : e.kind],
  key: (s) => s.join(' '),
};
const balls = ['white', 'yellow', 'red'] as const;
/** Two clicks of the cue ball 3 ms apart, its partners unknown (the cue ball met a cluster). */
const burst: ShotEvent[] = [
  { kind: 'ball', balls: ['white', null], t: 1000 },
  { kind: 'ball', balls: ['white', null], t: 1003 },
];

describe('balls seen set moving (RULES §10, extension)', () => {
  it('readings in which a ball seen moving was never struck are dropped', () => {
    const without = enumerateWorlds(burst, balls, 'white', recorder);
    expect(without.worlds.map((w) => w.state.join(' ')).sort()).toEqual(['white+red white+red', 'white+red white+yellow', 'white+yellow white+red', 'white+yellow white+yellow']);
    const both = enumerateWorlds(burst, balls, 'white', recorder, { moved: ['yellow', 'red'] });
    expect(both.worlds.map((w) => w.state.join(' ')).sort()).toEqual(['white+red white+yellow', 'white+yellow white+red']);
    // The cue ball moves anyway: naming it drops nothing.
    expect(enumerateWorlds(burst, balls, 'white', recorder, { moved: ['white'] }).worlds).toHaveLength(4);
  });

  it('a ball that only a later contact can have struck: that reading is the one kept', () => {
    const r = enumerateWorlds([ball('white', 'red'), rail('foot'), { kind: 'ball', balls: [null, null] }], balls, 'white', recorder, { moved: ['yellow'] });
    expect(r.worlds.every((w) => w.state[2]!.includes('yellow'))).toBe(true);
  });

  it('if no reading has them all struck, the events are incomplete (a missed contact): every reading is kept', () => {
    const r = enumerateWorlds([ball('white', 'red')], balls, 'white', recorder, { moved: ['yellow'] });
    expect(r.worlds.map((w) => w.state)).toEqual([['white+red']]);
  });

  it('G-14: the cue ball met the red, then a cluster; the yellow seen moving — a carom with no prompt', () => {
    const shot = (extra: { moved?: string[] }) => shotWith(extra, { kind: 'ball', balls: ['white', 'red'], t: 900 }, ...burst);
    const asked = play(newMatch('carom'), shot({}));
    expect(asked.status).toBe('awaiting-referee');
    const v = play(newMatch('carom'), shot({ moved: ['yellow', 'red'] }));
    expect(v.status).not.toBe('awaiting-referee');
    expect(lastShot(v)).toMatchObject({ points: 1 });
  });

  it('bad names are refused by field: an unknown ball, a ball named twice; the match log checks the shape', () => {
    const m = newMatch('carom');
    rejects(m, shotWith({ moved: ['blue'] }, ball('white', 'red')), /shot\.moved\[0\]: unknown ball 'blue'/);
    rejects(m, shotWith({ moved: ['red', 'red'] }, ball('white', 'red')), /shot\.moved\[1\]: 'red' is named twice/);
    expect(shotSchema.safeParse({ events: [], moved: ['red'] }).success).toBe(true);
    expect(shotSchema.safeParse({ events: [], moved: [] }).success).toBe(false);
    expect(shotSchema.safeParse({ events: [], moved: 'red' }).success).toBe(false);
  });
});
