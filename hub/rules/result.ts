import type { z } from 'zod';

/**
 * A value or the reason there is none: what every parser and command in the project returns
 * instead of throwing on bad input. Kept apart from the engine's types so any module can use
 * it without importing the engine (and without import cycles).
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = <T = never>(error: string): Result<T> => ({ ok: false, error });

/** The path of an issue under a prefix: `options.targets[1]`, or `''` at the top with no prefix. */
function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), prefix);
}

/**
 * The project's one formatter of zod errors: `prefix.field: message`, naming every bad field
 * (`first: true` names only the first, for a one-line HTTP or command error).
 */
export function describeIssues(prefix: string, error: z.ZodError, { first = false }: { first?: boolean } = {}): string {
  return (first ? error.issues.slice(0, 1) : error.issues)
    .map((issue) => {
      const path = issuePath(prefix, issue.path);
      const at = path ? `${path}: ` : '';
      if (issue.code === 'unrecognized_keys') return `${at}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      return `${at}${issue.message}`;
    })
    .join('; ');
}
