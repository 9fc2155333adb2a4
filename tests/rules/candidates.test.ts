import { describe, expect, it } from 'vitest';
import { enumerateWorlds, type ResolvedEvent, type Scanner } from '../../hub/rules/worlds.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { eventSchema } from '../../hub/matchlog/schema.ts';
import { ball, lastShot, newMatch, play, rail, rejects, shot } from './helpers.ts';

/**
 * The `candidates` extension (docs/contract.md, issue 16): an event with an unknown id may say
 * what it can be — the camera's paths ruled the other balls out. The engine reads the unknown
 * only as one of them (RULES §10 inference, over fewer worlds), never against its own physics.
 */
const recorder: Scanner<string[]> = {
  init: () => [],
  step: (s, e: ResolvedEvent) => [...s, e.kind === 'ball' ? e.balls.join('+') : e.kind === 'cushion' ? `${e.rail}:${e.ball}` : e.kind],
  key: (s) => s.join(' '),
};
const balls = ['white', 'yellow', 'red'] as const;
const railOf = (r: 'head' | 'foot' | 'left' | 'right', candidates: string[]): ShotEvent => ({ kind: 'cushion', rail: r, ball: null, candidates });

describe('candidates of an unknown id (RULES §10, extension)', () => {
  it('an unknown rail hit is read only as one of its candidates', () => {
    const without = enumerateWorlds([ball('white', 'red'), rail('foot')], balls, 'white', recorder);
    expect(without.undetermined).toEqual([{ event: 1, kind: 'cushion', field: 'ball', candidates: ['white', 'red'] }]);
    const r = enumerateWorlds([ball('white', 'red'), railOf('foot', ['red', 'yellow'])], balls, 'white', recorder);
    expect(r.undetermined).toEqual([]);
    expect(r.inferred.get(1)).toBe('red');
  });

  it('an unknown pair is read only as one of its candidate pairs, in either order', () => {
    const r = enumerateWorlds([{ kind: 'ball', balls: [null, null], candidates: [['yellow', 'white']] }], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state)).toEqual([['white+yellow']]);
  });

  it('candidates the physics rules out are not taken: the engine keeps its own readings', () => {
    // Before any contact only the cue ball moves: a yellow rail hit is impossible, so white it is.
    const r = enumerateWorlds([railOf('left', ['yellow'])], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state)).toEqual([['left:white']]);
  });

  it('TC-1: three unknown rails the camera gives to the cue ball alone decide the point without a prompt', () => {
    const asked = play(newMatch('three-cushion'), shot(ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball('white', 'yellow')));
    expect(asked.status).toBe('awaiting-referee');
    const v = play(newMatch('three-cushion'), shot(ball('white', 'red'), railOf('foot', ['white']), railOf('right', ['white']), railOf('head', ['white']), ball('white', 'yellow')));
    expect(v.status).not.toBe('awaiting-referee');
    expect(lastShot(v)).toMatchObject({ points: 1 });
  });

  it('a prompt offers only what the candidates leave', () => {
    // The cue ball's third rail is white's or red's: score or no score, asked.
    const v = play(newMatch('three-cushion'), shot(ball('white', 'red'), railOf('foot', ['white']), railOf('right', ['white']), railOf('head', ['white', 'red']), ball('white', 'yellow')));
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['no-score', 'score']);
  });

  it('bad candidates are refused by name: an unknown ball, a pair without the ball the event names, a stated ball left out', () => {
    const m = newMatch('carom');
    rejects(m, shot(ball('white', 'red'), railOf('foot', ['white', 'blue'])), /shot\.events\[1\]\.candidates: unknown ball 'blue'/);
    rejects(m, shot({ kind: 'ball', balls: ['white', null], candidates: [['yellow', 'red']] }), /candidates: the pair yellow\+red leaves out white/);
    rejects(m, shot({ kind: 'cushion', rail: 'foot', ball: 'white', candidates: ['red'] }), /candidates: 'white', which the event names, is not among them/);
  });

  it('the match log accepts candidates and refuses malformed ones', () => {
    expect(eventSchema.safeParse({ kind: 'cushion', rail: 'foot', ball: null, candidates: ['white', 'red'] }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'ball', balls: [null, null], candidates: [['white', 'red']] }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'cushion', rail: 'foot', ball: null, candidates: [] }).success).toBe(false);
    expect(eventSchema.safeParse({ kind: 'ball', balls: [null, null], candidates: [['white']] }).success).toBe(false);
  });
});
