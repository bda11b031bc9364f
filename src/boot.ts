/**
 * dist/index.js, the file the runner starts: restarts itself once with the Node flags the action runs with
 * (src/node-flags.ts), installs the SIGINT/SIGTERM handlers, then loads the
 * bundle (dist/kubewait.js, built from src/index.ts). Parsing that 2 MB bundle takes 100-250 ms, and a
 * signal in that window killed the process with no outputs; this file is parsed in well under a
 * millisecond, so the window shrinks to Node's own start-up.
 */
import { restartWithNodeFlags } from './node-flags.js';
import { installSignalHandlers } from './signals.js';

// First: nothing has been written or opened yet that the new process image would lose.
restartWithNodeFlags();
installSignalHandlers();
// A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
const bundle = './kubewait.js';
await import(bundle);
