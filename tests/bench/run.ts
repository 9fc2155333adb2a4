import { spawnSync } from 'node:child_process';
import { benchHub, TABLES, type HubFigure } from './hub.ts';
import { benchRules } from './rules.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench`: speed and memory figures, as medians of several runs. Never asserted in
 * tests (the machine is shared and noisy); the README quotes what this prints.
 */
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
const RUNS = 5;
console.log('');
console.log(`Hub (compiled npm start: hub, embedded broker, web panel) with ${TABLES} tables on boards behind serial servers; median of ${RUNS} runs`);
console.log('frames/s per table   frames/s   hits sent/received   event p50/p99 ms   shots ended/scored   shot p50/p99 ms   RSS MB (peak)');
for (const [rate, seconds] of [[50, 8], [500, 4]] as const) {
  const runs: HubFigure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchHub(rate, seconds));
  const m = (k: keyof HubFigure) => median(runs.map((r) => r[k]));
  console.log(
    `${String(rate).padStart(18)} ${String(m('framesPerSecond')).padStart(10)} ${`${m('hits')}/${m('hitsReceived')}`.padStart(20)} ${`${m('eventP50Ms')}/${m('eventP99Ms')}`.padStart(18)} ${`${m('shots')}/${m('shotsScored')}`.padStart(20)} ${`${m('shotP50Ms')}/${m('shotP99Ms')}`.padStart(17)} ${`${m('rssMb')} (${m('hwmMb')})`.padStart(15)}`,
  );
  console.log(`${''.padStart(18)} p99 of each run: ${runs.map((r) => r.eventP99Ms).join(', ')} ms; RSS: ${runs.map((r) => r.rssMb).join(', ')} MB`);
}
