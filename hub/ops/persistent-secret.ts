import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret that outlives the process (the web panel's session-signing key, the demo's
 * password): read from `<dir>/<name>`, or made once and written there, readable by the
 * owner only. A file that is too short is replaced, never trusted.
 */
export function persistentSecret(dir: string, name: string, make: () => string = () => randomBytes(32).toString('base64url'), minLength = 8): string {
  const path = join(dir, name);
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim();
    if (text.length >= minLength) return text;
  }
  mkdirSync(dir, { recursive: true });
  const secret = make();
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return secret;
}
