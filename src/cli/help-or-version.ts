/**
 * Whether a command line asks only for the help or the version (src/cli/flags.ts's `help` and `version`),
 * read by the command's entries before the bundle is loaded: anything else is taken for a wait, whose
 * built-ins and V8 flags are set up at once (src/startup.ts). A wrong guess costs time, never a result: a
 * bad flag loads the wait's built-ins (about 15 ms) before it is refused.
 */
export function asksForHelpOrVersion(argv: readonly string[]): boolean {
  return argv.some((arg) => /^(-h|--help|--version)(=|$)/.test(arg));
}
