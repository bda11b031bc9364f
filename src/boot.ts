/**
 * dist/index.js, the file the runner starts: the start-up (src/startup.ts: signal handlers first, then V8's
 * flags), then the bundle (dist/kubewait.js, built from src/index.ts). Parsing that bundle takes 100-250 ms,
 * and a signal in that window killed the process with no outputs; this file is parsed in well under a
 * millisecond, so the window shrinks to Node's own start-up.
 */
import { startUp } from './startup.js';

startUp({ compileCache: false });
// A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
const bundle = './kubewait.js';
await import(bundle);
