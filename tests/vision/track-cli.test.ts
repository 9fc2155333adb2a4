import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackCommand } from '../../hub/track/cli.ts';
import { findFfmpeg } from '../../hub/track/video-source.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { makeClip, type Clip } from '../../hardware/simulator/video/clip.ts';
import { writeClipY4m } from '../../hardware/simulator/video/io.ts';
import { VideoShotPlanner } from '../../hardware/simulator/video/shots.ts';
import { componentMissing } from '../support/components.ts';

/**
 * `track` (CONTRACT §5) on videos rendered at test time: a .y4m read by our parser, the
 * same video compressed by ffmpeg to another format, and bad arguments. Contacts at 30 fps
 * on shots whose events the tracker must reproduce exactly.
 */
const dir = mkdtempSync(join(tmpdir(), 'track-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function track(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await trackCommand(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

function render(variant: string, seed: number, fps = 30): { clip: Clip; path: string } {
  const planner = new VideoShotPlanner(variant);
  const shot = planner.plan(variant.startsWith('skittles') ? 'cue' : 'white', true, [], seededRandom(seed));
  const clip = makeClip({ ...shot, fps, width: 800, height: 450, seed });
  const path = join(dir, `${variant}-${seed}.y4m`);
  writeClipY4m(clip, path);
  return { clip, path };
}

const argsOf = (clip: Clip) => ['--corners', clip.camera.corners.map((c) => `${c[0].toFixed(2)},${c[1].toFixed(2)}`).join(' '), '--k1', String(clip.camera.spec.k1), '--fov', String(clip.camera.spec.hfovDeg)];
const sig = (e: { kind: string; balls?: (string | null)[]; rail?: string; ball?: string | null }) => (e.kind === 'ball' ? `ball:${e.balls!.map((b) => b ?? '?').sort().join('+')}` : `${e.kind}:${e.rail}:${e.ball ?? '?'}`);

describe('track command', () => {
  const { clip, path } = render('carom', 3);

  it('prints strike, shot (the events of the physics, each with t from the start of the video) and rest for a rendered .y4m', async () => {
    const r = await track([path, ...argsOf(clip)]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['strike', 'shot', 'rest']);
    const truth = clip.truth.shot.events;
    if (process.env.DEBUG_VISION) console.log(JSON.stringify(lines[1].shot.events), JSON.stringify(truth.map((e) => ({ ...e, t: e.t! + clip.strikeAt * 1000 }))));
    expect(lines[1].shot.events.map(sig)).toEqual(truth.map(sig));
    lines[1].shot.events.forEach((e: { t: number }, i: number) => expect(Math.abs(e.t - (truth[i]!.t! + clip.strikeAt * 1000))).toBeLessThan(20));
    for (const [id, p] of Object.entries(clip.truth.shot.positions!)) expect(Math.hypot(lines[1].shot.positions[id][0] - p[0], lines[1].shot.positions[id][1] - p[1])).toBeLessThan(5);
  });

  it('reads any format through ffmpeg: the same video as Motion JPEG in AVI gives the same events', async () => {
    const ffmpeg = findFfmpeg();
    if (componentMissing('ffmpeg (Debian ffmpeg)', ffmpeg !== null)) return;
    const avi = join(dir, 'carom-3.avi');
    const enc = spawnSync(ffmpeg!, ['-y', '-v', 'error', '-i', path, '-c:v', 'mjpeg', '-q:v', '4', avi]);
    expect(enc.status).toBe(0);
    const r = await track([avi, ...argsOf(clip)]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['strike', 'shot', 'rest']);
    expect(lines[1].shot.events.map(sig)).toEqual(clip.truth.shot.events.map(sig));
  });

  it('exits 2 with one line naming the problem', async () => {
    const bad = async (args: string[], pattern: RegExp) => {
      const r = await track(args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.split('\n')[0]).toMatch(pattern);
    };
    await bad([path], /missing --corners/);
    await bad([path, '--corners', '1,2 3,4'], /4 points/);
    await bad([path, '--corners', '10,10 20,10 20,20 10,20', '--balls', 'pool'], /--balls "pool"/);
    await bad([path, '--corners', '10,10 20,10 20,20 10,20', '--table', '2840'], /--table/);
    await bad([join(dir, 'missing.y4m'), '--corners', '10,10 20,10 20,20 10,20'], /cannot read .*missing\.y4m/);
    await bad([path, '--corners', '10,10 700,10 10,400 700,400'], /--corners: .*convex/);
    const junk = join(dir, 'junk.y4m');
    writeFileSync(junk, 'YUV4MPEG2 W8 H8 F30:1 C444\nFRAME\n');
    await bad([junk, '--corners', '1,1 7,1 7,7 1,7'], /4:2:0/);
  });

  it('runs as the npm script', () => {
    const r = spawnSync('npm', ['run', '--silent', 'track', '--', path, ...argsOf(clip)], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['strike', 'shot', 'rest']);
  });
});

describe('contacts at 30 fps', () => {
  // Shots with ball–ball and cushion contacts in quick succession (fixed seeds; the accuracy bench measures many more).
  for (const [variant, seed] of [['three-cushion', 12], ['carom', 21]] as const) {
    it(`${variant} seed ${seed}: the camera's event sequence is the physics' (or it says what it does not know)`, async () => {
      const { clip, path } = render(variant, seed, 30);
      const r = await track([path, ...argsOf(clip)]);
      const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
      const shot = lines.find((l) => l.type === 'shot');
      const got: string[] = shot.shot.events.map(sig);
      const truth = clip.truth.shot.events.map(sig);
      // Every fact stated is true: each event with its ids known is in the truth, in order.
      let k = 0;
      for (const g of got.filter((s) => !s.includes('?'))) {
        while (k < truth.length && truth[k] !== g) k++;
        expect(k, `${g} not in ${truth.join(', ')}`).toBeLessThan(truth.length);
        k++;
      }
      expect(got.length).toBeGreaterThanOrEqual(truth.length);
    });
  }
});
