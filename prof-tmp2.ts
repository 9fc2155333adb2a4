import { createHash } from 'node:crypto';
import { seededRandom } from './hub/rules/random.ts';
import { makeClip } from './hardware/simulator/video/clip.ts';
import { VideoShotPlanner } from './hardware/simulator/video/shots.ts';
const planner = new VideoShotPlanner('skittles-5');
const shot = planner.plan('cue', true, [], seededRandom(5));
const clip = makeClip({ ...shot, fps: 30, width: 640, height: 360, seed: 5, chalk: true, hoverCue: true });
const h = createHash('sha1');
const t0 = performance.now();
const n = Math.min(clip.frameCount, 90);
for (let i = 0; i < n; i++) { const f = clip.frame(i); h.update(f.y); h.update(f.u); h.update(f.v); }
console.log('ms/frame', ((performance.now() - t0) / n).toFixed(2), h.digest('hex'));
