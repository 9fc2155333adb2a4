// `npm start`: one Node process, not two: dist/ is rebuilt first only when a source
// changed (build-if-stale.mjs), then the compiled CLI runs in this same process with the
// arguments given (`start`). A warm start pays for one Node start-up, not two (issue 18).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import('../dist/app/main.js');
