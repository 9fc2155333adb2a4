import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every temporary file of the run under one directory, removed at its end (tests/support/scratch-tmp.ts).
    globalSetup: ['./tests/support/scratch-tmp.ts'],
    // The plain closing line CI reads comes from our own reporter, after vitest's summary.
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
