// Part of `npm run build`, after tsc: the compiled CLI (dist/app/cli.js) and what it imports, the
// hub's own modules and its pure-JavaScript packages, in one CommonJS file that `npm start`
// loads (app/launch.cjs). One file instead of ~450: the ESM loader's resolving, opening and
// linking of each module was about a quarter of a warm start (issue 18, docs/performance.md).
// CommonJS rather than ESM because V8 can cache its compiled code (app/load-bundle.cjs) and it
// parsed faster here. dist/ keeps every module too: the tests, the camera's worker threads and
// the checkpoint worker load them from there.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BUNDLE = `${dist}app/cli.bundle.cjs`;

/**
 * Left out, loaded from node_modules when asked for: better-sqlite3 (a native addon) and what
 * only some hubs load, on demand (a board's transports, an external broker's client, the
 * TypeScript compiler the panel uses when run from the sources).
 */
const EXTERNAL = ['better-sqlite3', 'serialport', '@serialport/*', 'johnny-five', 'firmata-io', 'mqtt', 'typescript', 'tsx', 'tsx/*'];

/**
 * A module's `import.meta.url` is where it lies in dist/, not the bundle's own URL: the hub finds
 * its static files, worker scripts and camera processor relative to it.
 */
const keepModuleUrls = {
  name: 'module-urls',
  setup(build) {
    build.onLoad({ filter: /\.m?js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const url = `__moduleUrl(${JSON.stringify(relative(dist, args.path))})`;
      return { contents: source.replaceAll('import.meta.url', url), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

async function bundle() {
  // A build that fails here leaves no bundle, which the next `npm start` rebuilds (build-if-stale.cjs).
  rmSync(BUNDLE, { force: true });
  const result = await esbuild.build({
    entryPoints: [`${dist}app/cli.js`],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    // `import('mqtt')` as `require('mqtt')` (every external is CommonJS): V8 loses a script's
    // dynamic-import host options when its code comes from the cache (Node 20), and the bundle
    // then needs no experimental vm loader option.
    supported: { 'dynamic-import': false },
    plugins: [keepModuleUrls],
    banner: { js: `const __moduleUrl = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', path)).href;` },
    // Strings, templates and regular expressions come out ASCII (esbuild's default charset).
    charset: 'ascii',
    write: false,
    logLevel: 'warning',
  });
  // A warning is a bundle that may not behave as the modules do (an import.meta left empty, say).
  const problems = [...result.errors, ...result.warnings];
  if (problems.length > 0) throw new Error(`bundle: ${problems.map((e) => `${e.location?.file ?? ''} ${e.text}`.trim()).join('; ')}`);
  await writeFile(BUNDLE, asciiOnly(result.outputFiles[0].text));
  writeCodeCache();
}

/**
 * What is left outside ASCII is in comments (a dash, a Cyrillic word): escaped there too, so the
 * launcher reads the file as Latin-1, byte for byte, in ~1 ms where decoding 3 MB of UTF-8 took
 * 30-55 ms, and V8 parses a one-byte string.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * V8 takes a code cache only under the node flags it was made with: made here under those of
 * `npm start` (package.json, the systemd unit has the same), so that a hub installed read-only
 * has it too. Without it the hub starts all the same, compiling.
 */
function writeCodeCache() {
  rmSync(`${BUNDLE}.v8-cache`, { force: true });
  const root = fileURLToPath(new URL('../', import.meta.url));
  const script = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts.start;
  const started = /^node((?: --\S+)*) app\/start\.cjs\b/.exec(script);
  if (!started) throw new Error(`bundle: package.json's start script does not run app/start.cjs, so its node flags (which the code cache must match) are unknown: ${script}`);
  const flags = started[1].trim().split(' ').filter(Boolean);
  const made = spawnSync(process.execPath, [...flags, `${root}app/load-bundle.cjs`, BUNDLE], { encoding: 'utf8' });
  if (made.status !== 0) process.stderr.write(`bundle: no code cache (${made.stderr.trim()}); the hub compiles at every start\n`);
}

// `node app/bundle.mjs` (npm run build).
await bundle();
