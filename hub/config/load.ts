import { readFileSync } from 'node:fs';
import { describeIssues } from '../rules/result.ts';
import { err, ok, type Result } from '../rules/result.ts';
import { configSchema, type HubConfig } from './schema.ts';

/** Parses configuration text; duplicate table ids are an error too. */
export function parseConfig(text: string, origin = 'config'): Result<HubConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(`${origin}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) return err(`${origin}: ${describeIssues('', parsed.error)}`);
  const seen = new Set<string>();
  for (const [i, t] of parsed.data.tables.entries()) {
    if (seen.has(t.id)) return err(`${origin}: tables[${i}].id: '${t.id}' is used twice`);
    seen.add(t.id);
  }
  return ok(parsed.data);
}

export function loadConfig(path: string | undefined): Result<HubConfig> {
  if (!path) return parseConfig('{}', 'built-in defaults');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return err(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseConfig(text, path);
}
