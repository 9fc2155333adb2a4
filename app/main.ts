#!/usr/bin/env -S npx tsx
import { runCli } from './cli.ts';

const code = await runCli(process.argv.slice(2));
// A failed command exits at once: nothing it began (a socket, a timer) may keep the process up.
if (code !== 0) process.exit(code);
process.exitCode = 0;
