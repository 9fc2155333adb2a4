import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Match } from '../../../hub/rules/match.ts';
import { CATALOGUE, VARIANT_IDS } from '../../../hub/rules/catalogue.ts';
import type { MatchInput, ShotEvent } from '../../../hub/rules/events.ts';
import { FOUL_KINDS, RAILS, SKITTLES, type SkittleId } from '../../../hub/rules/ids.ts';
import { fiveSkittleValue } from '../../../hub/rules/skittles/values.ts';

/**
 * Properties shared by the three skittle games (STYLE 9): replay is deterministic, undo
 * restores the exact earlier view, any input gives a state or an error and never throws,
 * and scores move only as some rule allows.
 */
/** Every skittle game of the catalogue. */
const VARIANTS = VARIANT_IDS.filter((id) => CATALOGUE[id].layout !== null);
const BALLS = ['cue', 'one', 'two', null] as const;

const ballArb = fc.constantFrom(...BALLS);
const eventArb: fc.Arbitrary<ShotEvent> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(ballArb, ballArb).filter(([a, b]) => a === null || a !== b).map(([a, b]): ShotEvent => ({ kind: 'ball', balls: [a, b] })) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...RAILS), ballArb).map(([rail, ball]): ShotEvent => ({ kind: 'cushion', rail, ball })) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...SKITTLES), ballArb).map(([skittle, by]): ShotEvent => ({ kind: 'skittle', skittle: skittle as SkittleId, by })) },
  { weight: 1, arbitrary: ballArb.map((ball): ShotEvent => ({ kind: 'pocket', ball })) },
  { weight: 1, arbitrary: ballArb.map((ball): ShotEvent => ({ kind: 'off-table', ball })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...FOUL_KINDS), fc.constantFrom('shooter' as const, 'opponent' as const)).map(([foul, by]): ShotEvent => ({ kind: 'foul', foul, by })),
  },
);
const point = fc.tuple(fc.integer({ min: 0, max: 3550 }), fc.integer({ min: 0, max: 1775 }));
const shotArb: fc.Arbitrary<MatchInput> = fc
  .record({
    events: fc.array(eventArb, { maxLength: 8 }),
    declare: fc.option(fc.constant('carom' as const), { nil: undefined }),
    positions: fc.option(fc.record({ cue: point, one: point, two: point }), { nil: undefined }),
  })
  .map(({ events, declare, positions }): MatchInput => ({
    kind: 'shot',
    shot: { events, ...(declare ? { declare } : {}), ...(positions ? { positions } : {}) },
  }));
const refereeArb: fc.Arbitrary<MatchInput> = fc.oneof(
  fc.constantFrom('score' as const, 'no-score' as const, 'foul' as const).map((ruling): MatchInput => ({ kind: 'referee', referee: { ruling } })),
  fc.constant<MatchInput>({ kind: 'referee', referee: { action: 'undo' } }),
);
const inputArb = fc.oneof({ weight: 6, arbitrary: shotArb }, { weight: 2, arbitrary: refereeArb });
const setupArb = fc.record({
  variant: fc.constantFrom(...VARIANTS),
  target: fc.integer({ min: 5, max: 300 }),
  mode: fc.constantFrom('series', 'stoss'),
});

function create(setup: { variant: string; target: number; mode: string }): Match {
  const m = Match.create({ variant: setup.variant, players: ['Ana', 'Ben'], target: setup.target, options: { mode: setup.mode } });
  if (!m.ok) throw new Error(m.error);
  return m.value;
}

function play(setup: { variant: string; target: number; mode: string }, inputs: readonly MatchInput[]): Match {
  const m = create(setup);
  for (const input of inputs) m.apply(input);
  return m;
}

const allSubsets = (items: readonly SkittleId[]): SkittleId[][] => items.reduce<SkittleId[][]>((acc, s) => [...acc, ...acc.map((x) => [...x, s])], [[]]);
const FIVE_VALUES = new Set(allSubsets(['king', 'head', 'foot', 'left', 'right']).map((s) => fiveSkittleValue(s).points));

describe('skittle games: properties', () => {
  it('replay is deterministic', () => {
    fc.assert(
      fc.property(setupArb, fc.array(inputArb, { maxLength: 30 }), (setup, inputs) => {
        expect(JSON.stringify(play(setup, inputs).view())).toBe(JSON.stringify(play(setup, inputs).view()));
      }),
      { numRuns: 150 },
    );
  });

  it('undo after any prefix restores exactly the earlier view', () => {
    fc.assert(
      fc.property(setupArb, fc.array(inputArb, { maxLength: 25 }), inputArb, (setup, prefix, next) => {
        const m = play(setup, prefix);
        const before = JSON.stringify(m.view());
        if (next.kind === 'referee' && 'action' in next.referee) return;
        if (!m.apply(next).ok) {
          expect(JSON.stringify(m.view())).toBe(before); // nothing half-applied
          return;
        }
        expect(m.apply({ kind: 'referee', referee: { action: 'undo' } }).ok).toBe(true);
        expect(JSON.stringify(m.view())).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('arbitrary inputs give a state or an error, never a throw', () => {
    const wild = fc.oneof(
      inputArb,
      fc.record({ events: fc.array(fc.record({ kind: fc.constantFrom('ball', 'skittle', 'pocket'), balls: fc.constant(['white', 'red']), skittle: fc.constant('spot3'), by: fc.constant('red'), ball: fc.constant('yellow') }), { maxLength: 3 }) }).map(
        (shot) => ({ kind: 'shot', shot }) as unknown as MatchInput,
      ),
    );
    fc.assert(
      fc.property(setupArb, fc.array(wild, { maxLength: 30 }), (setup, inputs) => {
        const m = create(setup);
        for (const input of inputs) {
          const result = m.apply(input);
          expect(typeof result.ok).toBe('boolean');
        }
        expect(['playing', 'awaiting-referee', 'finished', 'drawn']).toContain(m.view().status);
      }),
      { numRuns: 150 },
    );
  });

  it('scores change only as a rule allows', () => {
    fc.assert(
      fc.property(setupArb, fc.array(inputArb, { maxLength: 30 }), (setup, inputs) => {
        const m = play(setup, inputs);
        const v = m.view();
        const countdown = setup.variant !== 'skittles-5';
        const totals = [0, 0];
        for (const shot of v.shots) {
          const me = shot.shooter === 'Ana' ? 0 : 1;
          totals[me]! += shot.points;
          for (const a of shot.awards ?? []) if (a.player !== shot.shooter) totals[a.player === 'Ana' ? 0 : 1]! += a.points;
          if (setup.variant === 'skittles-5') {
            if (shot.foul === null) {
              // SK5-6 values, SK5-7 carom 3, SK5-10 30 (+ skittles) when the opponent stopped a white.
              const ok = FIVE_VALUES.has(shot.points) || shot.points === 3 || FIVE_VALUES.has(shot.points - 30);
              expect(ok, `points ${shot.points}`).toBe(true);
              expect(shot.awards ?? []).toEqual([]);
            } else {
              // SK5-8 … SK5-10: nothing to the shooter; the opponent is credited what was made, +2 or +30.
              expect(shot.points).toBe(0);
              for (const a of shot.awards ?? []) {
                const base = [0, 2, 30].map((e) => a.points - e);
                expect(base.some((b) => FIVE_VALUES.has(b) || b === 3), `credited ${a.points}`).toBe(true);
              }
            }
          } else {
            // SK7: legal shots write off, fouls add; all points in steps of 5.
            if (shot.foul === null) expect(shot.points).toBeGreaterThanOrEqual(0);
            else expect(shot.points).toBeLessThanOrEqual(0);
            expect(shot.awards ?? []).toEqual([]);
          }
        }
        const shown = v.players.map((p, i) => (countdown ? setup.target - p.score : p.score));
        expect(shown).toEqual(totals);
        if (countdown) for (const p of v.players) expect(p.score).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 200 },
    );
  });
});
