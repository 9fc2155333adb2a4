import { describe, expect, it } from 'vitest';
import { Match } from '../../../hub/rules/match.ts';
import { sevenSkittleValue } from '../../../hub/rules/skittles/values.ts';
import type { SkittleId } from '../../../hub/rules/ids.ts';
import { at, ball, fell, foul, lastShot, off, pocket, rail, rule, scores, shoot, start } from './helpers.ts';

const V = 'skittles-7-pyramid';
const legal = (...skittles: SkittleId[]) => [ball('cue', 'one'), rail('one', 'foot'), ...skittles.map((s) => fell(s, 'one'))];
const ALL: SkittleId[] = ['king', 'head', 'foot', 'left', 'right', 'spot1', 'spot3'];

describe('seven skittles on a pyramid table', () => {
  it('SK7P-1 a pocket table with cue, one and two and seven skittles, the medium ones by spots 1 and 3', () => {
    const m = start(V, 300);
    const setup = m.view().setup as { item: string; at?: readonly [number, number] }[];
    const spot1 = setup.find((i) => i.item === 'skittle:spot1')!.at!;
    const spot3 = setup.find((i) => i.item === 'skittle:spot3')!.at!;
    expect(spot1[1]).toBe(887.5);
    expect(spot1[0]).toBeGreaterThan(887.5); // beside spot 1, a ball on the spot passes it with 5 mm to spare
    expect(spot3[0]).toBeLessThan(2662.5);
    expect(setup.find((i) => i.item === 'skittle:king')!.at).toEqual([1775, 887.5]);
    expect(m.apply({ kind: 'shot', shot: { events: [ball('cue', 'red')] } }).ok).toBe(false);
    expect(m.apply({ kind: 'shot', shot: { events: [ball('cue', 'one'), pocket('one')] } }).ok).toBe(true);
  });

  it('SK7P-2 countdown: legal points are written off; overshooting zero counts as zero and wins', () => {
    const m = start(V, 40);
    expect(scores(m.view())).toEqual([40, 40]);
    expect(scores(shoot(m, legal('spot3')))).toEqual([10, 40]);
    const v = shoot(m, legal('spot1'));
    expect(scores(v)).toEqual([0, 40]);
    expect(v.status).toBe('finished');
    expect(v.winner).toBe('Ana');
    expect(lastShot(v).points).toBe(10);
    expect(lastShot(v).rules).toContain('SK7P-2');
  });

  describe('SK7P-3 values', () => {
    it('SK7P-3 spot skittles 30, small 5, king with a neighbour 25, king alone 50, five central 100', () => {
      const table: [SkittleId[], number][] = [
        [['spot1'], 30],
        [['spot1', 'spot3'], 60],
        [['left'], 5],
        [['left', 'head'], 10],
        [['king', 'head'], 30],
        [['king', 'head', 'foot'], 35],
        [['king'], 50],
        [['king', 'spot3'], 80],
        [['king', 'head', 'foot', 'left', 'right'], 100],
        [['king', 'head', 'foot', 'left', 'right', 'spot1'], 130],
      ];
      for (const [felled, points] of table) {
        expect(sevenSkittleValue(felled, 'SK7P-3').points, felled.join('+')).toBe(points);
        expect(300 - scores(shoot(start(V, 300), legal(...felled)))[0]!, felled.join('+')).toBe(points);
      }
    });
    it('SK7P-3 all seven on a legal shot win at once', () => {
      const v = shoot(start(V, 500), legal(...ALL));
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('Ana');
      expect(v.endRule).toBe('SK7P-3');
    });
    it('SK7P-3 all seven on a foul add the starting total', () => {
      const v = shoot(start(V, 500), [ball('cue', 'one'), ...ALL.map((s) => fell(s, 'cue'))]);
      expect(scores(v)).toEqual([1000, 500]);
      expect(v.status).toBe('playing');
    });
  });

  describe('SK7P-4 legal order', () => {
    it('SK7P-4 (1) cue ball → object ball → cushion → skittles', () => {
      expect(scores(shoot(start(V, 300), legal('head')))).toEqual([295, 300]);
    });
    it('SK7P-4 (2) cue ball → cushion → object ball → skittles', () => {
      expect(scores(shoot(start(V, 300), [rail('cue'), ball('cue', 'two'), fell('left', 'two')]))).toEqual([295, 300]);
    });
    it('SK7P-4 the object ball straight from the cue ball into the skittles: a foul, the value is added', () => {
      const v = shoot(start(V, 300), [ball('cue', 'one'), fell('head', 'one')]);
      expect(scores(v)).toEqual([305, 300]);
      expect(lastShot(v).foul).toBe('illegal-knock-down');
    });
    it('SK7P-4 a transfer from ball to ball needs a cushion first: a carom onto a white without a cushion is not enough', () => {
      expect(lastShot(shoot(start(V, 300), [ball('cue', 'one'), ball('one', 'two'), fell('head', 'two')])).foul).toBe('illegal-knock-down');
      expect(lastShot(shoot(start(V, 300), [ball('cue', 'one'), ball('cue', 'two'), fell('head', 'two')])).foul).toBe('illegal-knock-down');
      const v = shoot(start(V, 300), [ball('cue', 'one'), rail('one'), ball('one', 'two'), fell('head', 'two')]);
      expect(lastShot(v).foul).toBeNull();
      expect(scores(v)).toEqual([295, 300]);
    });
    it('SK7P-4 which ball felled the skittle undetermined and deciding: a referee prompt, not a guess', () => {
      const m = start(V, 300);
      const v = shoot(m, [ball('cue', 'one'), rail('one'), fell('head', null)]);
      expect(v.status).toBe('awaiting-referee');
      expect(v.prompt!.facts[0]!.candidates.sort()).toEqual(['cue', 'one']);
      expect(scores(rule(m, 'foul'))).toEqual([305, 300]);
      m.apply({ kind: 'referee', referee: { action: 'undo' } });
      expect(scores(rule(m, 'score'))).toEqual([295, 300]);
      // Both readings a foul: the same effect, so no question.
      expect(shoot(start(V, 300), [ball('cue', 'one'), fell('head', null)]).status).toBe('playing');
    });
  });

  describe('SK7P-5 fouls', () => {
    it('SK7P-5 a skittle felled by the cue ball: the value felled is added to the shooter', () => {
      const v = shoot(start(V, 300), [ball('cue', 'one'), rail('one'), fell('head', 'one'), fell('king', 'cue')]);
      expect(scores(v)).toEqual([330, 300]);
      expect(v.turn).toBe('Ben');
    });
    it('SK7P-5 option foulForfeitsRun also adds back the run so far', () => {
      const m = start(V, 300, { foulForfeitsRun: true });
      shoot(m, legal('spot3'));
      const v = shoot(m, [ball('cue', 'one'), fell('head', 'cue')]);
      expect(scores(v)).toEqual([305, 300]);
    });
  });

  it('SK7P-6 no contact with an object ball: +5; the cue ball pocketed: +5', () => {
    const v = shoot(start(V, 300), [rail('cue'), rail('cue', 'foot')]);
    expect(scores(v)).toEqual([305, 300]);
    expect(lastShot(v).foul).toBe('miss');
    const w = shoot(start(V, 300), [ball('cue', 'one'), rail('one'), pocket('cue')]);
    expect(scores(w)).toEqual([305, 300]);
    expect(lastShot(w).foul).toBe('cue-ball-pocketed');
  });

  it('SK7P-7 an object ball pocketed writes off 5 and the run continues; it is respotted away from the other object ball', () => {
    const v = shoot(start(V, 300), [ball('cue', 'one'), pocket('one')], { positions: { cue: [2000, 500], two: [1000, 400] } });
    expect(scores(v)).toEqual([295, 300]);
    expect(v.turn).toBe('Ana');
    expect(at(v, 'one')).toMatchObject({ to: 'near spot 3', at: [2662.5, 887.5], rule: 'SK7P-7' });
    const w = shoot(start(V, 300), [ball('cue', 'one'), pocket('one')]);
    expect(at(w, 'one')!.to).toMatch(/away from ball two/);
  });

  describe('SK7P-8 caroms', () => {
    it('SK7P-8 a carom writes off 5 and the run continues', () => {
      const v = shoot(start(V, 300), [ball('cue', 'one'), ball('cue', 'two')]);
      expect(scores(v)).toEqual([295, 300]);
      expect(v.turn).toBe('Ana');
    });
    it('SK7P-8 a called carom made: 5; not made: +5', () => {
      expect(scores(shoot(start(V, 300), [ball('cue', 'one'), ball('cue', 'two')], { declare: 'carom' }))).toEqual([295, 300]);
      const v = shoot(start(V, 300), [ball('cue', 'one')], { declare: 'carom' });
      expect(scores(v)).toEqual([305, 300]);
      expect(lastShot(v).foul).toBe('called-carom-missed');
    });
  });

  it('SK7P-9 a ball off the table is a foul; the object ball is respotted, the cue ball in hand from the kitchen', () => {
    const v = shoot(start(V, 300), [ball('cue', 'one'), rail('one'), fell('head', 'one'), off('one')], { positions: { cue: [2000, 500], two: [3000, 400] } });
    expect(lastShot(v).foul).toBe('ball-off-table');
    expect(scores(v)).toEqual([305, 300]);
    expect(at(v, 'one')).toMatchObject({ to: 'near spot 1', rule: 'SK7P-9' });
    const w = shoot(start(V, 300), [ball('cue', 'one'), off('cue')]);
    expect(at(w, 'cue')).toMatchObject({ to: 'in hand, from the kitchen', rule: 'SK7P-9' });
  });

  describe('SK7P-10 the run', () => {
    it('SK7P-10 the run goes on while shots score and ends on a shot that scores nothing', () => {
      const m = start(V, 300);
      shoot(m, legal('head'));
      shoot(m, [ball('cue', 'one'), pocket('one')]);
      expect(m.view().turn).toBe('Ana');
      const v = shoot(m, [ball('cue', 'one'), rail('one')]);
      expect(v.turn).toBe('Ben');
      expect(lastShot(v).rules).toContain('SK7P-10');
    });
    it('SK7P-10 after a foul the display tells the opponent they may make the offender play on', () => {
      const v = shoot(start(V, 300), [foul('push'), ball('cue', 'one')]);
      expect(v.turn).toBe('Ben');
      expect(at(v, 'turn')?.rule).toBe('SK7P-10');
    });
  });

  it('SK7P-11 break: the object ball near spot 3, the cue ball in hand from the kitchen', () => {
    const setup = start(V, 300).view().setup as { item: string; to: string; at?: readonly [number, number]; rule: string }[];
    expect(setup.find((i) => i.item === 'one')!.at).toEqual([2662.5, 887.5]);
    expect(setup.find((i) => i.item === 'cue')!.to).toMatch(/kitchen/);
    expect(setup[0]!.rule).toBe('SK7P-11');
  });

  describe('SK7P-12 skittle places taken by balls', () => {
    it('SK7P-12 a medium skittle goes to the midpoint between its spot and the centre spot', () => {
      const v = shoot(start(V, 300), legal('spot1'), { positions: { one: [961, 890], cue: [2000, 300], two: [3000, 300] } });
      expect(at(v, 'skittle:spot1')).toMatchObject({ at: [1331.3, 887.5], rule: 'SK7P-12' });
    });
    it('SK7P-12 a central skittle goes to the nearest free point on its line toward the king (Decision)', () => {
      const v = shoot(start(V, 300), legal('head'), { positions: { one: [1679, 887.5], cue: [2000, 300], two: [3000, 300] } });
      const i = at(v, 'skittle:head')!;
      expect(i.rule).toBe('SK7P-12');
      expect(i.at![1]).toBe(887.5);
      expect(i.at![0]).toBeGreaterThan(1679 + 34);
      expect(i.at![0]).toBeLessThan(1775);
    });
    it('SK7P-12 free places: on its spot', () => {
      expect(at(shoot(start(V, 300), legal('king')), 'skittle:king')).toMatchObject({ to: 'on its spot', at: [1775, 887.5] });
    });
  });

  it('SK7P-2 option finishWithSafety: reaching zero asks for a finishing safety', () => {
    const m = start(V, 30, { finishWithSafety: true });
    const v = shoot(m, legal('spot3'));
    expect(v.status).toBe('playing');
    expect(scores(v)).toEqual([0, 30]);
    const w = shoot(m, [ball('cue', 'two'), rail('two')]);
    expect(w.status).toBe('finished');
    expect(w.winner).toBe('Ana');
    expect(Match.create({ variant: V, players: ['Ana', 'Ben'], target: 300, options: { missIsFoul: true } }).ok).toBe(false);
  });
});
