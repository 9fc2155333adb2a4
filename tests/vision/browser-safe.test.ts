import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * hub/vision/ runs in the hub and, served module by module at /static/vision/ (web/routes/vision.ts),
 * in the browser's tracker page: a module there may import only its neighbours, and no Node API.
 * (Type-only imports are erased and may come from anywhere.)
 */
describe('hub/vision is browser-safe (issue 16: one detector for the hub and the browser)', () => {
  const dir = `${REPO_ROOT}/hub/vision/`;
  const modules = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it.each(modules)('%s imports only modules of its own folder, and nothing of Node', (file) => {
    const source = readFileSync(dir + file, 'utf8');
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)];
    for (const [, typeOnly, from] of imports) {
      if (typeOnly) continue;
      expect(from, `${file} imports '${from}'`).toMatch(/^\.\/[a-z0-9-]+\.ts$/);
    }
    expect(source).not.toMatch(/from\s+'node:|require\(/);
  });
});
