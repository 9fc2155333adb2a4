import type { ShotEvent } from '../../hub/rules/events.ts';
import { seededRandom } from '../../hub/rules/random.ts';

/**
 * Seeded match logs for the benchmarks: realistic mixes of makes, misses, kisses, fouls and
 * (now and then) a rail whose ball the sensors could not tell, with rulings where a prompt opens.
 */
export interface GeneratedLog {
  variant: string;
  lines: string[];
}

const RAIL = ['head', 'foot', 'left', 'right'] as const;

export function caromLog(variant: string, shots: number, seed: number, options: Record<string, unknown> = {}): GeneratedLog {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const lines = [JSON.stringify({ match: { variant, players: ['Ana', 'Ben'], target: 100_000, options } })];
  let cue = 'white';
  const other = () => (cue === 'white' ? 'yellow' : 'white');
  const positions = () => ({
    white: [Math.round(random() * 2800) + 20, Math.round(random() * 1380) + 20],
    yellow: [Math.round(random() * 2800) + 20, Math.round(random() * 1380) + 20],
    red: [Math.round(random() * 2800) + 20, Math.round(random() * 1380) + 20],
  });
  for (let i = 0; i < shots; i++) {
    const events: ShotEvent[] = [];
    const r = random();
    events.push({ kind: 'ball', balls: [cue, 'red'], t: 120 });
    const rails = Math.floor(random() * 5);
    for (let k = 0; k < rails; k++) events.push({ kind: 'cushion', rail: pick(RAIL), ball: cue, t: 300 + k * 250 });
    if (r < 0.05) events.push({ kind: 'cushion', rail: pick(RAIL), ball: null, t: 1500 }); // undetermined, mostly harmless
    if (r < 0.55) events.push({ kind: 'ball', balls: [cue, other()], t: 1800 });
    if (r > 0.97) events.push({ kind: 'foul', foul: 'touch', by: 'shooter' });
    lines.push(JSON.stringify({ shot: { events, positions: positions() } }));
    lines.push(JSON.stringify({ referee: { ruling: 'no-score' } })); // answered only if a prompt opened: filtered below
  }
  return { variant, lines };
}

/**
 * Artistic matches end after their figures (AR-5), so the benchmark plays one long
 * competition: every figure of the sample catalogue, three players, failed attempts
 * mostly — as many shots as a match can hold (12 figures × 3 players × 3 attempts).
 */
export function artisticLog(_shots: number, seed: number): GeneratedLog {
  const random = seededRandom(seed);
  const lines = [JSON.stringify({ match: { variant: 'artistic', players: ['Ana', 'Ben', 'Cid'], target: 1, options: { figures: 12, seed } } })];
  for (let i = 0; i < 12 * 3 * 3; i++) {
    const events: ShotEvent[] = [{ kind: 'ball', balls: [null, 'red'] }, { kind: 'cushion', rail: RAIL[Math.floor(random() * 4)]!, ball: null }];
    lines.push(JSON.stringify({ shot: { events } }));
    lines.push(JSON.stringify({ referee: { ruling: 'no-score' } }));
  }
  return { variant: 'artistic', lines };
}

/** Skittle matches: legal knock-downs, caroms, undetermined fellers and misses, in turn. */
export function skittleLog(variant: string, shots: number, seed: number): GeneratedLog {
  const random = seededRandom(seed);
  const lines = [JSON.stringify({ match: { variant, players: ['Ana', 'Ben'], target: 100_000 } })];
  const skittles = ['head', 'foot', 'left', 'right', 'king'] as const;
  for (let i = 0; i < shots; i++) {
    const r = random();
    const events: ShotEvent[] = [{ kind: 'ball', balls: ['cue', 'one'], t: 100 }];
    if (r < 0.5) {
      events.push({ kind: 'cushion', rail: RAIL[Math.floor(random() * 4)]!, ball: 'one', t: 400 });
      events.push({ kind: 'skittle', skittle: skittles[Math.floor(random() * 5)]!, by: 'one', t: 700 });
    } else if (r < 0.7) events.push({ kind: 'ball', balls: ['cue', 'two'], t: 600 });
    else if (r < 0.8) events.push({ kind: 'cushion', rail: 'foot', ball: null, t: 500 });
    lines.push(JSON.stringify({ shot: { events } }));
    lines.push(JSON.stringify({ referee: { ruling: 'no-score' } }));
  }
  return { variant, lines };
}
