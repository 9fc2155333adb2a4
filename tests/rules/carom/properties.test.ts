import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MatchInput, ShotEvent } from '../../../hub/rules/events.ts';
import { FOUL_KINDS, RAILS } from '../../../hub/rules/ids.ts';
import { Match } from '../../../hub/rules/match.ts';
import { CATALOGUE, VARIANT_IDS } from '../../../hub/rules/catalogue.ts';

/** Every carom game of the catalogue: the games without skittles. */
const CAROM_VARIANTS = VARIANT_IDS.filter((id) => CATALOGUE[id].layout === null);

// Mostly valid ids, now and then an unknown one, so that errors are exercised too.
const ballId = fc.constantFrom<string | null>('white', 'yellow', 'red', null, null, 'white', 'red', 'green');
const point = fc.tuple(fc.integer({ min: 0, max: 2840 }), fc.integer({ min: 0, max: 1420 }));
const event: fc.Arbitrary<ShotEvent> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(ballId, ballId).map(([a, b]) => ({ kind: 'ball' as const, balls: [a, b] as [string | null, string | null] })) },
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...RAILS), ballId).map(([rail, ball]) => ({ kind: 'cushion' as const, rail, ball })) },
  { weight: 1, arbitrary: ballId.map((ball) => ({ kind: 'off-table' as const, ball })) },
  { weight: 1, arbitrary: fc.constantFrom(...FOUL_KINDS).map((foul) => ({ kind: 'foul' as const, foul, by: 'shooter' as const })) },
);
const shotInput: fc.Arbitrary<MatchInput> = fc
  .record(
    {
      events: fc.array(event, { maxLength: 9 }),
      declare: fc.constantFrom('safety' as const),
      positions: fc.record({ white: point, yellow: point, red: point }),
      frozen: fc.constantFrom({ cushion: 'left' as const }, { ball: 'red' }),
    },
    { requiredKeys: ['events'] },
  )
  .map((shot) => ({ kind: 'shot', shot }));
const refereeInput: fc.Arbitrary<MatchInput> = fc.oneof(
  fc.constantFrom('score', 'no-score', 'foul').map((ruling) => ({ kind: 'referee' as const, referee: { ruling: ruling as 'score' } })),
  fc.constant({ kind: 'referee' as const, referee: { action: 'undo' as const } }),
);
const inputs = fc.array(fc.oneof({ weight: 6, arbitrary: shotInput }, { weight: 2, arbitrary: refereeInput }), { maxLength: 40 });
const setup = fc.record({
  variant: fc.constantFrom(...CAROM_VARIANTS),
  players: fc.constantFrom(['Ana', 'Ben'], ['Ana', 'Ben', 'Cid']),
  target: fc.integer({ min: 1, max: 6 }),
  options: fc.constantFrom({}, { equalizingInning: true }, { inningsLimit: 3 }, { safetiesAllowed: false }),
});

type Setup = typeof setup extends fc.Arbitrary<infer T> ? T : never;

function run(s: Setup, list: MatchInput[]): { match: Match; accepted: boolean[] } {
  const created = Match.create(s);
  fc.pre(created.ok); // e.g. artistic has no safeties option: a refused setup is tested elsewhere
  const match = (created as { value: Match }).value;
  return { match, accepted: list.map((i) => match.apply(i).ok) };
}

describe('engine properties, carom games', () => {
  it('never throws: any sequence of events gives a state or a contract error', () => {
    fc.assert(fc.property(setup, inputs, (s, list) => {
      const { match } = run(s, list);
      expect(() => JSON.stringify(match.view())).not.toThrow();
    }), { numRuns: 400 });
  });

  it('replay is deterministic: the same log gives the same state', () => {
    fc.assert(fc.property(setup, inputs, (s, list) => {
      expect(JSON.stringify(run(s, list).match.view())).toBe(JSON.stringify(run(s, list).match.view()));
    }), { numRuns: 200 });
  });

  it('undo after any prefix restores exactly the earlier state', () => {
    fc.assert(fc.property(setup, inputs, inputs, (s, prefix, rest) => {
      const { match } = run(s, prefix);
      const before = JSON.stringify(match.view());
      const undoable = rest.filter((i) => !(i.kind === 'referee' && 'action' in i.referee && i.referee.action === 'undo'));
      let steps = 0;
      for (const input of undoable) if (match.apply(input).ok) steps += 1;
      for (let i = 0; i < steps; i++) expect(match.apply({ kind: 'referee', referee: { action: 'undo' } }).ok).toBe(true);
      expect(JSON.stringify(match.view())).toBe(before);
    }), { numRuns: 200 });
  });

  it('a score changes only as a rule allows: +1 a point, −1 a one-cushion error, a figure value, and only the shooter\'s', () => {
    fc.assert(fc.property(setup, inputs, (s, list) => {
      const created = Match.create(s);
      if (!created.ok) return;
      const match = created.value;
      for (const input of list) {
        if (input.kind === 'referee' && 'action' in input.referee) continue; // undo is covered above
        const before = match.view();
        if (!match.apply(input).ok) {
          expect(JSON.stringify(match.view())).toBe(JSON.stringify(before)); // nothing half-applied
          continue;
        }
        const after = match.view();
        const deltas = after.players.map((p, i) => p.score - before.players[i]!.score);
        const changed = deltas.flatMap((d, i) => (d !== 0 ? [i] : []));
        if (after.shots.length === before.shots.length) {
          expect(changed).toEqual([]); // a prompt opened: nothing scored yet
          continue;
        }
        const result = after.shots[after.shots.length - 1]!;
        const shooter = (s.players as readonly string[]).indexOf(result.shooter);
        expect(changed.every((i) => i === shooter)).toBe(true);
        expect(deltas[shooter]).toBe(result.points);
        const allowed = s.variant === 'artistic' ? [0, 4, 5, 6, 7, 8, 9, 10, 11] : s.variant === 'one-cushion' ? [-1, 0, 1] : [0, 1];
        expect(allowed).toContain(result.points);
        if (result.foul !== null && s.variant !== 'artistic') expect(result.turnPasses).toBe(true); // AR-2: a foul only spends an attempt
        expect(result.rules.length).toBeGreaterThan(0);
      }
    }), { numRuns: 300 });
  });
});
