import type { ShotEvent } from '../rules/events.ts';
import type { Rail, SkittleId } from '../rules/ids.ts';
import type { SensorEvent } from './sensor-events.ts';

export interface SegmenterOptions {
  /** Piezo channel → rail. Hits on unmapped channels are counted, not scored. */
  rails: Readonly<Record<number, Rail>>;
  /** Tilt switch index → skittle. */
  skittles: Readonly<Record<number, SkittleId>>;
  quietWindowMs: number;
  restVibrationLevel: number;
  railMergeMs: number;
  /**
   * Cross-talk: a knock rings into the other rails' piezos through the frame. Within this
   * many ms of a cushion hit, a hit on another rail at most `crossRailRatio` of the
   * strongest one's amplitude is its echo and dropped (a stronger one takes its place).
   * Hits of comparable strength are both kept: a ball into a corner touches two rails.
   * 0 turns it off.
   */
  crossRailMs?: number;
  crossRailRatio?: number;
  /** The sensors are calibrated (bounds.ts SENSOR_CALIBRATION): shot events carry each hit's amplitude. */
  amplitudes?: boolean;
}

export type SegmenterOutput =
  | { type: 'shot-started'; at: number }
  | { type: 'shot-complete'; startedAt: number; endedAt: number; events: ShotEvent[]; endedBy: 'quiet' | 'referee' | 'tracker' | 'strike' };

/**
 * Cuts a table's sensor stream into shots (G-6: a shot is complete only when every ball
 * has stopped). Pure: time comes in with the events and with `tick(now)`, never from a
 * clock. A shot starts at a cue strike or at the first sign of motion after rest; it ends
 * when no hit has come for the quiet window and the bed-vibration channel says the balls
 * are at rest, or when the referee or a tracker says so.
 *
 * Each hit becomes a shot event for the engine: a rail hit is a cushion contact whose ball
 * is unknown, a click is a ball contact whose pair is unknown, a tilt is a skittle down by
 * an unknown ball (RULES §10: the engine infers what it can and asks about the rest).
 */
export class ShotSegmenter {
  private moving = false;
  private startedAt = 0;
  private lastActivity = 0;
  private vibration = 0;
  private vibrationAt = -Infinity;
  private events: ShotEvent[] = [];
  private lastRailHit = new Map<Rail, number>();
  /** The strongest cushion hit of the current cross-talk window: where it sits in `events`. */
  private loudest: { index: number; rail: Rail; at: number; amplitude: number } | null = null;
  /** Rail hits dropped as another rail's echo. */
  crossRailEchoes = 0;
  /** A strike announced while the balls still moved (G-7 "moving-balls"). */
  private strikeWhileMoving = false;
  unmappedHits = 0;

  constructor(private readonly opts: SegmenterOptions) {}

  get inMotion(): boolean {
    return this.moving;
  }

  /** When the quiet window of the shot in progress runs out (the earliest `tick` can end it), or null at rest. */
  get quietUntil(): number | null {
    return this.moving ? this.lastActivity + this.opts.quietWindowMs : null;
  }

  push(event: SensorEvent): SegmenterOutput[] {
    const out: SegmenterOutput[] = [];
    const now = event.hubTime;
    switch (event.type) {
      case 'vibration':
        this.vibration = event.level;
        this.vibrationAt = now;
        if (event.level > this.opts.restVibrationLevel) this.activity(now, out);
        break;
      case 'rail-hit': {
        const rail = this.opts.rails[event.channel];
        if (rail === undefined) {
          this.unmappedHits += 1;
          break;
        }
        this.activity(now, out);
        if (this.crossTalk(rail, now, event.amplitude)) break;
        const previous = this.lastRailHit.get(rail);
        this.lastRailHit.set(rail, now);
        if (previous !== undefined && now - previous < this.opts.railMergeMs) break; // the same impact on a second sensor
        this.loudest = { index: this.events.length, rail, at: now, amplitude: event.amplitude };
        this.events.push({ kind: 'cushion', rail, ball: null, t: this.t(now), ...this.amplitude(event.amplitude) });
        break;
      }
      case 'click':
        this.activity(now, out);
        this.events.push({ kind: 'ball', balls: [null, null], t: this.t(now), ...this.amplitude(event.amplitude) });
        break;
      case 'skittle': {
        if (event.state !== 'down') break; // standing a skittle up is the referee setting the table
        const skittle = this.opts.skittles[event.index];
        if (skittle === undefined) {
          this.unmappedHits += 1;
          break;
        }
        this.activity(now, out);
        this.events.push({ kind: 'skittle', skittle, by: null, t: this.t(now) });
        break;
      }
      default:
        break;
    }
    return out;
  }

  /**
   * True when this hit is settled by cross-talk suppression: an echo of the window's loudest
   * hit (dropped), or the real hit whose earlier, weaker echo it replaces.
   */
  private crossTalk(rail: Rail, now: number, amplitude: number): boolean {
    const windowMs = this.opts.crossRailMs ?? 0;
    const ratio = this.opts.crossRailRatio ?? 0.6;
    const l = this.loudest;
    if (windowMs <= 0 || l === null || l.rail === rail || now - l.at > windowMs) return false;
    if (amplitude <= l.amplitude * ratio) {
      this.crossRailEchoes += 1;
      return true;
    }
    if (l.amplitude > amplitude * ratio) return false; // comparable: two real contacts
    // The earlier hit was this one's echo: the cushion is this rail's, at this time.
    this.crossRailEchoes += 1;
    if (this.lastRailHit.get(l.rail) === l.at) this.lastRailHit.delete(l.rail);
    this.lastRailHit.set(rail, now);
    this.events[l.index] = { kind: 'cushion', rail, ball: null, t: this.t(now), ...this.amplitude(amplitude) };
    this.loudest = { index: l.index, rail, at: l.at, amplitude };
    return true;
  }

  /** A hit's amplitude as shot-event evidence, only from calibrated sensors. */
  private amplitude(amplitude: number): { amplitude?: number } {
    return this.opts.amplitudes ? { amplitude } : {};
  }

  /** Called on a timer: ends the shot once the table has been quiet long enough. */
  tick(now: number): SegmenterOutput[] {
    if (!this.moving || now - this.lastActivity < this.opts.quietWindowMs) return [];
    // A fresh vibration reading above the rest level keeps the shot open; a stale one is not trusted either way.
    const fresh = now - this.vibrationAt < this.opts.quietWindowMs;
    if (fresh && this.vibration > this.opts.restVibrationLevel) return [];
    return [this.complete(now, 'quiet')];
  }

  /**
   * A cue strike reported by a cue sensor or a tracker. While balls move it is a G-7 foul —
   * unless it was seen late: a camera reports the strike frames after it happened, when the
   * strike's own bed vibration or first contact may already have begun the shot. A shot that
   * began no earlier than `late.at - late.lateMs` (hub times) began with this very strike.
   */
  strike(now: number, late?: { at: number; lateMs: number }): SegmenterOutput[] {
    // (Reported so late that its shot has already ended: that shot began with it too.)
    if (late && this.startedAt >= late.at - late.lateMs && (this.moving || this.startedAt <= late.at + late.lateMs)) return [];
    const out: SegmenterOutput[] = [];
    if (this.moving) {
      if (this.events.length > 0) out.push(this.complete(now, 'strike'));
      this.strikeWhileMoving = true;
    }
    this.begin(now, out);
    return out;
  }

  /**
   * The referee or a tracker says every ball is at rest. `seenAt`: the hub time of the frame
   * that showed it (a camera's report may come late); a rest seen before the current shot
   * began is the previous shot's and ends nothing.
   */
  end(now: number, by: 'referee' | 'tracker', seenAt?: number): SegmenterOutput[] {
    if (seenAt !== undefined && this.moving && seenAt < this.startedAt) return [];
    return this.moving ? [this.complete(now, by)] : [];
  }

  /**
   * A camera saw no ball leave its place after its strike: the shot that strike began is
   * none, if the sensors heard nothing in it either (then true, and the table is at rest).
   * A shot with any event in it is left to end as it would.
   */
  withdraw(): boolean {
    if (!this.moving || this.events.length > 0) return false;
    this.moving = false;
    this.loudest = null;
    this.lastRailHit.clear();
    return true;
  }

  private activity(now: number, out: SegmenterOutput[]): void {
    if (!this.moving) this.begin(now, out);
    this.lastActivity = now;
  }

  private begin(now: number, out: SegmenterOutput[]): void {
    this.moving = true;
    this.startedAt = now;
    this.lastActivity = now;
    this.events = [];
    this.lastRailHit.clear();
    this.loudest = null;
    if (this.strikeWhileMoving) {
      this.events.push({ kind: 'foul', foul: 'moving-balls', by: 'shooter', t: 0 });
      this.strikeWhileMoving = false;
    }
    out.push({ type: 'shot-started', at: now });
  }

  private complete(now: number, endedBy: Extract<SegmenterOutput, { type: 'shot-complete' }>['endedBy']): SegmenterOutput {
    this.moving = false;
    const events = this.events;
    this.events = [];
    return { type: 'shot-complete', startedAt: this.startedAt, endedAt: now, events, endedBy };
  }

  private t(now: number): number {
    return Math.max(0, Math.round((now - this.startedAt) * 10) / 10);
  }
}
