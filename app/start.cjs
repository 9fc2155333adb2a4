// `npm start`: one Node process, not two: dist/ is rebuilt first only when a source
// changed (build-if-stale.cjs), then the built CLI runs in this same process with the
// arguments given (`start`), loaded as one bundled file with its compiled code cached
// (launch.cjs). A warm start pays for one Node start-up and one file (issue 18). CommonJS, as
// the bundle is: Node then never sets up its ES module loader (~25 ms of a start here).
'use strict';
require('./build-if-stale.cjs').buildIfStale();
require('./launch.cjs');
