import { skittleSetup } from './skittle-setup.ts';
import { SKITTLE_LAYOUTS, type SkittleLayout } from '../rules/catalogue.ts';
import { calibrate, parseCorners } from '../vision/calibration.ts';
import { VisionTracker, type BallSet, type TrackerMessage } from '../vision/tracker.ts';
import { readVideo, VideoError } from './video-source.ts';

/**
 * `npm run --silent track -- VIDEO --corners "x,y x,y x,y x,y" [--table 2840x1420]
 * [--balls carom|skittles] [--layout carom-five|pyramid-seven|carom-seven] [--k1 K] [--fov DEG] [--positions JSON]` (CONTRACT §5): the
 * tracker messages of a video as JSON lines. A bad argument or an unreadable video exits 2
 * with one line on stderr.
 */
export interface TrackIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const USAGE = 'usage: track VIDEO --corners "x,y x,y x,y x,y" [--table 2840x1420] [--balls carom|skittles] [--layout carom-five|pyramid-seven|carom-seven] [--k1 K] [--fov DEG] [--positions JSON]';

interface Args {
  video: string;
  corners: [number, number][];
  table: { length: number; width: number };
  balls: BallSet;
  /** Which skittles stand where (skittle-setup.ts); default by the table's size. */
  layout: SkittleLayout | undefined;
  k1: number;
  fov: number | undefined;
  positions: Record<string, [number, number]> | undefined;
}

export function parseTrackArgs(argv: string[]): { ok: true; value: Args } | { ok: false; error: string } {
  let video: string | undefined;
  let corners: string | undefined;
  let table = '2840x1420';
  let balls = 'carom';
  let layout: string | undefined;
  let k1 = '0';
  let fov: string | undefined;
  let positions: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--corners') corners = value();
      else if (a === '--table') table = value();
      else if (a === '--balls') balls = value();
      else if (a === '--layout') layout = value();
      else if (a === '--k1') k1 = value();
      else if (a === '--fov') fov = value();
      else if (a === '--positions') positions = value();
      else if (a.startsWith('--')) return { ok: false, error: `unknown option ${a}` };
      else if (video === undefined) video = a;
      else return { ok: false, error: `unexpected argument ${a}` };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }
  if (!video) return { ok: false, error: 'missing VIDEO' };
  if (!corners) return { ok: false, error: 'missing --corners' };
  const c = parseCorners(corners);
  if (!c.ok) return c;
  const t = /^(\d{3,5})x(\d{3,5})$/.exec(table);
  if (!t) return { ok: false, error: `--table "${table}" is not LENGTHxWIDTH in mm` };
  const size = { length: Number(t[1]), width: Number(t[2]) };
  if (size.length <= size.width) return { ok: false, error: `--table: length ${size.length} must exceed width ${size.width}` };
  if (balls !== 'carom' && balls !== 'skittles') return { ok: false, error: `--balls "${balls}" is not carom or skittles` };
  if (layout !== undefined && !(SKITTLE_LAYOUTS as readonly string[]).includes(layout)) return { ok: false, error: `--layout "${layout}" is not one of ${SKITTLE_LAYOUTS.join(', ')}` };
  const k = Number(k1);
  if (!Number.isFinite(k) || Math.abs(k) > 0.5) return { ok: false, error: `--k1 "${k1}" is not a number in [-0.5, 0.5]` };
  const f = fov === undefined ? undefined : Number(fov);
  if (f !== undefined && !(f > 10 && f < 170)) return { ok: false, error: `--fov "${fov}" is not a field of view in degrees (10–170)` };
  let pos: Record<string, [number, number]> | undefined;
  if (positions !== undefined) {
    try {
      const raw = JSON.parse(positions) as unknown;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
      pos = {};
      for (const [id, p] of Object.entries(raw)) {
        if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new Error(`${id} is not [x, y]`);
        pos[id] = [p[0], p[1]];
      }
    } catch (e) {
      return { ok: false, error: `--positions: ${(e as Error).message}` };
    }
  }
  return { ok: true, value: { video, corners: c.value.map((p) => [p[0], p[1]]), table: size, balls, layout: layout as SkittleLayout | undefined, k1: k, fov: f, positions: pos } };
}

export async function trackCommand(argv: string[], io: TrackIO): Promise<number> {
  const parsed = parseTrackArgs(argv);
  if (!parsed.ok) {
    io.stderr(`track: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const a = parsed.value;
  let tracker: VisionTracker | null = null;
  let msPerFrame = 0;
  let setupError: string | null = null;
  const emit = (msgs: TrackerMessage[]) => {
    for (const m of msgs) io.stdout(`${JSON.stringify(m)}\n`);
  };
  try {
    await readVideo(
      a.video,
      (h) => {
        msPerFrame = (1000 * h.fpsDen) / h.fpsNum;
        const cal = calibrate({ width: h.width, height: h.height, corners: a.corners, table: a.table, k1: a.k1, ...(a.fov !== undefined ? { fovDeg: a.fov } : {}) });
        if (!cal.ok) {
          setupError = `--corners: ${cal.error}`;
          throw new VideoError(setupError);
        }
        const skittles = a.balls === 'skittles' ? skittleSetup(a.table, a.layout) : null;
        const initial = a.positions ?? skittles?.initial;
        tracker = new VisionTracker({ calibration: cal.value, balls: a.balls, ...(skittles ? { skittles: skittles.skittles } : {}), ...(skittles?.pockets.length ? { pockets: skittles.pockets } : {}), ...(initial ? { initial } : {}) });
      },
      (frame, i) => emit(tracker!.push(frame, Math.round(i * msPerFrame))),
    );
  } catch (e) {
    if (e instanceof VideoError || setupError) {
      io.stderr(`track: ${(e as Error).message}\n`);
      return 2;
    }
    io.stderr(`track: ${(e as Error).message}\n`);
    return 2;
  }
  if (tracker) emit((tracker as VisionTracker).finish());
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await trackCommand(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) });
}
