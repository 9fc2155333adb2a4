import { describe, expect, it } from 'vitest';
import { wrongFacts } from '../../hardware/simulator/video/accuracy.ts';
import type { ShotEvent } from '../../hub/rules/events.ts';

// The accuracy measure counts ids stated against the truth, not only wrong decisions: a wrong
// fact the engine happened not to need (held-out seed 18181, three-cushion s10 #5) is still a defect.
describe('accuracy measure: wrong facts', () => {
  const truth: ShotEvent[] = [
    { kind: 'ball', balls: ['yellow', 'red'], t: 101 },
    { kind: 'cushion', rail: 'right', ball: 'red', t: 112 },
    { kind: 'pocket', ball: 'red', t: 300 },
    { kind: 'skittle', skittle: 'king', by: 'yellow', t: 400 },
  ];

  it('unknown ids are not wrong; the pair is unordered; camera-only facts among the contacts do not shift them', () => {
    const read: ShotEvent[] = [
      { kind: 'ball', balls: ['red', null], t: 0 },
      { kind: 'cushion', rail: 'right', ball: null, t: 11 },
      { kind: 'off-table', ball: 'white', t: 150 },
      { kind: 'skittle', skittle: 'king', by: 'yellow', t: 299 },
    ];
    expect(wrongFacts(read, truth)).toBe(0);
  });

  it('counts each id the truth contradicts', () => {
    const read: ShotEvent[] = [
      { kind: 'ball', balls: ['yellow', 'white'], t: 0 },
      { kind: 'cushion', rail: 'right', ball: 'yellow', t: 11 },
      { kind: 'skittle', skittle: 'king', by: 'red', t: 299 },
    ];
    expect(wrongFacts(read, truth)).toBe(3);
  });

  it('candidates that leave the truth out count too: the engine, told to choose among them, may choose wrong (held-out 21215, five skittles s0 #1)', () => {
    const read: ShotEvent[] = [
      { kind: 'ball', balls: [null, null], t: 0, candidates: [['white', 'red'], ['white', 'yellow']] },
      { kind: 'cushion', rail: 'right', ball: null, t: 11, candidates: ['red', 'white'] },
      { kind: 'skittle', skittle: 'king', by: null, t: 299, candidates: ['red', 'white'] },
    ];
    expect(wrongFacts(read, truth)).toBe(2);
    expect(wrongFacts([{ ...read[0]!, candidates: [['red', 'yellow']] } as ShotEvent, read[1]!, { ...read[2]!, candidates: ['yellow'] } as ShotEvent], truth)).toBe(0);
  });

  it('−1 when the contacts do not align one to one (nothing can be said)', () => {
    expect(wrongFacts(truth.slice(1), truth)).toBe(-1);
  });
});
