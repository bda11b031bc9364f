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
 * 3. V8's flags (`V8_FLAGS`), armed here and set by `setV8FlagsForTheWait` when a wait follows, after
 *    loading the built-ins it runs on (below). Set in this process (`v8.setFlagsFromString`), never by
 *    restarting Node with them: a restart (`process.execve`) ran a user's `NODE_OPTIONS=--require` preload
 *    twice and opened a second Node start in which a signal killed the step with nothing written
 *    (bench/RESULTS.md, start-up).
 */
import nodeModule from 'node:module';
import { installSignalHandlers } from './signals.js';
import { builtinModule } from './builtin.js';

/**
 * What they save (bench/RESULTS.md, memory). Each is one V8 reads while the process runs, not only when it
 * starts (`--max-opt=2` is not: V8 applies its implications once, at start):
 * - `--semi-space-growth-factor=1`: V8 doubles its young generation each time a burst of short-lived
 *   objects survives a scavenge; the list pages and watch events of thousands of targets grew it to its
 *   16 MB maximum, about 40 MB of RSS. Evaluating the bundle is such a burst: set after it, the flag finds
 *   the young generation at 8 MB already (1 MB when set before), and the peak at 5,000 targets is 118 MB
 *   instead of 103 (bench/RESULTS.md, issue 35).
 * - `--no-turbofan`: Maglev is the highest tier. At 5,000 targets optimized code and the optimizing
 *   compiler's threads held about 15 MB; the work is I/O and JSON, which Maglev runs about as fast.
 */
export const V8_FLAGS = ['--semi-space-growth-factor=1', '--no-turbofan'] as const;

/**
 * Node's built-in modules a wait loads, beyond those Node starts with: loaded before the flags are set.
 * Any flag that differs from V8's defaults changes the hash V8 checks code caches against, and Node compiles
 * its built-ins from the code cache built into the binary with the defaults: a built-in loaded after the
 * flags is compiled from source (5-10 times the CPU: 15 ms of a plain wait when they were set first).
 * test/e2e/startup.e2e.test.ts holds the network's built-ins out of what loads after the flags, for the
 * command and the action.
 */
const WAIT_BUILTINS = ['node:https', 'node:http', 'node:child_process', 'node:timers/promises', 'node:perf_hooks', 'node:worker_threads'] as const;

/**
 * Exports that Node defines lazily, loading their module when first read, and that a wait reads: node:util's
 * `parseArgs` (the command's flags) and `diff`, node:fs's `Dir`; and the global `navigator` (client-node's
 * libraries), read beside them. Read before the flags for the same reason as WAIT_BUILTINS: with these and
 * the last two of WAIT_BUILTINS, 8 ms of CPU less for the command (process.cpuUsage at exit, medians of 25
 * runs: 133.5 -> 125.9 ms).
 */
const LAZY_EXPORTS: ReadonlyArray<[module: string, name: string]> = [
  ['node:util', 'parseArgs'],
  ['node:util', 'diff'],
  ['node:fs', 'Dir'],
];

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
 * Loads the built-ins of a wait and sets V8_FLAGS, once, in a process that started with `startUp`, before
 * the bundle is evaluated (evaluating it grows the young generation: 4-8 MB when the flags came after it).
 * The action always waits (src/boot.ts); the command's entries call it unless the command line asks only for
 * the help or the version (src/cli/help-or-version.ts), which load neither. What a bundle loads of Node
 * beyond WAIT_BUILTINS and LAZY_EXPORTS is compiled from source: for the command's wait, two small modules;
 * the action's GitHub libraries load more, a start-up cost the action accepts for its memory. Returns whether
 * it set them.
 */
export function setV8FlagsForTheWait(): boolean {
  if (!shared[FLAGS_ARMED]) return false;
  shared[FLAGS_ARMED] = false;
  for (const id of WAIT_BUILTINS) builtinModule(id);
  Reflect.get(globalThis, 'navigator');
  for (const [id, name] of LAZY_EXPORTS) Reflect.get(builtinModule(id) as object, name);
  const v8 = builtinModule('node:v8');
  for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
  return true;
}
