/**
 * The knock model for measuring detection (npm run bench:firmware, tests/hardware):
 * knocks of either polarity, rings of 1–9 kHz decaying in 5–20 ms, amplitudes clustered
 * around the threshold, on top of the front end's noise. Seeded: the same seed gives the
 * same knocks and the same noise.
 */
import { piezoHit, type AnalogSignal } from './board.ts';

export interface Knock {
  ch: number;
  /** Simulated time (us) the ring starts. */
  t0: number;
  volts: number;
  ringHz: number;
  decayUs: number;
  polarity: 1 | -1;
  /** Largest |signal| of the knock (without noise), volts. */
  peakVolts: number;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Volts an 8-bit threshold stands for (AVcc 5 V reference, ADCH of a left-adjusted 10-bit result). */
export const thresholdVolts = (threshold: number): number => (threshold * 4 * 5) / 1024;

/** Largest |x| of a knock, by scanning its first 3 ms (the first swings are the largest). */
export function knockPeak(k: Omit<Knock, 'peakVolts'>): number {
  const f = piezoHit(0, k.volts, k.ringHz, k.decayUs);
  let peak = 0;
  for (let t = 0; t < 3000; t += 0.5) peak = Math.max(peak, Math.abs(f(t)));
  return peak;
}

/**
 * `n` knocks over channels 0..6: polarity at random, ring 1–9 kHz, decay 5–20 ms. Seven in
 * ten have a peak within 0.6–1.6× the threshold, the rest up to saturation (5 V). Each
 * channel's knocks are at least `gapUs` apart so its ring has died away.
 */
export function knockSweep(seed: number, n: number, thresholdV: number, startUs = 50_000, gapUs = 90_000): Knock[] {
  const r = rng(seed);
  const next = new Array<number>(7).fill(startUs);
  const knocks: Knock[] = [];
  let t = startUs;
  for (let i = 0; i < n; i++) {
    // The channel free soonest (ties at random), so every channel is used evenly.
    const ch = [...next.keys()].sort((a, b) => next[a]! - next[b]! || r() - 0.5)[0]!;
    t = Math.max(t + 2_000 + Math.floor(r() * 10_000), next[ch]!);
    next[ch] = t + gapUs;
    const want = r() < 0.7 ? thresholdV * (0.6 + r()) : thresholdV * 1.6 * (5 / (thresholdV * 1.6)) ** r();
    const k = { ch, t0: t, volts: want, ringHz: 1000 + r() * 8000, decayUs: 5000 + r() * 15_000, polarity: (r() < 0.5 ? 1 : -1) as 1 | -1 };
    // Scale so the knock's true peak is the amplitude drawn.
    const peak = knockPeak(k);
    k.volts *= want / peak;
    knocks.push({ ...k, peakVolts: want });
  }
  return knocks;
}

/**
 * Front-end noise: Gaussian, band-limited to ~20 kHz (a new value every 25 us, linearly
 * interpolated), `sigmaV` RMS. "0.2 V noise" in the bench is sigma 67 mV: 0.2 V is its 3 sigma.
 */
export function noise(seed: number, ch: number, sigmaV: number): AnalogSignal {
  const at = (k: number): number => {
    // Two hashed uniforms per step -> Box-Muller.
    const h = (x: number) => {
      let v = (Math.imul(x ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(seed + ch * 7919, 0xc2b2ae35)) >>> 0;
      v = Math.imul(v ^ (v >>> 16), 0x7feb352d) >>> 0;
      v = Math.imul(v ^ (v >>> 15), 0x846ca68b) >>> 0;
      return ((v ^ (v >>> 16)) >>> 0) / 2 ** 32;
    };
    const u1 = Math.max(1e-12, h(2 * k));
    const u2 = h(2 * k + 1);
    return sigmaV * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };
  return (t) => {
    const x = t / 25;
    const k = Math.floor(x);
    const a = at(k);
    return a + (at(k + 1) - a) * (x - k);
  };
}

/** Each channel's signal: its knocks plus its noise. */
export function channelSignals(knocks: readonly Knock[], seed: number, sigmaV: number): AnalogSignal[] {
  return Array.from({ length: 7 }, (_, ch) => {
    const mine = knocks.filter((k) => k.ch === ch).map((k) => ({ k, f: piezoHit(k.t0, k.volts, k.ringHz, k.decayUs, k.polarity) }));
    const n = noise(seed, ch, sigmaV);
    let i = 0; // knocks before index i have died away (evaluation times only increase)
    return (t: number) => {
      while (i < mine.length && t > mine[i]!.k.t0 + 8 * mine[i]!.k.decayUs) i++;
      let v = n(t);
      for (let j = i; j < mine.length && mine[j]!.k.t0 <= t; j++) v += mine[j]!.f(t);
      return v;
    };
  });
}

export interface SweepResult {
  knocks: number;
  above: number;
  missedAbove: number;
  below: number;
  detectedBelow: number;
  grey: number;
  detectedGrey: number;
  /** Crossing stamp minus true start, us, for every detected knock above the threshold. */
  errorsUs: number[];
  falseHits: number;
}

/**
 * Scores hits against knocks: a knock is "above" when its peak clears the threshold by
 * the noise's 3 sigma, "below" when it misses it by as much; the rest is the grey zone.
 * A hit with no knock on its channel in [t0 - 0.5 ms, t0 + 3 ms] is a false hit.
 */
export function scoreSweep(knocks: readonly Knock[], hits: ReadonlyArray<{ ch: number; boardUs: number }>, boardUsAt: (simUs: number) => number, thresholdV: number, noise3SigmaV: number): SweepResult {
  const used = new Set<number>();
  const res: SweepResult = { knocks: knocks.length, above: 0, missedAbove: 0, below: 0, detectedBelow: 0, grey: 0, detectedGrey: 0, errorsUs: [], falseHits: 0 };
  for (const k of knocks) {
    const t = boardUsAt(k.t0);
    const hi = hits.findIndex((h, i) => !used.has(i) && h.ch === k.ch && h.boardUs >= t - 500 && h.boardUs <= t + 3000);
    if (hi >= 0) used.add(hi);
    if (k.peakVolts >= thresholdV + noise3SigmaV) {
      res.above++;
      if (hi < 0) res.missedAbove++;
      else res.errorsUs.push(hits[hi]!.boardUs - t);
    } else if (k.peakVolts <= thresholdV - noise3SigmaV) {
      res.below++;
      if (hi >= 0) res.detectedBelow++;
    } else {
      res.grey++;
      if (hi >= 0) res.detectedGrey++;
    }
  }
  res.falseHits = hits.length - used.size;
  return res;
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
