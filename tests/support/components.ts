import { existsSync } from 'node:fs';

/**
 * Integration tests that need an outside component (a Mosquitto broker, Chromium, the
 * AVR toolchain) call this. Locally a missing component skips the test with a message
 * naming it; under CI=true it is a failure, so CI cannot go green by skipping.
 */
export function componentMissing(name: string, present: boolean): boolean {
  if (present) return false;
  if (process.env.CI === 'true') {
    throw new Error(`required test component missing under CI: ${name}`);
  }
  console.warn(`skipping: test component not available: ${name}`);
  return true;
}

export function executableExists(path: string): boolean {
  return existsSync(path);
}
