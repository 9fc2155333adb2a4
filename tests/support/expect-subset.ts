/**
 * The expected files in shared/scenarios list only the fields that matter: every field
 * they give must match, lists element by element from the start (as the before-stop hook reads them).
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = '$'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length < expected.length) return `${path}: expected a list of at least ${expected.length}`;
    for (const [i, e] of expected.entries()) {
      const m = subsetMismatch(e, actual[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return `${path}: expected an object`;
    for (const [k, e] of Object.entries(expected)) {
      const m = subsetMismatch(e, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}
