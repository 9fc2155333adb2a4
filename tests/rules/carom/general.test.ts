import { describe, expect, it } from 'vitest';
import { ball, caromShot, foul, lastShot, miss, newMatch, off, play, rail, referee, rejects, scores, shot, shotWith } from '../helpers.ts';

describe('general carom rules (RULES §1)', () => {
  it('G-1 each player owns a white for the whole match; red is never a cue ball', () => {
    const m = newMatch('carom');
    expect(play(m).cueBall).toBe('white');
    const v = play(m, miss('white'));
    expect(v.turn).toBe('Ben');
    expect(v.cueBall).toBe('yellow');
    expect(play(m, miss('yellow')).cueBall).toBe('white');
    // A rail before any ball contact is the cue ball's: never the red's.
    const v2 = play(m, shot(rail('left'), ball('white', 'red'), ball('white', 'yellow')));
    expect(lastShot(v2).points).toBe(1);
  });

  it('G-2 with three players the incoming player takes the white not used on the last shot', () => {
    const m = newMatch('carom', 10, {}, ['Ana', 'Ben', 'Cid']);
    const cues: (string | null)[] = [m.view().cueBall];
    play(m, caromShot('white'));
    cues.push(m.view().cueBall); // within a run the shooter keeps the ball
    for (const _ of [1, 2, 3]) {
      play(m, miss(m.view().cueBall!));
      cues.push(m.view().cueBall);
    }
    expect(cues).toEqual(['white', 'white', 'yellow', 'white', 'yellow']);
    expect(m.view().turn).toBe('Ana');
  });

  it('G-3 the lag is settled before the log: the first listed player breaks', () => {
    const m = newMatch('three-cushion', 5, {}, ['Ben', 'Ana']);
    expect(m.view().turn).toBe('Ben');
    expect(m.view().players.map((p) => p.innings)).toEqual([1, 0]);
  });

  it('G-4 the break position is known, so the break needs no position data even where zones apply', () => {
    const m = newMatch('balkline-47-1');
    const v = play(m, caromShot('white'), caromShot('white'));
    // The break carom counted from the known break position; only the second shot's start is unknown.
    expect(v.shots).toHaveLength(1);
    expect(v.status).toBe('awaiting-referee');
  });

  it('G-5 the break must hit the red first: the opponent\'s white first is a foul and the point does not count', () => {
    const m = newMatch('carom');
    const v = play(m, shot(ball('white', 'yellow'), ball('white', 'red')));
    expect(lastShot(v)).toMatchObject({ points: 0, foul: 'break-wrong-ball', turnPasses: true });
    expect(lastShot(v).rules).toContain('G-5');
    // After the break, the order is free.
    const v2 = play(m, shot(ball('yellow', 'white'), ball('yellow', 'red')));
    expect(lastShot(v2)).toMatchObject({ points: 1, foul: null });
  });

  it('G-5 an unknown first ball on a scoring break is put to the referee', () => {
    const m = newMatch('carom');
    const v = play(m, shot(ball(null, null), rail('foot', 'white'), ball('white', 'yellow')));
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['foul', 'score']);
    expect(v.prompt!.facts[0]).toMatchObject({ event: 0, field: 'balls' });
    const after = play(m, referee({ ruling: 'score' }));
    expect(after.players[0]!.score).toBe(1);
    expect(lastShot(after).rules).toContain('referee');
  });

  it('G-6 a shot is judged only as a whole: the cue ball leaving the table after the carom still spoils it', () => {
    const m = newMatch('carom');
    const v = play(m, shot(ball('white', 'red'), ball('white', 'yellow'), off('white')));
    expect(lastShot(v)).toMatchObject({ points: 0, foul: 'cue-ball-off-table', turnPasses: true });
  });

  it.each(['touch', 'double-hit', 'push', 'no-foot', 'moving-balls', 'wrong-ball'] as const)('G-7 a %s foul ends the run and the point does not count', (kind) => {
    const m = newMatch('carom');
    const v = play(m, caromShot('white'), shot(ball('white', 'red'), ball('white', 'yellow'), foul(kind)));
    expect(scores(v)).toEqual([1, 0]);
    expect(lastShot(v)).toMatchObject({ foul: kind, turnPasses: true, rules: ['G-7'] });
    expect(v.turn).toBe('Ben');
  });

  it('G-7 a foul by the opponent is not a carom rule and is rejected', () => {
    rejects(newMatch('carom'), shot(foul('touch', 'opponent')), /only a rule of the skittle games/);
  });

  it('G-8 a player who forfeits loses the match', () => {
    const m = newMatch('carom');
    const v = play(m, caromShot('white'), referee({ action: 'forfeit', player: 'Ana', reason: 'repeated touching foul after warning' }));
    expect(v).toMatchObject({ status: 'finished', winner: 'Ben', endRule: 'G-8', turn: null });
  });

  it('G-9 outside interference: the referee restores the position (undo) with no penalty', () => {
    const m = newMatch('carom');
    play(m, caromShot('white'));
    const before = JSON.stringify(m.view());
    play(m, miss('white'), referee({ action: 'undo' }));
    expect(JSON.stringify(m.view())).toBe(before);
  });

  describe('G-10 safeties', () => {
    const safety = (cue: string, ...events: Parameters<typeof shot>) => shotWith({ declare: 'safety' }, ...events);

    it('G-10 a safety is valid when a ball reaches a cushion after the contact: no points, the turn passes', () => {
      const m = newMatch('carom');
      const v = play(m, safety('white', ball('white', 'red'), rail('foot', 'red')));
      expect(lastShot(v)).toMatchObject({ points: 0, foul: null, turnPasses: true, rules: ['G-10'] });
    });

    it('G-10 a safety with no cushion after the contact is a foul', () => {
      const m = newMatch('carom');
      const v = play(m, safety('white', rail('left', 'white'), ball('white', 'red')));
      expect(lastShot(v)).toMatchObject({ foul: 'invalid-safety', turnPasses: true });
    });

    it('G-10 after a safety the player\'s next inning must open with a scoring attempt: a second safety is a foul', () => {
      const m = newMatch('carom');
      play(m, safety('white', ball('white', 'red'), rail('foot', 'red')), miss('yellow'));
      const v = play(m, safety('white', ball('white', 'red'), rail('foot', 'red')));
      expect(lastShot(v)).toMatchObject({ foul: 'second-safety' });
      // The opponent, who has not played a safety, may.
      const v2 = play(m, safety('yellow', ball('yellow', 'red'), rail('foot', 'red')));
      expect(lastShot(v2).foul).toBeNull();
    });

    it('G-10 after a foul the next inning must be a scoring attempt too', () => {
      const m = newMatch('carom');
      play(m, shot(ball('white', 'red'), foul('push')), miss('yellow'));
      const v = play(m, safety('white', ball('white', 'red'), rail('foot', 'red')));
      expect(lastShot(v).foul).toBe('second-safety');
    });

    it('G-10 a match may forbid safeties altogether (USBA note)', () => {
      const m = newMatch('three-cushion', 10, { safetiesAllowed: false });
      const v = play(m, safety('white', ball('white', 'red'), rail('foot', 'red')));
      expect(lastShot(v)).toMatchObject({ foul: 'safety-not-allowed', rules: ['G-10', 'TC-6'] });
    });
  });

  describe('G-11 balls off the table', () => {
    it('G-11 an object ball off the table: the carom counts, the run goes on, and the ball is respotted', () => {
      const m = newMatch('carom');
      const v = play(m, shot(ball('white', 'red'), off('red'), ball('white', 'yellow')));
      expect(lastShot(v)).toMatchObject({ points: 1, turnPasses: false });
      expect(lastShot(v).rules).toContain('G-11');
      expect(v.instructions).toEqual([{ item: 'red', to: 'foot spot, else head spot, else center spot', rule: 'G-11' }]);
    });

    it('G-11 the cue ball goes to the head spot, else the foot spot, judged from where the balls lie', () => {
      const m = newMatch('carom');
      const onHead = { yellow: [710, 710] as const, red: [2000, 300] as const };
      const v = play(m, shotWith({ positions: onHead }, ball('white', 'red'), off('white')));
      expect(lastShot(v).foul).toBe('cue-ball-off-table');
      expect(v.instructions).toEqual([{ item: 'white', to: 'foot spot', at: [2130, 710], rule: 'G-11' }]);
    });

    it('G-11 when the cue ball sits on an object ball\'s spot, the other object ball is spotted first', () => {
      const m = newMatch('carom');
      // White stays on the foot spot (the red's spot); red and yellow leave the table.
      const v = play(m, shotWith({ positions: { white: [2130, 710] } }, ball('white', 'red'), ball('white', 'yellow'), off('red'), off('yellow')));
      expect(v.instructions.map((i) => [i.item, i.to])).toEqual([
        ['yellow', 'head spot'],
        ['red', 'center spot'],
      ]);
    });

    it('G-11 all three balls off the table: set up as for the break', () => {
      const m = newMatch('carom');
      const v = play(m, shot(ball('white', 'red'), off('red'), off('white'), off('yellow')));
      expect(v.instructions).toEqual([{ item: 'all balls', to: 'the break position', rule: 'G-4' }]);
    });
  });

  describe('G-12 cue ball frozen to an object ball', () => {
    it('G-12 playing straight into the frozen ball is a foul', () => {
      const m = newMatch('carom');
      play(m, caromShot('white'));
      const v = play(m, shotWith({ frozen: { ball: 'red' } }, ball('white', 'red'), ball('white', 'yellow')));
      expect(lastShot(v)).toMatchObject({ foul: 'frozen-ball-play-away', points: 0 });
    });

    it('G-12 playing away off a cushion or the free ball first is legal', () => {
      const m = newMatch('carom');
      play(m, caromShot('white'));
      const v = play(m, shotWith({ frozen: { ball: 'red' } }, rail('left'), ball('white', 'red'), ball('white', 'yellow')));
      expect(lastShot(v)).toMatchObject({ foul: null, points: 1 });
      const v2 = play(m, shotWith({ frozen: { ball: 'red' } }, ball('white', 'yellow'), ball('white', 'red')));
      expect(lastShot(v2)).toMatchObject({ foul: null, points: 1 });
    });

    it('G-12 the frozen ball must be a real object ball', () => {
      rejects(newMatch('carom'), shotWith({ frozen: { ball: 'white' } }, ball('white', 'red')), /is the cue ball itself/);
    });
  });

  it('G-13 frozen to a cushion: the push-off (that rail before any other contact) does not count, later ones do', () => {
    const m = newMatch('three-cushion');
    const frozen = { frozen: { cushion: 'left' as const } };
    // RULES §11: the first hit on the frozen rail recorded after the cue ball touched a ball counts.
    const three = [ball('white', 'red'), rail('left', 'white'), rail('foot', 'white'), rail('right', 'white'), ball('white', 'yellow')];
    const v = play(m, shotWith(frozen, ...three));
    expect(lastShot(v).points).toBe(1);
    const afterRail = play(newMatch('three-cushion'), shotWith(frozen, rail('foot', 'white'), rail('left', 'white'), rail('right', 'white'), ball('white', 'red'), ball('white', 'yellow')));
    expect(lastShot(afterRail).points).toBe(1);
    const pushOff = play(newMatch('three-cushion'), shotWith(frozen, rail('left', 'white'), rail('foot', 'white'), rail('right', 'white'), ball('white', 'red'), ball('white', 'yellow')));
    expect(lastShot(pushOff).points).toBe(0);
    const m2 = newMatch('three-cushion');
    const v2 = play(m2, shotWith(frozen, rail('left', 'white'), ball('white', 'red'), rail('left', 'white'), rail('foot', 'white'), rail('right', 'white'), ball('white', 'yellow')));
    expect(lastShot(v2).points).toBe(1);
  });

  describe('G-14 the match', () => {
    it('G-14 a carom scores one point and the run goes on; a miss passes the turn', () => {
      const m = newMatch('carom', 30);
      const v = play(m, caromShot('white'), caromShot('white'), miss('white'));
      expect(v.players[0]).toMatchObject({ score: 2, highRun: 2, innings: 1, average: 2 });
      expect(v.turn).toBe('Ben');
      expect(v.players[1]).toMatchObject({ innings: 1, run: 0 });
    });

    it('G-14 the first to the target wins', () => {
      const m = newMatch('carom', 2);
      const v = play(m, caromShot('white'), caromShot('white'));
      expect(v).toMatchObject({ status: 'finished', winner: 'Ana', turn: null, endRule: 'G-14' });
      rejects(m, caromShot('white'), /finished/);
    });

    it('G-14 with an equalizing inning the opponent gets the last inning; both reaching the target draw', () => {
      const m = newMatch('carom', 2, { equalizingInning: true });
      let v = play(m, caromShot('white'), caromShot('white'));
      expect(v).toMatchObject({ status: 'playing', turn: 'Ben' });
      v = play(m, caromShot('yellow'), caromShot('yellow'));
      expect(v).toMatchObject({ status: 'drawn', winner: null });
      const m2 = newMatch('carom', 2, { equalizingInning: true });
      v = play(m2, caromShot('white'), caromShot('white'), caromShot('yellow'), miss('yellow'));
      expect(v).toMatchObject({ status: 'finished', winner: 'Ana' });
    });

    it('G-14 an innings limit ends the match after equal innings; the higher score wins', () => {
      const m = newMatch('carom', 50, { inningsLimit: 2 });
      const v = play(m, caromShot('white'), miss('white'), miss('yellow'), miss('white'));
      expect(v.status).toBe('playing');
      const end = play(m, miss('yellow'));
      expect(end).toMatchObject({ status: 'finished', winner: 'Ana', endRule: 'innings-limit' });
      expect(end.players.map((p) => p.innings)).toEqual([2, 2]);
    });

    it('G-14 handicap: each player plays to an own target', () => {
      const m = newMatch('carom', 3, { targets: { Ben: 1 } });
      const v = play(m, miss('white'), caromShot('yellow'));
      expect(v).toMatchObject({ status: 'finished', winner: 'Ben' });
      expect(v.players.map((p) => p.target)).toEqual([3, 1]);
    });
  });
});
