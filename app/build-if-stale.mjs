// `npm start` runs this before the hub: it compiles (`npm run build`) only when a source
// is newer than the last build, so a warm start does not pay tsc's ~2 s of finding
// nothing to do. A fresh clone has no dist/ and builds as before.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
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

const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const stale = SOURCES.some((source) => newest(join(root, source)) > built);
if (stale) {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its build info alone when nothing changed (a touched file): mark the build done.
  const now = new Date();
  utimesSync(stamp, now, now);
}
