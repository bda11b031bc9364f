/**
 * The command's exit codes and what each means: the one table that `--help`, the README's "Exit codes"
 * (test/docs/readme.test.ts holds it to this) and the Node check of dist/cli.js read. kubectl wait exits 1
 * for a timeout and for an error alike (kubernetes/kubectl#1629); a pipeline needs to tell them apart, so
 * every verdict has its own code.
 *
 * A leaf (it imports a type only): dist/cli.js takes the usage-error code from here before it loads anything
 * else, on any Node. Which verdict a result gets is exit-codes.ts.
 */
import type { Result } from '../result.js';

/** The public `result`, with `error` split by whose it is to fix: the user's flags and files, or the cluster's. */
export type Verdict = Exclude<Result, 'error'> | 'bad-input' | 'cluster-error';

export const EXIT_CODES: Record<Verdict, number> = {
  ready: 0,
  failed: 1,
  timeout: 2,
  'bad-input': 3,
  'cluster-error': 4,
  cancelled: 130,
};

/** What a user reads for each code. `cluster-error` is every way the cluster cannot be used (src/engine/resolver.ts
 *  `connectionProblem`, kube/errors.ts `isFatal`): no answer, a certificate that fails, credentials or access refused. */
export const EXIT_MEANINGS: Record<Verdict, string> = {
  ready: 'every target ready',
  failed: 'a target failed',
  timeout: 'the timeout passed first',
  'bad-input': 'bad flag or input: one line on stderr naming it, with a correct example; also a Node.js too old for the command',
  'cluster-error': 'the cluster cannot be used: no answer (refused, DNS, timeout), a TLS certificate that fails, or credentials or access rejected',
  cancelled: 'cancelled (SIGINT/SIGTERM): every target is still reported',
};
