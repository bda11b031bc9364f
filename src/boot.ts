/**
 * dist/index.js, the file the runner starts: the start-up (src/startup.ts: signal handlers first, then V8's
 * flags), then the bundle (dist/kubewait.js, built from src/index.ts). Parsing that bundle takes 100-250 ms,
 * and a signal in that window killed the process with no outputs; this file is parsed in well under a
 * millisecond, so the window shrinks to Node's own start-up.
 */
import { setV8FlagsForTheWait, startUp } from './startup.js';

startUp({ compileCache: false });
// The action always waits: the wait's built-ins and V8's flags before its bundle is evaluated.
setV8FlagsForTheWait();
// A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
const bundle = './kubewait.js';
await import(bundle);
