/**
 * A workload still InProgress when the wait ends, or Failed by its own status (`Progress deadline exceeded`),
 * says what its pods are stuck on in its own message (`Available: 0/2; ImagePullBackOff in container api`), so
 * that the table cell, the annotation and the `resources` output carry the cause, not only the collapsed
 * details. A failed Job or Pod is explained by its failure (`explanation.failure`) instead. Pure.
 */
import type { TargetReport } from '../result.js';
import { describeCreationFailure } from '../status/failed-create.js';

export function withPodCause(target: TargetReport): TargetReport {
  if (target.done || !(target.status === 'InProgress' || failedByItsOwnStatus(target))) return target;
  // Pods never created, when that is the diagnosis's lead cause: the controller's FailedCreate says why.
  const creation = target.diagnosis?.creation;
  if (creation && target.diagnosis?.cause === creation.cause) {
    const said = describeCreationFailure(creation);
    return target.message.includes(creation.message) ? target : { ...target, message: target.message ? `${target.message}; ${said}` : said };
  }
  // The engine's diagnosis, else what the explain step read after the wait (the diagnosis waits for its grace).
  const problem = target.diagnosis?.problems[0] ?? target.explanation?.pods.flatMap((p) => p.containers)[0];
  if (!problem?.reason || target.message.includes(problem.reason)) return target;
  // A pod-level problem (Unschedulable) names no container.
  const cause = problem.container ? `${problem.reason} in ${problem.init ? 'init container' : 'container'} ${problem.container}` : problem.reason;
  return { ...target, message: target.message ? `${target.message}; ${cause}` : cause };
}

/** A workload Failed by its own status (`Progress deadline exceeded`), whose pods say why. A failed Job or
 *  Pod is explained by its failure instead, and a bare Pod's status already is its pod's. */
function failedByItsOwnStatus(target: TargetReport): boolean {
  return target.status === 'Failed' && target.kind !== 'Pod' && !target.explanation?.failure;
}
