/**
 * dist/cli.js, the file `kubewait` and `kubectl kubewait` start: installs the SIGINT/SIGTERM handlers, then
 * loads the command's bundle (dist/kubewait-cli.js, built from src/cli.ts), as src/boot.ts does for the
 * action. Parsing that 2 MB bundle takes 60-250 ms, and a Ctrl-C or a CI cancellation in that window killed
 * the command with no JSON document and no exit 130; this file is parsed in well under a millisecond.
 */
import { installSignalHandlers } from './signals.js';

installSignalHandlers();
// A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
const bundle = './kubewait-cli.js';
await import(bundle);
