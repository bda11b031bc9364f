/**
 * Start-up, in one place: what every way kubewait starts does before its bundle is evaluated.
 * dist/index.js (src/boot.ts, the action), dist/cli.js (src/cli-boot.ts, the command) and the single
 * executable (src/cli.ts, its only file) call `startUp` first; it runs once per process, however many
 * copies of this module the entry and the bundle it loads carry.
 *
 * 1. The SIGINT/SIGTERM handlers (src/signals.ts), first: from here on a signal ends in a report. Before
 *    this line only Node's own start runs (25-50 ms, more on a busy machine), which no JavaScript can
 *    shorten: Node resets every inherited disposition and the signal mask when it starts.
 * 2. For the command, V8's compile cache on disk (`module.enableCompileCache`).
 * 3. V8's flags (`V8_FLAGS`), armed here and set by `setV8FlagsForTheWait` once the wait has loaded what it
 *    runs on (below). Set in this process (`v8.setFlagsFromString`), never by restarting Node with them: a
 *    restart (`process.execve`) ran a user's `NODE_OPTIONS=--require` preload twice and opened a second Node
 *    start in which a signal killed the step with nothing written (bench/RESULTS.md, start-up).
 */
import nodeModule from 'node:module';
import { installSignalHandlers } from './signals.js';

/**
 * What they save (bench/RESULTS.md, memory). Each is one V8 reads while the process runs, not only when it
 * starts (`--max-opt=2` is not: V8 applies its implications once, at start):
 * - `--semi-space-growth-factor=1`: V8 doubles its young generation each time a burst of short-lived
 *   objects survives a scavenge; the list pages and watch events of thousands of targets grew it to its
 *   16 MB maximum, about 40 MB of RSS.
 * - `--no-turbofan`: Maglev is the highest tier. At 5,000 targets optimized code and the optimizing
 *   compiler's threads held about 15 MB; the work is I/O and JSON, which Maglev runs about as fast.
 *
 * When: any flag that differs from V8's defaults changes the hash V8 checks code caches against, and Node's
 * built-in modules (node:https, node:tls, node:crypto, ...) are compiled from the code cache built into the
 * binary with the defaults. Set at start, every built-in loaded afterwards was compiled from source: 15 ms
 * of CPU on a plain wait (bench/RESULTS.md, issue 35). What they save is in the targets' lists and watches,
 * so they are set as the wait begins them, when the built-ins it runs on are already loaded.
 */
export const V8_FLAGS = ['--semi-space-growth-factor=1', '--no-turbofan'] as const;

const STARTED = Symbol.for('kubewait.started');
const FLAGS_ARMED = Symbol.for('kubewait.v8-flags-armed');
const shared = globalThis as { [STARTED]?: true; [FLAGS_ARMED]?: boolean };

export interface StartUpOptions {
  /** Keep the code V8 compiles on disk (the command: a second run on the same machine skips compiling about
   *  1 MB; NODE_COMPILE_CACHE names the directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off). A runner
   *  starts on a fresh machine, so the action has no use for it. */
  compileCache: boolean;
}

/** Installs the signal handlers, the compile cache for the command, and arms V8's flags; once per process. */
export function startUp({ compileCache }: StartUpOptions): void {
  installSignalHandlers();
  if (shared[STARTED]) return;
  shared[STARTED] = true;
  shared[FLAGS_ARMED] = true;
  // Node has it since 22.8; an older Node 22 (src/cli/node-version.ts) runs without it. The cache is checked
  // against each file's content, and a directory that cannot be written only means no cache.
  if (compileCache) nodeModule.enableCompileCache?.();
}

/**
 * Sets V8_FLAGS, once, in a process that started with `startUp`; elsewhere (a test importing the engine) it
 * does nothing. The engine calls it as its watches begin. Resolves to whether it set them. node:v8 is
 * imported here, not at the top: loading it costs 3 ms at start that a wait ending in bad input never needs.
 */
export async function setV8FlagsForTheWait(): Promise<boolean> {
  if (!shared[FLAGS_ARMED]) return false;
  shared[FLAGS_ARMED] = false;
  // `default`: the bundles load builtins as CommonJS (scripts/bundle-plugins.ts), so named exports are absent.
  const v8 = (await import('node:v8')).default;
  for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
  return true;
}
