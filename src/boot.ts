/**
 * dist/index.js, the file the runner starts: installs the SIGINT/SIGTERM handlers, then loads the
 * bundle (dist/kubewait.js, built from src/index.ts). Parsing that 2 MB bundle takes 100-250 ms, and a
 * signal in that window killed the process with no outputs; this file is parsed in well under a
 * millisecond, so the window shrinks to Node's own start-up.
 */
import { installSignalHandlers } from './signals.js';

installSignalHandlers();
// A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
const bundle = './kubewait.js';
await import(bundle);
