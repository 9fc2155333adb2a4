import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** `shared/` lies beside the repository, in development and in CI alike. */
export const SHARED_DIR = resolve(REPO_ROOT, '../shared');
export const SCENARIOS_DIR = join(SHARED_DIR, 'scenarios');
export const sharedPresent = (): boolean => existsSync(SCENARIOS_DIR);
/** The repository's own copy of the public scenarios: a clone alone still tests them. */
export const FIXTURE_SCENARIOS_DIR = join(REPO_ROOT, 'tests/fixtures/scenarios');
