import { describe, expect, it } from 'vitest';
import { replayLog } from '../../hub/matchlog/replay.ts';

/** Issue 14's held-out cases, as minimal match logs replayed through the CONTRACT §1 reader. */
function replay(lines: string[]) {
  const result = replayLog(lines.join('\n'));
  if (!result.ok) throw new Error(`line ${result.line}: ${result.error}`);
  return result.view;
}

describe('held-out match logs (issue 14)', () => {
  it('CONTRACT §1.3 / RULES §11: a plain "score" is accepted when the options it fits differ only in the respot', () => {
    const view = replay([
      '{"match": {"variant": "carom", "players": ["Ana", "Ben"], "target": 30}}',
      '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"]}, {"kind": "ball", "balls": ["white", "yellow"]}, {"kind": "off-table", "ball": null}]}}',
      '{"referee": {"ruling": "score"}}',
    ]);
    expect(view).toMatchObject({ status: 'playing', turn: 'Ana', prompt: null });
    expect(view.players.map((p) => [p.score, p.run])).toEqual([[1, 1], [0, 0]]);
    // The referee is told each possibility: yellow to its spots, or red to its spots.
    expect(view.instructions.map((i) => i.item).sort()).toEqual(['red', 'yellow']);
    expect(view.instructions.every((i) => i.at === undefined && /possibility/.test(i.to))).toBe(true);
  });

  it('a plain ruling is still refused when the options it fits differ in points, foul or turn', () => {
    const result = replayLog(
      [
        // Two foul answers that credit the same points but name different fouls (SK5-4 or SK5-5).
        '{"match": {"variant": "skittles-5", "players": ["Ana", "Ben"], "target": 100}}',
        '{"shot": {"events": [{"kind": "ball", "balls": ["cue", "one"]}, {"kind": "cushion", "rail": "left", "ball": "one"}, {"kind": "skittle", "skittle": "king", "by": null}]}}',
        '{"referee": {"ruling": "foul"}}',
      ].join('\n'),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/different effects: add "option"/);
  });

  it('TC-1 a ball named moving later must have been set moving: unknown first click then "red hits a rail" was white–red', () => {
    const view = replay([
      '{"match": {"variant": "three-cushion", "players": ["Ana", "Ben"], "target": 10}}',
      '{"shot": {"events": [{"kind": "ball", "balls": [null, null]}, {"kind": "cushion", "rail": "foot", "ball": "red"}, {"kind": "cushion", "rail": "foot", "ball": "white"}, {"kind": "cushion", "rail": "right", "ball": "white"}, {"kind": "cushion", "rail": "head", "ball": "white"}, {"kind": "ball", "balls": ["white", "yellow"]}]}}',
    ]);
    expect(view).toMatchObject({ status: 'playing', prompt: null, turn: 'Ana' });
    expect(view.players[0]!.score).toBe(1);
  });

  it('SK7C-5 a white named felling a skittle must have been set moving: the unknown first click was the cue ball and that white', () => {
    const view = replay([
      '{"match": {"variant": "skittles-7-carom", "players": ["Ana", "Ben"], "target": 300}}',
      '{"shot": {"events": [{"kind": "ball", "balls": ["cue", "one"]}]}}',
      '{"shot": {"events": [{"kind": "ball", "balls": ["cue", "two"]}]}}',
      '{"shot": {"events": [{"kind": "cushion", "rail": "left", "ball": null}, {"kind": "ball", "balls": [null, null]}, {"kind": "cushion", "rail": "foot", "ball": "two"}, {"kind": "skittle", "skittle": "head", "by": "two"}]}}',
    ]);
    expect(view).toMatchObject({ status: 'playing', prompt: null });
    expect(view.players[0]!.score).toBe(295);
  });

  it('FG-3 the count must be 0 and the rest positions lie outside every triangle: no prompt, and RULES §10 facts when one is needed', () => {
    const view = replay([
      '{"match": {"variant": "free-game", "players": ["Ana", "Ben"], "target": 400}}',
      '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"]}, {"kind": "ball", "balls": ["white", "yellow"]}]}}',
      '{"shot": {"events": [{"kind": "ball", "balls": ["white", "red"]}, {"kind": "ball", "balls": ["white", "yellow"]}], "positions": {"red": [1400, 700], "yellow": [2000, 300], "white": [600, 600]}}}',
    ]);
    expect(view).toMatchObject({ status: 'playing', prompt: null, turn: 'Ana' });
    expect(view.players.map((p) => [p.score, p.run])).toEqual([[2, 2], [0, 0]]);
  });
});
