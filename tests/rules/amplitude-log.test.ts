import { describe, expect, it } from 'vitest';
import { replayLog } from '../../hub/matchlog/replay.ts';

/** The match log's `amplitude` extension (docs/contract.md): optional, checked, and used only as evidence. */
const MATCH = '{"match": {"variant": "carom", "players": ["Ana", "Ben"], "target": 30}}';

describe('contact amplitudes in the match log (extension)', () => {
  it('a log with amplitudes replays, and gives the same result as without them when they prune nothing', () => {
    const withAmp = replayLog([MATCH, '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"], "t": 5, "amplitude": 90}, {"kind": "cushion", "rail": "foot", "ball": null, "t": 400, "amplitude": 40}, {"kind": "ball", "balls": ["white", "yellow"], "t": 900, "amplitude": 30}]}}'].join('\n'));
    const without = replayLog([MATCH, '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"], "t": 5}, {"kind": "cushion", "rail": "foot", "ball": null, "t": 400}, {"kind": "ball", "balls": ["white", "yellow"], "t": 900}]}}'].join('\n'));
    expect(withAmp.ok && without.ok).toBe(true);
    if (withAmp.ok && without.ok) expect(withAmp.view.players).toEqual(without.view.players);
  });

  it('an amplitude outside 0–255 or on a skittle event is refused, naming the line', () => {
    const bad = replayLog([MATCH, '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"], "amplitude": 256}]}}'].join('\n'));
    expect(bad).toMatchObject({ ok: false, line: 2 });
    const skittle = replayLog(['{"match": {"variant": "skittles-5", "players": ["Ana", "Ben"], "target": 60}}', '{"shot": {"events": [{"kind": "skittle", "skittle": "king", "by": null, "amplitude": 30}]}}'].join('\n'));
    expect(skittle).toMatchObject({ ok: false, line: 2 });
  });
});
