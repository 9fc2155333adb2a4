import { afterEach, describe, expect, it, vi } from 'vitest';
import { Coalescer, SSE_STATE_EVERY_MS } from '../../web/sse.ts';
import { shed } from '../../hub/ops/shed.ts';

/** Issue 18: live views get states coalesced per window; every table's newest state still arrives. */
describe("the live views' state updates under a flood", () => {
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once, folds a burst into one trailing send, and counts what it folded', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const c = new Coalescer(SSE_STATE_EVERY_MS, (key) => sent.push(key));
    const before = shed.get('sse-state');
    for (let i = 0; i < 500; i += 1) c.change('t1');
    c.change('t2');
    expect(sent).toEqual(['t1', 't2']); // leading edge, per table
    vi.advanceTimersByTime(SSE_STATE_EVERY_MS);
    expect(sent).toEqual(['t1', 't2', 't1']); // the newest state of the burst; t2 had nothing more
    expect(shed.get('sse-state') - before).toBe(498); // 500 changes: two sent, the rest folded
    vi.advanceTimersByTime(10 * SSE_STATE_EVERY_MS);
    expect(sent).toHaveLength(3); // quiet: nothing more
    c.change('t1');
    expect(sent).toHaveLength(4); // and the next change is at once again
    c.stop();
  });

  it('at a steady flood sends one state per window per table, never fewer', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const c = new Coalescer(SSE_STATE_EVERY_MS, (key) => sent.push(key));
    for (let ms = 0; ms < 100 * SSE_STATE_EVERY_MS; ms += 2) {
      c.change('t1');
      vi.advanceTimersByTime(2);
    }
    expect(sent.length).toBeGreaterThanOrEqual(99);
    expect(sent.length).toBeLessThanOrEqual(101);
    c.stop();
  });
});
