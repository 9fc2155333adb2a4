import { measureAccuracy } from '../../hardware/simulator/accuracy.ts';
import { VARIANT_IDS } from '../../hub/rules/ids.ts';

/**
 * `npm run accuracy`: for each game, 1,000 shots planned by the physics simulator (real matches, balls where they rest) scored from the sensors alone and
 * again with the tracker, each decision compared with the ground truth.
 */
if (process.argv.slice(2).includes('vision')) {
  // `npm run accuracy -- vision`: the camera-alone measure (docs/vision.md).
  await import('./vision-accuracy.ts');
  process.exit(0);
}
const SHOTS = 1000;
console.log(`Scoring accuracy against ground truth, ${SHOTS} shots per game (physics shot planner: event-driven 2D ball physics)`);
console.log('game                 sensors: correct  prompted  wrong   | tracker: correct  prompted  wrong');
for (const variant of VARIANT_IDS) {
  const s = measureAccuracy(variant, SHOTS, 2026, 'sensors');
  const t = measureAccuracy(variant, SHOTS, 2026, 'tracker');
  const pct = (n: number) => `${((100 * n) / SHOTS).toFixed(1)}%`.padStart(7);
  console.log(`${variant.padEnd(20)} ${pct(s.correct).padStart(16)} ${pct(s.prompted).padStart(9)} ${String(s.wrong).padStart(6)}   | ${pct(t.correct).padStart(16)} ${pct(t.prompted).padStart(9)} ${String(t.wrong).padStart(6)}`);
  for (const example of [...s.wrongExamples, ...t.wrongExamples]) console.log(`    wrong: ${example}`);
}
console.log('five skittles: an unknown feller is a foul by rule (SK5-5), so its sensor-only "wrong" decisions are the rule, not an error.');
