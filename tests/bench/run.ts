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
