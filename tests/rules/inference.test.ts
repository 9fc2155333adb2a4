import { describe, expect, it } from 'vitest';
import { crossingMs, enumerateWorlds, type ResolvedEvent, type Scanner } from '../../hub/rules/worlds.ts';
import { IMPULSE_SHARE, MAX_BALL_SPEED, maxRailReturnSpeed, maxRecontactSpeed, minOppositeRailGap, SENSOR_CALIBRATION, skittleRoundTripMs, speedRange, type PhysicalBounds } from '../../hub/rules/bounds.ts';
import { boundsFor } from '../../hub/rules/match.ts';
import { variantById } from '../../hub/rules/variants/index.ts';
import { forEachPlannedShot } from '../../hardware/simulator/fit-likelihood.ts';
import { sensorView } from '../../hardware/simulator/accuracy.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { ball, caromShot, lastShot, newMatch, play, rail, referee, rejects, shot } from './helpers.ts';

/** A scanner that records the resolved events, to see exactly which readings were kept. */
const recorder: Scanner<string[]> = {
  init: () => [],
  step: (s, e: ResolvedEvent) => [...s, e.kind === 'ball' ? e.balls.join('+') : e.kind === 'cushion' ? `${e.rail}:${e.ball}` : e.kind],
  key: (s) => s.join(' '),
};
const balls = ['white', 'yellow', 'red'] as const;
/** The same contact, ids and all (a click's pair in either order). */
function sameReading(a: ResolvedEvent, b: ShotEvent): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'ball' && b.kind === 'ball') return [...a.balls].sort().join('+') === [...b.balls].sort().join('+');
  if (a.kind === 'cushion' && b.kind === 'cushion') return a.rail === b.rail && a.ball === b.ball;
  if (a.kind === 'skittle' && b.kind === 'skittle') return a.skittle === b.skittle && a.by === b.by;
  return ('ball' in a ? a.ball : null) === ('ball' in b ? b.ball : null); // a pocket, the ball off the table
}
/** A game's options as the match reads them (the skittle table among them). */
function parsed(variant: string): Record<string, unknown> {
  const r = variantById(variant)!.parseOptions({ variant, players: ['Ana', 'Ben'], target: 60, options: {} });
  if (!r.ok) throw new Error(r.error);
  return r.value as Record<string, unknown>;
}

describe('facts known, inferred or undetermined (RULES §10)', () => {
  it('rails before the first ball contact are the cue ball\'s: only the cue ball moves', () => {
    const r = enumerateWorlds([rail('left'), rail('foot')], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state)).toEqual([['left:white', 'foot:white']]);
    expect([...r.inferred.entries()]).toEqual([[0, 'white'], [1, 'white']]);
    expect(r.undetermined).toEqual([]);
  });

  it('the first ball contact of a shot involves the cue ball', () => {
    const r = enumerateWorlds([ball(null, null)], balls, 'white', recorder);
    expect(r.worlds.map((w) => w.state[0]).sort()).toEqual(['white+red', 'white+yellow']);
  });

  it('a ball at rest cannot strike a rail: after white hits red, an unknown rail is white\'s or red\'s, never yellow\'s', () => {
    const r = enumerateWorlds([ball('white', 'red'), rail('foot')], balls, 'white', recorder);
    expect(r.undetermined).toEqual([{ event: 1, kind: 'cushion', field: 'ball', candidates: ['white', 'red'] }]);
  });

  it('readings that lead to the same state are merged, so many unknowns stay cheap', () => {
    const events = [ball('white', 'red'), ...Array.from({ length: 40 }, () => rail('foot'))];
    const r = enumerateWorlds(events, balls, 'white', { init: () => 0, step: (s) => Math.min(s + 1, 3), key: String });
    expect(r.worlds.length).toBeLessThanOrEqual(2);
    expect(r.overflow).toBe(false);
  });

  it('an undetermined fact that decides the point opens a prompt; the shot waits for the ruling', () => {
    const m = newMatch('three-cushion');
    const v = play(m, shot(ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball('white', 'yellow')));
    expect(v).toMatchObject({ status: 'awaiting-referee', shots: [] });
    expect(v.prompt!.options.map((o) => o.ruling).sort()).toEqual(['no-score', 'score']);
    rejects(m, caromShot('white'), /prompt is open/);
    const ruled = play(m, referee({ ruling: 'score' }));
    expect(lastShot(ruled)).toMatchObject({ points: 1, ruling: 'score' });
  });

  it('a ruling that the prompt does not allow is refused; a foul may always be ruled', () => {
    const m = newMatch('carom');
    play(m, shot(ball(null, null), rail('foot', 'white'), ball('white', 'yellow')));
    rejects(m, referee({ ruling: 'no-score' }), /not a possible outcome here \(possible: (foul, score|score, foul)\)/);
    const v = play(m, referee({ ruling: 'foul' }));
    expect(lastShot(v)).toMatchObject({ foul: 'break-wrong-ball', turnPasses: true });
  });

  it('a ruling with no prompt open is an error, and undo reopens the prompt it answered', () => {
    const m = newMatch('carom');
    rejects(m, referee({ ruling: 'score' }), /no referee prompt is open/);
    play(m, shot(ball(null, null), rail('foot', 'white'), ball('white', 'yellow')), referee({ ruling: 'score' }));
    const v = play(m, referee({ action: 'undo' }));
    expect(v.status).toBe('awaiting-referee');
    expect(v.shots).toEqual([]);
  });

  it('the referee may overrule with a foul the sensors did not see', () => {
    const m = newMatch('three-cushion');
    play(m, shot(ball('white', 'red'), rail('foot'), rail('right'), rail('head'), ball('white', 'yellow')));
    const v = play(m, referee({ ruling: 'foul' }));
    expect(lastShot(v)).toMatchObject({ foul: 'referee', points: 0, turnPasses: true, rules: ['G-7', 'TC-6', 'referee'] });
  });
});

describe('physical bounds on readings (RULES §10, hub/rules/bounds.ts)', () => {
  const bounds: PhysicalBounds = { table: { length: 2840, width: 1420 }, ballDiameter: 61.5, separateAfterContact: true };
  const at = (e: ShotEvent, t: number): ShotEvent => ({ ...e, t });
  const loud = (e: ShotEvent, t: number, amplitude: number): ShotEvent => ({ ...e, t, amplitude }) as ShotEvent;

  it('two balls that just met cannot meet again, with nothing touched in between, faster than cloth friction can bring them back (SEPARATE_AFTER_CONTACT)', () => {
    const second = (r: { worlds: { state: string[] }[] }, k: number) => r.worlds.map((w) => w.state[k]).sort();
    // 20 ms later at a relative speed of at least 900 mm/s: far more than 2·μg·Δt (about 120 mm/s).
    expect(maxRecontactSpeed(20, 61.5)).toBeLessThan(150);
    const r = enumerateWorlds([loud(ball('white', 'red'), 10, 90), loud(ball(null, null), 30, 60)], balls, 'white', recorder, { bounds });
    expect(second(r, 1)).toEqual(['white+yellow', 'yellow+red']);
    // A soft second click (below the threshold) may be spin bringing the cue ball back onto the red.
    const soft = enumerateWorlds([loud(ball('white', 'red'), 10, 90), loud(ball(null, null), 30, 12)], balls, 'white', recorder, { bounds });
    expect(second(soft, 1)).toEqual(['white+red', 'white+yellow', 'yellow+red']);
    // Without amplitudes (an older log) nothing bounds the second click's speed.
    expect(enumerateWorlds([at(ball('white', 'red'), 10), at(ball(null, null), 30)], balls, 'white', recorder, { bounds }).worlds).toHaveLength(3);
    const after = enumerateWorlds([loud(ball('white', 'red'), 10, 90), at(rail('foot', 'red'), 20), loud(ball(null, null), 30, 60)], balls, 'white', recorder, { bounds });
    expect(second(after, 2)).toEqual(['white+red', 'white+yellow', 'yellow+red']);
    const skittles = enumerateWorlds([loud(ball('white', 'red'), 10, 90), loud(ball(null, null), 30, 60)], balls, 'white', recorder, { bounds: { ...bounds, separateAfterContact: false } });
    expect(skittles.worlds).toHaveLength(3); // a ball may bounce off a standing skittle unreported
  });

  it('TC-1: a ball that struck a rail strikes it again, with nothing touched in between, no faster than the cloth can turn it back (maxRailReturnSpeed)', () => {
    const rails = (r: { worlds: { state: string[] }[] }) => r.worlds.map((w) => w.state.slice(1).join(' ')).sort();
    // Two left-rail hits 18 ms apart, each loud enough for ≥ 0.8 m/s into the rail: not one ball twice (μg·18 ms ≈ 56 mm/s).
    expect(maxRailReturnSpeed(18)).toBeLessThan(60);
    const twoBalls = [loud(ball('white', 'yellow'), 0, 140), loud(rail('left'), 535, 49), loud(rail('left'), 553, 55)];
    expect(rails(enumerateWorlds(twoBalls, balls, 'white', recorder, { bounds }))).toEqual(['left:white left:yellow', 'left:yellow left:white']);
    // A soft second touch may be follow bending the ball back into the same rail.
    const soft = [loud(ball('white', 'yellow'), 0, 140), loud(rail('left'), 535, 49), loud(rail('left'), 553, 12)];
    expect(rails(enumerateWorlds(soft, balls, 'white', recorder, { bounds }))).toHaveLength(4);
    // Something touched in between (a ball, the adjacent rail of a corner) voids the bound.
    const corner = [loud(ball('white', 'yellow'), 0, 140), loud(rail('left', 'white'), 535, 49), loud(rail('head', 'white'), 545, 40), loud(rail('left'), 553, 55)];
    expect(enumerateWorlds(corner, balls, 'white', recorder, { bounds }).worlds.map((w) => w.state.at(-1)).sort()).toEqual(['left:white', 'left:yellow']);
    // Not on a table with skittles: a ball may bounce off a standing skittle unreported.
    expect(rails(enumerateWorlds(twoBalls, balls, 'white', recorder, { bounds: { ...bounds, separateAfterContact: false } }))).toHaveLength(4);
  });

  it('SK5-3: on the carom table of five skittles, a rail struck twice sooner than a trip to a skittle and back is struck by two balls (skittleRoundTripMs)', () => {
    const skittleBalls = ['cue', 'one', 'two'] as const;
    const rails = (r: { worlds: { state: string[] }[] }) => r.worlds.map((w) => w.state.slice(-2).join(' ')).sort();
    const five = boundsFor(variantById('skittles-5')!, parsed('skittles-5'));
    expect(five.skittles?.at).toHaveLength(5);
    // The right skittle stands 623.5 mm from the right rail: ≥ 2 × 537 mm at 12 m/s, about 90 ms.
    expect(skittleRoundTripMs('right', five)).toBeCloseTo(89.6, 0);
    expect(skittleRoundTripMs('foot', five)).toBeGreaterThan(200);
    // Held-out 21223 (five skittles 30 s2 #3): the two right-rail hits 53 ms apart were the two and the cue ball's.
    const hits = (dt: number, ...before: ShotEvent[]) => [loud(ball('cue', 'two'), 188, 130), ...before, loud(rail('right'), 512, 32), loud(rail('right'), 512 + dt, 31)];
    expect(rails(enumerateWorlds(hits(53), skittleBalls, 'cue', recorder, { bounds: five }))).toEqual(['right:cue right:two', 'right:two right:cue']);
    // Time enough to have bounced off a standing skittle unreported: every reading stays.
    expect(rails(enumerateWorlds(hits(95), skittleBalls, 'cue', recorder, { bounds: five }))).toHaveLength(4);
    // A skittle fell earlier in the shot: it may have rolled anywhere, next to the rail too.
    const fell: ShotEvent = { kind: 'skittle', skittle: 'left', by: 'two', t: 300 };
    expect(rails(enumerateWorlds(hits(53, fell), skittleBalls, 'cue', recorder, { bounds: five }))).toHaveLength(4);
    // Not on a pocket table (both seven-skittle games: SK7P-1, SK7C-1): a ball rattling in a side
    // pocket strikes both jaws, one rail's, within milliseconds.
    for (const seven of ['skittles-7-pyramid', 'skittles-7-carom']) {
      const pockets = boundsFor(variantById(seven)!, parsed(seven));
      expect(pockets.skittles).toBeUndefined();
      expect(rails(enumerateWorlds(hits(53), skittleBalls, 'cue', recorder, { bounds: pockets }))).toHaveLength(4);
    }
  });

  it('RULES §10: a fact left open names only the values some reading that lasted gives it (held-out 21224, five skittles 30 s19 #15)', () => {
    const five = boundsFor(variantById('skittles-5')!, parsed('skittles-5'));
    // The cue ball struck the one; a foot-rail hit 41 ms later, then the cue ball's own, loud, 61 ms after it.
    const events = [loud(ball('cue', 'one'), 0, 56), loud(rail('foot'), 41, 48), loud(rail('foot', 'cue'), 102, 58)];
    const r = enumerateWorlds(events, ['cue', 'one', 'two'], 'cue', recorder, { bounds: five });
    // The cue ball's reading of the first hit broke the same-rail bound at the second: the one's it was.
    expect(r.undetermined).toEqual([]);
    expect(r.inferred.get(1)).toBe('one');
    expect(r.worlds.map((w) => w.state[1])).toEqual(['foot:one']);
    // Without the bound both readings last, and the fact is asked with both values.
    const open = enumerateWorlds(events, ['cue', 'one', 'two'], 'cue', recorder, { bounds: { ...five, skittles: undefined } });
    expect(open.undetermined).toEqual([{ event: 1, kind: 'cushion', field: 'ball', candidates: ['cue', 'one'] }]);
  });

  it('SK5-3: skittleRoundTripMs never rules out what happened, over 400 five-skittle physics shots read by the sensors alone', () => {
    const variant = 'skittles-5';
    const bounds = boundsFor(variantById(variant)!, parsed(variant));
    let narrowed = 0;
    forEachPlannedShot(variant, 5150, 400, (shot, cueBall) => {
      const truth = shot.events.filter((e) => e.kind !== 'foul');
      // A reading's state: how far it has followed the truth (-1 once it left it), so readings merge.
      const follows: Scanner<number> = { init: () => 0, step: (k, e) => (k >= 0 && sameReading(e, truth[k]!) ? k + 1 : -1), key: (k) => String(k) };
      const blind = sensorView(shot).events;
      const r = enumerateWorlds(blind, ['cue', 'one', 'two'], cueBall, follows, { bounds });
      expect(r.overflow).toBe(false);
      expect(r.worlds.some((w) => w.state === truth.length), JSON.stringify(shot.events)).toBe(true);
      const without = enumerateWorlds(blind, ['cue', 'one', 'two'], cueBall, follows, { bounds: { ...bounds, skittles: undefined } });
      if (r.worlds.length < without.worlds.length) narrowed += 1;
    });
    expect(narrowed).toBeGreaterThan(0); // the bound is in use on these shots, not vacuous
  });

  it('SK5-3: the held-out shot this bound decides — the cue ball\'s rail hit is no longer read as the two\'s, so no foul is possible and nobody is asked', () => {
    const m = newMatch('skittles-5', 60);
    const v = play(m, shot(
      loud(ball('cue', 'two'), 0, 130), loud(rail('foot', 'two'), 309, 103), loud(rail('right'), 324, 32), loud(rail('right'), 377, 31),
      loud(ball('two', 'cue'), 983, 34), { kind: 'skittle', skittle: 'foot', by: 'two', t: 1522 }, { kind: 'skittle', skittle: 'left', by: 'two', t: 1693 }, loud(rail('left', 'two'), 4376, 12),
    ));
    expect(v.status).not.toBe('awaiting-referee');
    expect(lastShot(v)).toMatchObject({ foul: null, points: 4 });
  });

  it('a ball reaches the opposite rail no sooner than the table allows at the fastest a cue can send it', () => {
    expect(MAX_BALL_SPEED).toBeGreaterThanOrEqual(10_000);
    const gap = minOppositeRailGap('head', bounds.table, bounds.ballDiameter);
    expect(gap).toBeCloseTo(((2840 - 61.5) / MAX_BALL_SPEED) * 1000);
    const events = (dt: number) => [at(ball('white', 'red'), 10), at(rail('head', 'red'), 20), at(rail('foot'), 20 + dt)];
    const soon = enumerateWorlds(events(gap - 1), balls, 'white', recorder, { bounds });
    expect(soon.worlds.map((w) => w.state[2])).toEqual(['foot:white']);
    const late = enumerateWorlds(events(gap + 1), balls, 'white', recorder, { bounds });
    expect(late.worlds.map((w) => w.state[2]).sort()).toEqual(['foot:red', 'foot:white']);
  });

  it('an object ball moves no faster than the contact that set it moving gave it: a soft hit on the red cannot be followed by a loud red–yellow kiss (IMPULSE_SHARE)', () => {
    const [, hi] = speedRange(20);
    const [lo] = speedRange(60);
    expect(lo).toBeGreaterThan(IMPULSE_SHARE * hi);
    const r = enumerateWorlds([loud(ball('white', 'red'), 10, 20), at(rail('foot', 'white'), 400), loud(ball(null, null), 900, 60)], balls, 'white', recorder, { bounds });
    expect(r.worlds.map((w) => w.state[2]).sort()).toEqual(['white+red', 'white+yellow']);
    // As loud as the first: the red may have done it.
    const even = enumerateWorlds([loud(ball('white', 'red'), 10, 20), at(rail('foot', 'white'), 400), loud(ball(null, null), 900, 20)], balls, 'white', recorder, { bounds });
    expect(even.worlds.map((w) => w.state[2]).sort()).toEqual(['white+red', 'white+yellow', 'yellow+red']);
  });

  it('a ball reaches a rail no faster than it moves: a loud rail hit is not the softly struck red (IMPULSE_SHARE)', () => {
    const r = enumerateWorlds([loud(ball('white', 'red'), 10, 20), loud(rail('foot'), 400, 80)], balls, 'white', recorder, { bounds });
    expect(r.worlds.map((w) => w.state[1])).toEqual(['foot:white']);
    const soft = enumerateWorlds([loud(ball('white', 'red'), 10, 20), loud(rail('foot'), 400, 20)], balls, 'white', recorder, { bounds });
    expect(soft.worlds.map((w) => w.state[1]).sort()).toEqual(['foot:red', 'foot:white']);
  });

  it('a softly struck object ball crosses the table no faster than its own energy bound allows (IMPULSE_SHARE, crossingMs)', () => {
    const [, hi] = speedRange(20); // the red leaves at most about IMPULSE_SHARE·500 mm/s
    const crossing = crossingMs('head', IMPULSE_SHARE * hi, bounds);
    expect(crossing).toBeGreaterThan(4000);
    const events = (dt: number) => [loud(ball('white', 'red'), 10, 20), loud(rail('head', 'red'), 500, 12), loud(rail('foot'), 500 + dt, 12)];
    expect(enumerateWorlds(events(crossing - 50), balls, 'white', recorder, { bounds }).worlds.map((w) => w.state[2])).toEqual(['foot:white']);
    expect(enumerateWorlds(events(crossing + 50), balls, 'white', recorder, { bounds }).worlds.map((w) => w.state[2]).sort()).toEqual(['foot:red', 'foot:white']);
  });

  it('amplitudes at the floor or at saturation bound nothing on that side (SENSOR_CALIBRATION)', () => {
    expect(speedRange(SENSOR_CALIBRATION.floor)[0]).toBe(0);
    expect(speedRange(SENSOR_CALIBRATION.ceiling)[1]).toBe(Infinity);
    expect(speedRange(undefined)).toEqual([0, Infinity]);
  });

  it('when the bounds would rule out every reading, the event is read without them (a contact was missed)', () => {
    const r = enumerateWorlds([loud(ball('white', 'red'), 10, 90), loud(ball('white', 'red'), 30, 60)], balls, 'white', recorder, { bounds });
    expect(r.worlds.map((w) => w.state)).toEqual([['white+red', 'white+red']]);
  });
});

describe('referee lines (CONTRACT §1.3)', () => {
  it('adjust changes a score with a reason and is undone like any step, also after the match ended', () => {
    const m = newMatch('carom', 1);
    let v = play(m, referee({ action: 'adjust', player: 'Ben', delta: 2, reason: 'scorer error' }));
    expect(v.players[1]!.score).toBe(2);
    expect(m.adjustmentLog).toEqual([{ player: 'Ben', delta: 2, reason: 'scorer error', afterShot: 0 }]);
    v = play(m, caromShot('white'));
    expect(v.status).toBe('finished');
    v = play(m, referee({ action: 'undo' }), referee({ action: 'undo' }));
    expect(v.players.map((p) => p.score)).toEqual([0, 0]);
    expect(m.adjustmentLog).toEqual([]);
    rejects(m, referee({ action: 'undo' }), /nothing to undo/);
    rejects(m, referee({ action: 'adjust', player: 'Zoe', delta: 1, reason: 'x' }), /'Zoe' is not a player/);
  });

  it('draw ends the match drawn', () => {
    const m = newMatch('carom');
    const v = play(m, referee({ action: 'draw' }));
    expect(v).toMatchObject({ status: 'drawn', winner: null, turn: null });
    rejects(m, referee({ action: 'draw' }), /already drawn/);
  });

  it('a shooter assertion that does not match the turn is an error', () => {
    const m = newMatch('carom');
    rejects(m, { kind: 'shot', shot: { shooter: 'Ben', events: [] } }, /it is Ana's turn/);
  });

  it('unknown ids are errors that name the id', () => {
    const m = newMatch('carom');
    rejects(m, shot(ball('white', 'blue')), /unknown ball 'blue'/);
    rejects(m, shot({ kind: 'skittle', skittle: 'king', by: null }), /has no skittles/);
    rejects(m, shot({ kind: 'pocket', ball: 'red' }), /without pockets/);
    rejects(m, shot(ball('red', 'red')), /cannot meet itself/);
  });

  it('a match line with a bad setup names the problem', () => {
    expect(() => newMatch('snooker')).toThrow(/unknown variant 'snooker'/);
    expect(() => newMatch('carom', 10, { inningsLimit: 0 })).toThrow(/options.inningsLimit/);
    expect(() => newMatch('carom', 10, { safetysAllowed: true })).toThrow(/unknown field 'safetysAllowed'/);
    expect(() => newMatch('carom', 10, {}, ['Ana', 'Ana'])).toThrow(/must differ/);
    expect(() => newMatch('carom', 10, { targets: [1] })).toThrow(/1 targets for 2 players/);
  });
});
