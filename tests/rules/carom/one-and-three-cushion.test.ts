import { describe, expect, it } from 'vitest';
import { ball, caromShot, foul, lastShot, miss, newMatch, off, play, rail, referee, scores, shot, shotWith, threeCushionPoint } from '../helpers.ts';

describe('one-cushion (RULES §2)', () => {
  it('OC-1 a cushion before the first ball or between the two scores', () => {
    const m = newMatch('one-cushion');
    play(m, shot(rail('left'), ball('white', 'red'), ball('white', 'yellow')));
    const v = play(m, shot(ball('white', 'red'), rail('foot', 'white'), ball('white', 'yellow')));
    expect(scores(v)).toEqual([2, 0]);
    expect(lastShot(v).rules).toContain('OC-1');
  });

  it('OC-1 a cushion only after the second ball does not score', () => {
    const m = newMatch('one-cushion');
    const v = play(m, shot(ball('white', 'red'), ball('white', 'yellow'), rail('foot', 'white')));
    expect(lastShot(v)).toMatchObject({ turnPasses: true });
  });

  it('OC-2 every error costs the offender a point, and the score may go negative', () => {
    const m = newMatch('one-cushion');
    const v = play(m, caromShot('white'));
    expect(scores(v)).toEqual([-1, 0]);
    expect(lastShot(v)).toMatchObject({ points: -1, foul: null, rules: ['OC-1', 'OC-2'] });
    const v2 = play(m, shot(ball('yellow', 'red'), foul('double-hit')));
    expect(scores(v2)).toEqual([-1, -1]);
    expect(lastShot(v2).rules).toEqual(['G-7', 'OC-2']);
  });

  it('OC-2 with oneCushionMissIsError false a miss only passes the turn; fouls still cost a point', () => {
    const m = newMatch('one-cushion', 10, { oneCushionMissIsError: false });
    const v = play(m, caromShot('white'), shot(ball('yellow', 'red'), foul('touch')));
    expect(scores(v)).toEqual([0, -1]);
  });

  it('OC-2 the option is checked at the boundary', () => {
    const created = newMatch.bind(null, 'one-cushion', 10, { oneCushionMissIsError: 'no' });
    expect(created).toThrow(/options.oneCushionMissIsError/);
  });
});

describe('three-cushion (RULES §3)', () => {
  const cue = 'white';
  it.each([
    ['ball, three rails, ball', [ball(cue, 'red'), rail('foot', cue), rail('right', cue), rail('head', cue), ball(cue, 'yellow')]],
    ['three rails, ball, ball', [rail('left'), rail('foot'), rail('right'), ball(cue, 'red'), ball(cue, 'yellow')]],
    ['rail, ball, two rails, ball', [rail('left'), ball(cue, 'red'), rail('foot', cue), rail('right', cue), ball(cue, 'yellow')]],
    ['two rails, ball, rail, ball', [rail('left'), rail('foot'), ball(cue, 'red'), rail('right', cue), ball(cue, 'yellow')]],
    ['the same rail twice counts twice', [ball(cue, 'red'), rail('foot', cue), rail('right', cue), rail('foot', cue), ball(cue, 'yellow')]],
  ])('TC-1 scores: %s', (_name, events) => {
    const v = play(newMatch('three-cushion'), shot(...events));
    expect(lastShot(v)).toMatchObject({ points: 1, turnPasses: false, rules: ['TC-1', 'TC-2'] });
  });

  it('TC-1 two rails before the second ball, or rails only after it, do not score', () => {
    const m = newMatch('three-cushion');
    let v = play(m, shot(ball(cue, 'red'), rail('foot', cue), rail('right', cue), ball(cue, 'yellow'), rail('head', cue)));
    expect(lastShot(v).points).toBe(0);
    v = play(m, shot(ball('yellow', 'red'), ball('yellow', 'white'), rail('foot', 'yellow'), rail('left', 'yellow'), rail('head', 'yellow')));
    expect(lastShot(v).points).toBe(0);
  });

  it('TC-1 rails after the first contact whose ball is unknown and that decide the point open a prompt naming them', () => {
    const m = newMatch('three-cushion');
    const v = play(m, shot(ball(cue, 'red'), rail('foot'), rail('right'), rail('head'), ball(cue, 'yellow')));
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.facts.map((f) => f.event)).toEqual([1, 2, 3]);
    expect(v.prompt!.facts[0]!.candidates.sort()).toEqual(['red', 'white']);
    expect(v.prompt!.question).toMatch(/event 2 \(cushion\)/);
    const ruled = play(m, referee({ ruling: 'no-score' }));
    expect(ruled).toMatchObject({ status: 'playing', turn: 'Ben' });
    expect(lastShot(ruled)).toMatchObject({ ruling: 'no-score', points: 0 });
  });

  it('TC-1 an unknown rail that cannot change the result opens no prompt', () => {
    // Three known cue-ball rails already made the point; the fourth rail's ball does not matter.
    const v = play(newMatch('three-cushion'), shot(ball(cue, 'red'), rail('foot', cue), rail('right', cue), rail('head', cue), rail('left'), ball(cue, 'yellow')));
    expect(v.status).toBe('playing');
    expect(lastShot(v).points).toBe(1);
  });

  it('TC-2 each point continues the run; the target ends the match', () => {
    const m = newMatch('three-cushion', 2);
    const v = play(m, threeCushionPoint('white'), threeCushionPoint('white'));
    expect(v).toMatchObject({ status: 'finished', winner: 'Ana' });
    expect(v.players[0]).toMatchObject({ score: 2, highRun: 2, innings: 1, average: 2 });
  });

  it('TC-3 a break foul passes the turn and the point does not count', () => {
    const m = newMatch('three-cushion');
    const v = play(m, shot(rail('left'), rail('foot'), rail('right'), ball(cue, 'yellow'), ball(cue, 'red')));
    expect(lastShot(v)).toMatchObject({ points: 0, foul: 'break-wrong-ball', turnPasses: true });
    expect(lastShot(v).rules).toEqual(['G-5', 'TC-3', 'TC-6']);
  });

  it('TC-4 any ball leaving the table is a foul', () => {
    const m = newMatch('three-cushion');
    play(m, threeCushionPoint('white'));
    const v = play(m, shot(ball(cue, 'red'), off('red'), rail('foot', cue), rail('right', cue), rail('head', cue), ball(cue, 'yellow')));
    expect(lastShot(v)).toMatchObject({ points: 0, foul: 'ball-off-table', turnPasses: true });
    expect(v.instructions[0]).toMatchObject({ item: 'red', rule: 'G-11' });
  });

  it('TC-5 a safety off an object ball frozen to a cushion needs the cue ball on a cushion or the ball on another cushion', () => {
    const base = { declare: 'safety' as const, objectFrozen: { red: 'left' as const } };
    let v = play(newMatch('three-cushion'), shotWith(base, ball(cue, 'red'), rail('left', 'red')));
    expect(lastShot(v)).toMatchObject({ foul: 'invalid-safety' });
    expect(lastShot(v).rules).toContain('TC-5');
    v = play(newMatch('three-cushion'), shotWith(base, ball(cue, 'red'), rail('right', 'red')));
    expect(lastShot(v)).toMatchObject({ foul: null, turnPasses: true });
    v = play(newMatch('three-cushion'), shotWith(base, ball(cue, 'red'), rail('head', cue)));
    expect(lastShot(v).foul).toBeNull();
  });

  it('TC-6 the penalty ends the run and the points of that shot do not count, nothing is deducted', () => {
    const m = newMatch('three-cushion');
    play(m, threeCushionPoint('white'));
    const v = play(m, shot(ball(cue, 'red'), rail('foot', cue), rail('right', cue), rail('head', cue), ball(cue, 'yellow'), foul('push')));
    expect(scores(v)).toEqual([1, 0]);
    expect(lastShot(v)).toMatchObject({ points: 0, foul: 'push', rules: ['G-7', 'TC-6'] });
    expect(play(m, miss('yellow')).turn).toBe('Ana');
  });
});
