import type { BallId, Rail } from '../ids.ts';
import type { ResolvedEvent, Scanner } from '../worlds.ts';

/**
 * What a carom referee watches during one shot, folded event by event. Every carom
 * variant decides from this one record; only the thresholds differ (G-14, OC-1, TC-1…).
 */
export interface CaromTrace {
  /** The cue ball's contacts in order, as artistic tokens (`red`, `other`, `cushion:<rail>`), up to `sequenceCap`. */
  readonly cueContacts: readonly string[];
  /** First object ball the cue ball touched (G-5). */
  readonly firstObject: BallId | null;
  /** Distinct object balls the cue ball has touched: 0, 1 or 2. */
  readonly objectsHit: number;
  /** Cue-ball cushion contacts counted before it touched the second object ball (TC-1, OC-1), capped. */
  readonly cushionsBeforeSecond: number;
  /** G-13: the first contact with the rail the cue ball lay frozen against is still to come. */
  readonly frozenRailPending: boolean;
  /** G-10: some ball reached a cushion after the cue ball's first object-ball contact. */
  readonly cushionAfterContact: boolean;
  /** TC-5 for a safety off an object ball frozen to a cushion. */
  readonly frozenObject: 'none' | 'pending' | 'ok';
  readonly frozenObjectBall: BallId | null;
  /** G-12 play-away: cue ball frozen to an object ball must first touch a cushion or the free ball. */
  readonly playAway: 'none' | 'pending' | 'ok' | 'failed';
  /** Balls that left the table (G-11). */
  readonly offTable: readonly BallId[];
}

export interface CaromTraceOptions {
  cueBall: BallId;
  /** The white that is not the cue ball (`other` in figure sequences). */
  otherWhite: BallId;
  /** Stop counting cushions here: higher counts decide nothing. */
  cushionCap: number;
  /** How many cue-ball contacts to keep (artistic figures); 0 keeps none. */
  sequenceCap: number;
  frozenRail: Rail | null;
  frozenToBall: BallId | null;
  objectFrozen: Readonly<Record<string, Rail>>;
}

export function caromScanner(opts: CaromTraceOptions): Scanner<CaromTrace> {
  const { cueBall, otherWhite, cushionCap, sequenceCap } = opts;
  const token = (ball: BallId): string => (ball === otherWhite ? 'other' : ball);

  return {
    init: () => ({
      cueContacts: [],
      firstObject: null,
      objectsHit: 0,
      cushionsBeforeSecond: 0,
      frozenRailPending: opts.frozenRail !== null,
      cushionAfterContact: false,
      frozenObject: 'none',
      frozenObjectBall: null,
      playAway: opts.frozenToBall !== null ? 'pending' : 'none',
      offTable: [],
    }),
    step(s, e: ResolvedEvent): CaromTrace {
      switch (e.kind) {
        case 'cushion':
          return onCushion(s, e.ball, e.rail);
        case 'ball': {
          const [a, b] = e.balls;
          if (a !== cueBall && b !== cueBall) return s; // a kiss between object balls
          const object = a === cueBall ? b : a;
          return onCueHitsBall(s, object);
        }
        case 'off-table':
          return s.offTable.includes(e.ball) ? s : { ...s, offTable: [...s.offTable, e.ball] };
        default:
          return s; // skittles and pockets play no part in carom games
      }
    },
    key: (s) =>
      `${s.cueContacts.join(',')}|${s.firstObject}|${s.objectsHit}|${s.cushionsBeforeSecond}|${+s.frozenRailPending}|` +
      `${+s.cushionAfterContact}|${s.frozenObject}|${s.playAway}|${s.offTable.join(',')}`,
  };

  function onCushion(s: CaromTrace, ball: BallId, rail: Rail): CaromTrace {
    let next = s;
    const contactMade = s.objectsHit > 0;
    if (contactMade && !s.cushionAfterContact) next = { ...next, cushionAfterContact: true };
    if (s.frozenObject === 'pending' && (ball === cueBall || (ball === s.frozenObjectBall && opts.objectFrozen[ball] !== rail))) {
      next = { ...next, frozenObject: 'ok' };
    }
    if (ball !== cueBall) return next;
    if (s.playAway === 'pending') next = { ...next, playAway: 'ok' };
    // G-13: leaving the rail the cue ball lay against is not a cushion contact.
    if (s.frozenRailPending && rail === opts.frozenRail) return { ...next, frozenRailPending: false };
    if (s.cueContacts.length < sequenceCap) next = { ...next, cueContacts: [...next.cueContacts, `cushion:${rail}`] };
    if (s.objectsHit < 2 && s.cushionsBeforeSecond < cushionCap) {
      next = { ...next, cushionsBeforeSecond: s.cushionsBeforeSecond + 1 };
    }
    return next;
  }

  function onCueHitsBall(s: CaromTrace, object: BallId): CaromTrace {
    let next = s;
    if (s.cueContacts.length < sequenceCap) next = { ...next, cueContacts: [...s.cueContacts, token(object)] };
    if (s.playAway === 'pending') {
      next = { ...next, playAway: object === opts.frozenToBall ? 'failed' : 'ok' };
    }
    if (s.frozenObject === 'none' && opts.objectFrozen[object] !== undefined) {
      next = { ...next, frozenObject: 'pending', frozenObjectBall: object };
    }
    if (s.firstObject === null) return { ...next, firstObject: object, objectsHit: 1 };
    if (s.objectsHit === 1 && object !== s.firstObject) return { ...next, objectsHit: 2 };
    return next;
  }
}
