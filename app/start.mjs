// `npm start`: one Node process, not two: dist/ is rebuilt first only when a source
// changed (build-if-stale.mjs), then the compiled CLI runs in this same process with the
// arguments given (`start`). A warm start pays for one Node start-up, not two (issue 18).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
// The build of app/main.ts itself, not a module of another layer: a URL, so the import graph
// (tests/architecture) reads this launcher as what it is, app/ running its own output.
const main = new URL('../dist/app/main.js', import.meta.url);
await import(main.href);
