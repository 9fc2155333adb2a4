/**
 * Real roots of small polynomials on an interval, exactly enough for event times: the
 * derivative's roots split the interval into monotone pieces, and each piece with a sign
 * change is bisected. Coefficients in increasing order: c[0] + c[1]·t + c[2]·t² + …
 */
export function evaluate(c: readonly number[], t: number): number {
  let v = 0;
  for (let i = c.length - 1; i >= 0; i--) v = v * t + c[i]!;
  return v;
}

export function derivative(c: readonly number[]): number[] {
  return c.slice(1).map((v, i) => v * (i + 1));
}

function trim(c: readonly number[]): number[] {
  const out = [...c];
  const scaleOf = Math.max(1e-300, ...out.map(Math.abs));
  while (out.length > 1 && Math.abs(out[out.length - 1]!) <= scaleOf * 1e-14) out.pop();
  return out;
}

/** All real roots in [lo, hi], ascending (roots where the polynomial only touches zero may be missed). */
export function rootsIn(coeffs: readonly number[], lo: number, hi: number): number[] {
  const c = trim(coeffs);
  if (c.length <= 1) return [];
  if (c.length === 2) {
    const t = -c[0]! / c[1]!;
    return t >= lo && t <= hi ? [t] : [];
  }
  const critical = rootsIn(derivative(c), lo, hi);
  const bounds = [lo, ...critical, hi];
  const roots: number[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    let a = bounds[i]!;
    let b = bounds[i + 1]!;
    let fa = evaluate(c, a);
    const fb = evaluate(c, b);
    if (fa === 0) {
      if (roots.length === 0 || roots[roots.length - 1] !== a) roots.push(a);
      continue;
    }
    if (fb === 0 || fa * fb > 0) continue;
    for (let k = 0; k < 64 && b - a > 1e-12; k++) {
      const m = (a + b) / 2;
      const fm = evaluate(c, m);
      if (fm === 0) {
        a = b = m;
        break;
      }
      if (fa * fm < 0) b = m;
      else {
        a = m;
        fa = fm;
      }
    }
    roots.push((a + b) / 2);
  }
  const last = evaluate(c, hi);
  if (last === 0 && roots[roots.length - 1] !== hi) roots.push(hi);
  return roots;
}
