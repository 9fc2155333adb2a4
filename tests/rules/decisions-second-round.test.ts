import { describe, expect, it } from 'vitest';
import type { Point } from '../../hub/rules/events.ts';
import { MATCH_TABLE } from '../../hub/rules/options.ts';
import { BALKLINE_PRESETS, zoneOf, zonesOf } from '../../hub/rules/zones.ts';
import { ball, foul, lastShot, newMatch, play, rail, referee, scores, shot, shotWith } from './helpers.ts';
import { at, fell, pocket, quietBreak, rail as skRail, shoot, start } from './skittles/helpers.ts';

/** RULES §11, "Decisions, second round": each decision under its rule id. */

const caromTo = (positions: Record<string, Point>) => shotWith({ positions }, ball('white', 'red'), ball('white', 'yellow'));
const spread = { white: [100, 700], red: [1400, 700], yellow: [300, 200] } satisfies Record<string, Point>;
const inCentre = { white: [100, 700], red: [1400, 700], yellow: [1500, 650] } satisfies Record<string, Point>;

describe('BK-1/BK-3 zones (RULES §11)', () => {
  it('BK-1/BK-3 the carom that brings both object balls into a zone does not count against it', () => {
    const m = newMatch('balkline-47-1', 200);
    play(m, caromTo(spread)); // break: leaves them apart
    let v = play(m, caromTo(inCentre)); // brings them into the central zone: not counted
    v = play(m, caromTo(inCentre)); // first carom with them held there: allowed
    expect(scores(v)).toEqual([3, 0]);
    v = play(m, caromTo(inCentre)); // second while held, and they stay: nothing
    expect(lastShot(v)).toMatchObject({ points: 0, turnPasses: true, foul: null });
  });

  it('BK-1/BK-3 a ball touching a line lies in every zone it touches (in balk)', () => {
    const g = BALKLINE_PRESETS['balkline-47-1'];
    const r = 61.5 / 2;
    expect(zonesOf(g, MATCH_TABLE, [460, 700], r)).toEqual(['c0r1', 'c1r1']);
    expect(zonesOf(g, MATCH_TABLE, [400, 700], r)).toEqual(['c0r1']);
    // Red on the line at 47 cm, yellow in the central zone: both held in the central zone.
    const onLine = { white: [2000, 300], red: [460, 700], yellow: [600, 700] } satisfies Record<string, Point>;
    const m = newMatch('balkline-47-1', 200);
    play(m, caromTo(spread), caromTo(onLine), caromTo(onLine));
    const v = play(m, caromTo(onLine));
    expect(scores(v)).toEqual([3, 0]);
    expect(v.turn).toBe('Ben');
    // Red clear of the line: apart, no limit.
    const clear = { ...onLine, red: [400, 700] } satisfies Record<string, Point>;
    const n = newMatch('balkline-47-1', 200);
    expect(scores(play(n, caromTo(spread), caromTo(clear), caromTo(clear), caromTo(clear)))).toEqual([4, 0]);
  });

  it('BK-1/BK-3 every zone is limited, the central one included; 71/2 has six zones on a 2840 × 1420 table', () => {
    const m = newMatch('balkline-47-2', 200);
    play(m, caromTo(spread), caromTo(inCentre), caromTo(inCentre), caromTo(inCentre));
    expect(play(m, caromTo(inCentre)).turn).toBe('Ben'); // central zone: two caroms, then out
    const g = BALKLINE_PRESETS['balkline-71-2'];
    const zones = new Set<string | null>();
    for (let x = 10; x < 2840; x += 50) for (let y = 10; y < 1420; y += 50) zones.add(zoneOf(g, MATCH_TABLE, [x, y]));
    expect(zones.size).toBe(6);
  });
});

describe('G-13 frozen cushion (RULES §11)', () => {
  it('G-13 the push-off does not count; the first hit on that rail after a ball contact does', () => {
    const frozen = { frozen: { cushion: 'left' as const } };
    const counted = play(newMatch('three-cushion'), shotWith(frozen, ball('white', 'red'), rail('left', 'white'), rail('foot', 'white'), rail('right', 'white'), ball('white', 'yellow')));
    expect(lastShot(counted).points).toBe(1);
    const pushOff = play(newMatch('three-cushion'), shotWith(frozen, rail('left', 'white'), ball('white', 'red'), rail('foot', 'white'), rail('right', 'white'), ball('white', 'yellow')));
    expect(lastShot(pushOff).points).toBe(0);
  });
});

describe('OC-2 errors (RULES §11)', () => {
  it('OC-2 a declared, valid safety is not an error', () => {
    const m = newMatch('one-cushion');
    play(m, shot(ball('white', 'red'), ball('white', 'yellow'), rail('foot', 'white'))); // no cushion first: −1, Ben's turn
    const v = play(m, shotWith({ declare: 'safety' }, ball('yellow', 'red'), rail('foot', 'red')));
    expect(lastShot(v)).toMatchObject({ points: 0, foul: null, rules: ['G-10'] });
    expect(scores(v)).toEqual([-1, 0]);
  });

  it('OC-2 a foul on a shot that also fails OC-1 is one error: −1 in all', () => {
    const v = play(newMatch('one-cushion'), shot(foul('push'), ball('white', 'red')));
    expect(scores(v)).toEqual([-1, 0]);
    expect(lastShot(v)).toMatchObject({ points: -1, foul: 'push' });
  });
});

describe('SK5-10 and SK5-14 (RULES §11)', () => {
  const legal = [ball('cue', 'one'), skRail('one'), fell('head', 'one')];

  it('SK5-10 the opponent stops the rolling cue ball: the shooter places it, scores the skittles felled legally and continues', () => {
    const v = shoot(start('skittles-5'), [...legal, { kind: 'foul', foul: 'stopped-ball', by: 'opponent', ball: 'cue' }]);
    expect(scores(v)).toEqual([2, 0]);
    expect(v.turn).toBe('Ana');
    expect(at(v, 'cue')).toMatchObject({ rule: 'SK5-10', to: expect.stringMatching(/anywhere/) });
  });

  it('SK5-10 the opponent stops a white (named or not): 30 to the shooter, who continues', () => {
    const named = shoot(start('skittles-5'), [ball('cue', 'one'), { kind: 'foul', foul: 'stopped-ball', by: 'opponent', ball: 'one' }]);
    expect(scores(named)).toEqual([30, 0]);
    expect(named.turn).toBe('Ana');
    const unnamed = shoot(start('skittles-5'), [ball('cue', 'one'), foul('stopped-ball', 'opponent')]);
    expect(scores(unnamed)).toEqual([30, 0]);
  });

  it('SK5-10 the shooter stops or deflects the cue ball: 30 plus the shot\'s points to the opponent', () => {
    const v = shoot(start('skittles-5'), [...legal, foul('stopped-ball')]);
    expect(scores(v)).toEqual([0, 32]);
  });

  it('SK5-10 only a stopped-ball foul names a ball, and the ball must be the game\'s', () => {
    const m = start('skittles-5');
    expect(m.apply({ kind: 'shot', shot: { events: [{ kind: 'foul', foul: 'touch', by: 'shooter', ball: 'cue' }] } }).ok).toBe(false);
    expect(m.apply({ kind: 'shot', shot: { events: [{ kind: 'foul', foul: 'stopped-ball', by: 'opponent', ball: 'red' }] } }).ok).toBe(false);
  });

  it('SK5-14 the match ends after the first shot at whose end a player holds the total; the higher total wins', () => {
    const m = start('skittles-5', 3);
    shoot(m, [ball('cue', 'one'), ball('cue', 'two')]); // Ana 3 by a carom alone
    const v = shoot(m, [ball('cue', 'two'), skRail('two'), fell('king', 'two')]); // Ben 5
    expect(v).toMatchObject({ status: 'finished', winner: 'Ben', endRule: 'SK5-14' });
  });
});

describe('SK7C series, SK7P/SK7C fouls and countdown displays (RULES §11)', () => {
  it('SK7C series: any scoring shot continues (a carom alone, a pocketed white); nothing scored ends it', () => {
    const m = start('skittles-7-carom', 300);
    quietBreak(m);
    expect(shoot(m, [ball('cue', 'one'), ball('cue', 'two')]).turn).toBe('Ana');
    expect(shoot(m, [ball('cue', 'one'), pocket('one')]).turn).toBe('Ana');
    expect(shoot(m, [ball('cue', 'one')]).turn).toBe('Ben');
  });

  it('SK7C series: the cue ball pocketed or off the table is a foul, 5 plus the shot\'s felled value', () => {
    const m = start('skittles-7-carom', 300);
    quietBreak(m);
    const v = shoot(m, [ball('cue', 'one'), skRail('one'), fell('head', 'one'), pocket('cue')]);
    expect(lastShot(v)).toMatchObject({ foul: 'cue-ball-pocketed' });
    expect(scores(v)).toEqual([310, 300]);
  });

  it('SK7P/SK7C fouls and other points: a carom and a pocketed white made on a foul shot are added too', () => {
    const c = start('skittles-7-carom', 300);
    quietBreak(c);
    // Carom (5) then the cue ball fells the head skittle (5): 5 penalty + 5 + 5 added.
    const v = shoot(c, [ball('cue', 'one'), ball('cue', 'two'), fell('head', 'cue')]);
    expect(scores(v)).toEqual([315, 300]);
    // Pyramid: a white pocketed (5) and the cue ball pocketed (+5): 10 added.
    const p = shoot(start('skittles-7-pyramid', 300), [ball('cue', 'one'), pocket('one'), pocket('cue')]);
    expect(scores(p)).toEqual([310, 300]);
  });

  it('SK7P/SK7C a ball off the pyramid table with nothing felled costs 0', () => {
    const v = shoot(start('skittles-7-pyramid', 300), [ball('cue', 'one'), skRail('one'), { kind: 'off-table', ball: 'one' }]);
    expect(lastShot(v).foul).toBe('ball-off-table');
    expect(scores(v)).toEqual([300, 300]);
  });

  it('countdown displays: what is left never shows below 0, and countdown games show no average', () => {
    const m = start('skittles-7-pyramid', 20, { finishWithSafety: false });
    const v = shoot(m, [ball('cue', 'one'), skRail('one'), fell('spot1', 'one')]); // 30 against 20 left
    expect(v.players[0]).toMatchObject({ score: 0, average: null });
    expect(v.winner).toBe('Ana');
    const n = start('skittles-7-carom', 10);
    const w = play(n, referee({ action: 'adjust', player: 'Ana', delta: -15, reason: 'scorer error' }));
    expect(w.players[0]!.score).toBe(0);
    expect(w.players.every((p) => p.average === null)).toBe(true);
    expect(newMatch('carom').view().players[0]!.average).toBe(0);
  });
});

describe('AR three players (RULES §11)', () => {
  it('AR three players: cue balls rotate as G-2 and each player keeps theirs through their attempts', () => {
    const m = newMatch('artistic', 1, { figures: ['S01', 'S02'] }, ['Ana', 'Ben', 'Cleo']);
    const cues: string[] = [];
    for (let k = 0; k < 9; k++) {
      const v = m.view();
      cues.push(`${v.turn}:${v.cueBall}`);
      play(m, shot(ball(v.cueBall!, v.cueBall === 'white' ? 'yellow' : 'white'))); // a failed attempt
    }
    expect(cues).toEqual(['Ana:white', 'Ana:white', 'Ana:white', 'Ben:yellow', 'Ben:yellow', 'Ben:yellow', 'Cleo:white', 'Cleo:white', 'Cleo:white']);
    expect(m.view()).toMatchObject({ turn: 'Ana', cueBall: 'yellow' });
  });
});
