import { describe, expect, it } from 'vitest';
import { sevenSkittleValue } from '../../../hub/rules/skittles/values.ts';
import type { SkittleId } from '../../../hub/rules/ids.ts';
import { at, ball, fell, foul, lastShot, off, pocket, quietBreak, rail, scores, shoot, start } from './helpers.ts';

const V = 'skittles-7-carom';
const legal = (...skittles: SkittleId[]) => [ball('cue', 'one'), rail('one', 'foot'), ...skittles.map((s) => fell(s, 'one'))];
const ALL: SkittleId[] = ['king', 'head', 'foot', 'left', 'right', 'spot1', 'spot3'];

describe('seven skittles, carom game on a pocket table', () => {
  it('SK7C-1 the red cue ball is `cue`, the whites `one` and `two`, on a pocket table', () => {
    const m = start(V, 300);
    expect(m.view().cueBall).toBe('cue');
    expect(m.apply({ kind: 'shot', shot: { events: [ball('cue', 'red')] } }).ok).toBe(false);
    expect(shoot(m, [ball('cue', 'one'), pocket('one')]).status).toBe('playing');
  });

  describe('SK7C-2 the break', () => {
    it('SK7C-2 a direct hit on the far ball `one` is the only legal break', () => {
      const v = shoot(start(V, 300), legal('spot3'));
      expect(scores(v)).toEqual([270, 300]);
    });
    it('SK7C-2 a cushion first, or the near ball first, is a foul: 5 plus anything felled', () => {
      const v = shoot(start(V, 300), [rail('cue'), ball('cue', 'one'), rail('one'), fell('spot3', 'one')]);
      expect(lastShot(v).foul).toBe('illegal-break');
      expect(scores(v)).toEqual([335, 300]);
      expect(lastShot(shoot(start(V, 300), [ball('cue', 'two')])).rules).toContain('SK7C-2');
    });
    it('SK7C-2 missing the object ball on the break: +5', () => {
      const v = shoot(start(V, 300), [rail('cue', 'foot')]);
      expect(lastShot(v).foul).toBe('illegal-break');
      expect(scores(v)).toEqual([305, 300]);
    });
  });

  it('SK7C-3 set-up: spot skittles on spots 1 and 3, each white beside its skittle toward the short cushion', () => {
    const setup = start(V, 300).view().setup as { item: string; at?: readonly [number, number]; rule: string }[];
    const where = (item: string) => setup.find((i) => i.item === item)!.at!;
    expect(where('skittle:spot1')).toEqual([887.5, 887.5]);
    expect(where('skittle:spot3')).toEqual([2662.5, 887.5]);
    expect(where('two')[0]).toBeLessThan(887.5);
    expect(where('one')[0]).toBeGreaterThan(2662.5);
    expect(setup.every((i) => i.rule === 'SK7C-3')).toBe(true);
  });

  it('SK7C-4 countdown from the starting total', () => {
    const m = start(V, 500);
    expect(scores(m.view())).toEqual([500, 500]);
    expect(scores(shoot(m, legal('king')))).toEqual([450, 500]);
  });

  describe('SK7C-5 legal knock-downs', () => {
    it('SK7C-5 (a) a white after cushions, (b) after a carom onto it, (c) off a cue ball that came off a cushion', () => {
      let m = start(V, 300);
      quietBreak(m);
      expect(scores(shoot(m, [ball('cue', 'two'), rail('two'), fell('left', 'two')]))).toEqual([295, 300]);
      m = start(V, 300);
      quietBreak(m);
      expect(scores(shoot(m, [ball('cue', 'one'), ball('cue', 'two'), fell('left', 'two')]))).toEqual([290, 300]);
      m = start(V, 300);
      quietBreak(m);
      expect(scores(shoot(m, [rail('cue'), ball('cue', 'two'), fell('left', 'two')]))).toEqual([295, 300]);
    });
    it('SK7C-5 the cue ball fells a skittle: all points of the shot become penalty points, plus 5', () => {
      const m = start(V, 300);
      quietBreak(m);
      const v = shoot(m, [ball('cue', 'one'), rail('one'), fell('head', 'one'), fell('left', 'cue')]);
      expect(scores(v)).toEqual([315, 300]);
      expect(lastShot(v).rules).toContain('SK7C-5');
    });
    it('SK7C-5 a white set moving by the other white needs a cushion of its own', () => {
      const m = start(V, 300);
      quietBreak(m);
      expect(lastShot(shoot(m, [ball('cue', 'one'), ball('one', 'two'), fell('head', 'two')])).foul).toBe('illegal-knock-down');
    });
  });

  describe('SK7C-6 values', () => {
    it('SK7C-6 small 5, king with others 25, king alone 50, king and four 100, spot skittles 30', () => {
      const table: [SkittleId[], number][] = [
        [['right'], 5],
        [['king', 'right'], 30],
        [['king'], 50],
        [['king', 'head', 'foot', 'left', 'right'], 100],
        [['spot3'], 30],
        [['spot1', 'spot3', 'head'], 65],
      ];
      for (const [felled, points] of table) {
        expect(sevenSkittleValue(felled, 'SK7C-6').points, felled.join('+')).toBe(points);
        expect(500 - scores(shoot(start(V, 500), legal(...felled)))[0]!, felled.join('+')).toBe(points);
      }
    });
    it('SK7C-6 all seven: a win; on a foul the starting total is added', () => {
      const v = shoot(start(V, 500), legal(...ALL));
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('Ana');
      const w = shoot(start(V, 500), [ball('cue', 'one'), ...ALL.map((s) => fell(s, 'one'))]);
      expect(scores(w)).toEqual([1000, 500]);
    });
  });

  describe('SK7C-7 carom, pocketed white, fouls', () => {
    it('SK7C-7 a carom writes off 5; a pocketed white 5, respotted on its start spot', () => {
      const m = start(V, 300);
      expect(scores(shoot(m, [ball('cue', 'one'), ball('cue', 'two')]))).toEqual([295, 300]);
      const v = shoot(m, [ball('cue', 'one'), pocket('one')], { positions: { cue: [1500, 300], two: [800, 1200] } });
      expect(scores(v)).toEqual([290, 300]);
      expect(at(v, 'one')).toMatchObject({ to: 'its start spot', at: [2743.5, 887.5], rule: 'SK7C-11' });
    });
    it('SK7C-7 every foul costs 5 plus the value felled', () => {
      const m = start(V, 300);
      quietBreak(m);
      const v = shoot(m, [foul('double-hit'), ...legal('spot1')]);
      expect(scores(v)).toEqual([335, 300]);
      const w = shoot(m, [ball('cue', 'one'), pocket('cue')]);
      expect(scores(w)).toEqual([335, 305]);
    });
    it('SK7C series (RULES §11): a shot touching no white after the break is a foul, +5; missIsFoul: false only passes the turn', () => {
      const m = start(V, 300);
      quietBreak(m);
      expect(scores(shoot(m, [rail('cue')]))).toEqual([305, 300]);
      expect(lastShot(m.view())).toMatchObject({ foul: 'miss', turnPasses: true });
      const n = start(V, 300, { missIsFoul: false });
      quietBreak(n);
      expect(scores(shoot(n, [rail('cue')]))).toEqual([300, 300]);
    });
  });

  describe('SK7C-8 the finishing safety', () => {
    it('SK7C-8 reaching zero is not yet a win: the player must then play a safety', () => {
      const m = start(V, 30);
      const v = shoot(m, legal('spot3'));
      expect(scores(v)).toEqual([0, 30]);
      expect(v.status).toBe('playing');
      expect(v.turn).toBe('Ana');
      expect(v.finishingSafety).toEqual([true, false]);
      const w = shoot(m, [ball('cue', 'two'), rail('two')]);
      expect(w.status).toBe('finished');
      expect(w.winner).toBe('Ana');
      expect(w.endRule).toBe('SK7C-8');
    });
    it('SK7C-8 a failed finishing safety adds 5 plus what the shot felled', () => {
      const m = start(V, 30);
      shoot(m, legal('spot3'));
      const v = shoot(m, [ball('cue', 'two'), rail('two'), fell('head', 'two')]);
      expect(lastShot(v).foul).toBe('finishing-safety-failed');
      expect(scores(v)).toEqual([10, 30]);
      expect(v.turn).toBe('Ben');
      expect(v.finishingSafety).toEqual([false, false]);
      const w = start(V, 30);
      shoot(w, legal('spot3'));
      expect(scores(shoot(w, [ball('cue', 'two')]))).toEqual([5, 30]); // no ball reached a cushion
    });
    it('SK7C-8 with finishWithSafety off, reaching zero wins at once', () => {
      const v = shoot(start(V, 30, { finishWithSafety: false }), legal('spot3'));
      expect(v.status).toBe('finished');
      expect(v.endRule).toBe('SK7C-4');
    });
  });

  it('SK7C-9 a spot skittle whose spot a ball holds stands midway between its spot and the nearest central skittle', () => {
    const v = shoot(start(V, 300), legal('spot1'), { positions: { one: [887.5, 880], cue: [2000, 300], two: [3000, 300] } });
    expect(at(v, 'skittle:spot1')).toMatchObject({ at: [1283.3, 887.5], rule: 'SK7C-9' });
    expect(at(shoot(start(V, 300), legal('spot1')), 'skittle:spot1')).toMatchObject({ to: 'on its spot', at: [887.5, 887.5] });
  });

  it('SK7C-10 played by series: the run continues while skittles fall; stoss as an option', () => {
    const m = start(V, 300);
    shoot(m, legal('head'));
    expect(m.view().turn).toBe('Ana');
    expect(shoot(start(V, 300, { mode: 'stoss' }), legal('head')).turn).toBe('Ben');
  });

  it('SK7C-11 a white knocked off the table: respotted on its start spot, no penalty, the points count, the turn passes', () => {
    const m = start(V, 300);
    const v = shoot(m, [...legal('spot3'), off('one')], { positions: { cue: [1500, 300], two: [800, 1200] } });
    expect(scores(v)).toEqual([270, 300]);
    expect(lastShot(v).foul).toBeNull();
    expect(v.turn).toBe('Ben');
    expect(at(v, 'one')).toMatchObject({ at: [2743.5, 887.5], rule: 'SK7C-11' });
  });
});
