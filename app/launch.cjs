// The hub's CLI from its build: dist/app/cli.bundle.cjs (app/bundle.mjs), loaded with its
// code cache (app/load-bundle.cjs). `npm start` comes here after its build check
// (app/start.cjs); the systemd unit comes here directly (dist/ built at install).
'use strict';
const { join } = require('node:path');
const { loadBundle } = require('./load-bundle.cjs');

// The build of app/cli.ts and what it imports (app/bundle.mjs).
const { runCli } = loadBundle(join(__dirname, '../dist/app/cli.bundle.cjs'));
runCli(process.argv.slice(2)).then((code) => {
  // A failed command exits at once: nothing it began (a socket, a timer) may keep the process up.
  if (code !== 0) process.exit(code);
  process.exitCode = 0;
});
