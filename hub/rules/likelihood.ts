import type { BallId, Rail } from './ids.ts';
import type { ResolvedEvent } from './events.ts';
import { OPPOSITE } from './bounds.ts';
import fitted from './likelihood-model.json' with { type: 'json' };

/**
 * How likely each reading of a shot's unknown facts is, from the evidence the sensors give:
 * the event's kind, the shot so far (contacts, rails since the last contact), the time since
 * the candidate ball last did something and, for a rail, how it relates to that ball's last
 * rail. A small, deterministic model: for each feature key, the share of candidates with that
 * key that were the true one on the physics simulator's shots (counts in
 * likelihood-model.json, refit with `npm run fit:likelihood`). It only ranks a prompt's
 * options; it never decides a shot.
 */
export interface LikelihoodModel {
  version: number;
  description: string;
  /** Feature key → [times the candidate was the truth, times it was a candidate]. */
  counts: Readonly<Record<string, readonly [number, number]>>;
}

export const LIKELIHOOD_MODEL: LikelihoodModel = checkModel(fitted);

/** The model file is data: it is checked once, so a bad refit fails loudly at start, naming the key. */
export function checkModel(data: unknown): LikelihoodModel {
  const m = data as { version?: unknown; description?: unknown; counts?: unknown };
  if (typeof m !== 'object' || m === null || !Number.isInteger(m.version) || typeof m.description !== 'string' || typeof m.counts !== 'object' || m.counts === null) {
    throw new Error('likelihood model: expected {version, description, counts}');
  }
  for (const [key, c] of Object.entries(m.counts)) {
    const ok = Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1]) && c[0] >= 0 && c[0] <= c[1];
    if (!ok) throw new Error(`likelihood model: counts['${key}'] must be [truths, candidates] with 0 ≤ truths ≤ candidates`);
  }
  return m as LikelihoodModel;
}

/** A key is used once it has been a candidate this often; otherwise a coarser key is used. */
export const MIN_SUPPORT = 12;

/** What the model remembers of a reading as the shot goes on. */
export interface Track {
  /** Object balls the cue ball has touched (bit per ball index). */
  cueHit: number;
  /** The ball last set moving by a contact, or -1. */
  lastStruck: number;
  lastT: readonly (number | null)[];
  lastRail: readonly (Rail | null)[];
  clicks: number;
  railsSinceClick: number;
  /** Per ball, the amplitude of the click that last set it moving (null: none, or not reported). */
  lastAmp: readonly (number | null)[];
}

export function initialTrack(ballCount: number): Track {
  const none = () => new Array<null>(ballCount).fill(null);
  return { cueHit: 0, lastStruck: -1, lastT: none(), lastRail: none(), clicks: 0, railsSinceClick: 0, lastAmp: none() };
}

/** The track after an event (with every ball in it resolved). */
export function stepTrack(track: Track, e: ResolvedEvent, t: number | undefined, balls: readonly BallId[], cueBall: BallId, amplitude?: number): Track {
  const lastT = [...track.lastT];
  const at = t ?? null;
  if (e.kind === 'ball') {
    const [a, b] = e.balls.map((x) => balls.indexOf(x)) as [number, number];
    lastT[a] = at;
    lastT[b] = at;
    const cue = balls.indexOf(cueBall);
    const other = a === cue ? b : b === cue ? a : -1;
    const struck = other >= 0 ? other : track.lastT[a] === null ? a : track.lastT[b] === null ? b : track.lastStruck;
    const lastAmp = [...track.lastAmp];
    for (const k of [a, b]) if (k !== cue) lastAmp[k] = amplitude ?? null;
    return { ...track, lastT, lastAmp, cueHit: other >= 0 ? track.cueHit | (1 << other) : track.cueHit, lastStruck: struck, clicks: track.clicks + 1, railsSinceClick: 0 };
  }
  const who = balls.indexOf(e.kind === 'skittle' ? e.by : e.ball);
  lastT[who] = at;
  if (e.kind !== 'cushion') return { ...track, lastT };
  const lastRail = [...track.lastRail];
  lastRail[who] = e.rail;
  return { ...track, lastT, lastRail, railsSinceClick: track.railsSinceClick + 1 };
}

const DT_EDGES = [30, 100, 250, 600, 1500];

function dtBucket(now: number | undefined, then: number | null): string {
  if (now === undefined || then === null) return 'n';
  const dt = now - then;
  let k = 0;
  while (k < DT_EDGES.length && dt >= DT_EDGES[k]!) k++;
  return String(k);
}

const cap = (n: number, max: number) => String(Math.min(n, max));

const RATIO_EDGES = [0.35, 0.7, 1, 1.4, 2];

/**
 * How loud this contact is against the click that set the candidate's object ball moving: a
 * ball struck softly cannot hit much harder (bounds.ts IMPULSE_SHARE), and usually hits softer.
 * 'c': the candidate is the cue ball alone; 'n': no amplitude to compare.
 */
function ampBucket(amplitude: number | undefined, before: number | null | undefined, cueOnly: boolean): string {
  if (cueOnly) return 'c';
  if (amplitude === undefined || before === null || before === undefined || before <= 0) return 'n';
  const r = amplitude / before;
  let k = 0;
  while (k < RATIO_EDGES.length && r >= RATIO_EDGES[k]!) k++;
  return String(k);
}

/** Games whose shots the simulator plays alike share one set of counts (the zone games are the free game's). */
export function modelGroup(variant: string): string {
  return variant === 'free-game' || variant.startsWith('balkline') ? 'carom' : variant;
}

/** The feature keys of one candidate reading of an event, most specific first. */
export function candidateKeys(variantId: string, track: Track, e: ResolvedEvent, t: number | undefined, balls: readonly BallId[], cueBall: BallId, amplitude?: number): string[] {
  const variant = modelGroup(variantId);
  const cue = balls.indexOf(cueBall);
  let role: string;
  let dt: string;
  let rel = '';
  let amp: string;
  if (e.kind === 'ball') {
    const [a, b] = e.balls.map((x) => balls.indexOf(x)) as [number, number];
    const other = a === cue ? b : b === cue ? a : -1;
    role = other >= 0 ? ((track.cueHit >> other) & 1 ? 'cue-again' : 'cue-new') : a === track.lastStruck || b === track.lastStruck ? 'struck-obj' : 'obj-obj';
    const obj = [a, b].filter((k) => k !== cue);
    const before = Math.max(...obj.map((k) => track.lastAmp[k] ?? -1));
    amp = obj.some((k) => track.lastT[k] === null) ? 'r' : ampBucket(amplitude, before < 0 ? null : before, false);
    const ta = track.lastT[a] ?? null;
    const tb = track.lastT[b] ?? null;
    dt = dtBucket(t, ta === null ? tb : tb === null ? ta : Math.max(ta, tb));
  } else {
    const who = balls.indexOf(e.kind === 'skittle' ? e.by : e.ball);
    role = who === cue ? 'cue' : who === track.lastStruck ? 'struck' : 'obj';
    dt = dtBucket(t, track.lastT[who] ?? null);
    amp = e.kind === 'cushion' ? ampBucket(amplitude, track.lastAmp[who], who === cue) : '';
    if (e.kind === 'cushion') {
      const last = track.lastRail[who] ?? null;
      rel = last === null ? 'n' : last === e.rail ? 's' : OPPOSITE[last] === e.rail ? 'o' : 'a';
    }
  }
  const shape = `c${cap(track.clicks, 3)}r${cap(track.railsSinceClick, 3)}`;
  const base = `${e.kind}|${role}`;
  return [`${variant}|${base}|${shape}|${dt}|${rel}|${amp}`, `${variant}|${base}|${shape}|${dt}|${rel}`, `${variant}|${base}|${shape}`, `${variant}|${base}`, base];
}

/** The share of candidates like this one that were the truth, from the most specific key with enough support. */
export function candidateScore(model: LikelihoodModel, keys: readonly string[]): number {
  for (const key of keys) {
    const c = model.counts[key];
    if (c && c[1] >= MIN_SUPPORT) return (c[0] + 0.5) / (c[1] + 1);
  }
  return 0.5;
}
