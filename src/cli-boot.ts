/**
 * dist/cli.js, the file `kubewait` and `kubectl kubewait` start: checks the Node version, then the start-up
 * (src/startup.ts: signal handlers first, the compile cache, then V8's flags when a wait follows), then
 * loads the command's bundle (dist/kubewait-cli.js, built from src/cli.ts), as src/boot.ts does for the action. Parsing that bundle
 * takes 60-250 ms, and a Ctrl-C or a CI cancellation in that window killed the command with no JSON document
 * and no exit 130; this file is parsed in well under a millisecond, and installs the handlers synchronously.
 *
 * The check comes first: the modules imported here only define functions and data, so they load on any
 * Node, and nothing that needs a newer Node runs before the check passes. No top-level await: this file must
 * parse on the old Node it turns away (scripts/package.ts builds it for Node 12.20).
 */
import { EXIT_CODES } from './cli/exit-code-table.js';
import { nodeVersionProblem } from './cli/node-version.js';
import { asksForHelpOrVersion } from './cli/help-or-version.js';
import { setV8FlagsForTheWait, startUp } from './startup.js';

const problem = nodeVersionProblem(process.version, process.execPath);
if (problem) {
  // One message and the usage-error code, never a stack trace; the process ends once stderr is written.
  process.stderr.write(problem);
  process.exitCode = EXIT_CODES['bad-input'];
} else {
  startUp({ compileCache: true });
  // A wait follows: its built-ins and V8's flags before its bundle is evaluated.
  if (!asksForHelpOrVersion(process.argv.slice(2))) setV8FlagsForTheWait();
  // A variable, not a literal: the bundler keeps this import (scripts/package.ts marks it external).
  const bundle = './kubewait-cli.js';
  void import(bundle);
}
