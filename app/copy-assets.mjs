// Part of `npm run build`: the files tsc does not emit but the compiled hub loads at run
// time, copied to the same place under dist/ (paths are resolved from import.meta.url).
import { cpSync } from 'node:fs';

const root = new URL('../', import.meta.url);
for (const path of ['hub/store/checkpoint-worker.mjs', 'hub/store/writer-worker.mjs', 'web/static']) {
  cpSync(new URL(path, root), new URL(`dist/${path}`, root), { recursive: true });
}
