import { measureVision, type VisionAccuracy } from '../../hardware/simulator/video/accuracy.ts';
import { writeFileSync } from 'node:fs';

/**
 * `npm run accuracy:vision` (also `npm run accuracy -- vision`): camera-alone accuracy over
 * rendered physics shots. VISION_SHOTS (default 20) shots per game family and frame rate;
 * VISION_FPS (default "30,60"); VISION_SIZE (default 960x540); VISION_VARIANTS; VISION_SEED
 * (default 90210 — seeds never used while tuning); VISION_OUT writes the figures as JSON.
 */
const env = (k: string, d: string) => process.env[k] ?? d;
const shots = Number(env('VISION_SHOTS', '20'));
const fpsList = env('VISION_FPS', '30,60').split(',').map(Number);
const [width, height] = env('VISION_SIZE', '960x540').split('x').map(Number) as [number, number];
const variants = env('VISION_VARIANTS', 'carom,three-cushion,balkline-47-2,skittles-5,skittles-7-pyramid').split(',');
const seed = Number(env('VISION_SEED', '90210'));
for (const [k, v] of [['VISION_SHOTS', shots], ['VISION_SEED', seed], ['width', width], ['height', height]] as const) {
  if (!Number.isInteger(v) || v <= 0) {
    console.error(`${k} must be a positive integer`);
    process.exit(2);
  }
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
console.log(`Camera-alone accuracy: ${shots} rendered physics shots per game and frame rate, ${width}x${height}, seed ${seed} (held out from tuning)`);
console.log('game                fps  exact   ball P/R        cushion P/R     skittle P/R     correct  prompts/100  wrong  pos mean/p99 mm  track ms/frame');
const results: VisionAccuracy[] = [];
for (const variant of variants) {
  for (const fps of fpsList) {
    const r = measureVision(variant, shots, seed, fps, { width, height });
    results.push(r);
    const pr = (k: string) => {
      const c = r.perKind[k];
      return c ? `${pct(c.matched, c.found)}/${pct(c.matched, c.truth)}`.padEnd(16) : '–'.padEnd(16);
    };
    const mean = r.positionErrors.reduce((a, b) => a + b, 0) / Math.max(1, r.positionErrors.length);
    console.log(
      `${variant.padEnd(19)} ${String(fps).padStart(3)}  ${pct(r.exact, r.shots).padStart(6)}  ${pr('ball')}${pr('cushion')}${pr('skittle')}${pct(r.correct, r.shots).padStart(7)}  ${((100 * r.prompted) / r.shots).toFixed(1).padStart(11)}  ${String(r.wrong).padStart(5)}  ${mean.toFixed(1).padStart(6)} / ${quantile(r.positionErrors, 0.99).toFixed(1).padEnd(6)}  ${(r.trackMs / r.frames).toFixed(2)}`,
    );
    for (const w of r.wrongExamples) console.log(`    wrong: ${process.env.VISION_FULL ? w : w.slice(0, 400)}`);
  }
}
if (process.env.VISION_OUT) writeFileSync(process.env.VISION_OUT, JSON.stringify(results.map(({ positionErrors, ...r }) => ({ ...r, positionMean: positionErrors.reduce((a, b) => a + b, 0) / Math.max(1, positionErrors.length), positionP99: quantile(positionErrors, 0.99), positions: positionErrors.length })), null, 1));
