import { describe, expect, it } from 'vitest';
import { PhysicsTable } from '../../hardware/simulator/physics/planner.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';
import { Match } from '../../hub/rules/match.ts';
import { seededRandom } from '../../hub/rules/random.ts';

/** Plays `shots` shots of a real match with the physics planner; returns each shot's events and cue ball. */
function play(variant: string, shots: number, seed: number) {
  const setup = { variant, players: ['Ana', 'Ben'], target: 100_000, options: variant === 'artistic' ? { figures: 12 } : {} };
  const create = () => {
    const m = Match.create(setup);
    if (!m.ok) throw new Error(m.error);
    return m.value;
  };
  let match = create();
  const table = new PhysicsTable(variant);
  const random = seededRandom(seed);
  const played: { cueBall: string; events: readonly ShotEvent[]; positions: Record<string, readonly [number, number]>; durationMs: number }[] = [];
  for (let i = 0; i < shots; i++) {
    let view = match.view();
    if (view.status === 'finished' || view.status === 'drawn') {
      match = create();
      view = match.view();
    }
    const figure = (view as { figure?: { sequence: string[] } }).figure?.sequence;
    const planned = table.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions, ...(figure ? { figure } : {}) });
    played.push({ cueBall: view.cueBall!, events: planned.shot.events, positions: { ...planned.shot.positions }, durationMs: planned.durationMs });
    expect(match.apply({ kind: 'shot', shot: planned.shot }).ok).toBe(true);
    const after = match.view();
    if (after.status === 'awaiting-referee') match.apply({ kind: 'referee', referee: { ruling: after.prompt!.options[0]!.ruling, option: 0 } });
  }
  return played;
}

describe('physics planner', () => {
  it.each(['three-cushion', 'carom', 'skittles-5', 'skittles-7-pyramid', 'artistic'])('%s: only moving balls hit things, times ascend, the shot ends after its last event', (variant) => {
    for (const shot of play(variant, 40, 3)) {
      const moving = new Set([shot.cueBall]);
      let last = 0;
      for (const e of shot.events) {
        expect(e.t!).toBeGreaterThanOrEqual(last);
        last = e.t!;
        if (e.kind === 'ball') {
          const [a, b] = e.balls as [string, string];
          expect(moving.has(a) || moving.has(b)).toBe(true);
          moving.add(a).add(b);
        } else if (e.kind === 'cushion' || e.kind === 'pocket' || e.kind === 'off-table') expect(moving.has(e.ball!)).toBe(true);
        else if (e.kind === 'skittle') expect(moving.has(e.by!)).toBe(true);
      }
      expect(shot.durationMs).toBeGreaterThan(last);
    }
  });

  it('the next shot starts where the balls came to rest', () => {
    const shots = play('free-game', 30, 5);
    // Positions are ground truth: on the table, never overlapping.
    for (const s of shots) {
      const ps = Object.values(s.positions);
      expect(ps.length).toBeGreaterThan(0);
      for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) expect(Math.hypot(ps[i]![0] - ps[j]![0], ps[i]![1] - ps[j]![1])).toBeGreaterThan(61.5 - 0.2);
    }
    const table = new PhysicsTable('free-game');
    const random = seededRandom(8);
    const first = table.plan({ variant: 'free-game', cueBall: 'white', isBreak: true, random, table: { length: 2840, width: 1420 } });
    const layoutBefore = { ...table.layout };
    expect(layoutBefore).toEqual(Object.fromEntries(Object.entries(first.shot.positions!).map(([id]) => [id, table.layout![id]])));
    const second = table.plan({ variant: 'free-game', cueBall: 'yellow', isBreak: false, random, table: { length: 2840, width: 1420 } });
    // The yellow moves first in the second shot: its first event starts from where it lay.
    expect(second.shot.events.length).toBeGreaterThan(0);
    for (const [id, p] of Object.entries(first.shot.positions!)) expect(Math.hypot(p[0] - layoutBefore[id]![0], p[1] - layoutBefore[id]![1])).toBeLessThan(0.1);
  });

  it('matches contain makes, misses and fouls; skittles fall and balls drop into pockets', () => {
    const kinds = new Set<string>();
    for (const variant of ['three-cushion', 'skittles-7-pyramid']) {
      const setup = { variant, players: ['Ana', 'Ben'], target: 100_000 };
      const m = Match.create(setup);
      if (!m.ok) throw new Error(m.error);
      const match = m.value;
      const table = new PhysicsTable(variant);
      const random = seededRandom(12);
      for (let i = 0; i < 100; i++) {
        const view = match.view();
        const planned = table.plan({ variant, cueBall: view.cueBall!, isBreak: view.shots.length === 0, random, table: { length: 2840, width: 1420 }, instructions: view.instructions });
        for (const e of planned.shot.events) kinds.add(e.kind);
        match.apply({ kind: 'shot', shot: planned.shot });
        const after = match.view();
        if (after.status === 'awaiting-referee') match.apply({ kind: 'referee', referee: { ruling: after.prompt!.options[0]!.ruling, option: 0 } });
        const r = match.view().shots.at(-1)!;
        kinds.add(r.foul ? 'foul' : r.points > 0 ? 'made' : 'miss');
      }
    }
    for (const k of ['made', 'miss', 'foul', 'ball', 'cushion', 'skittle', 'pocket']) expect(kinds).toContain(k);
  });

  it('is deterministic: the same seed plays the same match', () => {
    expect(play('three-cushion', 10, 21)).toEqual(play('three-cushion', 10, 21));
  });
});
