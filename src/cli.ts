/**
 * The command (`kubewait`, `kubectl kubewait`), loaded by its entry src/cli-boot.ts (dist/cli.js): runs it
 * and exits with its code once stdout and stderr are flushed. See src/cli/run.ts.
 */
import { asksForHelpOrVersion } from './cli/help-or-version.js';
import { setV8FlagsForTheWait, startUp } from './startup.js';

// Done by dist/cli.js (src/cli-boot.ts) before this bundle is parsed; here for the single executable
// (scripts/sea.ts), whose only file this is. Once per process either way.
startUp({ compileCache: true });
if (!asksForHelpOrVersion(process.argv.slice(2))) setV8FlagsForTheWait();

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
