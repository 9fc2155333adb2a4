// `npm start` runs this before the hub (app/start.cjs, in the hub's own process): it compiles (`npm run build`) only when a source
// is newer than the last build, so a warm start does not pay tsc's ~2 s of finding
// nothing to do. A fresh clone has no dist/ and builds as before.
'use strict';
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist/.tsbuildinfo');
const SOURCES = ['app', 'hub', 'firmware-bridge', 'web', 'hardware', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time under a path, skipping what the build does not read. */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs; // a deleted file changes its folder's time
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Builds dist/ when a source is newer than the last build; exits the process if the build fails. */
function buildIfStale() {
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  // The bundle `npm start` loads is made last (app/bundle.mjs): a build that stopped before it is not done.
  const bundled = statSync(join(root, 'dist/app/cli.bundle.cjs'), { throwIfNoEntry: false }) !== undefined;
  const stale = !bundled || SOURCES.some((source) => newest(join(root, source)) > built);
  if (!stale) return;
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its build info alone when nothing changed (a touched file): mark the build done.
  const now = new Date();
  utimesSync(stamp, now, now);
}

module.exports = { buildIfStale };

// Run as a script (the tests' build helper does): just the build.
if (require.main === module) buildIfStale();
