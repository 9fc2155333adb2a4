import { calibrate } from '../vision/calibration.ts';
import { frameFromI420 } from '../vision/frame.ts';
import { VisionTracker } from '../vision/tracker.ts';
import { skittleSetup } from '../track/skittle-setup.ts';
import { trackerMessage, type TrackerMessage } from '../pipeline/tracker.ts';
import { warmUpAnalysis } from '../vision/warm-up.ts';
import type { CreateFrameProcessor } from './frame-processor.ts';
import { visionOptions } from './vision-options.ts';

/**
 * The hub's detector for a table's camera (hub/camera/frame-worker.ts loads this module in
 * the camera's thread): issue 15's tracker (hub/vision/) behind the FrameProcessor seam.
 * Without the table's corners there is nothing to calibrate, so it refuses to start.
 */
export const createFrameProcessor: CreateFrameProcessor = ({ width, height, fps, corners, options }) => {
  if (!corners) throw new Error('camera: corners are needed for the detector (the four cushion-nose corners in image pixels)');
  const o = visionOptions(options);
  const cal = calibrate({ width, height, corners: corners.map((c) => [c[0], c[1]] as [number, number]), table: o.table, k1: o.k1, ...(o.fovDeg !== undefined ? { fovDeg: o.fovDeg } : {}) });
  if (!cal.ok) throw new Error(`camera: corners: ${cal.error}`);
  const skittles = o.balls === 'skittles' ? skittleSetup(o.table, o.layout) : null;
  // A pyramid table's pockets too (SK7P-6/7): without them a ball that dropped is one the tracker waits to see again, and the shot never ends.
  const tracker = new VisionTracker({ calibration: cal.value, balls: o.balls, ...(skittles ? { skittles: skittles.skittles, initial: skittles.initial } : {}), ...(skittles?.pockets.length ? { pockets: skittles.pockets } : {}) });
  // In the camera's thread, before its first frame: the first shots' analysis is then not V8's first run of it (about 50 ms here, once).
  warmUpAnalysis({ dt: 1000 / fps, ballRadius: tracker.ballRadius, table: o.table, pixelMm: tracker.pixelMm });
  return {
    push: (frame) => {
      const messages = tracker.push(frameFromI420(frame.width, frame.height, frame.data), frame.t);
      // A live camera runs for days: the tracker's whole-video trail (for overlays of files) is not kept here.
      tracker.trail.length = 0;
      return messages.map((m): TrackerMessage => {
        // The same check as a tracker's message over MQTT: the engine only ever sees contract-shaped facts.
        const parsed = trackerMessage(Buffer.from(JSON.stringify(m)));
        if (!parsed.ok) throw new Error(`camera: the detector produced a message the contract refuses: ${parsed.error}`);
        return parsed.value;
      });
    },
    shotPaths: () =>
      tracker.lastShotPaths && {
        ...tracker.lastShotPaths,
        table: o.table,
        ...(skittles ? { skittles: skittles.skittles.map((s) => ({ id: s.id, at: s.at, radius: s.base / 2 })) } : {}),
      },
    positions: () => {
      const at = tracker.latest?.at;
      if (!at) return null;
      const out: Record<string, [number, number]> = {};
      for (const [id, p] of Object.entries(at)) {
        const px = p ? cal.value.toPixel(p[0], p[1], tracker.ballRadius) : null;
        if (px) out[id] = [px[0], px[1]];
      }
      return out;
    },
  };
};
