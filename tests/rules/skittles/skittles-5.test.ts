import { describe, expect, it } from 'vitest';
import { Match } from '../../../hub/rules/match.ts';
import { fiveSkittleValue } from '../../../hub/rules/skittles/values.ts';
import type { SkittleId } from '../../../hub/rules/ids.ts';
import { at, ball, fell, foul, lastShot, off, rail, rule, scores, shoot, start } from './helpers.ts';

const V = 'skittles-5';

/** Cue ball into `one`, `one` off a rail into the given skittles: the plainest legal knock-down. */
const legal = (...skittles: SkittleId[]) => [ball('cue', 'one'), rail('one'), ...skittles.map((s) => fell(s, 'one'))];

describe('five skittles on a carom table', () => {
  it('SK5-1 balls are cue, one and two; both players strike the cue ball', () => {
    const m = start(V);
    expect(m.view().cueBall).toBe('cue');
    expect(m.apply({ kind: 'shot', shot: { events: [ball('white', 'red')] } }).ok).toBe(false);
    shoot(m, [ball('cue', 'one')]);
    expect(m.view().turn).toBe('Ben');
    expect(m.view().cueBall).toBe('cue');
  });

  it('SK5-2 five skittles in a cross around the king on the centre spot; no spot skittles', () => {
    const m = start(V);
    const setup = m.view().setup as { item: string; at?: readonly [number, number] }[];
    const spot = (s: string) => setup.find((i) => i.item === `skittle:${s}`)!.at!;
    expect(spot('king')).toEqual([1420, 710]);
    expect(spot('head')[1]).toBe(710);
    expect(spot('head')[0]).toBeLessThan(1420);
    expect(spot('foot')[0] - 1420).toBeCloseTo(1420 - spot('head')[0]);
    expect(spot('left')[0]).toBe(1420);
    expect(spot('left')[1]).toBeLessThan(710);
    expect(m.apply({ kind: 'shot', shot: { events: [fell('spot1', 'one')] } }).ok).toBe(false);
  });

  describe('SK5-3 legal knock-downs by a white', () => {
    it('SK5-3 (a) a white off a cushion after being struck', () => {
      const v = shoot(start(V), legal('head'));
      expect(scores(v)).toEqual([2, 0]);
      expect(lastShot(v).rules).toContain('SK5-3');
    });
    it('SK5-3 (b) a white struck by the cue ball in a carom', () => {
      const v = shoot(start(V), [ball('cue', 'two'), ball('cue', 'one'), fell('left', 'one')]);
      expect(scores(v)).toEqual([2, 0]);
      expect(lastShot(v).foul).toBeNull();
    });
    it('SK5-3 (c) a white struck by a cue ball that had touched a cushion', () => {
      const v = shoot(start(V), [rail('cue'), ball('cue', 'one'), fell('king', 'one')]);
      expect(scores(v)).toEqual([5, 0]);
    });
    it('SK5-3 (d) a white struck by the other white that the cue ball hit directly', () => {
      const v = shoot(start(V), [ball('cue', 'one'), ball('one', 'two'), fell('right', 'two')]);
      expect(scores(v)).toEqual([2, 0]);
      expect(lastShot(v).foul).toBeNull();
    });
  });

  it('SK5-3 a white that no event shows moving fells a skittle: the referee says how it got there', () => {
    const m = start(V);
    const v = shoot(m, [ball('cue', 'one'), rail('one'), fell('king', 'two')]);
    expect(v.status).toBe('awaiting-referee');
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['foul', 'score']);
    expect(scores(rule(m, 'score'))).toEqual([5, 0]);
  });

  it('SK5-2 options.table sets the table size: the skittles stand around its centre', () => {
    const setup = start(V, 100, { table: { length: 2540, width: 1270 } }).view().setup as { item: string; at?: readonly [number, number] }[];
    expect(setup.find((i) => i.item === 'skittle:king')!.at).toEqual([1270, 635]);
  });

  it('SK5-3 Decision: a white that came off the other white fells legally ("от шара"); strictKnockDowns reads (a)–(d) literally', () => {
    const kiss = [ball('cue', 'one'), ball('one', 'two'), fell('head', 'one')];
    expect(scores(shoot(start(V), kiss))).toEqual([2, 0]);
    expect(scores(shoot(start(V, 100, { strictKnockDowns: true }), kiss))).toEqual([0, 2]);
    expect(scores(shoot(start(V, 100, { strictKnockDowns: true }), [ball('cue', 'one'), ball('one', 'two'), fell('head', 'two')]))).toEqual([2, 0]);
  });

  describe('SK5-4 foul knock-downs', () => {
    it('SK5-4 the cue ball fells a skittle: its value goes to the opponent', () => {
      const v = shoot(start(V), [ball('cue', 'one'), fell('king', 'cue')]);
      expect(scores(v)).toEqual([0, 5]);
      expect(lastShot(v).foul).toBe('illegal-knock-down');
      expect(v.turn).toBe('Ben');
    });
    it('SK5-4 a white after a plain direct hit fells skittles: a foul, everything to the opponent', () => {
      const v = shoot(start(V), [ball('cue', 'one'), fell('head', 'one'), fell('king', 'one')]);
      expect(scores(v)).toEqual([0, 5]);
      expect(lastShot(v).rules).toContain('SK5-4');
    });
    it('SK5-4 a direct hit, but the carom was made before the white reached the skittles: the points are the shooter’s', () => {
      const v = shoot(start(V), [ball('cue', 'one'), ball('cue', 'two'), fell('head', 'one')]);
      expect(scores(v)).toEqual([2, 0]);
      const w = shoot(start(V), [ball('cue', 'one'), fell('head', 'one'), ball('cue', 'two')]);
      expect(scores(w)).toEqual([0, 2]);
    });
  });

  it('SK5-5 (RULES §11) the sensors not naming the feller is a question, with "could not tell" (a foul) among the answers', () => {
    const m = start(V);
    const v = shoot(m, [ball('cue', 'one'), rail('one'), fell('king', null), fell('head', null)]);
    expect(v.status).toBe('awaiting-referee');
    const couldNotTell = v.prompt!.options.find((o) => o.foul === 'undetermined-feller')!;
    expect(couldNotTell).toMatchObject({ ruling: 'foul', rules: expect.arrayContaining(['SK5-5']), assumption: expect.stringMatching(/could not tell/) });
    expect(v.prompt!.options.some((o) => o.ruling === 'score' && o.points === 5)).toBe(true);
    expect(v.prompt!.facts.map((f) => f.kind)).toEqual(['skittle', 'skittle']);
    expect(scores(rule(m, 'score'))).toEqual([5, 0]);
    const w = start(V);
    shoot(w, [ball('cue', 'one'), rail('one'), fell('king', null), fell('head', null)]);
    expect(lastShot(rule(w, 'foul', w.view().prompt!.options.indexOf(w.view().prompt!.options.find((o) => o.foul === 'undetermined-feller')!))).foul).toBe('undetermined-feller');
    expect(scores(w.view())).toEqual([0, 5]);
  });

  it('SK5-5 a feller the sensors could not name decides nothing by itself when every reading agrees', () => {
    // Only the cue ball moves: it felled the king, a foul whatever the referee would say.
    const v = shoot(start(V), [rail('cue'), fell('king', null)]);
    expect(v).toMatchObject({ status: 'playing', prompt: null });
  });

  it('SK5-5 option undeterminedFellerIsFoul applies the seed to the sensors\' doubt: a foul without a prompt', () => {
    const v = shoot(start(V, 100, { undeterminedFellerIsFoul: true }), [ball('cue', 'one'), rail('one'), fell('king', null), fell('head', null)]);
    expect(v.status).toBe('playing');
    expect(v.prompt).toBeNull();
    expect(lastShot(v).foul).toBe('undetermined-feller');
    expect(lastShot(v).rules).toContain('SK5-5');
    expect(scores(v)).toEqual([0, 5]);
  });

  it('SK5-6 skittle values for one shot (each small 2; king 5, 5, 7, 9; all five 30)', () => {
    const table: [SkittleId[], number][] = [
      [['head'], 2],
      [['left', 'right'], 4],
      [['head', 'foot', 'left', 'right'], 8],
      [['king'], 5],
      [['king', 'head'], 5],
      [['king', 'head', 'left'], 7],
      [['king', 'head', 'left', 'foot'], 9],
      [['king', 'head', 'foot', 'left', 'right'], 30],
    ];
    for (const [felled, points] of table) {
      expect(fiveSkittleValue(felled).points, felled.join('+')).toBe(points);
      expect(scores(shoot(start(V), legal(...felled)))[0], felled.join('+')).toBe(points);
    }
  });

  it('SK5-6 king with two small skittles scores 7', () => {
    expect(scores(shoot(start(V), legal('left', 'king', 'right')))).toEqual([7, 0]);
  });

  it('SK5-7 a carom with no skittle down scores 3 and passes the turn; with skittles only the skittles count', () => {
    const v = shoot(start(V), [ball('cue', 'one'), ball('cue', 'two')]);
    expect(scores(v)).toEqual([3, 0]);
    expect(v.turn).toBe('Ben');
    expect(lastShot(v).rules).toEqual(['SK5-7']);
    const w = shoot(start(V), [ball('cue', 'one'), ball('cue', 'two'), rail('two'), fell('foot', 'two')]);
    expect(scores(w)).toEqual([2, 0]);
    expect(w.turn).toBe('Ana');
  });

  describe('SK5-8 fouls credit everything made to the opponent', () => {
    it('SK5-8 a miss is a foul; with nothing made it credits 0 (Decision) and passes the turn', () => {
      const v = shoot(start(V), [rail('cue'), rail('cue', 'foot')]);
      expect(lastShot(v).foul).toBe('miss');
      expect(scores(v)).toEqual([0, 0]);
      expect(v.turn).toBe('Ben');
    });
    it('SK5-8 option foulPenalty credits a fixed amount when nothing was made', () => {
      const v = shoot(start(V, 100, { foulPenalty: 2 }), [rail('cue')]);
      expect(scores(v)).toEqual([0, 2]);
    });
    it('SK5-8 cue ball off the table, wrong ball, shooting while a skittle is being set: fouls', () => {
      expect(lastShot(shoot(start(V), [ball('cue', 'one'), off('cue')])).foul).toBe('cue-ball-off-table');
      const v = shoot(start(V), [ball('cue', 'one'), rail('one'), fell('king', 'one'), foul('wrong-ball')]);
      expect(scores(v)).toEqual([0, 5]);
      expect(lastShot(shoot(start(V), [foul('moving-balls'), ball('cue', 'one')])).rules).toContain('SK5-8');
    });
  });

  it('SK5-9 striking with the side of the cue: 2 points to the opponent', () => {
    const v = shoot(start(V), [foul('side-of-cue'), ball('cue', 'one')]);
    expect(scores(v)).toEqual([0, 2]);
    expect(lastShot(v).rules).toContain('SK5-9');
  });

  it('SK5-10 the opponent stops a rolling white: 30 to the shooter, who plays on', () => {
    const v = shoot(start(V), [ball('cue', 'one'), foul('stopped-ball', 'opponent')]);
    expect(scores(v)).toEqual([30, 0]);
    expect(v.turn).toBe('Ana');
    expect(lastShot(v).rules).toContain('SK5-10');
  });

  it('SK5-10 the shooter stops the rolling cue ball: 30 plus anything made to the opponent', () => {
    const v = shoot(start(V), [...legal('head'), foul('deflected-cue-ball')]);
    expect(scores(v)).toEqual([0, 32]);
    expect(v.turn).toBe('Ben');
  });

  it('SK5-10 the opponent holds the cue ball: the shooter places it anywhere and, with skittles felled legally, plays on', () => {
    const v = shoot(start(V), [...legal('head'), foul('deflected-cue-ball', 'opponent')]);
    expect(scores(v)).toEqual([2, 0]);
    expect(v.turn).toBe('Ana');
    expect(at(v, 'cue')).toMatchObject({ rule: 'SK5-10' });
    const w = shoot(start(V), [ball('cue', 'one'), foul('deflected-cue-ball', 'opponent')]);
    expect(w.turn).toBe('Ben');
  });

  it('SK5-11 touching a ball then shooting: points made go to the opponent and the position is restored', () => {
    const v = shoot(start(V), [foul('touch'), ...legal('king', 'head')]);
    expect(scores(v)).toEqual([0, 5]);
    expect(lastShot(v).rules).toContain('SK5-11');
    expect(at(v, 'position')?.rule).toBe('SK5-11');
  });

  it('SK5-12 start: skittles set, whites on spots 1 and 3, the cue ball in hand in either half; shown until the break', () => {
    const m = start(V);
    const setup = m.view().setup as { item: string; at?: readonly [number, number]; to: string; rule: string }[];
    expect(setup.find((i) => i.item === 'two')!.at).toEqual([710, 710]);
    expect(setup.find((i) => i.item === 'one')!.at).toEqual([2130, 710]);
    expect(setup.find((i) => i.item === 'cue')!.to).toMatch(/either half/);
    expect(setup.every((i) => i.rule === 'SK5-12')).toBe(true);
    shoot(m, [ball('cue', 'one')]);
    expect(m.view().setup).toBeUndefined();
  });

  describe('SK5-13 balls off the table', () => {
    it('SK5-13 cue ball off: the opponent plays in hand from the half without balls when both whites lie in one', () => {
      const v = shoot(start(V), [ball('cue', 'one'), off('cue')], { positions: { one: [400, 300], two: [900, 1000] } });
      expect(at(v, 'cue')?.to).toMatch(/foot half/);
      const w = shoot(start(V), [ball('cue', 'one'), off('cue')], { positions: { one: [400, 300], two: [2000, 1000] } });
      expect(at(w, 'cue')?.to).toMatch(/either half/);
    });
    it('SK5-13 a white off the table is respotted, no penalty, the points count, the turn passes', () => {
      const v = shoot(start(V), [...legal('head'), off('one')], { positions: { cue: [1000, 300], two: [2000, 1000] } });
      expect(scores(v)).toEqual([2, 0]);
      expect(lastShot(v).foul).toBeNull();
      expect(v.turn).toBe('Ben');
      expect(at(v, 'one')).toMatchObject({ at: [2130, 710], rule: 'SK5-13' });
    });
  });

  describe('SK5-14 the end of the game', () => {
    it('SK5-14 reaching the total by points made ends the game', () => {
      const m = start(V, 10);
      shoot(m, legal('left', 'king', 'right')); // 7
      const v = shoot(m, legal('head', 'foot')); // 4 → 11
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('Ana');
      expect(v.endRule).toBe('SK5-14');
    });
    it('SK5-14 reaching the total by penalties received ends the game too', () => {
      const m = start(V, 5);
      shoot(m, [rail('cue')]); // Ana misses: nothing credited
      const v = shoot(m, [ball('cue', 'one'), fell('king', 'cue')]); // Ben fells the king with the cue ball: 5 to Ana
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('Ana');
    });
    it('SK5-14 a carom alone never ends the game; the next shot, whoever plays it, does (RULES §11)', () => {
      const m = start(V, 3);
      const v = shoot(m, [ball('cue', 'one'), ball('cue', 'two')]);
      expect(v.status).toBe('playing');
      expect(scores(v)).toEqual([3, 0]);
      const w = shoot(m, [ball('cue', 'one')]); // Ben makes nothing: Ana holds the total at the end of this shot
      expect(w).toMatchObject({ status: 'finished', winner: 'Ana', endRule: 'SK5-14' });
    });
    it('SK5-14 the higher total wins when both hold the total; equal totals draw', () => {
      const m = start(V, 3);
      shoot(m, [ball('cue', 'one'), ball('cue', 'two')]); // Ana 3 by a carom alone: play on
      const v = shoot(m, [ball('cue', 'two'), rail('two'), fell('king', 'two')]); // Ben 5: both hold 3
      expect(scores(v)).toEqual([3, 5]);
      expect(v).toMatchObject({ status: 'finished', winner: 'Ben' });
      const d = start(V, 3);
      shoot(d, [ball('cue', 'one'), ball('cue', 'two')]); // Ana 3 by a carom alone
      expect(shoot(d, [ball('cue', 'one'), ball('cue', 'two')]).status).toBe('playing'); // Ben 3 the same way
      const e = shoot(d, [ball('cue', 'one')]); // Ana makes nothing: both hold 3
      expect(e).toMatchObject({ status: 'drawn', winner: null, endRule: 'SK5-14' });
    });
  });

  describe('SK5-15 play modes', () => {
    it('SK5-15 by series: the shooter goes on while skittles fall', () => {
      const m = start(V);
      shoot(m, legal('head'));
      expect(m.view().turn).toBe('Ana');
      shoot(m, legal('foot'));
      expect(m.view().players[0]!.run).toBe(4);
      shoot(m, [ball('cue', 'one')]);
      expect(m.view().turn).toBe('Ben');
    });
    it('SK5-15 by stoss: one shot each, scoring or not', () => {
      const m = start(V, 100, { mode: 'stoss' });
      expect(shoot(m, legal('head')).turn).toBe('Ben');
    });
    it('SK5-15 mixed: the named player plays by stoss, the other by series', () => {
      const m = start(V, 100, { mode: 'mixed', stoss: ['Ben'] });
      expect(shoot(m, legal('head')).turn).toBe('Ana');
      shoot(m, [ball('cue', 'one')]);
      expect(shoot(m, legal('head')).turn).toBe('Ana');
      expect(Match.create({ variant: V, players: ['Ana', 'Ben'], target: 100, options: { mode: 'mixed' } }).ok).toBe(false);
      expect(Match.create({ variant: V, players: ['Ana', 'Ben'], target: 100, options: { mode: 'mixed', stoss: ['Cy'] } }).ok).toBe(false);
    });
  });

  describe('SK5-16 re-setting skittles', () => {
    const pos = (extra: Record<string, [number, number]>) => ({ cue: [600, 300] as [number, number], two: [2500, 1200] as [number, number], ...extra });
    it('SK5-16 a felled skittle whose spot is free goes back on its spot; unknown positions say so', () => {
      const v = shoot(start(V), legal('head'));
      expect(at(v, 'skittle:head')).toMatchObject({ to: 'on its spot', at: [1333.5, 710] });
    });
    it('SK5-16 (a) the king’s place taken: next to the end skittle on the cue ball’s side', () => {
      const v = shoot(start(V), legal('king'), { positions: pos({ one: [1420, 712] }) });
      expect(at(v, 'skittle:king')).toMatchObject({ at: [1247, 710], rule: 'SK5-16(a)' });
    });
    it('SK5-16 (b) a small skittle’s place taken: between the king and the other skittle on its line', () => {
      const v = shoot(start(V), legal('head'), { positions: pos({ one: [1333, 712] }) });
      expect(at(v, 'skittle:head')).toMatchObject({ at: [1463.3, 710], rule: 'SK5-16(b)' });
    });
    it('SK5-16 (c) the king and a small skittle: in a row beyond the standing one on that line, the king last', () => {
      const v = shoot(start(V), legal('king', 'left'), { positions: { cue: [1420, 623.5], one: [1420, 710], two: [2500, 1200] } });
      expect(at(v, 'skittle:left')).toMatchObject({ at: [1420, 883], rule: 'SK5-16(c)' });
      expect(at(v, 'skittle:king')).toMatchObject({ at: [1420, 969.5], rule: 'SK5-16(c)' });
    });
    it('SK5-16 (d)(e) two small skittles on one line: between the king and the standing skittles of the other line', () => {
      const v = shoot(start(V), legal('head', 'foot'), { positions: { cue: [1333.5, 710], one: [1506.5, 710], two: [200, 200] } });
      expect(at(v, 'skittle:head')).toMatchObject({ at: [1420, 666.8], rule: 'SK5-16(d)' });
      const w = shoot(start(V), legal('left', 'right'), { positions: { cue: [1420, 623.5], one: [1420, 796.5], two: [200, 200] } });
      expect(at(w, 'skittle:left')).toMatchObject({ at: [1376.8, 710], rule: 'SK5-16(e)' });
    });
    it('SK5-16 (k) king and both long-line skittles: in a row beside the standing short-line skittle on the cue ball’s side', () => {
      const v = shoot(start(V), legal('king', 'head', 'foot'), { positions: { cue: [1333.5, 710], one: [1506.5, 710], two: [1420, 710] } });
      expect(at(v, 'skittle:king')!.rule).toBe('SK5-16(k)');
      expect(at(v, 'skittle:king')!.at![0]).toBe(1420);
    });
    it('SK5-16 (f) two diagonal places: each between the king and the standing skittle of its line', () => {
      const v = shoot(start(V), legal('head', 'left'), { positions: { cue: [1333.5, 710], one: [1420, 623.5], two: [200, 200] } });
      expect(at(v, 'skittle:head')).toMatchObject({ at: [1463.3, 710], rule: 'SK5-16(f)' });
      expect(at(v, 'skittle:left')).toMatchObject({ at: [1420, 753.3], rule: 'SK5-16(f)' });
    });
    it('SK5-16 (g) the king and the short-line skittles: in a row beyond the long-line skittle away from the cue ball (foot when it lies on the short line)', () => {
      const v = shoot(start(V), legal('king', 'left', 'right'), { positions: { cue: [1420, 623.5], one: [1420, 710], two: [1420, 796.5] } });
      expect(at(v, 'skittle:left')).toMatchObject({ at: [1593, 710], rule: 'SK5-16(g)' });
      expect(at(v, 'skittle:king')).toMatchObject({ at: [1766, 710], rule: 'SK5-16(g)' });
    });
    it('SK5-16 (h) the king and two diagonal skittles: in a row beyond the standing long-line skittle, the king last', () => {
      const v = shoot(start(V), legal('king', 'head', 'left'), { positions: { cue: [1333.5, 710], one: [1420, 710], two: [1420, 623.5] } });
      expect(at(v, 'skittle:head')).toMatchObject({ at: [1593, 710], rule: 'SK5-16(h)' });
      expect(at(v, 'skittle:king')).toMatchObject({ at: [1766, 710], rule: 'SK5-16(h)' });
    });
    it('SK5-16 (i) three small places taken: in a row beyond the standing one', () => {
      const v = shoot(start(V), legal('head', 'foot', 'left'), { positions: { cue: [1333.5, 710], one: [1506.5, 710], two: [1420, 623.5] } });
      expect(at(v, 'skittle:left')).toMatchObject({ at: [1420, 883], rule: 'SK5-16(i)' });
      expect(at(v, 'skittle:foot')).toMatchObject({ at: [1420, 1056], rule: 'SK5-16(i)' });
    });
  });

  it('SK5-17 repeating the same shots: the referee declares the game drawn', () => {
    const m = start(V);
    shoot(m, [ball('cue', 'one')]);
    expect(m.apply({ kind: 'referee', referee: { action: 'draw', reason: 'SK5-17 repeated shots' } }).ok).toBe(true);
    expect(m.view().status).toBe('drawn');
    expect(m.apply({ kind: 'shot', shot: { events: [] } }).ok).toBe(false);
  });
});
