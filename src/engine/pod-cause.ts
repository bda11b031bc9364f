/**
 * A workload still InProgress when the wait ends, or Failed by its own status (`Progress deadline exceeded`),
 * says what its pods are stuck on in its own message (`Available: 0/2; ImagePullBackOff in container api`), so
 * that the table cell, the annotation and the `resources` output carry the cause, not only the collapsed
 * details. A failed Job or Pod is explained by its failure (`explanation.failure`) instead. Pure.
 */
import type { TargetReport } from '../result.js';

export function withPodCause(target: TargetReport): TargetReport {
  if (target.done || !(target.status === 'InProgress' || (target.status === 'Failed' && !target.explanation?.failure))) return target;
  // The engine's diagnosis, else what the explain step read after the wait (the diagnosis waits for its grace).
  const problem = target.diagnosis?.problems[0] ?? target.explanation?.pods.flatMap((p) => p.containers)[0];
  if (!problem?.reason || target.message.includes(problem.reason)) return target;
  const cause = `${problem.reason} in ${problem.init ? 'init container' : 'container'} ${problem.container}`;
  return { ...target, message: target.message ? `${target.message}; ${cause}` : cause };
}
