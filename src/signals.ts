/**
 * SIGINT/SIGTERM handling, installed by the entry point before anything else is loaded: a signal that
 * arrives while the bundle loads or a large manifest set is parsed must still end in a report
 * (`result: cancelled`), never in a process killed with no outputs. A second signal exits at once.
 * Imports nothing, so the bundle runs it before evaluating anything else.
 */

/** Shared through globalThis: dist/index.js (src/boot.ts) and the bundle it loads each carry a copy
 *  of this module, and both must see the same handlers and signal. */
const KEY = Symbol.for('kubewait.cancellation');
const shared = globalThis as { [KEY]?: { controller: AbortController; installed: boolean } };
const state = (shared[KEY] ??= { controller: new AbortController(), installed: false });
const { controller } = state;

const onSignal = (name: NodeJS.Signals): void => {
  if (controller.signal.aborted) process.exit(1);
  // No @actions/core here: this module loads first and must load fast. On stderr: the command's stdout
  // may be one JSON document (-o json); the runner shows both streams in the step's log.
  process.stderr.write(`kubewait: received ${name}, stopping the wait and reporting what is known\n`);
  controller.abort();
};

/** Installs the handlers (once) and returns the signal they abort. */
export function installSignalHandlers(): AbortSignal {
  if (!state.installed) {
    state.installed = true;
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return controller.signal;
}
