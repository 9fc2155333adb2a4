import { expect } from 'vitest';
import { Match } from '../../../hub/rules/match.ts';
import type { Positions, Shot, ShotEvent } from '../../../hub/rules/events.ts';
import type { FoulKind, Rail, SkittleId } from '../../../hub/rules/ids.ts';
import type { MatchView } from '../../../hub/rules/view.ts';

/** Builders for the shots of the skittle tests: the public API only (Match.create, apply, view). */
export const ball = (a: string | null, b: string | null): ShotEvent => ({ kind: 'ball', balls: [a, b] });
export const rail = (who: string | null, r: Rail = 'left'): ShotEvent => ({ kind: 'cushion', rail: r, ball: who });
export const fell = (skittle: SkittleId, by: string | null): ShotEvent => ({ kind: 'skittle', skittle, by });
export const pocket = (who: string | null): ShotEvent => ({ kind: 'pocket', ball: who });
export const off = (who: string | null): ShotEvent => ({ kind: 'off-table', ball: who });
export const foul = (kind: FoulKind, by: 'shooter' | 'opponent' = 'shooter'): ShotEvent => ({ kind: 'foul', foul: kind, by });

export function start(variant: string, target = 100, options: Record<string, unknown> = {}): Match {
  const created = Match.create({ variant, players: ['Ana', 'Ben'], target, options });
  if (!created.ok) throw new Error(created.error);
  return created.value;
}

export function shoot(match: Match, events: ShotEvent[], extra: Omit<Shot, 'events'> = {}): MatchView {
  const applied = match.apply({ kind: 'shot', shot: { events, ...extra } });
  if (!applied.ok) throw new Error(applied.error);
  return match.view();
}

export function rule(match: Match, ruling: 'score' | 'no-score' | 'foul', option?: number): MatchView {
  const applied = match.apply({ kind: 'referee', referee: option === undefined ? { ruling } : { ruling, option } });
  if (!applied.ok) throw new Error(applied.error);
  return match.view();
}

export const scores = (v: MatchView): number[] => v.players.map((p) => p.score);
export const lastShot = (v: MatchView) => v.shots[v.shots.length - 1]!;

/** A legal, pointless break (SK7C-2: a direct hit on ball `one`) and a pointless reply: Ana to play again. */
export function quietBreak(match: Match): void {
  shoot(match, [ball('cue', 'one')]);
  shoot(match, [ball('cue', 'two')]);
  expect(match.view().turn).toBe('Ana');
}

export function at(v: MatchView, item: string) {
  return v.instructions.find((i) => i.item === item);
}

export type { Positions };
