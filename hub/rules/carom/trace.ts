import type { BallId, Rail } from '../ids.ts';
import type { ResolvedEvent, Scanner } from '../worlds.ts';

/**
 * What a carom referee watches during one shot, folded event by event. Every carom
 * variant decides from this one record; only the thresholds differ (G-14, OC-1, TC-1…).
 */
export interface CaromTrace {
  /** The cue ball's contacts in order, as artistic tokens (`red`, `other`, `cushion:<rail>`), up to `sequenceCap`. */
  cueContacts: string[];
  /** First object ball the cue ball touched (G-5). */
  firstObject: BallId | null;
  /** Distinct object balls the cue ball has touched: 0, 1 or 2. */
  objectsHit: number;
  /** Cue-ball cushion contacts counted before it touched the second object ball (TC-1, OC-1), capped. */
  cushionsBeforeSecond: number;
  /** G-13: the first contact with the rail the cue ball lay frozen against is still to come. */
  frozenRailPending: boolean;
  /** G-10: some ball reached a cushion after the cue ball's first object-ball contact. */
  cushionAfterContact: boolean;
  /** TC-5 for a safety off an object ball frozen to a cushion. */
  frozenObject: 'none' | 'pending' | 'ok';
  frozenObjectBall: BallId | null;
  /** G-12 play-away: cue ball frozen to an object ball must first touch a cushion or the free ball. */
  playAway: 'none' | 'pending' | 'ok' | 'failed';
  /** Balls that left the table (G-11). */
  offTable: BallId[];
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

  /** Changes `s` in place (see Scanner.clone): one allocation-free pass per shot. */
  step(s: CaromTrace, e: ResolvedEvent): CaromTrace {
    switch (e.kind) {
      case 'cushion':
        this.onCushion(s, e.ball, e.rail);
        break;
      case 'ball': {
        const [a, b] = e.balls;
        const cue = this.opts.cueBall;
        if (a === cue || b === cue) this.onCueHitsBall(s, a === cue ? b : a); // else a kiss between object balls
        break;
      }
      case 'off-table':
        if (!s.offTable.includes(e.ball)) s.offTable.push(e.ball);
        break;
      default:
        break; // skittles and pockets play no part in carom games
    }
    return s;
  }

  clone(s: CaromTrace): CaromTrace {
    return { ...s, cueContacts: [...s.cueContacts], offTable: [...s.offTable] };
  }

  key(s: CaromTrace): string {
    return (
      `${s.cueContacts.join(',')}|${s.firstObject}|${s.objectsHit}|${s.cushionsBeforeSecond}|${+s.frozenRailPending}|` +
      `${+s.cushionAfterContact}|${s.frozenObject}|${s.playAway}|${s.offTable.join(',')}`
    );
  }

  private onCushion(s: CaromTrace, ball: BallId, rail: Rail): void {
    const { cueBall, objectFrozen, frozenRail, sequenceCap, cushionCap } = this.opts;
    if (s.objectsHit > 0) s.cushionAfterContact = true;
    if (s.frozenObject === 'pending' && (ball === cueBall || (ball === s.frozenObjectBall && objectFrozen[ball] !== rail))) s.frozenObject = 'ok';
    if (ball !== cueBall) return;
    if (s.playAway === 'pending') s.playAway = 'ok';
    // G-13 (RULES §11): the push-off — a hit on the frozen rail before any other contact of the
    // cue ball — does not count; once the cue ball has touched anything else, that rail counts.
    if (s.frozenRailPending) {
      s.frozenRailPending = false;
      if (rail === frozenRail) return;
    }
    if (s.cueContacts.length < sequenceCap) s.cueContacts.push(`cushion:${rail}`);
    if (s.objectsHit < 2 && s.cushionsBeforeSecond < cushionCap) s.cushionsBeforeSecond += 1;
  }

  private onCueHitsBall(s: CaromTrace, object: BallId): void {
    const { otherWhite, sequenceCap, frozenToBall, objectFrozen } = this.opts;
    s.frozenRailPending = false; // G-13: a later hit on the frozen rail counts
    if (s.cueContacts.length < sequenceCap) s.cueContacts.push(object === otherWhite ? 'other' : object);
    if (s.playAway === 'pending') s.playAway = object === frozenToBall ? 'failed' : 'ok';
    if (s.frozenObject === 'none' && objectFrozen[object] !== undefined) {
      s.frozenObject = 'pending';
      s.frozenObjectBall = object;
    }
    if (s.firstObject === null) {
      s.firstObject = object;
      s.objectsHit = 1;
    } else if (s.objectsHit === 1 && object !== s.firstObject) s.objectsHit = 2;
  }
}
