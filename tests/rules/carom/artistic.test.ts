import { describe, expect, it } from 'vitest';
import { parseCatalogue, SAMPLE_CATALOGUE, type Figure } from '../../../hub/rules/artistic/catalogue.ts';
import { drawSeeded } from '../../../hub/rules/random.ts';
import { ball, lastShot, newMatch, off, play, rail, referee, scores, shot, foul } from '../helpers.ts';

const figureOf = (m: ReturnType<typeof newMatch>) => m.view().figure as Figure & { number: number };
const tokenEvents = (cue: string, sequence: readonly string[]) =>
  sequence.map((t) => {
    if (t === 'red') return ball(cue, 'red');
    if (t === 'other') return ball(cue, cue === 'white' ? 'yellow' : 'white');
    return rail(t === 'cushion' ? 'left' : (t.slice('cushion:'.length) as 'left'), cue);
  });

describe('artistic billiards (RULES §6)', () => {
  it('AR-1 an attempt succeeds only when the cue ball\'s contacts follow the figure exactly', () => {
    const m = newMatch('artistic', 1, { figures: ['S05'] });
    // S05: red, foot, left, other. Missing the left rail fails the attempt.
    let v = play(m, shot(ball('white', 'red'), rail('foot', 'white'), ball('white', 'yellow')));
    expect(lastShot(v)).toMatchObject({ points: 0, rules: ['AR-1', 'AR-2'], turnPasses: false });
    v = play(m, shot(ball('white', 'red'), rail('foot', 'white'), rail('left', 'white'), ball('white', 'yellow'), rail('head', 'white')));
    expect(lastShot(v)).toMatchObject({ points: 6, turnPasses: true }); // later contacts do not matter
  });

  it('AR-1 a generic cushion token accepts any rail; a named one only that rail', () => {
    const m = newMatch('artistic', 1, { figures: ['S06'] }); // cushion, cushion, red, other
    const v = play(m, shot(rail('head'), rail('right'), ball('white', 'red'), ball('white', 'yellow')));
    expect(lastShot(v).points).toBe(7);
  });

  it('AR-2 three attempts per figure, a success earns the figure value and ends the player\'s attempts', () => {
    const m = newMatch('artistic', 1, { figures: ['S01', 'S02'] });
    const failAttempt = shot(ball('white', 'yellow'));
    let v = play(m, failAttempt, failAttempt);
    expect(v).toMatchObject({ turn: 'Ana', attempt: 3 });
    v = play(m, failAttempt);
    expect(v).toMatchObject({ turn: 'Ben', attempt: 1 });
    v = play(m, shot(ball('yellow', 'red'), ball('yellow', 'white')));
    expect(scores(v)).toEqual([0, 4]);
    expect(figureOf(m).id).toBe('S02'); // both players had the figure: the next one comes
    expect(v.turn).toBe('Ana');
  });

  it('AR-3 the competition set is a seeded, reproducible draw from the catalogue', () => {
    const a = newMatch('artistic', 1, { figures: 5, seed: 42 }).view().figures;
    const b = newMatch('artistic', 1, { figures: 5, seed: 42 }).view().figures;
    const c = newMatch('artistic', 1, { figures: 5, seed: 43 }).view().figures;
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(new Set(a as string[]).size).toBe(5);
    expect(drawSeeded([1, 2, 3, 4, 5, 6, 7, 8], 8, 7).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('AR-3 an official catalogue can be loaded in the same format; a bad one is refused with the field named', () => {
    const custom = [{ ...SAMPLE_CATALOGUE[0]!, id: 'X1', value: 11 }];
    const m = newMatch('artistic', 1, { catalogue: custom, figures: ['X1'] });
    expect(figureOf(m)).toMatchObject({ id: 'X1', value: 11 });
    const bad = parseCatalogue([{ ...SAMPLE_CATALOGUE[0]!, value: 12 }]);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/catalogue\[0\]\.value/);
    expect(() => newMatch('artistic', 1, { figures: ['NOPE'] })).toThrow(/no figure 'NOPE'/);
  });

  it('AR-4 a ball leaving the table fails the attempt even when the sequence was right', () => {
    const m = newMatch('artistic', 1, { figures: ['S01'] });
    const v = play(m, shot(ball('white', 'red'), ball('white', 'yellow'), off('red')));
    expect(lastShot(v)).toMatchObject({ points: 0, rules: ['AR-4'] });
  });

  it('AR-5 every player has each figure in the drawn order; after the last the highest total wins', () => {
    const m = newMatch('artistic', 1, { figures: ['S01', 'S03'] });
    const make = (cue: string) => shot(...tokenEvents(cue, figureOf(m).sequence));
    play(m, make('white'), make('yellow')); // S01: 4 each
    let v = play(m, make('white'));
    expect(v.status).toBe('playing');
    v = play(m, shot(foul('touch')), shot(ball('yellow', 'red')), shot(ball('yellow', 'red')));
    expect(v).toMatchObject({ status: 'finished', winner: 'Ana', endRule: 'AR-5' });
    expect(scores(v)).toEqual([9, 4]);
  });

  it('AR-5 equal totals after the last figure are a draw', () => {
    const m = newMatch('artistic', 1, { figures: ['S01'] });
    const v = play(m, shot(...tokenEvents('white', ['red', 'other'])), shot(...tokenEvents('yellow', ['red', 'other'])));
    expect(v).toMatchObject({ status: 'drawn', winner: null });
  });

  it('AR-1 an unknown rail after the first contact that decides the figure opens a prompt', () => {
    const m = newMatch('artistic', 1, { figures: ['S04'] }); // red, right, other
    const v = play(m, shot(ball('white', 'red'), rail('right'), ball('white', 'yellow')));
    expect(v.status).toBe('awaiting-referee');
    expect(play(m, referee({ ruling: 'score' })).players[0]!.score).toBe(5);
  });
});
