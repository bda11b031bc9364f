/**
 * The command's exit codes, in one table. kubectl wait exits 1 for a timeout and for an error alike
 * (kubernetes/kubectl#1629); a pipeline needs to tell them apart, so every verdict has its own code.
 */
import type { RunResult as EngineResult, Result } from '../result.js';
import { publicResult } from '../report/outputs.js';

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

/** Problems named after these inputs are the cluster's answer (credentials rejected, access forbidden), not a typo. */
const CLUSTER_INPUTS = new Set(['kubeconfig']);

export function verdictOf(result: Pick<EngineResult, 'outcome' | 'cancelled' | 'error'>): Verdict {
  const outcome = publicResult(result);
  if (outcome !== 'error') return outcome;
  return result.error && CLUSTER_INPUTS.has(result.error.input) ? 'cluster-error' : 'bad-input';
}

export function exitCodeOf(result: Pick<EngineResult, 'outcome' | 'cancelled' | 'error'>): number {
  return EXIT_CODES[verdictOf(result)];
}
