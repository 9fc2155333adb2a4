import { expect } from 'vitest';
import type { MatchInput, MatchSetup, RefereeInput, Shot, ShotEvent } from '../../hub/rules/events.ts';
import type { Rail } from '../../hub/rules/ids.ts';
import { Match } from '../../hub/rules/match.ts';
import type { MatchView } from '../../hub/rules/view.ts';

/** Small builders so that a test reads like a referee's notes. */
export const ball = (a: string | null, b: string | null): ShotEvent => ({ kind: 'ball', balls: [a, b] });
export const rail = (r: Rail, b: string | null = null): ShotEvent => ({ kind: 'cushion', rail: r, ball: b });
export const off = (b: string | null): ShotEvent => ({ kind: 'off-table', ball: b });
export const foul = (f: Extract<ShotEvent, { kind: 'foul' }>['foul'], by: 'shooter' | 'opponent' = 'shooter'): ShotEvent => ({ kind: 'foul', foul: f, by });

export const shot = (...events: ShotEvent[]): MatchInput => ({ kind: 'shot', shot: { events } });
export const shotWith = (extra: Omit<Shot, 'events'>, ...events: ShotEvent[]): MatchInput => ({ kind: 'shot', shot: { ...extra, events } });
export const referee = (r: RefereeInput): MatchInput => ({ kind: 'referee', referee: r });

/** Common shots, for the player whose cue ball is `cue`. */
export const caromShot = (cue: string, first = 'red', second = cue === 'white' ? 'yellow' : 'white'): MatchInput =>
  shot(ball(cue, first), ball(cue, second));
export const threeCushionPoint = (cue: string): MatchInput =>
  shot(ball(cue, 'red'), rail('foot', cue), rail('right', cue), rail('head', cue), ball(cue, cue === 'white' ? 'yellow' : 'white'));
export const miss = (cue: string): MatchInput => shot(ball(cue, 'red'), rail('foot', cue));

export function newMatch(variant: string, target = 10, options: Record<string, unknown> = {}, players = ['Ana', 'Ben']): Match {
  const setup: MatchSetup = { variant, players, target, options };
  const created = Match.create(setup);
  if (!created.ok) throw new Error(created.error);
  return created.value;
}

/** Applies inputs that must all be accepted. */
export function play(match: Match, ...inputs: MatchInput[]): MatchView {
  for (const input of inputs) {
    const result = match.apply(input);
    if (!result.ok) throw new Error(`rejected: ${result.error}`);
  }
  return match.view();
}

export function rejects(match: Match, input: MatchInput, message: RegExp): void {
  const before = JSON.stringify(match.view());
  const result = match.apply(input);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error).toMatch(message);
  expect(JSON.stringify(match.view())).toBe(before); // nothing half-applied
}

export const lastShot = (view: MatchView) => view.shots[view.shots.length - 1]!;
export const scores = (view: MatchView) => view.players.map((p) => p.score);
