// Loads the hub's one-file build (app/bundle.mjs) the way Node loads a CommonJS module, with
// V8's code cache beside it: a warm start deserialises the compiled top-level code instead of
// compiling it again (~25 ms of a ~550 ms start here, issue 18). V8 checks the cache itself
// (its version, the node flags, the source) and ignores one that does not fit; `npm run build`
// writes it under `npm start`'s flags, and a start that finds it missing or ignored writes it
// again for the next one (where dist/ is writable).
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire, Module } = require('node:module');
const { dirname } = require('node:path');
const { Script } = require('node:vm');

const cacheOf = (file) => `${file}.v8-cache`;

function compile(file, cachedData) {
  // The bundle has no `import()` (app/bundle.mjs makes them `require`): none needs a loader here.
  // Latin-1: the bundle is ASCII (app/bundle.mjs), and decoding it as UTF-8 cost 30-55 ms here.
  return new Script(Module.wrap(readFileSync(file, 'latin1')), { filename: file, cachedData });
}

/** The bundle's exports, after running it as a CommonJS module. */
function loadBundle(file) {
  let cachedData;
  try {
    cachedData = readFileSync(cacheOf(file));
  } catch {
    cachedData = undefined; // never built with a cache, or removed
  }
  const script = compile(file, cachedData);
  if (cachedData === undefined || script.cachedDataRejected) saveCache(script, file);
  const loaded = { exports: {} };
  script.runInThisContext().call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  return loaded.exports;
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

module.exports = { loadBundle };

// `node <npm start's flags> app/load-bundle.cjs FILE` (npm run build): the cache for FILE alone.
if (require.main === module && process.argv[2]) saveCache(compile(process.argv[2]), process.argv[2]);
