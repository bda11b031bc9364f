/**
 * Which exit code a run's result gets: its verdict, looked up in the one table (exit-code-table.ts).
 */
import type { RunResult } from '../result.js';
import { publicResult } from '../report/outputs.js';
import { EXIT_CODES, type Verdict } from './exit-code-table.js';

export { EXIT_CODES, EXIT_MEANINGS, type Verdict } from './exit-code-table.js';

/** Problems named after these inputs are the cluster's answer (no answer, credentials or access refused), not a typo. */
const CLUSTER_INPUTS = new Set(['kubeconfig']);

export function verdictOf(result: Pick<RunResult, 'outcome' | 'cancelled' | 'error'>): Verdict {
  const outcome = publicResult(result);
  if (outcome !== 'error') return outcome;
  return result.error && CLUSTER_INPUTS.has(result.error.input) ? 'cluster-error' : 'bad-input';
}

export function exitCodeOf(result: Pick<RunResult, 'outcome' | 'cancelled' | 'error'>): number {
  return EXIT_CODES[verdictOf(result)];
}
