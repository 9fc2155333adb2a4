/**
 * Firmware figures measured in simulated cycles (avr8js, ATmega328P at 16 MHz), with the
 * real committed HEX. Simulated time is deterministic, so these are repeatable; they
 * are printed, not asserted (the 250 us timestamp bound is asserted in tests/hardware).
 *
 *   npx tsx tests/bench/firmware.ts
 */
import { readFileSync } from 'node:fs';
import { piezoHit, TableSim } from '../../hardware/avr-sim/board.ts';
import { createSimRig } from '../../hardware/avr-sim/harness.ts';
import { hexToProgram } from '../../hardware/avr-sim/hex.ts';
import { channelSignals, knockSweep, percentile, scoreSweep, thresholdVolts, type SweepResult } from '../../hardware/avr-sim/knocks.ts';
import { avrInstruction } from 'avr8js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function sampleRate(): Promise<number[]> {
  const sim = new TableSim();
  sim.runUs(20_000); // boot
  const before = [...sim.conversions];
  sim.runUs(1_000_000);
  return sim.conversions.map((c, i) => c - before[i]!);
}

/** Share of CPU cycles spent inside interrupt handlers (vector entry to RETI). */
function isrShare(loaded: boolean): number {
  const sim = new TableSim();
  sim.runUs(20_000);
  if (loaded) for (let ch = 0; ch < 8; ch++) sim.setSignal(ch, (t) => 2.5 + 2 * Math.sin(t / 97 + ch));
  const cpu = sim.cpu;
  const end = cpu.cycles + 16_000_000 * 0.25;
  let inIsr = false;
  let isr = 0;
  let total = 0;
  while (cpu.cycles < end) {
    const c = cpu.cycles;
    const reti = cpu.progMem[cpu.pc] === 0x9518;
    avrInstruction(cpu);
    if (inIsr) isr += cpu.cycles - c;
    if (reti) inIsr = false;
    const before = cpu.cycles;
    cpu.tick(); // may take an interrupt: jumps into the vector table (26 two-word entries)
    if (cpu.pc < 52 && cpu.cycles !== before) {
      inIsr = true;
      isr += cpu.cycles - before;
    }
    total += cpu.cycles - c;
  }
  return isr / total;
}

async function timestampError(): Promise<{ n: number; min: number; max: number; mean: number; worstLoop: number }> {
  const rig = await createSimRig();
  const r = rng(42);
  const truth: Array<{ ch: number; t: number }> = [];
  const perCh: Array<Array<ReturnType<typeof piezoHit>>> = Array.from({ length: 7 }, () => []);
  let t = 20_000;
  for (let k = 0; k < 80; k++) {
    t += 35_000 + Math.floor(r() * 20_000); // beyond the 30 ms default refractory
    const ch = Math.floor(r() * 7);
    const volts = 1.2 + r() * 3.8;
    truth.push({ ch, t });
    perCh[ch]!.push(piezoHit(t, volts, 1500 + r() * 1500));
  }
  perCh.forEach((sigs, ch) => rig.sim.setSignal(ch, (x) => sigs.reduce((v, f) => v + f(x), 0)));
  await rig.link.runUs(t + 100_000);
  await rig.stop();
  const got = [...rig.of('rail-hit'), ...rig.of('click').map((c) => ({ ...c, channel: 6 }))].sort((a, b) => a.boardUs - b.boardUs);
  const errs = truth.map((i) => {
    const want = rig.sim.boardUsAt(i.t);
    const hit = got.find((h) => h.channel === i.ch && Math.abs(h.boardUs - want) < 2000);
    if (!hit) throw new Error(`impact on channel ${i.ch} at ${i.t} us not reported`);
    return hit.boardUs - want;
  });
  const worstLoop = Math.max(...rig.of('heartbeat').map((h) => h.loopMaxUs));
  return { n: errs.length, min: Math.min(...errs), max: Math.max(...errs), mean: errs.reduce((a, b) => a + b, 0) / errs.length, worstLoop };
}

/** Events the firmware generates as fast as it can, for `durUs`; how many got through. */
async function burst(durUs: number): Promise<{ generated: number; delivered: number; dropped: number; worstLoop: number }> {
  const rig = await createSimRig();
  await rig.link.runUs(2_000);
  for (let ch = 0; ch < 7; ch++) await rig.bridge.send({ kind: 'set-channel', channel: ch, threshold: 30, refractoryMs: 0 });
  await rig.link.runUs(5_000);
  const start = rig.sim.timeUs;
  // Straight onto the ADC pins: 1.3 ms up (the peak window), 0.3 ms down (re-arm).
  for (let ch = 0; ch < 7; ch++) rig.sim.setSignal(ch, (x) => (x > start && x < start + durUs && (x - start) % 1600 < 1300 ? 3 : 0), true);
  await rig.link.runUs(durUs + 900_000); // drain, and let two heartbeats report the counters
  await rig.stop();
  const delivered = rig.of('rail-hit').length + rig.of('click').length;
  const dropped = rig.bridge.stats().dropped['board-queue'];
  const worstLoop = Math.max(...rig.of('heartbeat').map((h) => h.loopMaxUs));
  return { generated: delivered + dropped, delivered, dropped, worstLoop };
}

async function lineRate(): Promise<number> {
  const rig = await createSimRig();
  await rig.link.runUs(2_000);
  for (let ch = 0; ch < 7; ch++) await rig.bridge.send({ kind: 'set-channel', channel: ch, threshold: 30, refractoryMs: 0 });
  await rig.link.runUs(5_000);
  for (let ch = 0; ch < 7; ch++) rig.sim.setSignal(ch, (x) => (x % 1600 < 1300 ? 3 : 0), true);
  await rig.link.runUs(200_000); // fill the queue
  const n0 = rig.of('rail-hit').length + rig.of('click').length;
  await rig.link.runUs(1_000_000);
  await rig.stop();
  return rig.of('rail-hit').length + rig.of('click').length - n0;
}

const NOISE_SIGMA = 0.2 / 3; // "0.2 V noise": 0.2 V is 3 sigma
const THRESHOLD = 40; // the firmware's default

/**
 * The knock model (hardware/avr-sim/knocks.ts) through the firmware and the bridge:
 * `legacy` runs firmware 1.0.0 behind the old half-wave clamp front end, for comparison.
 */
async function knockModelSweep(n: number, legacy = false): Promise<SweepResult & { simSeconds: number }> {
  const v1 = legacy ? hexToProgram(readFileSync(new URL('../fixtures/table-fw1.0.0-protocol1.hex', import.meta.url), 'utf8')) : undefined;
  const rig = await createSimRig({}, { ...(v1 ? { program: v1 } : {}), board: { frontEnd: !legacy } });
  const thV = thresholdVolts(THRESHOLD);
  const knocks = knockSweep(2026, n, thV);
  channelSignals(knocks, 7, NOISE_SIGMA).forEach((sig, ch) => rig.sim.setSignal(ch, legacy ? (t) => Math.max(0, sig(t)) : sig));
  const end = knocks.at(-1)!.t0 + 150_000;
  await rig.link.runUs(end);
  await rig.stop();
  const hits = [...rig.of('rail-hit').map((h) => ({ ch: h.channel, boardUs: h.boardUs })), ...rig.of('click').map((c) => ({ ch: 6, boardUs: c.boardUs }))];
  return { ...scoreSweep(knocks, hits, (t) => rig.sim.boardUsAt(t), thV, 3 * NOISE_SIGMA), simSeconds: end / 1e6 };
}

/** Noise alone on every detector input: hits in `seconds` of simulated time. */
async function noiseOnly(seconds: number): Promise<number> {
  const rig = await createSimRig();
  channelSignals([], 99, NOISE_SIGMA).forEach((sig, ch) => rig.sim.setSignal(ch, sig));
  await rig.link.runUs(seconds * 1e6);
  await rig.stop();
  return rig.of('rail-hit').length + rig.of('click').length;
}

/** Upper tail of the standard normal (Abramowitz-Stegun 7.1.26 on erfc). */
function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return erfc / 2;
}

function printSweep(label: string, r: SweepResult & { simSeconds: number }): void {
  const e = r.errorsUs;
  console.log(
    `${label}: ${r.knocks} knocks in ${r.simSeconds.toFixed(1)} s simulated; above threshold ${r.above}, missed ${r.missedAbove}; ` +
      `grey zone ${r.grey} (${r.detectedGrey} detected); below ${r.below} (${r.detectedBelow} detected); false hits ${r.falseHits}; ` +
      `timestamp error (us) min ${Math.min(...e).toFixed(0)} median ${percentile(e, 50).toFixed(0)} p99 ${percentile(e, 99).toFixed(0)} max ${Math.max(...e).toFixed(0)}`,
  );
}

const t0 = Date.now();
const KNOCKS = Number(process.env.BENCH_KNOCKS ?? 1200);
if (!Number.isInteger(KNOCKS) || KNOCKS < 10) throw new Error(`BENCH_KNOCKS must be an integer >= 10, got ${process.env.BENCH_KNOCKS}`);
console.log(`knock model: polarity random, ring 1-9 kHz, decay 5-20 ms, 70 % within 0.6-1.6x threshold, noise sigma ${(NOISE_SIGMA * 1000).toFixed(0)} mV (0.2 V = 3 sigma), threshold ${THRESHOLD} (${thresholdVolts(THRESHOLD).toFixed(2)} V); "above" = peak >= threshold + 0.2 V`);
printSweep('full-wave envelope front end, firmware 2', await knockModelSweep(KNOCKS));
printSweep('old half-wave clamp, firmware 1.0.0   ', await knockModelSweep(Math.min(KNOCKS, 400), true));
const quietS = Number(process.env.BENCH_NOISE_SECONDS ?? 10);
const quiet = await noiseOnly(quietS);
// A false hit needs the envelope at the threshold: noise alone must reach it.
const pSample = 2 * normalTail(thresholdVolts(THRESHOLD) / NOISE_SIGMA);
console.log(`noise only, ${quietS} s simulated on 7 inputs: ${quiet} hits; analytic: P(|noise| >= threshold) per 25 us sample ${pSample.toExponential(1)} -> ${(pSample * 40_000 * 7 * 3600).toExponential(1)} per hour`);

const rates = await sampleRate();
console.log('samples per second per ADC channel (1 s simulated):', rates.join(' '));
console.log(`CPU share inside interrupt handlers: quiet table ${(100 * isrShare(false)).toFixed(1)} %, every input ringing above threshold ${(100 * isrShare(true)).toFixed(1)} %`);
const ts = await timestampError();
console.log(`event-to-timestamp error over ${ts.n} impacts (crossing stamp - true impact): min ${ts.min.toFixed(1)} us, mean ${ts.mean.toFixed(1)} us, max ${ts.max.toFixed(1)} us`);
console.log(`worst main-loop iteration, normal play: ${ts.worstLoop} us`);
let best = 0;
for (const dur of [5_000, 10_000, 15_000, 16_000, 17_000, 18_000, 19_000, 20_000, 30_000, 60_000]) {
  const b = await burst(dur);
  console.log(`burst ${dur / 1000} ms at max rate: generated ${b.generated}, delivered ${b.delivered}, dropped ${b.dropped}, worst loop ${b.worstLoop} us`);
  if (b.dropped === 0) best = Math.max(best, b.generated);
}
console.log(`largest burst carried without loss: ${best} events`);
console.log(`sustained impact frames through 115200 baud: ${await lineRate()} events/s`);
console.log(`(bench wall time ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
