/**
 * Several clusters' results -> the one result of the step (`clusters` input): every target of every
 * cluster, each with its `cluster`; each cluster's own result in `clusters`; and one outcome by the
 * `cluster-policy`. Pure: the fleet's run (fleet/index.ts) gathers the results, the report reads this one.
 *
 * `all`: ready only when every cluster is ready; a cluster that could not be judged (unreachable, its
 * credentials rejected, its kubeconfig unusable) makes the result `error`, naming it, and a Failed target
 * anywhere makes it `failed`. `any`: one ready cluster is enough, whatever the others say.
 */
import { clusterPublicResult } from '../report/outputs.js';
import type { ClusterRun, RollbackReport, RunResult } from '../result.js';
import type { ClusterPolicy, InputProblem } from '../settings.js';

/** `cancelled`: the job was cancelled (the process's signal), not a cluster stopped by fail-fast. */
export function combineClusterRuns(runs: ClusterRun[], policy: ClusterPolicy, cancelled: boolean): RunResult {
  const results = runs.map((run) => run.result);
  const targets = runs.flatMap((run) => run.result.targets.map((target) => ({ ...target, cluster: run.name })));
  const warnings = runs.flatMap((run) => run.result.warnings.map((warning) => `[${run.name}] ${warning}`));
  const durationSeconds = Math.max(0, ...results.map((result) => result.durationSeconds));
  const waitFor = results.find((result) => result.waitFor)?.waitFor;
  const rollback = combinedRollback(runs);
  const common = { cancelled, durationSeconds, targets, warnings, clusters: runs, ...(waitFor && { waitFor }), ...(rollback && { rollback }) };

  if (policy === 'any' && runs.some((run) => clusterPublicResult(run) === 'ready')) return { ...common, outcome: 'ready' };
  const error = combinedError(runs);
  const failed = results.some((result) => result.outcome === 'failed');
  const unstable = results.find((result) => result.unstable)?.unstable;
  if (error || failed) return { ...common, outcome: 'failed', ...(error && { error }) };
  if (results.some((result) => result.outcome === 'timeout')) return { ...common, outcome: 'timeout', ...(unstable && { unstable }) };
  return { ...common, outcome: 'ready' };
}

/** The first cluster that could not be judged, named, and how many more there are. */
function combinedError(runs: ClusterRun[]): InputProblem | undefined {
  const broken = runs.filter((run) => run.result.error);
  const first = broken[0];
  if (!first?.result.error) return undefined;
  const more =
    broken.length > 1
      ? ` (and ${broken.length - 1} more: ${broken
          .slice(1)
          .map((run) => run.name)
          .join(', ')})`
      : '';
  return { ...first.result.error, message: `[${first.name}] ${first.result.error.message}${more}` };
}

// rollback (issue 32)
/** The rollbacks of the clusters that rolled back (only failing ones do), each row with its cluster; the
 *  worst result first: failed, timeout, refused, none, ready. */
function combinedRollback(runs: ClusterRun[]): RollbackReport | undefined {
  const rolled = runs.filter((run) => run.result.rollback);
  if (rolled.length === 0) return undefined;
  const order: RollbackReport['result'][] = ['failed', 'timeout', 'ready', 'refused', 'none'];
  const results = rolled.map((run) => run.result.rollback!.result);
  return {
    result: order.find((result) => results.includes(result)) ?? 'none',
    workloads: rolled.flatMap((run) =>
      run.result.rollback!.workloads.map((row) => ({ ...row, cluster: run.name, ...(row.target && { target: { ...row.target, cluster: run.name } }) })),
    ),
    durationSeconds: Math.max(...rolled.map((run) => run.result.rollback!.durationSeconds)),
  };
}
