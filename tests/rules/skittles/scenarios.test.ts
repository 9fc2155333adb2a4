import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replayLog } from '../../../hub/matchlog/replay.ts';
import { componentMissing } from '../../support/components.ts';

/** The shared scenarios live beside the repository: <repo>/../shared/scenarios. */
const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../../..', 'shared', 'scenarios');

describe('shared skittle scenarios replay to their expected results', () => {
  for (const name of ['skittles-5-basic', 'skittles-7-pyramid-basic']) {
    it(`${name} (SK5, SK7P scenarios)`, (ctx) => {
      if (componentMissing(`shared scenarios folder (${scenarios})`, existsSync(join(scenarios, `${name}.jsonl`)))) return ctx.skip();
      const replayed = replayLog(readFileSync(join(scenarios, `${name}.jsonl`), 'utf8'));
      if (!replayed.ok) throw new Error(`line ${replayed.line}: ${replayed.error}`);
      const expected = JSON.parse(readFileSync(join(scenarios, `${name}.expected.json`), 'utf8')) as Record<string, unknown>;
      expect(replayed.view).toMatchObject(expected);
    });
  }
});
