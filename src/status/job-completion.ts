/**
 * The CI "job completion" rule (design, Status semantics): a Job must complete, and a Pod that no controller
 * owns and that does not restart forever must succeed. kstatus calls a running Job and a failed Pod Current;
 * a pipeline waiting for a migration Job wants neither.
 */
import { findCondition, parseConditions } from './conditions.js';
import { getIntField, getStringField, groupKindKey, type KubeObject } from './fields.js';
import { isPlainObject } from './go-format.js';
import { podStatus } from './kinds/pod.js';
import { current, failed, inProgress } from './results.js';
import type { StatusResult } from './types.js';

/** Whether the job-completion rule decides this object's status. */
export function runsToCompletion(obj: KubeObject): boolean {
  const key = groupKindKey(obj);
  if (key === 'batch/Job') return true;
  if (key !== 'Pod' || hasController(obj)) return false;
  const restartPolicy = getStringField(obj, '.spec.restartPolicy', 'Always');
  return restartPolicy === 'Never' || restartPolicy === 'OnFailure';
}

function hasController(obj: KubeObject): boolean {
  const metadata = isPlainObject(obj.metadata) ? obj.metadata : {};
  const owners = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences : [];
  return owners.some((owner) => isPlainObject(owner) && owner.controller === true);
}

/** The status under the job-completion rule, for an object `runsToCompletion` accepts. Throws ComputeError. */
export function completionStatus(obj: KubeObject, now: Date): StatusResult {
  return groupKindKey(obj) === 'batch/Job' ? jobCompletion(obj) : podCompletion(obj, now);
}

function jobCompletion(obj: KubeObject): StatusResult {
  const conditions = parseConditions(obj);
  const parallelism = getIntField(obj, '.spec.parallelism', 1);
  const completions = getIntField(obj, '.spec.completions', parallelism);
  const succeeded = getIntField(obj, '.status.succeeded', 0);
  const active = getIntField(obj, '.status.active', 0);
  const failedPods = getIntField(obj, '.status.failed', 0);

  const complete = findCondition(conditions, 'Complete', 'True');
  if (complete) return current(`Job completed: succeeded ${succeeded}/${completions}`);
  const failure = findCondition(conditions, 'Failed', 'True');
  if (failure) {
    const detail = [failure.reason, failure.message].filter((part) => part !== '').join(': ');
    return failed(failure.reason || 'JobFailed', `Job failed${detail ? `: ${detail}` : ''}`);
  }
  const progress = `succeeded ${succeeded}/${completions}, active ${active}, failed ${failedPods}`;
  if (findCondition(conditions, 'Suspended', 'True')) return inProgress('JobSuspended', `Job is suspended: ${progress}`);
  return inProgress('JobNotComplete', `Job in progress: ${progress}`);
}

function podCompletion(obj: KubeObject, now: Date): StatusResult {
  const phase = getStringField(obj, '.status.phase', '');
  if (phase === 'Succeeded') return current('Pod succeeded');
  if (phase === 'Failed') return failed('PodFailed', `Pod failed: ${podFailureDetail(obj)}`);
  // Still running or pending: kstatus's verdict stands, except that being Ready is not yet being done.
  const kstatus = podStatus({ obj, conditions: parseConditions(obj), now });
  if (kstatus.status !== 'Current') return kstatus;
  return inProgress('PodNotComplete', `Pod is ${phase}, waiting for it to complete`);
}

/** Why a pod failed: its own reason (Evicted, DeadlineExceeded) and every container that exited non-zero. */
function podFailureDetail(obj: KubeObject): string {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const parts: string[] = [];
  const reason = typeof status.reason === 'string' ? status.reason : '';
  const message = typeof status.message === 'string' ? status.message : '';
  if (reason || message) parts.push([reason, message].filter(Boolean).join(': '));
  for (const [list, label] of [
    [status.initContainerStatuses, 'init container'],
    [status.containerStatuses, 'container'],
  ] as const) {
    for (const exit of nonZeroExits(list)) parts.push(`${label} ${exit}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'phase Failed';
}

function nonZeroExits(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const exits: string[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || typeof item.name !== 'string') continue;
    const state = isPlainObject(item.state) ? item.state : {};
    const terminated = isPlainObject(state.terminated) ? state.terminated : undefined;
    if (!terminated || typeof terminated.exitCode !== 'number' || terminated.exitCode === 0) continue;
    const why = [terminated.reason, terminated.message].filter((s) => typeof s === 'string' && s !== '').join(': ');
    exits.push(`${item.name} exited with code ${terminated.exitCode}${why ? ` (${why})` : ''}`);
  }
  return exits;
}
