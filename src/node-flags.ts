/**
 * The Node flags the action runs with. A JavaScript action cannot pass any (the runner starts
 * `node dist/index.js`), and V8 reads these only when it starts: `v8.setFlagsFromString` later changes
 * nothing. So dist/index.js replaces its own process image once, before anything else, with the same Node,
 * script, arguments and environment plus these flags (`process.execve`: the same process and PID, one
 * process at any time, no child to forward signals to).
 *
 * Why these (bench/RESULTS.md, memory): at 5,000 targets, optimized code and the optimizing compiler's
 * threads held about 15 MB of a 110 MB peak. Maglev as the highest tier, compiling on the main thread, runs
 * a wait as fast (the work is I/O and JSON) and peaks at 95 MB. The second start costs about 28 ms.
 */

/** Appended to Node's own arguments (`process.execArgv`) for the second start. */
export const NODE_FLAGS = ['--max-opt=2', '--no-concurrent-recompilation'] as const;

/** The Node major the flags were measured on: V8's flags can change with it, and an unknown flag makes
 *  Node refuse to start, so another major runs without them. */
const MEASURED_NODE_MAJOR = 24;

/** What `restartPlan` reads of the process. */
export interface NodeProcess {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  version: string;
  platform: string;
  /** Absent where Node has none (Windows). */
  execve?: unknown;
}

/** The arguments of the second start (argv[0] first, as execve takes them), or undefined when this process
 *  should run as it is: the flags are in place, Node cannot replace the process (Windows), or Node is
 *  another major than the one measured. */
export function restartPlan(node: NodeProcess): string[] | undefined {
  if (typeof node.execve !== 'function' || node.platform === 'win32') return undefined;
  if (Number(/^v(\d+)\./.exec(node.version)?.[1]) !== MEASURED_NODE_MAJOR) return undefined;
  if (NODE_FLAGS.every((flag) => node.execArgv.includes(flag))) return undefined;
  return [node.execPath, ...NODE_FLAGS, ...node.execArgv, ...node.argv.slice(1)];
}

/** Replaces this process with one that has `NODE_FLAGS`, or returns when it should run as it is (also when
 *  execve fails: the wait runs without the flags rather than not at all). */
export function restartWithNodeFlags(): void {
  const args = restartPlan(process);
  if (!args) return;
  try {
    process.execve!(process.execPath, args, process.env);
  } catch {
    // E.g. a seccomp profile that refuses execve: run on, with V8's defaults.
  }
}
