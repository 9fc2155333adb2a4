import { calibrate } from '../../../hub/vision/calibration.ts';
import { VisionTracker } from '../../../hub/vision/tracker.ts';
import type { Clip } from './clip.ts';
import type { VideoShot, VideoShotPlanner } from './shots.ts';

/**
 * The tracker a venue would set up for a rendered clip: calibrated from the clip camera's
 * corners and lens, the game's balls, every skittle spot of the layout (the camera watches
 * them all), the table's pockets, and where the balls lay before the shot.
 */
export function clipTracker(clip: Clip, shot: VideoShot, planner: VideoShotPlanner, variant: string): VisionTracker {
  const cam = clip.camera;
  const cal = calibrate({ width: cam.lens.width, height: cam.lens.height, corners: cam.corners, table: { length: shot.table.length, width: shot.table.width }, k1: cam.spec.k1, fovDeg: cam.spec.hfovDeg });
  if (!cal.ok) throw new Error(cal.error);
  const skittleGame = variant.startsWith('skittles');
  const skittles = skittleGame ? planner.table.skittles.map((k) => ({ id: k.id, at: [k.at[0], k.at[1]] as [number, number], base: 2 * k.radius, height: 60 })) : undefined;
  const initial = Object.fromEntries(shot.start.map((b) => [b.id, [b.p[0], b.p[1]] as [number, number]]));
  const pockets = shot.table.pockets.map((p) => ({ at: [p.at[0], p.at[1]] as [number, number], radius: p.radius }));
  return new VisionTracker({ calibration: cal.value, balls: skittleGame ? 'skittles' : 'carom', ballRadius: shot.table.ballRadius, ...(skittles ? { skittles } : {}), ...(pockets.length ? { pockets } : {}), initial });
}
