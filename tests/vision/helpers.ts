import { calibrate, type Calibration } from '../../hub/vision/calibration.ts';
import type { Ball } from '../../hardware/simulator/physics/ball.ts';
import { caromTable } from '../../hardware/simulator/physics/table.ts';
import { makeClip, type Clip, type ClipSpec } from '../../hardware/simulator/video/clip.ts';

export const CAROM = caromTable();

export const still = (id: string, p: [number, number]): Ball => ({ id, p, v: [0, 0], roll: [0, 0], side: 0 });

/** A clip with the balls given (a moving cue ball or none), small frames to keep tests quick. */
export function clipOf(start: Ball[], spec: Partial<ClipSpec> = {}): Clip {
  return makeClip({ table: CAROM, start, cueBall: start[0]!.id, variant: 'carom', fps: 30, width: 800, height: 450, seed: 7, chalk: false, hoverCue: false, ...spec });
}

/** The calibration the track command would get: corners, lens and field of view of the clip's camera. */
export function calibrationOf(clip: Clip): Calibration {
  const c = clip.camera;
  const cal = calibrate({ width: c.lens.width, height: c.lens.height, corners: c.corners, table: { length: CAROM.length, width: CAROM.width }, k1: c.spec.k1, fovDeg: c.spec.hfovDeg });
  if (!cal.ok) throw new Error(cal.error);
  return cal.value;
}

export const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);
