import { measureAccuracy } from '../../hardware/simulator/accuracy.ts';
import { FIT_SEEDS } from '../../hardware/simulator/fit-likelihood.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';
import { LIKELIHOOD_MODEL } from '../../hub/rules/likelihood.ts';
import { RANKING_MODEL } from '../../hub/rules/ranking/rerank.ts';
import { RANKING_SEEDS } from '../../hardware/simulator/fit-ranking.ts';

/**
 * `npm run accuracy`: for each game, 1,000 shots planned by the physics simulator (real
 * matches, balls where they rest) scored from the sensors alone and again with the tracker,
 * each decision compared with the ground truth. Sensors only: decided correctly, prompted,
 * wrong (must be 0); prompts per 100 shots without the pruning rules and with them; and on
 * the prompts, how often the most likely option was the truth (top-1) and the Brier score of
 * the likelihoods. Seed 2026 is never among the likelihood model's fitting seeds, so these
 * are held-out shots. Prints a Markdown table (docs/accuracy.md keeps the latest).
 */
if (process.argv.slice(2).includes('vision')) {
  // `npm run accuracy -- vision`: the camera-alone measure (docs/vision.md).
  await import('./vision-accuracy.ts');
  process.exit(0);
}
const SHOTS = Number(process.env.ACCURACY_SHOTS ?? 1000);
const SEED = 2026;
/** ACCURACY_GAMES=carom,skittles-5 runs only those games. */
const GAMES = process.env.ACCURACY_GAMES ? process.env.ACCURACY_GAMES.split(',') : VARIANT_IDS;
for (const g of GAMES) if (!(VARIANT_IDS as readonly string[]).includes(g)) throw new Error(`ACCURACY_GAMES: unknown game '${g}'`);
if (!Number.isInteger(SHOTS) || SHOTS < 1) throw new Error(`ACCURACY_SHOTS must be a positive whole number, not '${process.env.ACCURACY_SHOTS}'`);
if ([...FIT_SEEDS, ...RANKING_SEEDS].includes(SEED as never)) throw new Error('the bench seed must not be a fitting seed');

console.log(`Scoring accuracy against ground truth, ${SHOTS} physics shots per game, seed ${SEED} (held out: the per-event model v${LIKELIHOOD_MODEL.version} was fitted on seeds ${FIT_SEEDS.join(', ')}, the whole-shot ranking v${RANKING_MODEL.version} on ${RANKING_SEEDS.join(', ')})`);
console.log('');
console.log('| game | sensors: correct | prompted | wrong | prompts/100 before pruning | after | top-1 on prompts | Brier | top-1, per-event model alone | Brier | tracker: correct | prompted | wrong |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const examples: string[] = [];
let top1 = 0;
let top1PerEvent = 0;
let prompts = 0;
for (const variant of GAMES) {
  const s = measureAccuracy(variant, SHOTS, SEED, 'sensors');
  const before = measureAccuracy(variant, SHOTS, SEED, 'sensors', 'physics', { pruning: false });
  const perEvent = measureAccuracy(variant, SHOTS, SEED, 'sensors', 'physics', { ranking: false });
  const t = measureAccuracy(variant, SHOTS, SEED, 'tracker');
  const pct = (n: number, of = SHOTS) => (of === 0 ? '–' : `${((100 * n) / of).toFixed(1)}%`);
  const per100 = (n: number) => ((100 * n) / SHOTS).toFixed(1);
  top1 += s.top1;
  top1PerEvent += perEvent.top1;
  prompts += s.prompted;
  console.log(
    `| ${variant} | ${pct(s.correct)} | ${pct(s.prompted)} | ${s.wrong} | ${per100(before.prompted)} | ${per100(s.prompted)} | ${pct(s.top1, s.prompted)} | ${s.prompted ? (s.brier / s.prompted).toFixed(3) : '–'} | ${pct(perEvent.top1, perEvent.prompted)} | ${perEvent.prompted ? (perEvent.brier / perEvent.prompted).toFixed(3) : '–'} | ${pct(t.correct)} | ${pct(t.prompted)} | ${t.wrong} |`,
  );
  for (const example of [...s.wrongExamples, ...t.wrongExamples]) examples.push(`${variant}: ${example}`);
}
console.log('');
console.log(`All games: top-1 on prompts ${((100 * top1) / Math.max(1, prompts)).toFixed(1)}% over ${prompts} prompts (per-event model alone: ${((100 * top1PerEvent) / Math.max(1, prompts)).toFixed(1)}%).`);
for (const example of examples) console.log(`wrong: ${example}`);
