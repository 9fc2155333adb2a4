import { Match, type EngineConfig } from '../../hub/rules/match.ts';

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
