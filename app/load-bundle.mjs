// Loads the hub's one-file build (app/bundle.mjs) the way Node loads a CommonJS module, with
// V8's code cache beside it: a warm start deserialises the compiled top-level code instead of
// compiling it again (~25 ms of a ~550 ms start here, issue 18). V8 checks the cache itself
// (its version, the node flags, the source) and ignores one that does not fit; `npm run build`
// writes it under `npm start`'s flags, and a start that finds it missing or ignored writes it
// again for the next one (where dist/ is writable).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const cacheOf = (file) => `${file}.v8-cache`;

function compile(file, cachedData) {
  // The bundle has no `import()` (app/bundle.mjs makes them `require`): none needs a loader here.
  // Latin-1: the bundle is ASCII (app/bundle.mjs), and decoding it as UTF-8 cost 30-55 ms here.
  return new Script(Module.wrap(readFileSync(file, 'latin1')), { filename: file, cachedData });
}

/** The bundle's exports, after running it as a CommonJS module. */
export function loadBundle(file) {
  let cachedData;
  try {
    cachedData = readFileSync(cacheOf(file));
  } catch {
    cachedData = undefined; // never built with a cache, or removed
  }
  const script = compile(file, cachedData);
  if (cachedData === undefined || script.cachedDataRejected) saveCache(script, file);
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** Written whole or not at all (two hubs starting at once); never a reason not to start. */
function saveCache(script, file) {
  const partial = `${cacheOf(file)}.${process.pid}`;
  try {
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheOf(file));
  } catch {
    // a read-only dist/: this start compiled, as without a cache
  }
}

// `node <npm start's flags> app/load-bundle.mjs FILE` (npm run build): the cache for FILE alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv[2]) saveCache(compile(process.argv[2]), process.argv[2]);
