import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHub, startNodeFlags } from '../support/build.ts';
import { subsetMismatch } from '../support/expect-subset.ts';
import { FIXTURE_SCENARIOS_DIR, REPO_ROOT } from '../support/paths.ts';

/**
 * `npm start` loads the CLI as one bundled file with V8's code cache (app/bundle.mjs,
 * app/load-bundle.cjs, app/launch.cjs; issue 18). The hub's own process tests run through it
 * (tests/hub/process.test.ts, tests/security); these check the bundle and the cache themselves.
 */
const BUNDLE = join(REPO_ROOT, 'dist/app/cli.bundle.cjs');
const START_FLAGS = startNodeFlags();

beforeAll(() => buildHub(), 330_000);

const launch = (args: string[]) => spawnSync(process.execPath, [...START_FLAGS, 'app/launch.cjs', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });

/** Node with `npm start`'s flags running a script that imports app/load-bundle.cjs. */
function withLoader(script: string, ...args: string[]) {
  const loader = JSON.stringify(join(REPO_ROOT, 'app/load-bundle.cjs'));
  return spawnSync(process.execPath, [...START_FLAGS, '--input-type=module', '-e', `import { loadBundle } from ${loader};\n${script}`, '--', ...args], { encoding: 'utf8', timeout: 30_000 });
}

describe('the bundled CLI (npm start)', () => {
  it('replays a match log to the result the sources give (CONTRACT §2)', () => {
    const log = readdirSync(FIXTURE_SCENARIOS_DIR).find((f) => f.endsWith('.jsonl'))!;
    const r = launch(['replay', join(FIXTURE_SCENARIOS_DIR, log)]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const expected = JSON.parse(readFileSync(join(FIXTURE_SCENARIOS_DIR, log.replace(/\.jsonl$/, '.expected.json')), 'utf8'));
    expect(subsetMismatch(expected, JSON.parse(r.stdout))).toBeNull();
  });

  it('an unknown command: the usage, exit 2', () => {
    const r = launch(['no-such-command']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: billiards <command>\n {2}replay FILE/);
  });

  it('finds its files where each module lies in dist/, not beside the bundle', () => {
    const source = readFileSync(BUNDLE, 'utf8');
    // esbuild leaves a CommonJS bundle an empty import.meta: none may be left.
    expect(source).not.toMatch(/import\.meta/);
    const urls = [...source.matchAll(/__moduleUrl\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(urls).toContain('web/routes/static.js');
    for (const path of urls) expect(existsSync(join(REPO_ROOT, 'dist', path)), path).toBe(true);
  });

  it('is ASCII, byte for byte (the launcher reads it as Latin-1), its Cyrillic strings escaped', () => {
    const bytes = readFileSync(BUNDLE);
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    // The Russian panel's strings survive as escapes: "Стол" (a table) is one of them.
    expect(bytes.toString('latin1')).toContain('\\u0421\\u0442\\u043E\\u043B');
  });

  it('has a code cache that V8 takes under npm start\'s flags', () => {
    const r = withLoader(
      `import { readFileSync } from 'node:fs'; import { Script } from 'node:vm'; import { Module } from 'node:module';
       const file = process.argv[1];
       const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData: readFileSync(file + '.v8-cache') });
       console.log(script.cachedDataRejected ? 'rejected' : 'taken');`,
      BUNDLE,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('taken');
  });
});

describe('loading a bundle with its code cache (app/load-bundle.cjs)', () => {
  const run = `const m = loadBundle(process.argv[1]); console.log(m.answer(), typeof require);`;

  function bundleIn(dir: string): string {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, `const path = require('node:path');\nexports.answer = () => [path.basename(__filename), this === module.exports].join(' ');\n`);
    return file;
  }

  it('runs it as a CommonJS module, writes the cache, and takes it the next time', () => {
    const file = bundleIn(mkdtempSync(join(tmpdir(), 'bundle-')));
    const first = withLoader(run, file);
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('b.cjs true undefined');
    const cache = statSync(`${file}.v8-cache`);
    const second = withLoader(run, file);
    expect(second.stdout.trim()).toBe('b.cjs true undefined');
    expect(statSync(`${file}.v8-cache`).mtimeMs).toBe(cache.mtimeMs); // taken, not written again
  });

  it('a damaged cache is ignored and written again; the module runs all the same', () => {
    const file = bundleIn(mkdtempSync(join(tmpdir(), 'bundle-')));
    writeFileSync(`${file}.v8-cache`, 'not a code cache');
    const r = withLoader(run, file);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('b.cjs true undefined');
    expect(readFileSync(`${file}.v8-cache`).toString('latin1')).not.toBe('not a code cache');
    expect(readdirSync(join(file, '..')).sort()).toEqual(['b.cjs', 'b.cjs.v8-cache']); // no partial file left
  });
});
