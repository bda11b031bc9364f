/**
 * Step outputs, exactly as `action.yml` declares them. Pure: result in, name -> string out.
 */
import type { RunResult as EngineResult, Result, TargetReport } from '../result.js';
import { boundedJsonArray, boundedLines, MAX_OUTPUT_BYTES } from './bounded.js';
import { outputRef, roundSeconds } from './text.js';

/** One element of the `resources` output (field order is the documented order). */
export interface ResourceOutput {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  status: TargetReport['status'];
  message: string;
  seconds: number;
  /** What judged it: `kstatus`, `builtin:<name>`, `health-checks[<i>]` or `gitops:<name>` (Flux and Argo CD kinds). */
  rule: string;
  file?: string;
  line?: number;
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
}

/** One element of the `resources` output (also the command's `-o json`). */
export function resourceOutput(target: TargetReport): ResourceOutput {
  const out: ResourceOutput = {
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
    status: target.status,
    message: target.message,
    seconds: roundSeconds(target.seconds),
    rule: target.rule,
  };
  if (target.file) out.file = target.file;
  if (target.file && target.line !== undefined) out.line = target.line;
  return out;
}

/** The `result` output of a wait. */
export function publicResult(result: Pick<EngineResult, 'outcome' | 'cancelled' | 'error'>): Result {
  if (result.cancelled) return 'cancelled';
  if (result.error) return 'error';
  return result.outcome;
}

export interface OutputLimits {
  /** Bytes per output (default: under GitHub's 1 MB). */
  maxBytes?: number;
  /** Where the complete list is, for the note in a cut output (default: the resources-file output). */
  where?: string;
}

/** Every output; `resources`, `pending` and `failed` cut to `maxBytes`, saying so, when they would not fit. */
export function outputsFor(result: EngineResult, limits: OutputLimits = {}): Outputs {
  const maxBytes = limits.maxBytes ?? MAX_OUTPUT_BYTES;
  const where = limits.where ?? 'the file named by the resources-file output';
  const lines = (targets: TargetReport[]) => boundedLines(targets.map(outputRef), maxBytes, where);
  const outcome = publicResult(result);
  return {
    result: outcome,
    ready: String(outcome === 'ready'),
    resources: boundedJsonArray(result.targets.map(resourceOutput), maxBytes, where),
    pending: lines(result.targets.filter((t) => !t.done)),
    failed: lines(result.targets.filter((t) => t.status === 'Failed' && !t.optedOut)),
    duration: String(roundSeconds(result.durationSeconds)),
    'release-revision': result.release?.revision === undefined ? '' : String(result.release.revision),
    'release-status': result.release?.status ?? '',
  };
}

/** The complete `resources` JSON, never cut: the content of the file named by `resources-file`. */
export function completeResources(result: Pick<EngineResult, 'targets'>): string {
  return JSON.stringify(result.targets.map(resourceOutput));
}
