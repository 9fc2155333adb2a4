import { describe, expect, it } from 'vitest';
import { BoardTimeUnwrapper, ClockMapper, wrapDelta } from '../../firmware-bridge/clock.ts';

describe('board time unwrapping', () => {
  it('carries through the 32-bit microsecond wrap (~71.6 min)', () => {
    const u = new BoardTimeUnwrapper();
    expect(u.advance(0xffff_0000)).toBe(0xffff_0000);
    expect(u.advance(0x0000_1000)).toBe(2 ** 32 + 0x1000);
    // An event stamped just before the wrap, reported after it.
    expect(u.unwrap(0xffff_fff0)).toBe(2 ** 32 - 0x10);
    expect(wrapDelta(0xffff_fff0, 0x10)).toBe(0x20);
  });
  it('reports time going backwards (a board restart)', () => {
    const u = new BoardTimeUnwrapper();
    u.advance(5_000_000);
    expect(u.advance(1_000)).toBeNull();
  });
});

describe('clock mapper', () => {
  it('estimates drift through the least-delayed pairs and offset by the lower envelope of latencies', () => {
    const m = new ClockMapper();
    const drift = 150e-6; // board runs 150 ppm slow relative to the hub
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 40; i++) {
      const boardUs = 1_000_000 + i * 250_000;
      const trueHub = 50_000 + (boardUs / 1000) * (1 + drift);
      m.add(boardUs, trueHub + rnd() * 4); // 0..4 ms of OS latency
    }
    expect(m.driftPpm).toBeGreaterThan(50); // 4 ms jitter over a 10 s span
    expect(m.driftPpm).toBeLessThan(250);
    const probe = 9_000_000;
    expect(Math.abs(m.toHub(probe) - (50_000 + (probe / 1000) * (1 + drift)))).toBeLessThan(1);
  });
  it('clamps absurd slopes and needs one pair to map', () => {
    const m = new ClockMapper({ maxDriftPpm: 500, minSpanMs: 10 });
    expect(m.ready).toBe(false);
    m.add(0, 100);
    expect(m.toHub(1000)).toBe(101);
    m.add(20_000, 150);
    m.add(40_000, 200); // 2.5x rate: nonsense, clamped
    expect(m.driftPpm).toBeCloseTo(500, 5);
  });
  it('keeps the pairs of the last 30 s of board time, however often they come (heartbeats and vibration frames)', () => {
    const m = new ClockMapper();
    m.add(0, 95); // an early pair 5 ms less delayed than all the others
    for (let ms = 100; ms <= 20_000; ms += 100) m.add(ms * 1000, 100 + ms);
    expect(m.toHub(20_000_000)).toBeCloseTo(95 + 20_000, 0); // 200 pairs later, still in the window
    for (let ms = 20_100; ms <= 40_000; ms += 100) m.add(ms * 1000, 100 + ms);
    // After 30 s the early pair has left the window: the offset is the others' lower envelope.
    expect(m.toHub(40_000_000)).toBeCloseTo(100 + 40_000, 3);
  });
  it('a busy hub\'s changing queueing delay is not read as drift (least-delayed pair per stretch)', () => {
    // True line: hub = 1000 + board ms (no drift). The hub's load changes over the window: most
    // pairs arrive up to 60 ms late, early ones latest, and one pair in ten finds the hub idle.
    const m = new ClockMapper();
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 300; i++) {
      const boardMs = i * 100;
      const delay = i % 10 === 3 ? rnd() * 0.5 : rnd() * 60 * (1 - i / 300);
      m.add(boardMs * 1000, 1000 + boardMs + delay);
    }
    expect(Math.abs(m.driftPpm)).toBeLessThan(50);
    expect(Math.abs(m.toHub(29_900_000) - (1000 + 29_900))).toBeLessThan(1.5);
  });
});
