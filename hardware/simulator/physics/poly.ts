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

/** Real roots of c0 + c1·t + c2·t² in [lo, hi], ascending, in closed form (numerically stable). */
export function quadraticRootsIn(c0: number, c1: number, c2: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  if (Math.abs(c2) <= 1e-14 * (Math.abs(c1) + Math.abs(c0))) {
    if (c1 !== 0) out.push(-c0 / c1);
  } else {
    const disc = c1 * c1 - 4 * c2 * c0;
    if (disc < 0) return [];
    const q = -0.5 * (c1 + Math.sign(c1 || 1) * Math.sqrt(disc));
    const r1 = q / c2;
    const r2 = q !== 0 ? c0 / q : r1;
    out.push(Math.min(r1, r2), Math.max(r1, r2));
  }
  return out.filter((t) => t >= lo && t <= hi);
}

function trim(c: readonly number[]): number[] {
  const out = [...c];
  let scaleOf = 1e-300;
  for (const v of out) scaleOf = Math.max(scaleOf, Math.abs(v));
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
  if (c.length === 3) return quadraticRootsIn(c[0]!, c[1]!, c[2]!, lo, hi);
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
    for (let k = 0; k < 64 && b - a > 1e-10; k++) {
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
