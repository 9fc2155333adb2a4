// `npm start`: one Node process, not two: dist/ is rebuilt first only when a source
// changed (build-if-stale.mjs), then the built CLI runs in this same process with the
// arguments given (`start`), loaded as one bundled file with its compiled code cached
// (launch.mjs). A warm start pays for one Node start-up and one file (issue 18).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import('./launch.mjs');
