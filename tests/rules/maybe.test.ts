import { describe, expect, it } from 'vitest';
import { eventSchema } from '../../hub/matchlog/schema.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { DID_NOT_HAPPEN, enumerateWorlds, type ResolvedEvent, type Scanner } from '../../hub/rules/worlds.ts';
import { messages } from '../../web/i18n.ts';
import { optionCondition, plainQuestion } from '../../web/pages/referee.ts';
import { ball, lastShot, newMatch, play, rail, shot } from './helpers.ts';

/**
 * The `maybe` extension (docs/contract.md): an event that may not have happened — a camera's
 * near miss (two balls passing within a few mm, a ball close to a rail, a skittle it could not
 * see standing or down). The engine reads it both ways (RULES §10: undetermined, so asked when
 * it matters), and a maybe that no moving ball can have made is read as not having happened.
 */
const recorder: Scanner<string[]> = {
  init: () => [],
  step: (s, e: ResolvedEvent) => [...s, e.kind === 'ball' ? e.balls.join('+') : e.kind === 'cushion' ? `${e.rail}:${e.ball}` : e.kind],
  key: (s) => s.join(' '),
};
const balls = ['white', 'yellow', 'red'] as const;
const maybe = (e: ShotEvent): ShotEvent => ({ ...e, maybe: true }) as ShotEvent;

describe('maybe events (RULES §10, extension)', () => {
  it('a maybe contact is read with and without it, and both readings are named', () => {
    const r = enumerateWorlds([ball('white', 'yellow'), maybe(ball('white', 'red'))], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state).sort()).toEqual([['white+yellow'], ['white+yellow', 'white+red']].sort());
    expect(r.undetermined).toEqual([{ event: 1, kind: 'ball', field: 'balls', candidates: ['white+red', DID_NOT_HAPPEN] }]);
  });

  it('RULES §10, ranking: a maybe contact of an unknown ball weighs its not having happened at one half, whatever number of balls it may have been', () => {
    const r = enumerateWorlds([ball('white', 'yellow'), { kind: 'ball', balls: ['white', null], maybe: true }], balls, 'white', recorder);
    const weight = (key: string) => r.worlds.filter((w) => recorder.key(w.state) === key).reduce((sum, w) => sum + w.weight, 0);
    expect(weight('white+yellow')).toBeCloseTo(0.5);
    expect(weight('white+yellow white+red')).toBeCloseTo(0.25);
    expect(weight('white+yellow white+yellow')).toBeCloseTo(0.25);
    // A named maybe: one to one, as before.
    const named = enumerateWorlds([ball('white', 'yellow'), maybe(ball('white', 'red'))], balls, 'white', recorder);
    expect(named.worlds.map((w) => w.weight)).toEqual([0.5, 0.5]);
  });

  it('ranking: a maybe skittle fall is weighed as the camera\'s mostly were, one in ten (held-out 21229: 21 of 227 had happened)', () => {
    const r = enumerateWorlds([{ kind: 'skittle', skittle: 'king', by: 'cue', maybe: true }], ['cue', 'one', 'two'], 'cue', recorder);
    const weight = (key: string) => r.worlds.filter((w) => recorder.key(w.state) === key).reduce((sum, w) => sum + w.weight, 0);
    expect(weight('skittle')).toBeCloseTo(0.1);
    expect(weight('')).toBeCloseTo(0.9);
  });

  it('a maybe contact of two balls at rest cannot have happened: inferred, nothing asked', () => {
    const r = enumerateWorlds([maybe(ball('yellow', 'red')), ball('white', 'red')], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state)).toEqual([['white+red']]);
    expect(r.inferred.get(0)).toBe(DID_NOT_HAPPEN);
  });

  it('a maybe event is no evidence that a ball moved: a later event of that ball is still unexplained by it alone', () => {
    // The red's maybe contact does not set it moving in the reading where it did not happen.
    const r = enumerateWorlds([maybe(ball('white', 'red')), rail('foot', 'red')], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state)).toEqual([['white+red', 'foot:red']]);
  });

  it('BC-1: a maybe second contact that decides the point is asked; one that changes nothing is not', () => {
    // The break (G-5): the red first.
    const asked = play(newMatch('carom'), shot(ball('white', 'red'), maybe(ball('white', 'yellow'))));
    expect(asked.status).toBe('awaiting-referee');
    expect(asked.prompt!.options.map((o) => o.ruling).sort()).toEqual(['no-score', 'score']);
    expect(asked.prompt!.question).toMatch(/whether it happened/);
    // A maybe rail hit after the point was made changes nothing in basic carom.
    const decided = play(newMatch('carom'), shot(ball('white', 'red'), ball('white', 'yellow'), maybe(rail('foot', 'white'))));
    expect(decided.status).not.toBe('awaiting-referee');
    expect(lastShot(decided)).toMatchObject({ points: 1 });
  });

  it('TC-1: a maybe third cushion before the second object ball is asked', () => {
    const v = play(newMatch('three-cushion'), shot(ball('white', 'red'), rail('foot', 'white'), rail('right', 'white'), maybe(rail('head', 'white')), ball('white', 'yellow')));
    expect(v.status).toBe('awaiting-referee');
    const cond = v.prompt!.options.map((o) => optionCondition(o, v.prompt!.facts, [ball('white', 'red'), rail('foot', 'white'), rail('right', 'white'), maybe(rail('head', 'white')), ball('white', 'yellow')], 'white', messages('en')));
    expect(cond.sort()).toEqual(['No ball (it did not touch the rail)', 'The cue ball']);
  });

  it('the referee console words "did not happen" in English and Russian', () => {
    const facts = [{ event: 1, kind: 'ball', field: 'balls', candidates: ['white+red', DID_NOT_HAPPEN] }];
    const events = [ball('white', 'yellow'), maybe(ball('white', 'red'))];
    expect(plainQuestion(facts, events, messages('en'), 'white')).toMatch(/no contact\?$/);
    expect(plainQuestion(facts, events, messages('ru'), 'white')).toMatch(/касания не было\?$/);
    // An event before the asked one that is itself a maybe says so.
    const later = [{ event: 1, kind: 'cushion', field: 'ball', candidates: ['white', 'red'] }];
    expect(plainQuestion(later, [maybe(ball('white', 'red')), rail('foot')], messages('en'), 'white')).toMatch(/\(maybe\)/);
  });

  it('G-7: a ball that maybe left the table is asked (a foul if it did)', () => {
    const v = play(newMatch('three-cushion'), shot(ball('white', 'red'), rail('foot', 'white'), rail('right', 'white'), rail('head', 'white'), ball('white', 'yellow'), { kind: 'off-table', ball: 'yellow', maybe: true }));
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['foul', 'score']);
  });

  it('the match log accepts maybe: true on ball, rail, skittle, pocket and off-table events, and nothing else', () => {
    expect(eventSchema.safeParse({ kind: 'ball', balls: ['white', 'red'], maybe: true }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'cushion', rail: 'foot', ball: 'white', maybe: true }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'skittle', skittle: 'king', by: null, maybe: true }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'ball', balls: ['white', 'red'], maybe: false }).success).toBe(false);
    expect(eventSchema.safeParse({ kind: 'pocket', ball: 'cue', maybe: true }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'off-table', ball: 'red', maybe: true }).success).toBe(true);
    expect(eventSchema.safeParse({ kind: 'foul', foul: 'push', maybe: true }).success).toBe(false);
  });
});
