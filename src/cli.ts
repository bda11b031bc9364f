/**
 * The command (`kubewait`, `kubectl kubewait`), loaded by its entry src/cli-boot.ts (dist/cli.js): runs it
 * and exits with its code once stdout and stderr are flushed. See src/cli/run.ts.
 */
import nodeModule from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { installSignalHandlers } from './signals.js';

// Installed by src/cli-boot.ts before this bundle is parsed; here again in case the bundle is run directly.
installSignalHandlers();

// This bundle's entry (dist/kubewait-cli.js) is small; what a run needs is loaded below from dist/chunks/
// (scripts/package.ts). V8 keeps the code it compiles for them on disk (NODE_COMPILE_CACHE, or
// node-compile-cache in the temp directory), so a second run on the same machine skips compiling about 1 MB
// (bench/RESULTS.md). The cache is checked against each file's content, and a directory that cannot be
// written only means no cache; set NODE_DISABLE_COMPILE_CACHE=1 to turn it off. Node has it since 22.8; an
// older Node 22 (src/cli/node-version.ts) runs without it.
nodeModule.enableCompileCache?.();

// As in src/index.ts: keep V8's young generation small for waits on thousands of targets (bench/), before
// the rest of the bundle is evaluated.
setFlagsFromString('--semi-space-growth-factor=1');

/**
 * Libraries written for the action (@actions/glob) log through `core.debug`, which writes `::debug::` lines
 * to stdout. Outside GitHub Actions nobody reads them; inside, the runner reads them on stderr too. Either
 * way they must not reach stdout, which holds the log a person reads or, with `-o json`, the document alone.
 */
function divertLibraryDebug(): void {
  const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const inGitHub = process.env.GITHUB_ACTIONS === 'true';
  process.stdout.write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && chunk.startsWith('::debug::')) return inGitHub ? process.stderr.write(chunk) : true;
    return write(chunk, ...rest);
  };
}

divertLibraryDebug();

/** A wait that is done must end even if some library left a socket open. */
const EXIT_GRACE_MS = 10_000;

// A function, not top-level await: the single executable (scripts/sea.ts) runs this file as CommonJS.
async function main(): Promise<void> {
  const { runCommand } = await import('./cli/run.js');
  const code = await runCommand({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

void main();
