import { spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/**
 * `npm run build` for tests that run the compiled hub as an operator does. Test files run
 * in parallel: the build is serialised by a lock directory so that two never write dist/
 * at once (tsc is incremental, so the second build is quick).
 */
export function buildHub(): void {
  // The same lock as tests/security/support.ts on main (the MQTT security tests): one build at a time for all.
  const lock = join(REPO_ROOT, 'dist.build-lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is stale after three minutes.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmdirSync(lock);
      } catch {}
      if (Date.now() > deadline) throw new Error(`npm run build: waited 3 minutes for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 150_000 });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
  } finally {
    rmdirSync(lock);
  }
}
