import { CAMERAS, measureFusion, type ReadingCount } from './fusion-accuracy.ts';
import { VARIANT_IDS } from '../../hub/rules/catalogue.ts';

/**
 * `npm run accuracy:fusion` (issue 16): per game, SHOTS physics shots (default 1,000) read by
 * the sensors alone, by a synthetic overhead camera alone and by the camera fused with the
 * sensors (hub/camera/fusion.ts), at 30 and 60 fps, for a clear view (1 % of contacts or ids
 * lost) and a busy table (5 %). Prints a Markdown table: prompts per 100 shots, and wrong
 * decisions in brackets when there are any.
 */
const SHOTS = Number(process.env.SHOTS ?? 1000);
if (!Number.isInteger(SHOTS) || SHOTS < 1) throw new Error(`SHOTS must be a positive integer, not '${process.env.SHOTS}'`);
const only = process.env.VARIANTS ? process.env.VARIANTS.split(',') : [...VARIANT_IDS];
const unknown = only.filter((v) => !(VARIANT_IDS as readonly string[]).includes(v));
if (unknown.length > 0) throw new Error(`VARIANTS: unknown game(s) ${unknown.join(', ')}`);
const cell = (c: ReadingCount) => `${((100 * c.prompted) / SHOTS).toFixed(1)}${c.wrong ? ` (${c.wrong} wrong)` : ''}${c.unknownFeller ? ` [${c.unknownFeller} SK5-5]` : ''}`;
console.log(`Camera + sensors, ${SHOTS} physics shots per game: prompts per 100 shots (wrong decisions in brackets)\n`);
console.log(`| game | sensors | ${CAMERAS.map((c) => `${c.label}: camera | camera+sensors`).join(' | ')} |`);
console.log(`|---|---|${CAMERAS.map(() => '---|---').join('|')}|`);
let wrongFused = 0;
const examples: string[] = [];
for (const variant of only) {
  const r = measureFusion(variant, SHOTS, 2026);
  console.log(`| ${variant} | ${cell(r.sensors)} | ${r.cameras.map((c) => `${cell(c.camera)} | ${cell(c.fused)}`).join(' | ')} |`);
  for (const c of r.cameras) {
    wrongFused += c.fused.wrong;
    examples.push(...c.fused.wrongExamples.map((e) => `${variant}, ${c.label}: ${e}`));
  }
}
// How the prompts depend on the camera: contacts and ids lost, from none to 5 %.
const SWEEP = [0, 0.0025, 0.005, 0.01, 0.02, 0.05];
console.log(`\nCamera + sensors at 30 fps by the share of contacts and of ids the camera loses (each; balls hidden at rest: the same share), ${SHOTS} shots: prompts per 100 shots\n`);
console.log(`| game | ${SWEEP.map((p) => `${(p * 100).toFixed(2)} %`).join(' | ')} |`);
console.log(`|---|${SWEEP.map(() => '---').join('|')}|`);
for (const variant of ['carom', 'three-cushion', 'skittles-7-carom'].filter((v) => only.includes(v))) {
  const r = measureFusion(variant, SHOTS, 2027, SWEEP.map((p) => ({ label: String(p), model: { fps: 30, hide: p, unknownId: p, hiddenAtRest: p, clockErrorMs: 4 } })));
  console.log(`| ${variant} | ${r.cameras.map((c) => cell(c.fused)).join(' | ')} |`);
  for (const c of r.cameras) wrongFused += c.fused.wrong;
}
console.log('\n[n SK5-5]: five skittles with undeterminedFellerIsFoul decides an unknown feller as a foul (SK5-5) — counted apart; by default it asks (RULES §11).');
console.log(`camera+sensors wrong decisions in total: ${wrongFused}`);
for (const e of examples) console.log(`  wrong: ${e}`);
