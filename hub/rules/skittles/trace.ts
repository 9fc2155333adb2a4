import type { BallId, SkittleId } from '../ids.ts';
import type { ShotEvent } from '../events.ts';
import type { ResolvedEvent, Scanner } from '../worlds.ts';
import type { LegalityPolicy, WhiteStatus } from './legality.ts';

/**
 * What a skittle referee watches during one shot, folded event by event: each white's
 * history (struck directly, off a cushion, in a carom…), the cue ball's contacts and every
 * skittle that fell with the judgement of its feller at that moment.
 */
export interface SkittleTrace {
  /** The cue ball's first contact: `cushion`, an object ball id, or null (SK7C-2). */
  readonly cueFirst: string | null;
  readonly cueCushioned: boolean;
  /** Object balls the cue ball touched, in order, each once (carom: both). */
  readonly cueHit: readonly BallId[];
  readonly whites: Readonly<Record<string, { status: WhiteStatus; byCue: boolean }>>;
  /** Every skittle that fell, in order, each once. */
  readonly felled: readonly SkittleId[];
  /** The cue ball felled a skittle (SK5-4, SK7P-5, SK7C-5). */
  readonly cueFelled: boolean;
  /** A white felled skittles after a plain direct hit (SK5-4). */
  readonly directFelled: boolean;
  /** Skittles felled by a white that no event shows moving: the events are incomplete. */
  readonly unexplained: readonly SkittleId[];
  /** SK5-5: some skittle's feller was not reported. */
  readonly undeterminedFeller: boolean;
  readonly pocketed: readonly BallId[];
  readonly offTable: readonly BallId[];
  /** Some ball touched a cushion (SK7C-8 safety). */
  readonly anyCushion: boolean;
}

export interface SkittleTraceOptions {
  cueBall: BallId;
  whites: readonly BallId[];
  policy: LegalityPolicy;
  /** The raw events, to see which facts the sensors left open (SK5-5). */
  events: readonly ShotEvent[];
  /** SK5-5 option `undeterminedFellerIsFoul`: a feller the sensors did not name makes the shot a foul. */
  undeterminedIsFoul: boolean;
}

export function skittleScanner(opts: SkittleTraceOptions): Scanner<SkittleTrace> {
  const { cueBall, policy, events } = opts;
  const addOnce = <T>(list: readonly T[], item: T): readonly T[] => (list.includes(item) ? list : [...list, item]);
  const setWhite = (s: SkittleTrace, ball: BallId, status: WhiteStatus, byCue: boolean): SkittleTrace => ({
    ...s,
    whites: { ...s.whites, [ball]: { status, byCue } },
  });

  return {
    init: () => ({
      cueFirst: null,
      cueCushioned: false,
      cueHit: [],
      whites: Object.fromEntries(opts.whites.map((w) => [w, { status: 'still' as WhiteStatus, byCue: false }])),
      felled: [],
      cueFelled: false,
      directFelled: false,
      unexplained: [],
      undeterminedFeller: false,
      pocketed: [],
      offTable: [],
      anyCushion: false,
    }),
    step(s: SkittleTrace, e: ResolvedEvent): SkittleTrace {
      switch (e.kind) {
        case 'cushion': {
          const next = { ...s, anyCushion: true };
          if (e.ball === cueBall) return { ...next, cueCushioned: true, cueFirst: s.cueFirst ?? 'cushion' };
          const w = s.whites[e.ball];
          // SK5-3 (a), SK7P-4 (1), SK7C-5 (a): a cushion after being struck.
          return w && w.status === 'direct' ? setWhite(next, e.ball, 'legal', w.byCue) : next;
        }
        case 'ball': {
          const [a, b] = e.balls;
          if (a === cueBall || b === cueBall) {
            const white = a === cueBall ? b : a;
            const status = policy.cueStrike({ cueCushioned: s.cueCushioned, cueOffOtherWhite: s.cueHit.some((x) => x !== white) });
            return { ...setWhite(s, white, status, true), cueFirst: s.cueFirst ?? white, cueHit: addOnce(s.cueHit, white) };
          }
          const wa = s.whites[a]!;
          const wb = s.whites[b]!;
          const [sa, sb] = policy.whiteStrike(wa.status, wb.status, wa.byCue, wb.byCue);
          return setWhite(setWhite(s, a, sa, wa.byCue), b, sb, wb.byCue);
        }
        case 'skittle': {
          if (s.felled.includes(e.skittle)) return s;
          const next = { ...s, felled: [...s.felled, e.skittle] };
          const raw = events[e.index];
          if (opts.undeterminedIsFoul && raw?.kind === 'skittle' && raw.by === null) return { ...next, undeterminedFeller: true };
          if (e.by === cueBall) return { ...next, cueFelled: true };
          const w = s.whites[e.by]!;
          if (w.status === 'legal') return next;
          if (w.status === 'still') return { ...next, unexplained: [...s.unexplained, e.skittle] };
          // SK5-4: sent straight at the skittles, but the carom came first: the points are the shooter's.
          if (policy.caromFirstExcuses && s.cueHit.length === 2) return next;
          return { ...next, directFelled: true };
        }
        case 'pocket':
          return { ...s, pocketed: addOnce(s.pocketed, e.ball) };
        case 'off-table':
          return { ...s, offTable: addOnce(s.offTable, e.ball) };
      }
    },
    key: (s) => JSON.stringify(s),
  };
}

/** The skittles a shot felled, from the raw events: known whatever ball felled them (a maybe fall is not known to have happened). */
export function felledInEvents(events: readonly ShotEvent[]): SkittleId[] {
  const out: SkittleId[] = [];
  for (const e of events) if (e.kind === 'skittle' && !e.maybe && !out.includes(e.skittle)) out.push(e.skittle);
  return out;
}
