import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: every temporary file of a test run goes under one directory of its own,
 * removed when the run ends. The tests make their data directories, rendered videos (up to a
 * GB a test) and browser profiles with `os.tmpdir()`, which reads TMPDIR: set here before the
 * workers start, it is what they, and the hubs and browsers they spawn, inherit. A run that was
 * killed leaves its directory; the next run removes it (its process is gone).
 */
const PREFIX = 'billiards-tests-';

export default function setup(): () => void {
  const base = tmpdir();
  for (const name of readdirSync(base)) {
    if (!name.startsWith(PREFIX)) continue;
    const owner = join(base, name, 'pid');
    const pid = existsSync(owner) ? Number(readFileSync(owner, 'utf8')) : NaN;
    if (!alive(pid)) rmSync(join(base, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(base, PREFIX));
  // As /tmp is (sticky, open to all): some tests run the hub or Mosquitto as another user, which
  // must reach its files under here as it reached them under /tmp.
  chmodSync(dir, 0o1777);
  writeFileSync(join(dir, 'pid'), String(process.pid));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (process.env.KEEP_TEST_TMP !== '1') rmSync(dir, { recursive: true, force: true });
  };
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
