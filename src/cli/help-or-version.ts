/**
 * Whether a command line asks only for the help or the version (src/cli/flags.ts's `help` and `version`),
 * read by the command's entries before the bundle is loaded: anything else is taken for a wait, whose
 * built-ins and V8 flags are set up at once (src/startup.ts). A wrong guess costs time or memory, never a
 * result: a bad flag loads the wait's built-ins (about 15 ms) before it is refused.
 */
export function asksForHelpOrVersion(argv: readonly string[]): boolean {
  // After `--` every word is a target, whatever it looks like.
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => /^(-h|--help|--version)(=true)?$/.test(arg));
}
