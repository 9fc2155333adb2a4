import { seededRandom } from '../../../hub/rules/random.ts';
import { makeClip } from './clip.ts';
import { writeClipY4m } from './io.ts';
import { VideoShotPlanner } from './shots.ts';

/**
 * `npm run --silent render:video -- OUT.y4m [--variant carom] [--fps 30] [--seed 1]
 * [--size 1280x720]`: renders one physics shot as an overhead camera would film it and
 * prints what the tracker needs to know (corners, lens) and the ground truth as JSON.
 */
const argv = process.argv.slice(2);
const out = argv.find((a) => !a.startsWith('--') && !argv[argv.indexOf(a) - 1]?.startsWith('--'));
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : dflt;
};
if (!out) {
  process.stderr.write('usage: render:video OUT.y4m [--variant carom] [--fps 30] [--seed 1] [--size 1280x720]\n');
  process.exit(2);
}
const variant = opt('variant', 'carom');
const fps = Number(opt('fps', '30'));
const seed = Number(opt('seed', '1'));
const [width, height] = opt('size', '1280x720').split('x').map(Number) as [number, number];
const planner = new VideoShotPlanner(variant);
const random = seededRandom(seed);
const shot = planner.plan(variant.startsWith('skittles') ? 'cue' : 'white', true, [], random);
const clip = makeClip({ ...shot, fps, width, height, seed });
writeClipY4m(clip, out);
const corners = clip.camera.corners.map((c) => `${c[0].toFixed(1)},${c[1].toFixed(1)}`).join(' ');
process.stdout.write(`${JSON.stringify({ video: out, corners, k1: clip.camera.spec.k1, fov: clip.camera.spec.hfovDeg, frames: clip.frameCount, strikeAtMs: clip.strikeAt * 1000, truth: clip.truth.shot })}\n`);
