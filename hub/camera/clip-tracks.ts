import type { ShotEvent } from '../rules/events.ts';

/**
 * The detected tracks beside a replay clip (issue 16): where each ball was in every frame
 * the clip holds, and the contacts the tracker found, in the clip's own pixels, so the
 * referee console can draw them over the video. Kept in the camera's thread as the frames
 * pass the detector; written as `<clip>.tracks.json` when the clip is.
 */
export type BallPixels = Record<string, [number, number]>;

export interface ClipContact {
  /** Index of the clip frame nearest the contact. */
  frame: number;
  kind: ShotEvent['kind'];
  /** The balls in it (one for a cushion, two for a ball-ball contact; null: not identified). */
  balls: (string | null)[];
  rail?: string;
  /** Where it happened: the (first) ball's position in that frame, clip pixels. */
  at: [number, number] | null;
}

export interface ClipTracksFile {
  version: 1;
  width: number;
  height: number;
  fps: number;
  /** One entry per clip frame: each ball seen, clip pixels (null: no detector output for the frame). */
  frames: (BallPixels | null)[];
  contacts: ClipContact[];
}

const MAX_CONTACTS = 256;

export class ClipTracks {
  private samples: { t: number; balls: BallPixels | null }[] = [];
  private events: ShotEvent[] = [];

  constructor(private readonly capacity: number) {}

  /** A frame passed the detector, at t (the frames' clock), with the balls' image pixels. */
  frame(t: number, balls: BallPixels | null): void {
    this.samples.push({ t, balls });
    if (this.samples.length > this.capacity) this.samples.splice(0, this.samples.length - this.capacity);
  }

  /** A shot's events (their t on the frames' clock). */
  contacts(events: readonly ShotEvent[]): void {
    for (const e of events) if (e.t !== undefined) this.events.push(e);
    if (this.events.length > MAX_CONTACTS) this.events.splice(0, this.events.length - MAX_CONTACTS);
  }

  clear(): void {
    this.samples = [];
    this.events = [];
  }

  /** The tracks for a clip of these frame times (oldest first), scaled to the clip's size. */
  forClip(frameTimes: readonly number[], fps: number, scale: number, width: number, height: number): ClipTracksFile {
    const byT = new Map(this.samples.map((s) => [s.t, s.balls]));
    const scaled = (b: BallPixels | null | undefined): BallPixels | null => {
      if (!b) return null;
      const out: BallPixels = {};
      for (const [id, [x, y]] of Object.entries(b)) out[id] = [Math.round(x * scale * 10) / 10, Math.round(y * scale * 10) / 10];
      return out;
    };
    const frames = frameTimes.map((t) => scaled(byT.get(t)));
    const first = frameTimes[0] ?? 0;
    const last = frameTimes.at(-1) ?? 0;
    const contacts: ClipContact[] = [];
    for (const e of this.events) {
      if (e.t === undefined || e.t < first || e.t > last + 1000 / fps) continue;
      let frame = 0;
      for (let k = 1; k < frameTimes.length; k++) if (Math.abs(frameTimes[k]! - e.t) < Math.abs(frameTimes[frame]! - e.t)) frame = k;
      const balls = e.kind === 'ball' ? [...e.balls] : e.kind === 'skittle' ? [e.by] : 'ball' in e ? [e.ball ?? null] : [];
      const who = balls.find((b) => b !== null) ?? null;
      const at = who ? frames[frame]?.[who] ?? null : null;
      contacts.push({ frame, kind: e.kind, balls, ...(e.kind === 'cushion' ? { rail: e.rail } : {}), at });
    }
    return { version: 1, width, height, fps, frames, contacts };
  }
}
