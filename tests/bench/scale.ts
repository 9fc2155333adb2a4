import { spawnSync } from 'node:child_process';
import { benchHub, type HubFigure } from './hub.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench:scale`: the hub as a venue grows (issue 18). 16, 64 and 128 tables at the
 * firmware's rate (50 frames/s per table: heartbeats, vibration and a shot's hits), then a
 * flood phase: 64 tables at rising rates per table, to find the highest rate held with no
 * hit lost and event p99 ≤ 50 ms. One run per phase by default (BENCH_RUNS for medians):
 * the sweep is long; figures in docs/performance.md.
 *
 * BENCH_SECONDS: seconds of load per phase (default 8). BENCH_SCALE_TABLES and
 * BENCH_FLOOD_RATES: comma lists to override the phases.
 */
const list = (name: string, fallback: number[]): number[] => {
  const raw = process.env[name];
  if (!raw) return fallback;
  const values = raw.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 1)) throw new Error(`${name} must be a comma list of whole numbers, not '${raw}'`);
  return values;
};
const whole = (name: string, fallback: number): number => list(name, [fallback])[0]!;
const RUNS = whole('BENCH_RUNS', 1);
const SECONDS = whole('BENCH_SECONDS', 8);
const VENUES = list('BENCH_SCALE_TABLES', [16, 64, 128]);
const FLOOD_TABLES = whole('BENCH_FLOOD_TABLES', 64);
const FLOOD_RATES = list('BENCH_FLOOD_RATES', [125, 250, 500, 1000]);
const P99_LIMIT_MS = 50;

// BENCH_NO_BUILD=1: measure dist/ as it is (built a moment ago, say).
if (!process.env.BENCH_NO_BUILD) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Numeric = Exclude<keyof HubFigure, 'shed' | 'camera'>;

async function phase(tables: number, rate: number): Promise<{ tables: number; m: (k: Numeric) => number; shed: string }> {
  const runs: HubFigure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchHub(rate, SECONDS, tables));
  const m = (k: Numeric) => median(runs.map((r) => r[k]));
  const last = runs[runs.length - 1]!.shed;
  return { tables, m, shed: Object.entries(last).map(([k, v]) => `${k} ${v}`).join(', ') || '–' };
}

const header = 'tables   frames/s per table   frames/s   hits sent/received (lost)   event p50/p99 ms   shots ended/scored   shot p50/p99 ms   RSS MB   CPU %   shed';
const row = ({ tables, m, shed }: Awaited<ReturnType<typeof phase>>) =>
  `${String(tables).padStart(6)} ${String(m('rate')).padStart(20)} ${String(m('framesPerSecond')).padStart(10)} ${`${m('hits')}/${m('hitsReceived')} (${m('hits') - m('hitsReceived')})`.padStart(27)} ${`${m('eventP50Ms')}/${m('eventP99Ms')}`.padStart(18)} ${`${m('shots')}/${m('shotsScored')}`.padStart(20)} ${`${m('shotP50Ms')}/${m('shotP99Ms')}`.padStart(17)} ${String(m('rssMb')).padStart(8)} ${String(m('cpuPercent')).padStart(7)}   ${shed}`;

console.log(`Hub as a venue grows (compiled npm start; boards behind serial servers; ${SECONDS} s per phase, median of ${RUNS})`);
console.log(header);
for (const tables of VENUES) console.log(row(await phase(tables, 50)));

console.log('');
console.log(`Flood: ${FLOOD_TABLES} tables at rising rates per table`);
console.log(header);
let best: number | null = null;
for (const rate of FLOOD_RATES) {
  const p = await phase(FLOOD_TABLES, rate);
  console.log(row(p));
  const held = p.m('hits') === p.m('hitsReceived') && p.m('eventP99Ms') <= P99_LIMIT_MS;
  if (held) best = Math.max(best ?? 0, p.m('framesPerSecond'));
}
console.log('');
console.log(`Highest rate held with 0 hits lost and event p99 ≤ ${P99_LIMIT_MS} ms: ${best === null ? 'none of the rates tried' : `${best} frames/s`}`);
