import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { calibrate } from '../../hub/vision/calibration.ts';
import { Detector } from '../../hub/vision/detector.ts';
import { frameToRgb } from '../../hub/vision/frame.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { makeClip } from '../../hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';

/**
 * The measurement behind the choice of plain TypeScript over OpenCV.js (docs/vision.md):
 * on the same 1280×720 frame, our detector (table grid lookup, colour classes, blobs,
 * sub-pixel refine) against the least an OpenCV.js pipeline must do for the same answer
 * (warpPerspective of the table to a downscaled ROI, colour conversion, three inRange
 * masks, connected components with stats). OpenCV.js is not a dependency: point OPENCV_JS
 * at an installed @techstark/opencv-js dist/opencv.js to run it.
 */
const path = process.env.OPENCV_JS;
if (!path || !existsSync(path)) {
  console.log('skipping: OPENCV_JS does not point at @techstark/opencv-js/dist/opencv.js');
  process.exit(0);
}
const shot = new VideoShotPlanner('carom').plan('white', true, [], seededRandom(5));
const clip = makeClip({ ...shot, fps: 30, width: 1280, height: 720, seed: 5 });
const frame = clip.frame(10);
const cal = calibrate({ width: 1280, height: 720, corners: clip.camera.corners, table: { length: 2840, width: 1420 }, k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg });
if (!cal.ok) throw new Error(cal.error);
const det = new Detector(cal.value, { ballRadius: 30.75 });
const time = (f: () => void, n: number) => {
  for (let i = 0; i < 5; i++) f();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    runs.push((performance.now() - t0) / n);
  }
  return runs.sort((a, b) => a - b)[2]!;
};
const ts = time(() => det.detect(frame), 200);

const t0 = performance.now();
const cvModule = createRequire(import.meta.url)(path);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// The module is a thenable that resolves to itself: awaiting it directly never settles.
const cv: any = await new Promise((resolve) =>
  typeof cvModule.then === 'function'
    ? cvModule.then((m: { then?: unknown }) => {
        delete m.then;
        resolve(m);
      })
    : (cvModule.onRuntimeInitialized = () => resolve(cvModule)),
);
const loadMs = performance.now() - t0;
const rgba = new Uint8Array(1280 * 720 * 4);
const rgb = frameToRgb(frame);
for (let i = 0; i < 1280 * 720; i++) rgba.set([rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!, 255], 4 * i);
const src = cv.matFromArray(720, 1280, cv.CV_8UC4, rgba);
const W = det.nx;
const H = det.ny;
const corners = clip.camera.corners.flat();
const from = cv.matFromArray(4, 1, cv.CV_32FC2, corners);
const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, W, 0, W, H, 0, H]);
const M = cv.getPerspectiveTransform(from, to);
const roi = new cv.Mat();
const hsv = new cv.Mat();
const mask = new cv.Mat();
const labels = new cv.Mat();
const stats = new cv.Mat();
const cents = new cv.Mat();
const lo = [new cv.Mat(H, W, cv.CV_8UC3, [0, 0, 200, 0]), new cv.Mat(H, W, cv.CV_8UC3, [20, 120, 120, 0]), new cv.Mat(H, W, cv.CV_8UC3, [170, 120, 60, 0])];
const hi = [new cv.Mat(H, W, cv.CV_8UC3, [180, 40, 255, 0]), new cv.Mat(H, W, cv.CV_8UC3, [35, 255, 255, 0]), new cv.Mat(H, W, cv.CV_8UC3, [180, 255, 255, 0])];
// Frames arrive as I420: the fair OpenCV path copies them into wasm memory and converts there.
const yuv = new cv.Mat(720 * 1.5, 1280, cv.CV_8UC1);
const i420 = new Uint8Array(1280 * 720 * 1.5);
i420.set(frame.y, 0);
i420.set(frame.u, 1280 * 720);
i420.set(frame.v, 1280 * 720 * 1.25);
const ocvFull = time(() => {
  yuv.data.set(i420);
  cv.cvtColor(yuv, src, cv.COLOR_YUV2RGBA_I420);
  cv.warpPerspective(src, roi, M, new cv.Size(W, H), cv.INTER_LINEAR);
  cv.cvtColor(roi, hsv, cv.COLOR_RGBA2RGB);
  cv.cvtColor(hsv, hsv, cv.COLOR_RGB2HSV);
  for (let k = 0; k < 3; k++) {
    cv.inRange(hsv, lo[k], hi[k], mask);
    cv.connectedComponentsWithStats(mask, labels, stats, cents);
  }
}, 200);
const ocv = time(() => {
  cv.warpPerspective(src, roi, M, new cv.Size(W, H), cv.INTER_LINEAR);
  cv.cvtColor(roi, hsv, cv.COLOR_RGBA2RGB);
  cv.cvtColor(hsv, hsv, cv.COLOR_RGB2HSV);
  for (let k = 0; k < 3; k++) {
    cv.inRange(hsv, lo[k], hi[k], mask);
    cv.connectedComponentsWithStats(mask, labels, stats, cents);
  }
}, 200);
const size = statSync(path).size;
console.log(`plain TypeScript detector (grid ${W}x${H}, refine, guards): ${ts.toFixed(2)} ms/frame`);
console.log(`OpenCV.js minimal pipeline (warp to ${W}x${H}, HSV, 3 masks, components; no refine, no guards): ${ocv.toFixed(2)} ms/frame`);
console.log(`  the same from the I420 frame (copy into wasm memory, YUV→RGBA in OpenCV): ${ocvFull.toFixed(2)} ms/frame`);
console.log(`OpenCV.js: ${(size / 1e6).toFixed(1)} MB of JavaScript+wasm, ${loadMs.toFixed(0)} ms to load`);
