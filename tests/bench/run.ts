import { spawnSync } from 'node:child_process';
import { benchHub, TABLES, type HubFigure } from './hub.ts';
import { benchRules } from './rules.ts';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench`: speed and memory figures, as medians of several runs. Never asserted in
 * tests (the machine is shared and noisy); the README quotes what this prints.
 */
const positiveInteger = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, not '${process.env[name]}'`);
  return value;
};
const RUNS = positiveInteger('BENCH_RUNS', 5);
// Seconds of load per run at the realistic rate (after the warm-up); BENCH_SECONDS=300 for a soak.
const SECONDS = positiveInteger('BENCH_SECONDS', 20);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('note: run with --expose-gc for heap figures (npm run bench does)');

console.log('Rules engine: 10,000-shot matches, median of 7 runs, one core');
console.log('variant            shots   engine shots/s   replay shots/s (JSON+validation)   heap bytes/shot');
for (const f of benchRules(gc)) {
  console.log(
    `${f.variant.padEnd(18)} ${String(f.shots).padStart(6)} ${String(f.engineShotsPerSecond).padStart(16)} ${String(f.replayShotsPerSecond).padStart(16)} ${String(f.heapBytesPerShot).padStart(34)}`,
  );
}

// The hub is measured as `npm start` runs it: compiled, in a process of its own.
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build failed');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('');
console.log(`Hub (compiled npm start: hub, embedded broker, web panel) with ${TABLES} tables on boards behind serial servers; median of ${RUNS} runs`);
console.log('frames/s per table   seconds   frames/s   hits sent/received   event p50/p99 ms   shots ended/scored   shot p50/p99 ms   RSS MB (peak)   heap/external MB');
for (const [rate, seconds] of [[50, SECONDS], [500, 4]] as const) {
  const runs: HubFigure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchHub(rate, seconds));
  const m = (k: Exclude<keyof HubFigure, 'shed' | 'camera'>) => median(runs.map((r) => r[k]));
  console.log(
    `${String(rate).padStart(18)} ${String(seconds).padStart(9)} ${String(m('framesPerSecond')).padStart(10)} ${`${m('hits')}/${m('hitsReceived')}`.padStart(20)} ${`${m('eventP50Ms')}/${m('eventP99Ms')}`.padStart(18)} ${`${m('shots')}/${m('shotsScored')}`.padStart(20)} ${`${m('shotP50Ms')}/${m('shotP99Ms')}`.padStart(17)} ${`${m('rssMb')} (${m('hwmMb')})`.padStart(15)} ${`${m('heapMb')}/${m('externalMb')}`.padStart(18)}`,
  );
  console.log(`${''.padStart(18)} p99 of each run: ${runs.map((r) => r.eventP99Ms).join(', ')} ms; RSS: ${runs.map((r) => r.rssMb).join(', ')} MB`);
}

// The same path with nothing in the middle: what the machine itself adds to the figures above.
const floors: { p50: number; p99: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'tests/bench/loopback-floor.mjs'), '8'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loopback-floor.mjs failed: ${run.stderr}`);
  floors.push(JSON.parse(run.stdout) as { p50: number; p99: number });
}
console.log('');
console.log(`Loopback floor (tests/bench/loopback-floor.mjs: 16 boards → a relay that does nothing → a receiver; two loopback hops, three processes): p50/p99 ${median(floors.map((f) => f.p50))}/${median(floors.map((f) => f.p99))} ms (p99 of each run: ${floors.map((f) => f.p99).join(', ')})`);
