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
  return new CaromScanner(opts);
}

/** A class, not closures: one is made per shot, and the methods live on the prototype. */
class CaromScanner implements Scanner<CaromTrace> {
  constructor(private readonly opts: CaromTraceOptions) {}

  init(): CaromTrace {
    return {
      cueContacts: [],
      firstObject: null,
      objectsHit: 0,
      cushionsBeforeSecond: 0,
      frozenRailPending: this.opts.frozenRail !== null,
      cushionAfterContact: false,
      frozenObject: 'none',
      frozenObjectBall: null,
      playAway: this.opts.frozenToBall !== null ? 'pending' : 'none',
      offTable: [],
    };
  }

  step(s: CaromTrace, e: ResolvedEvent): CaromTrace {
    switch (e.kind) {
      case 'cushion':
        return this.onCushion(s, e.ball, e.rail);
      case 'ball': {
        const [a, b] = e.balls;
        const cue = this.opts.cueBall;
        if (a !== cue && b !== cue) return s; // a kiss between object balls
        return this.onCueHitsBall(s, a === cue ? b : a);
      }
      case 'off-table':
        return s.offTable.includes(e.ball) ? s : { ...s, offTable: [...s.offTable, e.ball] };
      default:
        return s; // skittles and pockets play no part in carom games
    }
  }

  key(s: CaromTrace): string {
    return (
      `${s.cueContacts.join(',')}|${s.firstObject}|${s.objectsHit}|${s.cushionsBeforeSecond}|${+s.frozenRailPending}|` +
      `${+s.cushionAfterContact}|${s.frozenObject}|${s.playAway}|${s.offTable.join(',')}`
    );
  }

  private onCushion(s: CaromTrace, ball: BallId, rail: Rail): CaromTrace {
    const { cueBall, objectFrozen, frozenRail, sequenceCap, cushionCap } = this.opts;
    const afterContact = s.objectsHit > 0 && !s.cushionAfterContact;
    const frozenOk = s.frozenObject === 'pending' && (ball === cueBall || (ball === s.frozenObjectBall && objectFrozen[ball] !== rail));
    if (ball !== cueBall) {
      if (!afterContact && !frozenOk) return s;
      return { ...s, cushionAfterContact: s.cushionAfterContact || afterContact, frozenObject: frozenOk ? 'ok' : s.frozenObject };
    }
    const next: { -readonly [K in keyof CaromTrace]: CaromTrace[K] } = { ...s };
    if (afterContact) next.cushionAfterContact = true;
    if (frozenOk) next.frozenObject = 'ok';
    if (s.playAway === 'pending') next.playAway = 'ok';
    // G-13: leaving the rail the cue ball lay against is not a cushion contact.
    if (s.frozenRailPending && rail === frozenRail) {
      next.frozenRailPending = false;
      return next;
    }
    if (s.cueContacts.length < sequenceCap) next.cueContacts = [...s.cueContacts, `cushion:${rail}`];
    if (s.objectsHit < 2 && s.cushionsBeforeSecond < cushionCap) next.cushionsBeforeSecond = s.cushionsBeforeSecond + 1;
    return next;
  }

  private onCueHitsBall(s: CaromTrace, object: BallId): CaromTrace {
    const { otherWhite, sequenceCap, frozenToBall, objectFrozen } = this.opts;
    const next: { -readonly [K in keyof CaromTrace]: CaromTrace[K] } = { ...s };
    if (s.cueContacts.length < sequenceCap) next.cueContacts = [...s.cueContacts, object === otherWhite ? 'other' : object];
    if (s.playAway === 'pending') next.playAway = object === frozenToBall ? 'failed' : 'ok';
    if (s.frozenObject === 'none' && objectFrozen[object] !== undefined) {
      next.frozenObject = 'pending';
      next.frozenObjectBall = object;
    }
    if (s.firstObject === null) {
      next.firstObject = object;
      next.objectsHit = 1;
    } else if (s.objectsHit === 1 && object !== s.firstObject) next.objectsHit = 2;
    return next;
  }
}
