import { spawnSync } from 'node:child_process';
import { benchVenue, pinBench, RECOVERED_MS, type Segment, type SegmentFigure } from './hub.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench:scale`: the hub as a venue grows (issue 18), the compiled `npm start` with
 * boards behind serial servers and a Chromium page per 8 tables on the live view (SSE).
 *
 * - Venue: 16, 64 and 128 tables at the firmware's rate (50 frames/s per table: heartbeats,
 *   vibration and a shot's hits).
 * - Flood: 64 tables on one hub, 50 frames/s each, then a flood at BENCH_FLOOD_RATES per
 *   table (250, 600 and 1,200: 16k, 38k and 77k frames/s asked, about 14k, 34k and 67k sent
 *   by the one generator process: the goal's 32k, and twice it), then 50 again: is every hit
 *   there, how late, what was shed, and how soon after the flood is latency normal again.
 *
 * Each run is a fresh hub; BENCH_RUNS runs (default 3) per phase, medians reported.
 * BENCH_SECONDS: seconds per segment (default 6); BENCH_SCALE_TABLES, BENCH_FLOOD_RATES,
 * BENCH_FLOOD_TABLES: comma lists; BENCH_PAGES=0: no browser; BENCH_NO_BUILD=1: dist/ as is;
 * BENCH_PIN=1: the hub alone on CPU 0, the load generator, subscriber and pages on CPU 1 (taskset).
 */
const list = (name: string, fallback: number[]): number[] => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 0)) throw new Error(`${name} must be a comma list of whole numbers, not '${raw}'`);
  return values;
};
const whole = (name: string, fallback: number): number => list(name, [fallback])[0]!;
const RUNS = whole('BENCH_RUNS', 3);
const SECONDS = whole('BENCH_SECONDS', 6);
const VENUES = list('BENCH_SCALE_TABLES', [16, 64, 128]).filter((n) => n > 0);
const FLOOD_TABLES = whole('BENCH_FLOOD_TABLES', 64);
const FLOOD_RATES = list('BENCH_FLOOD_RATES', [250, 600, 1200]).filter((n) => n > 0);
const PAGES = process.env.BENCH_PAGES !== '0';
const AFTER_SECONDS = 8;
const RATE = 50;
const P99_LIMIT_MS = 50;

if (!process.env.BENCH_NO_BUILD) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

pinBench();

const median = (xs: number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
type Numeric = { [K in keyof SegmentFigure]-?: SegmentFigure[K] extends number ? K : never }[keyof SegmentFigure];

/** Medians over runs, per segment; shed counts summed by kind, then the median. */
async function phase(tables: number, segments: Segment[]): Promise<{ tables: number; label: string; m: (k: Numeric) => number; shed: string; runs: SegmentFigure[] }[]> {
  const runs: SegmentFigure[][] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchVenue({ tables, segments, pages: PAGES }));
  return segments.map((segment, s) => {
    const of = runs.map((r) => r[s]!);
    const kinds = [...new Set(of.flatMap((f) => Object.keys(f.shed)))];
    return {
      tables,
      label: segment.label,
      m: (k: Numeric) => median(of.map((f) => f[k])),
      shed: kinds.map((k) => `${k} ${median(of.map((f) => f.shed[k] ?? 0))}`).join(', ') || '–',
      runs: of,
    };
  });
}

const ms = (x: number) => (Number.isNaN(x) ? '–' : x >= 100 ? String(Math.round(x)) : String(x));
const header = '| tables | segment | frames/s | hits sent / received (lost) / on time | event p50 / p99 ms | p99 board → hub intake; intake → subscriber (slowest 1 %: median of each) ms | shots ended / scored | shot p50 / p99 ms (board clock p50) | pages: hits seen, p50 / p99 ms | loop delay p99 / max ms: hub; subscriber | RSS MB | CPU % | CPU µs per frame (run): hub; its main thread | run-queue wait % | load avg | shed | after the flood: normal in |';
const rule = `|${header.split('|').slice(1, -1).map(() => '---').join('|')}|`;
const row = ({ tables, label, m, shed }: Awaited<ReturnType<typeof phase>>[number], after: boolean) =>
  `| ${tables} | ${label} | ${m('framesPerSecond')} | ${m('hits')} / ${m('hitsReceived')} (${m('hits') - m('hitsReceived')}) / ${m('hitsOnTime')} | ${ms(m('eventP50Ms'))} / ${ms(m('eventP99Ms'))} | ${ms(m('toIntakeP99Ms'))}; ${ms(m('afterIntakeP99Ms'))} (${ms(m('slowestToIntakeMs'))}; ${ms(m('slowestAfterIntakeMs'))}) | ${m('shots')} / ${m('shotsScored')} | ${ms(m('shotP50Ms'))} / ${ms(m('shotP99Ms'))} (${ms(m('boardClockP50Ms'))}) | ${PAGES ? `${m('pageHitsReceived')}/${m('pageHits')}, ${ms(m('pageP50Ms'))} / ${ms(m('pageP99Ms'))}` : '–'} | ${ms(m('loopP99Ms'))} / ${ms(m('loopMaxMs'))}; ${ms(m('subscriberLoopP99Ms'))} / ${ms(m('subscriberLoopMaxMs'))} | ${m('rssMb')} | ${m('cpuPercent')} | ${m('cpuUsPerFrame')}; ${m('mainThreadUsPerFrame')} | ${m('runQueueWaitPercent')} | ${m('loadAverage')} | ${shed} | ${after ? (Number.isFinite(m('recoveryS')) ? `${m('recoveryS')} s` : 'never') : ''} |`;

console.log(`Hub as a venue grows (compiled npm start; boards behind serial servers; ${PAGES ? 'a Chromium page per 8 tables on SSE; ' : ''}${process.env.BENCH_PIN === '1' ? 'the hub alone on CPU 0, the bench on CPU 1; ' : ''}${SECONDS} s per segment; median of ${RUNS} runs)`);
console.log('');
console.log(header);
console.log(rule);
const held: { label: string; framesPerSecond: number }[] = [];
const note = (p: Awaited<ReturnType<typeof phase>>[number]) => {
  if (p.m('hits') === p.m('hitsReceived') && p.m('eventP99Ms') <= P99_LIMIT_MS) held.push({ label: `${p.tables} tables, ${p.label}`, framesPerSecond: p.m('framesPerSecond') });
};
for (const tables of VENUES) {
  for (const p of await phase(tables, [{ label: `${RATE}/s per table`, rate: RATE, seconds: SECONDS }])) (console.log(row(p, false)), note(p));
}
for (const rate of FLOOD_RATES) {
  const segments = [
    { label: `before: ${RATE}/s`, rate: RATE, seconds: SECONDS },
    { label: `flood: ${rate}/s`, rate, seconds: SECONDS },
    { label: `after: ${RATE}/s`, rate: RATE, seconds: AFTER_SECONDS },
  ];
  const [before, flood, after] = await phase(FLOOD_TABLES, segments);
  console.log(row(before!, false));
  console.log(row(flood!, false));
  console.log(row(after!, true));
  note(flood!);
}
console.log('');
const best = held.sort((a, b) => b.framesPerSecond - a.framesPerSecond)[0];
console.log(`Highest rate held with 0 hits lost and event p99 ≤ ${P99_LIMIT_MS} ms (medians): ${best ? `${best.framesPerSecond} frames/s (${best.label})` : 'none of the rates tried'}`);
console.log('CPU µs per frame: the hub\'s CPU time over the whole run (every segment and the drain) divided by the frames sent; 1e6 / it is the rate one free core would hold. Its main thread: the same of the thread every frame passes through (its other threads run beside it, on another core when there is one).');
console.log("Shot latency counts from the end of the hub's own quiet window: the shot's last active frame at the hub's reading of its board time (published with each hit). The board clock column is that reading minus when the frame was sent (median, ms): the hub's offset-and-drift fit, not latency.");
console.log(`"normal in": seconds after the flood until the last hit later than ${RECOVERED_MS} ms arrived (0: none was). Run-queue wait: the share of the hub's main thread's time spent waiting for a CPU (the machine's load, not the hub's work).`);
