/**
 * Step outputs, exactly as `action.yml` declares them. Pure: result in, name -> string out.
 */
import type { ClusterRun, Result, RunResult, TargetReport } from '../result.js';
import { boundedJsonArray, boundedLines, MAX_OUTPUT_BYTES } from './bounded.js';
import { targetCause } from './cause.js';
import { rollbackOutputs } from './rolled-back.js';
import { displayServer, objectRef, outputRef, roundSeconds } from './text.js';

/** One element of the `resources` output (field order is the documented order). */
export interface ResourceOutput {
  /** With the `clusters` input: the cluster's name. */
  cluster?: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  status: TargetReport['status'];
  message: string;
  /** Why it is not at the desired status, in one word a workflow can branch on (`QuotaExceeded`,
   *  `ImagePull`, …; cause.ts); empty when it is. */
  cause: string;
  seconds: number;
  /** What judged it: `kstatus`, `builtin:<name>`, `health-checks[<i>]` or `gitops:<name>` (Flux and Argo CD kinds). */
  rule: string;
  file?: string;
  line?: number;
  /** The GitOps object that applied it (the `inventory` input). */
  parent?: TargetReport['parent'];
  /** An Argo Rollout's or a Flagger Canary's canary step (`2/5`), traffic weight in percent and current
   *  analysis phase, as last read (status/progressive/). */
  step?: string;
  weight?: number;
  analysis?: string;
}

export interface Outputs {
  result: string;
  ready: string;
  resources: string;
  pending: string;
  failed: string;
  duration: string;
  'release-revision': string;
  'release-status': string;
  /** With the `clusters` input: `ClusterOutput` by cluster name, as JSON; '' without. */
  clusters: string;
  // rollback (issue 32): report/rolled-back.ts
  'rolled-back': string;
  'rollback-result': string;
  /** With `smoke`: each check's `SmokeOutput`, as JSON; '' without. */
  smoke: string;
}

/** One cluster's entry of the `clusters` output (and of the command's `-o json`). */
export interface ClusterOutput {
  result: Result;
  server: string;
  context: string;
  /** Stopped because another cluster decided the verdict first (a Failed target with fail-fast, a ready
   *  cluster with cluster-policy any): reported as it stood. */
  stopped?: boolean;
  ready: boolean;
  /** `KIND NAMESPACE/NAME` (`KIND NAME` when cluster-scoped), as action.yml documents, of its targets that
   *  failed, and of those not at the desired status. */
  failed: string[];
  pending: string[];
  duration: number;
  /** Why it could not be judged: its kubeconfig, its credentials, its server. */
  error?: string;
}

/** One element of the `resources` output (also the command's `-o json`). */
export function resourceOutput(target: TargetReport): ResourceOutput {
  const out: ResourceOutput = {
    ...(target.cluster !== undefined && { cluster: target.cluster }),
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
    status: target.status,
    message: target.message,
    cause: targetCause(target),
    seconds: roundSeconds(target.seconds),
    rule: target.rule,
  };
  if (target.file) out.file = target.file;
  if (target.file && target.line !== undefined) out.line = target.line;
  if (target.parent) out.parent = target.parent;
  const { step, weight, analysis } = target.progress ?? {};
  if (step !== undefined) out.step = step;
  if (weight !== undefined) out.weight = weight;
  if (analysis !== undefined) out.analysis = analysis;
  return out;
}

/** The `result` output of a wait. */
export function publicResult(result: Pick<RunResult, 'outcome' | 'cancelled' | 'error'>): Result {
  if (result.cancelled) return 'cancelled';
  if (result.error) return 'error';
  return result.outcome;
}

export interface OutputLimits {
  /** Bytes per output (default: under GitHub's 1 MB). */
  maxBytes?: number;
  /** Where the complete list is, for the note in a cut output (default: the resources-file output). */
  where?: string;
  /** `completeResources(result)`, when the caller made it already (for the resources file): the `resources`
   *  output is that same string when it fits, not a second copy (at 5,000 targets, 1 MB at the end of the run,
   *  when the heap is at its fullest). */
  completeResources?: string;
}

/** Every output; `resources`, `pending` and `failed` cut to `maxBytes`, saying so, when they would not fit. */
export function outputsFor(result: RunResult, limits: OutputLimits = {}): Outputs {
  const maxBytes = limits.maxBytes ?? MAX_OUTPUT_BYTES;
  const where = limits.where ?? 'the file named by the resources-file output';
  const lines = (targets: TargetReport[]) => boundedLines(targets.map(outputRef), maxBytes, where);
  const outcome = publicResult(result);
  return {
    result: outcome,
    ready: String(outcome === 'ready'),
    resources:
      limits.completeResources !== undefined && Buffer.byteLength(limits.completeResources, 'utf8') <= maxBytes
        ? limits.completeResources
        : boundedJsonArray(result.targets.map(resourceOutput), maxBytes, where),
    pending: lines(result.targets.filter((t) => !t.done)),
    failed: lines(result.targets.filter((t) => t.status === 'Failed' && !t.optedOut)),
    duration: String(roundSeconds(result.durationSeconds)),
    'release-revision': result.release?.revision === undefined ? '' : String(result.release.revision),
    'release-status': result.release?.status ?? '',
    clusters: result.clusters ? JSON.stringify(clustersOutput(result.clusters)) : '',
    ...rollbackOutputs(result),
    smoke: result.smoke ? JSON.stringify(result.smoke.map((check) => smokeOutput(check))) : '',
  };
}

/** One element of the `smoke` output (and of `-o json`'s `smoke`): how a smoke check did. */
export interface SmokeOutput {
  name: string;
  ok: boolean;
  status: number;
  attempts: number;
  latencyMs: number;
  /** Why its last attempt did not pass (`the body is not JSON, …`), for one that did not pass. */
  reason?: string;
  /** The command's `-o json` only: the first 1 KiB of the last answer's body (masked), for one that did not pass.
   *  The action's `smoke` output leaves it out (outputs are small; the summary shows it). */
  body?: string;
}

export function smokeOutput(check: NonNullable<RunResult['smoke']>[number], { withBody = false } = {}): SmokeOutput {
  const { name, ok, status, attempts, latencyMs, reason, body } = check;
  return { name, ok, status, attempts, latencyMs, ...(reason !== undefined && { reason }), ...(withBody && !ok && body && { body }) };
}

/** The `clusters` output: each cluster's own result, by name, in the input's order. */
export function clustersOutput(runs: readonly ClusterRun[]): Record<string, ClusterOutput> {
  return Object.fromEntries(
    runs.map((run) => {
      const { result } = run;
      const verdict = clusterPublicResult(run);
      const entry: ClusterOutput = {
        result: verdict,
        server: displayServer(run.server),
        context: run.context,
        ...(run.stopped && { stopped: true }),
        ready: verdict === 'ready',
        failed: result.targets.filter((t) => t.status === 'Failed' && !t.optedOut).map(objectRef),
        pending: result.targets.filter((t) => !t.done).map(objectRef),
        duration: roundSeconds(result.durationSeconds),
        ...(result.error && { error: result.error.message }),
      };
      return [run.name, entry];
    }),
  );
}

/** A cluster's own `result`: one stopped by another's verdict (`stopped`) is `cancelled` unless it was already
 *  ready; the step's own `result` never is for it. */
export function clusterPublicResult(run: ClusterRun): Result {
  if (run.result.error) return 'error';
  if (run.result.cancelled && run.result.outcome !== 'ready') return 'cancelled';
  return run.result.outcome;
}

/** The complete `resources` JSON, never cut: the content of the file named by `resources-file`. */
export function completeResources(result: Pick<RunResult, 'targets'>): string {
  return JSON.stringify(result.targets.map(resourceOutput));
}
