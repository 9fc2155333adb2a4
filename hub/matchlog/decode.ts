import type { MatchInput, MatchSetup } from '../rules/events.ts';
import { describeIssues } from '../rules/result.ts';
import { err, ok, type Result } from '../rules/result.ts';
import { lineSchema, matchSchema, refereeSchema, shotSchema } from './schema.ts';
import type { z } from 'zod';

export type LogLine = { kind: 'match'; match: MatchSetup } | MatchInput;

/** Lines a reader skips: blank ones and `//` comments (CONTRACT §1). */
export function isSkippable(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === '' || trimmed.startsWith('//');
}

/** Decodes one log line into a typed value, or an error naming the bad field. */
export function decodeLine(text: string): Result<LogLine> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return err('a line must be a JSON object');
  const keys = Object.keys(raw);
  if (keys.length !== 1) return err(`a line must hold exactly one of "match", "shot", "referee" (found ${keys.map((k) => `"${k}"`).join(', ') || 'none'})`);
  const [key] = keys as [string];
  const value = (raw as Record<string, unknown>)[key];
  switch (key) {
    case 'match':
      return parse(matchSchema, value, 'match', (match) => ({ kind: 'match', match }));
    case 'shot':
      return parse(shotSchema, value, 'shot', (shot) => ({ kind: 'shot', shot }));
    case 'referee':
      return parse(refereeSchema, value, 'referee', (referee) => ({ kind: 'referee', referee }));
    default:
      return err(`unknown line type "${key}" (expected "match", "shot" or "referee")`);
  }
}

function parse<S extends z.ZodType, T>(schema: S, value: unknown, prefix: string, wrap: (v: z.infer<S>) => T): Result<T> {
  const parsed = schema.safeParse(value);
  return parsed.success ? ok(wrap(parsed.data)) : err(describeIssues(prefix, parsed.error));
}

export { lineSchema };
