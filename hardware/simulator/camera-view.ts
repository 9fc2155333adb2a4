import type { Shot, ShotEvent } from '../../hub/rules/events.ts';

/**
 * What an overhead camera and the piezos each report of a true shot (issue 16), for the
 * fusion measure and its tests. The camera is "right or null": it never names a wrong ball,
 * but it reports each contact at the first frame after it happened (so two contacts within
 * one frame interval come out in an arbitrary order), it loses some contacts altogether
 * (a ball under an arm or a cue), it leaves some ids out (a ball it could not tell), and its
 * clock is mapped to the hub's with a small error. The sensors see every contact, in order,
 * timed to ~0.1 ms, with no ball ids (as `sensorView` in accuracy.ts: off-table and pocket
 * events are kept as the existing accuracy measure keeps them).
 */
export interface CameraModel {
  fps: number;
  /** Chance that a contact is not seen at all. */
  hide: number;
  /** Chance, per ball id of a seen contact, that the camera cannot tell it. */
  unknownId: number;
  /** Chance that a ball is hidden when the balls come to rest (then no positions). */
  hiddenAtRest: number;
  /** Largest error (ms) of the camera-to-hub clock mapping, uniform in ±this. */
  clockErrorMs: number;
}

export const DEFAULT_CAMERA: Omit<CameraModel, 'fps'> = { hide: 0.05, unknownId: 0.05, hiddenAtRest: 0.03, clockErrorMs: 4 };

export interface Views {
  /** The sensors' shot: `t` from the first sensed contact, as the segmenter cuts it. */
  sensors: Shot;
  /** The camera's shot: `t` on the camera's clock (ms from the cue strike, plus the clock error). */
  camera: Shot;
  /** Fusion's inputs for this shot: camera t + offset ≈ sensor t, within the tolerance. */
  offsetMs: number;
  toleranceMs: number;
}

const CONTACT = new Set(['ball', 'cushion', 'skittle', 'off-table', 'pocket']);

export function views(truth: Shot, model: CameraModel, random: () => number): Views {
  const frame = 1000 / model.fps;
  const phase = random() * frame;
  const clockError = (random() * 2 - 1) * model.clockErrorMs;
  const timed = truth.events.filter((e) => e.t !== undefined);
  const startedAt = timed.length > 0 ? timed[0]!.t! : 0;
  const sensors: Shot = {
    events: truth.events.map((e) => {
      const noisy = e.t === undefined ? undefined : Math.max(0, Math.round((e.t - startedAt + (random() - 0.5) * 0.1) * 10) / 10);
      const t = noisy === undefined ? {} : { t: noisy };
      if (e.kind === 'cushion') return { ...e, ball: null, ...t };
      if (e.kind === 'ball') return { ...e, balls: [null, null], ...t };
      if (e.kind === 'skittle') return { ...e, by: null, ...t };
      return { ...e, ...t };
    }),
  };
  const seen: ShotEvent[] = [];
  for (const e of truth.events) {
    if (!CONTACT.has(e.kind) || e.t === undefined || random() < model.hide) continue;
    const frameT = Math.ceil((e.t - phase) / frame) * frame + phase;
    const t = Math.round((frameT + clockError) * 10) / 10;
    const id = (b: string | null) => (random() < model.unknownId ? null : b);
    if (e.kind === 'ball') seen.push({ kind: 'ball', balls: [id(e.balls[0]), id(e.balls[1])], t });
    else if (e.kind === 'cushion') seen.push({ ...e, ball: id(e.ball), t });
    else if (e.kind === 'skittle') seen.push({ ...e, by: id(e.by), t });
    else seen.push({ ...e, t });
  }
  // Within one frame the camera cannot tell the order: contacts of the same frame are shuffled.
  const keyed = seen.map((e) => ({ e, k: random() }));
  keyed.sort((a, b) => a.e.t! - b.e.t! || a.k - b.k);
  const camera: Shot = { events: keyed.map((x) => x.e) };
  const balls = Object.keys(truth.positions ?? {});
  if (truth.positions && !balls.some(() => random() < model.hiddenAtRest)) camera.positions = truth.positions;
  // The camera reports a contact 0…1 frame late: centre the window on half a frame.
  return { sensors, camera, offsetMs: -startedAt - frame / 2, toleranceMs: frame / 2 + model.clockErrorMs + 0.5 };
}
