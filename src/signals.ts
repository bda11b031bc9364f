/**
 * SIGINT/SIGTERM handling: the start-up (src/startup.ts) installs the handlers before anything else is
 * loaded, so a signal that arrives while the bundle loads or a large manifest set is parsed still ends in a
 * report (`result: cancelled`), never in a process killed with no outputs. A second signal exits at once.
 * Imports nothing, and does nothing when loaded: dist/cli.js loads it on any Node, also one too old for
 * `AbortController`, and installs the handlers only once the Node version is known to be good.
 */

interface Cancellation {
  controller: AbortController;
}

/** Shared through globalThis: the tiny entries (dist/index.js, dist/cli.js) and the bundle each loads carry
 *  a copy of this module, and all must see the same handlers and signal. */
const KEY = Symbol.for('kubewait.cancellation');
const shared = globalThis as { [KEY]?: Cancellation };

/** Installs the handlers (once per process) and returns the signal they abort. */
export function installSignalHandlers(): AbortSignal {
  let state = shared[KEY];
  if (!state) {
    const controller = new AbortController();
    state = shared[KEY] = { controller };
    const onSignal = (name: NodeJS.Signals): void => {
      if (controller.signal.aborted) process.exit(1);
      // No @actions/core here: this module loads first and must load fast. On stderr: the command's stdout
      // may be one JSON document (-o json); the runner shows both streams in the step's log.
      process.stderr.write(`kubewait: received ${name}, stopping the wait and reporting what is known\n`);
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return state.controller.signal;
}
