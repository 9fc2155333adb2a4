import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/**
 * The build `npm start` makes (app/build-if-stale.cjs: `npm run build` when a source is
 * newer than dist/), for tests that run the compiled hub as an operator does. Test files
 * run in parallel: a lock directory serialises them so that two never write dist/ at once.
 */
export function buildHub(): void {
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
    const build = spawnSync(process.execPath, ['app/build-if-stale.cjs'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 150_000 });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
  } finally {
    rmdirSync(lock);
  }
}

/** The node flags `npm start` runs the hub with (package.json), for tests and benches that run it so. */
export function startNodeFlags(): string[] {
  const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /^node((?: --\S+)*) app\/start\.cjs start$/.exec(script);
  if (!m) throw new Error(`package.json's start script does not run app/start.cjs: ${script}`);
  return m[1]!.trim().split(' ').filter(Boolean);
}
