import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOTH, type Ball } from '../../hardware/simulator/physics/ball.ts';
import { simulate, totalEnergy, type SimEvent } from '../../hardware/simulator/physics/engine.ts';
import { strike } from '../../hardware/simulator/physics/planner.ts';
import { caromTable, pyramidTable, tableFor } from '../../hardware/simulator/physics/table.ts';
import { simulateTimeline } from '../../hardware/simulator/video/timeline.ts';
import { seededRandom } from '../../hub/rules/random.ts';

const at = (id: string, x: number, y: number): Ball => ({ id, p: [x, y], v: [0, 0], roll: [0, 0], side: 0 });

describe('ball motion', () => {
  it('a ball rolling straight stops at v²/(2·μr·g)', () => {
    const v = 700;
    const run = simulate(caromTable(), [{ id: 'white', p: [200, 710], v: [v, 0], roll: [v, 0], side: 0 }], { random: seededRandom(1) });
    expect(run.events).toEqual([]);
    const expected = (v * v) / (2 * CLOTH.rolling * CLOTH.g);
    expect(Math.abs(run.balls[0]!.p[0] - 200 - expected) / expected).toBeLessThan(0.01);
    expect(run.balls[0]!.p[1]).toBeCloseTo(710, 6);
    expect(run.duration).toBeCloseTo(v / (CLOTH.rolling * CLOTH.g), 3);
  });

  it('a sliding ball with no spin rolls after 2·|u|/(7·μs·g) at 5/7 of its speed', () => {
    const tau = (2 * 1400) / (7 * CLOTH.slide * CLOTH.g);
    const run = simulate(caromTable(), [{ id: 'white', p: [200, 710], v: [1400, 0], roll: [0, 0], side: 0 }], { random: seededRandom(1), maxTime: tau + 1e-9 });
    const speed = run.balls[0]!.v[0];
    expect(run.duration).toBeCloseTo(tau, 6);
    expect(speed).toBeCloseTo((5 / 7) * 1400, 3);
    expect(run.balls[0]!.roll[0]).toBeCloseTo(speed, 6);
  });
});

describe('collisions', () => {
  it('a head-on centre hit without spin passes the momentum: the cue ball nearly stops, the struck ball moves', () => {
    let after: readonly Ball[] = [];
    simulate(caromTable(), [{ ...at('white', 500, 710), v: [2000, 0] }, at('red', 600, 710)], {
      random: seededRandom(1),
      stopWhen: (events) => events.length > 0,
      observe: (_t, balls, e) => {
        if (e?.kind === 'ball' && after.length === 0) after = balls;
      },
    });
    const [white, red] = after;
    expect(Math.abs(white!.v[0])).toBeLessThan(0.05 * 2000);
    expect(red!.v[0]).toBeGreaterThan(0.9 * 1900);
    expect(Math.abs(red!.v[1])).toBeLessThan(1e-6);
  });

  it('the first ball event names the striking ball first', () => {
    const run = simulate(caromTable(), [{ ...at('white', 500, 710), v: [2000, 0] }, at('red', 600, 710)], { random: seededRandom(1), stopWhen: (e) => e.length > 0 });
    expect(run.events[0]).toMatchObject({ kind: 'ball', balls: ['white', 'red'] });
  });

  it('without spin the angle of reflection off a cushion equals the angle of incidence (e = 1)', () => {
    const table = { ...caromTable(), cushionRestitution: 1 };
    for (const degrees of [20, 45, 70]) {
      const a = (degrees * Math.PI) / 180;
      const v: [number, number] = [Math.cos(a) * 1500, -Math.sin(a) * 1500];
      let out: Ball | null = null;
      simulate(table, [{ id: 'white', p: [400, 300], v, roll: v, side: 0 }], {
        random: seededRandom(1),
        stopWhen: (events) => events.length > 0,
        observe: (_t, balls, e) => {
          if (e?.kind === 'cushion') out = balls[0]!;
        },
      });
      const b = out as Ball | null;
      expect(b).not.toBeNull();
      const incidence = Math.atan2(Math.sin(a), Math.cos(a));
      const reflection = Math.atan2(b!.v[1], b!.v[0]);
      expect(reflection).toBeCloseTo(incidence, 9);
    }
  });

  it('side spin bends the rebound a little, and restitution 0.8 slows the normal speed', () => {
    const v: [number, number] = [1000, -1000];
    const rebound = (side: number) => {
      const run = simulate(caromTable(), [{ id: 'white', p: [400, 300], v, roll: v, side }], { random: seededRandom(1), stopWhen: (e) => e.length > 0 });
      return run.events[0] as SimEvent & { speed: number };
    };
    expect(rebound(0).speed).toBeGreaterThan(0);
    let plain: Ball | null = null;
    let spun: Ball | null = null;
    for (const [side, set] of [
      [0, (b: Ball) => (plain = b)],
      [600, (b: Ball) => (spun = b)],
    ] as const) {
      simulate(caromTable(), [{ id: 'white', p: [400, 300], v, roll: v, side }], {
        random: seededRandom(1),
        stopWhen: (e) => e.length > 0,
        observe: (_t, balls, e) => e?.kind === 'cushion' && set(balls[0]!),
      });
    }
    const p = plain as unknown as Ball;
    const s = spun as unknown as Ball;
    expect(Math.atan2(p.v[1], p.v[0])).not.toBeCloseTo(Math.atan2(s.v[1], s.v[0]), 2);
    expect(Math.abs(Math.atan2(p.v[1], p.v[0]) - Math.atan2(s.v[1], s.v[0]))).toBeLessThan(0.35);
  });

  it('a ball too slow to fell a skittle bounces off it, and the rendered timeline bounces with it', () => {
    const table = tableFor('skittles-7-pyramid');
    // The skittle nearest the head rail, approached from the head: nothing else in the way.
    const skittle = [...table.skittles].sort((a, b) => a.at[0] - b.at[0])[0]!;
    const gap = 200; // from the ball's surface to the skittle's base
    const arrival = 80; // mm/s at the base, under the 150 that fells it
    const v0 = Math.sqrt(arrival * arrival + 2 * CLOTH.rolling * CLOTH.g * gap);
    const start: Ball = { id: 'one', p: [skittle.at[0] - gap - table.ballRadius - skittle.radius, skittle.at[1] + 5], v: [v0, 0], roll: [v0, 0], side: 0 };
    const timeline = simulateTimeline(table, [start], { random: seededRandom(1) });
    expect(timeline.result.events).toEqual([]);
    expect(timeline.result.standing).toContain(skittle.id);
    const end = timeline.result.balls[0]!.p;
    expect(end[0]).toBeLessThan(skittle.at[0] - table.ballRadius - skittle.radius); // back off the skittle, not through it
    // The video draws between the recorded states: at the end it must show where the physics left the ball.
    const drawn = timeline.ballsAt(timeline.result.duration + 1)[0]!.p;
    expect(Math.hypot(drawn[0] - end[0], drawn[1] - end[1])).toBeLessThan(0.5);
  });

  it('skittles fall when hit hard enough, pockets take a ball whose centre enters them', () => {
    const table = tableFor('skittles-7-pyramid');
    const king = table.skittles.find((s) => s.id === 'king')!;
    const hard = simulate(table, [{ id: 'one', p: [king.at[0] - 600, king.at[1]], v: [1500, 0], roll: [1500, 0], side: 0 }], { random: seededRandom(1) });
    expect(hard.events.find((e) => e.kind === 'skittle')).toMatchObject({ skittle: 'head', by: 'one' });
    expect(hard.standing).not.toContain('head');
    const corner = simulate(pyramidTable(), [{ id: 'cue', p: [400, 400], v: [-1500, -1500], roll: [-1500, -1500], side: 0 }], { random: seededRandom(1) });
    expect(corner.events).toEqual([expect.objectContaining({ kind: 'pocket', ball: 'cue' })]);
    expect(corner.balls[0]!.gone).toBe(true);
  });
});

const R = 61.5 / 2;
const stroke = fc.record({ angle: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), speed: fc.double({ min: 100, max: 6000, noNaN: true }), follow: fc.double({ min: -1, max: 1, noNaN: true }), english: fc.double({ min: -1, max: 1, noNaN: true }) });
const spot = fc.tuple(fc.double({ min: R + 1, max: 2840 - R - 1, noNaN: true }), fc.double({ min: R + 1, max: 1420 - R - 1, noNaN: true }));
const layout = fc.tuple(spot, spot, spot).filter(([a, b, c]) => Math.hypot(a[0] - b[0], a[1] - b[1]) > 2 * R + 1 && Math.hypot(a[0] - c[0], a[1] - c[1]) > 2 * R + 1 && Math.hypot(c[0] - b[0], c[1] - b[1]) > 2 * R + 1);

describe('properties of random shots', () => {
  it('total kinetic energy never increases from one event to the next, and balls never overlap', () => {
    fc.assert(
      fc.property(layout, stroke, fc.integer(), ([a, b, c], s, seed) => {
        const balls = [strike('white', a, s), at('yellow', b[0], b[1]), at('red', c[0], c[1])];
        let last = Infinity;
        simulate(caromTable(), balls, {
          random: seededRandom(seed),
          observe: (_t, state) => {
            const e = totalEnergy(state);
            expect(e).toBeLessThanOrEqual(last * (1 + 1e-9) + 1e-9);
            last = e;
            const live = state.filter((x) => !x.gone);
            for (let i = 0; i < live.length; i++) {
              const p = live[i]!.p;
              expect(p[0]).toBeGreaterThan(R - 1e-6);
              expect(p[0]).toBeLessThan(2840 - R + 1e-6);
              expect(p[1]).toBeGreaterThan(R - 1e-6);
              expect(p[1]).toBeLessThan(1420 - R + 1e-6);
              for (let j = i + 1; j < live.length; j++) expect(Math.hypot(p[0] - live[j]!.p[0], p[1] - live[j]!.p[1])).toBeGreaterThan(2 * R - 1e-3);
            }
          },
        });
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  it('on the skittle table too (skittles, pockets)', () => {
    const table = tableFor('skittles-7-carom');
    const r = table.ballRadius;
    fc.assert(
      fc.property(stroke, fc.double({ min: 200, max: 800, noNaN: true }), fc.integer(), (s, y, seed) => {
        const balls = [strike('cue', [300, y], s), at('one', 2662.5 + 60, 887.5), at('two', 887.5 - 60 - 70, 887.5)];
        let last = Infinity;
        simulate(table, balls, {
          random: seededRandom(seed),
          observe: (_t, state) => {
            const e = totalEnergy(state);
            expect(e).toBeLessThanOrEqual(last * (1 + 1e-9) + 1e-9);
            last = e;
            const live = state.filter((x) => !x.gone);
            for (let i = 0; i < live.length; i++) for (let j = i + 1; j < live.length; j++) expect(Math.hypot(live[i]!.p[0] - live[j]!.p[0], live[i]!.p[1] - live[j]!.p[1])).toBeGreaterThan(2 * r - 1e-3);
          },
        });
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  it('is deterministic: the same start and seed give the same events', () => {
    const balls = [strike('white', [700, 400], { angle: 0.4, speed: 5000, follow: 0.3, english: -0.4 }), at('yellow', 1500, 900), at('red', 2200, 300)];
    const a = simulate(caromTable(), balls, { random: seededRandom(9) });
    const b = simulate(caromTable(), balls, { random: seededRandom(9) });
    expect(a.events.length).toBeGreaterThan(3);
    expect(b).toEqual(a);
  });
});
