import { Match, type EngineConfig } from '../../hub/rules/match.ts';
import type { MatchInput, MatchSetup, Shot } from '../../hub/rules/events.ts';

/**
 * The benches and the fitting script drive the engine with setups and actions they made
 * themselves: a refusal there is a bug in the harness, so it throws instead of returning.
 */
export function createMatch(setup: Parameters<typeof Match.create>[0], config: EngineConfig = {}): Match {
  const m = Match.create(setup, config);
  if (!m.ok) throw new Error(m.error);
  return m.value;
}

export function must(r: { ok: boolean; error?: string }): void {
  if (!r.ok) throw new Error(r.error);
}

/** A match rebuilt from its setup and inputs (a bench's copy of a log, to try another reading on). */
export function replay(setup: MatchSetup, inputs: readonly MatchInput[]): Match {
  const m = createMatch(setup);
  for (const input of inputs) must(m.apply(input));
  return m;
}

/**
 * The ground truth's shot played on the truth match: the inputs it took. A shot with every
 * fact known asks only about facts outside the events (an assumption); the truth takes the
 * engine's first option there, as the benches always have.
 */
export function playTruth(truth: Match, shot: Shot): MatchInput[] {
  const inputs: MatchInput[] = [{ kind: 'shot', shot }];
  must(truth.apply(inputs[0]!));
  const known = truth.view();
  if (known.status === 'awaiting-referee') {
    inputs.push({ kind: 'referee', referee: { ruling: known.prompt!.options[0]!.ruling, option: 0 } });
    must(truth.apply(inputs[1]!));
  }
  return inputs;
}
