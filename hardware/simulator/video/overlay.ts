import { writeFileSync } from 'node:fs';
import { seededRandom } from '../../../hub/rules/random.ts';
import { calibrate } from '../../../hub/vision/calibration.ts';
import { frameToRgb } from '../../../hub/vision/frame.ts';
import { VisionTracker, type TrackerMessage } from '../../../hub/vision/tracker.ts';
import { makeClip } from './clip.ts';
import { encodePng } from './png.ts';
import { VideoShotPlanner } from './shots.ts';

/**
 * `npm run --silent render:overlay -- OUT.png [--seed N] [--variant three-cushion]`: a
 * rendered frame with the tracker's tracks drawn over it (each ball's path in its colour,
 * a ring where a contact was found), for the docs; prints the tracker's messages.
 */
const argv = process.argv.slice(2);
const out = argv[0];
if (!out) {
  process.stderr.write('usage: render:overlay OUT.png [--seed N] [--variant V]\n');
  process.exit(2);
}
const opt = (name: string, d: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : d);
const seed = Number(opt('seed', '12'));
const variant = opt('variant', 'three-cushion');
const shot = new VideoShotPlanner(variant).plan('white', true, [], seededRandom(seed));
const [width, height] = [640, 360];
const clip = makeClip({ ...shot, fps: 30, width, height, seed });
const cal = calibrate({ width, height, corners: clip.camera.corners, table: { length: shot.table.length, width: shot.table.width }, k1: clip.camera.spec.k1, fovDeg: clip.camera.spec.hfovDeg });
if (!cal.ok) throw new Error(cal.error);
const tracker = new VisionTracker({ calibration: cal.value, balls: 'carom' });
const messages: TrackerMessage[] = [];
const pick = Math.min(clip.frameCount - 1, Math.round((clip.strikeAt + 1.2) * clip.fps));
let shown = clip.frame(0);
for (let i = 0; i < clip.frameCount; i++) {
  const f = clip.frame(i);
  if (i === pick) shown = f;
  messages.push(...tracker.push(f, Math.round((i * 1000) / clip.fps)));
}
messages.push(...tracker.finish());
const rgb = frameToRgb(shown);
const COLOURS: Record<string, [number, number, number]> = { white: [255, 255, 255], yellow: [255, 220, 0], red: [255, 40, 40] };
const dot = (u: number, v: number, c: [number, number, number], r = 1) => {
  for (let dv = -r; dv <= r; dv++)
    for (let du = -r; du <= r; du++) {
      const x = Math.round(u + du);
      const y = Math.round(v + dv);
      if (x >= 0 && y >= 0 && x < width && y < height) rgb.set(c, (y * width + x) * 3);
    }
};
for (const id of Object.keys(COLOURS)) {
  let prev: [number, number] | null = null;
  for (const o of tracker.trail) {
    const p = o.at[id];
    if (!p) continue;
    const px = cal.value.toPixel(p[0], p[1], 30.75);
    if (!px) continue;
    if (prev) {
      const n = Math.ceil(Math.hypot(px[0] - prev[0], px[1] - prev[1]));
      for (let k = 0; k <= n; k++) dot(prev[0] + ((px[0] - prev[0]) * k) / Math.max(n, 1), prev[1] + ((px[1] - prev[1]) * k) / Math.max(n, 1), COLOURS[id]!, 0);
    }
    dot(px[0], px[1], COLOURS[id]!, 1);
    prev = [px[0], px[1]];
  }
}
// Contacts: a ring where the tracked ball was at the event's time.
const shotMsg = messages.find((m) => m.type === 'shot');
if (shotMsg?.type === 'shot') {
  for (const e of shotMsg.shot.events) {
    const id = e.kind === 'ball' ? e.balls[0] : e.kind === 'cushion' ? e.ball : null;
    if (!id) continue;
    const o = tracker.trail.reduce((best, x) => (Math.abs(x.t - e.t) < Math.abs(best.t - e.t) && x.at[id] ? x : best), tracker.trail[0]!);
    const p = o.at[id];
    const px = p ? cal.value.toPixel(p[0], p[1], 30.75) : null;
    if (!px) continue;
    for (let a = 0; a < 64; a++) dot(px[0] + 9 * Math.cos((a / 64) * 2 * Math.PI), px[1] + 9 * Math.sin((a / 64) * 2 * Math.PI), [0, 255, 120], 0);
  }
}
// Four bits per channel keep the picture small in the repository (the noise would not compress).
for (let i = 0; i < rgb.length; i++) rgb[i] = rgb[i]! & 0xf0;
writeFileSync(out, encodePng(width, height, rgb));
for (const m of messages) process.stdout.write(`${JSON.stringify(m)}\n`);
process.stdout.write(`truth ${JSON.stringify(clip.truth.shot.events)}\n`);
