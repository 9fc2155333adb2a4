import { benchHub } from './hub.ts';
import { benchRules } from './rules.ts';

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

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('');
console.log('Hub: 16 tables, virtual boards through the real bridge, embedded broker; median of 3 runs after a warm-up');
await benchHub(50, 2); // warm-up: JIT and module loading are not what we measure
console.log('rail hits/s per table   sent   received   events/s   p50 ms   p99 ms   RSS MB');
for (const [rate, seconds] of [[50, 5], [500, 3]] as const) {
  const runs: Awaited<ReturnType<typeof benchHub>>[] = [];
  for (let i = 0; i < 3; i++) runs.push(await benchHub(rate, seconds));
  const m = (k: 'sent' | 'received' | 'eventsPerSecond' | 'p50Ms' | 'p99Ms' | 'rssMb') => median(runs.map((r) => r[k]));
  console.log(`${String(rate).padStart(22)} ${String(m('sent')).padStart(6)} ${String(m('received')).padStart(10)} ${String(m('eventsPerSecond')).padStart(10)} ${String(m('p50Ms')).padStart(8)} ${String(m('p99Ms')).padStart(8)} ${String(m('rssMb')).padStart(8)}`);
}
