import type { ShotEvent } from '../events.ts';

/**
 * The evidence a prompt's ranking sees, as a fixed-length vector of numbers: what the sensors
 * reported (kinds, rails, times, amplitudes — never ball ids, which the sensors do not give)
 * and, per option, what it means (points, foul, turn) and how the per-event model
 * (likelihood.ts) weighed it. Missing values are −1 (no such event, no `t`, no amplitude);
 * the trees (trees.ts) split on them like any value.
 *
 * The whole shot matters, not each event alone: which ball made a click shows in what follows
 * it (a ball newly set moving makes rail hits bounded by that click; a kiss and a point leave
 * different rail patterns). The per-event model cannot see that; the trees can.
 */

/** Events after the first click described one by one (kind, gaps, amplitude). */
const AFTER_FIRST = 12;
/** Events after the second click described relative to it. */
const AFTER_SECOND = 6;
const NONE = -1;

const KIND_CODE: Readonly<Record<string, number>> = { ball: 0, foot: 1, head: 2, left: 3, right: 4, skittle: 6, pocket: 7, 'off-table': 8 };
const OPPOSITE: Readonly<Record<string, string>> = { foot: 'head', head: 'foot', left: 'right', right: 'left' };

type Sensed = Exclude<ShotEvent, { kind: 'foul' }>;

const code = (e: Sensed): number => KIND_CODE[e.kind === 'cushion' ? e.rail : e.kind] ?? 9;
const amp = (e: Sensed | undefined): number => (e && (e.kind === 'ball' || e.kind === 'cushion') && e.amplitude !== undefined ? e.amplitude : NONE);
const time = (e: Sensed | undefined): number => (e?.t !== undefined ? e.t : NONE);
const gap = (later: Sensed | undefined, earlier: Sensed | undefined): number => (later?.t !== undefined && earlier?.t !== undefined ? later.t - earlier.t : NONE);
const ratio = (a: number, b: number): number => (a >= 0 && b > 0 ? a / b : NONE);

/** Names of the shot features, in vector order (the model file stores them, so a refit that changes them is caught). */
export const SHOT_FEATURES: readonly string[] = [
  'events', 'clicks', 'rails', 'skittles', 'railsBeforeClick', 'firstClickIndex', 'railsBetweenClicks', 'eventsAfterSecond',
  'firstClickT', 'firstClickAmp', 'secondClickGap', 'secondClickAmp', 'secondClickAmpRatio',
  'sameRailRepeatsBetween', 'quickestOppositeBetween', 'loudestRailBetweenRatio',
  ...Array.from({ length: AFTER_FIRST }, (_, k) => [`a${k}.kind`, `a${k}.gap`, `a${k}.sinceFirst`, `a${k}.amp`, `a${k}.ampRatio`]).flat(),
  ...Array.from({ length: AFTER_SECOND }, (_, k) => [`b${k}.kind`, `b${k}.gap`, `b${k}.sinceSecond`, `b${k}.ampRatio`]).flat(),
];

export function shotFeatures(events: readonly ShotEvent[]): number[] {
  const ev = events.filter((e): e is Sensed => e.kind !== 'foul');
  const clicks = ev.flatMap((e, i) => (e.kind === 'ball' ? [i] : []));
  const c1 = clicks[0] ?? -1;
  const c2 = clicks[1] ?? ev.length;
  const first = c1 >= 0 ? ev[c1] : undefined;
  const second = ev[c2];
  const a1 = amp(first);
  const a2 = amp(second);
  const between = ev.slice(c1 + 1, c2).filter((e) => e.kind === 'cushion') as Extract<Sensed, { kind: 'cushion' }>[];
  const pairs = between.slice(1).map((b, k) => [between[k]!, b] as const);
  const opposite = pairs.filter(([a, b]) => OPPOSITE[a.rail] === b.rail).map(([a, b]) => gap(b, a)).filter((g) => g >= 0);
  const loudest = Math.max(NONE, ...between.map((e) => amp(e)));
  const f: number[] = [
    ev.length,
    clicks.length,
    ev.filter((e) => e.kind === 'cushion').length,
    ev.filter((e) => e.kind === 'skittle').length,
    ev.slice(0, Math.max(c1, 0)).filter((e) => e.kind === 'cushion').length,
    c1,
    c1 >= 0 ? between.length : NONE,
    second ? ev.length - c2 - 1 : NONE,
    time(first),
    a1,
    gap(second, first),
    a2,
    ratio(a2, a1),
    pairs.filter(([a, b]) => a.rail === b.rail).length,
    opposite.length > 0 ? Math.min(...opposite) : NONE,
    ratio(loudest, a1),
  ];
  // The events after the first click (or from the start, with no click), one by one.
  let previous = first;
  for (let k = 0; k < AFTER_FIRST; k++) {
    const e = ev[c1 + 1 + k];
    if (!e) {
      f.push(NONE, NONE, NONE, NONE, NONE);
      continue;
    }
    f.push(code(e), gap(e, previous), gap(e, first), amp(e), ratio(amp(e), a1));
    previous = e;
  }
  previous = second;
  for (let k = 0; k < AFTER_SECOND; k++) {
    const e = second ? ev[c2 + 1 + k] : undefined;
    if (!e) {
      f.push(NONE, NONE, NONE, NONE);
      continue;
    }
    f.push(code(e), gap(e, previous), gap(e, second), ratio(amp(e), a2));
    previous = e;
  }
  return f;
}

/** What one option of a prompt means, and how the per-event model weighed it. */
export interface OptionEvidence {
  points: number;
  foul: boolean;
  turnPasses: boolean;
  /** The per-event model's share (0–1) of this option. */
  base: number;
  /** How many options the prompt has. */
  options: number;
  /** This option's place by the per-event model (0: most likely). */
  rank: number;
}

export const OPTION_FEATURES: readonly string[] = ['points', 'foul', 'turnPasses', 'base', 'baseLogOdds', 'options', 'rank'];

export function optionFeatures(o: OptionEvidence): number[] {
  const p = Math.min(Math.max(o.base, 1e-4), 1 - 1e-4);
  return [o.points, o.foul ? 1 : 0, o.turnPasses ? 1 : 0, o.base, Math.log(p / (1 - p)), o.options, o.rank];
}

export const FEATURES: readonly string[] = [...OPTION_FEATURES, ...SHOT_FEATURES];

/** The vector the trees read for one option of a shot's prompt. */
export function evidenceVector(option: OptionEvidence, shot: readonly number[]): number[] {
  return [...optionFeatures(option), ...shot];
}
