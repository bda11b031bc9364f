/**
 * A failed Job or Pod in words, from explainFailedJob/explainFailedPod: one headline for the annotation and the
 * table cell, and one line per failed pod for the summary's details and the log. Pure.
 */
import type { FailureExplanation } from '../status/explain-failure.js';
import type { ContainerToExplain, PodToExplain } from '../status/explain-pods.js';

/** `Job shop/migrate failed: BackoffLimitExceeded: Job has reached the specified backoff limit; 3 pods failed,
 *  the last with exit 137 (OOMKilled) in container migrate` */
export function failureHeadline(f: FailureExplanation): string {
  const why = failureWhy(f);
  return `${f.kind} ${f.namespace ? `${f.namespace}/` : ''}${f.name} failed${why ? `: ${why}` : ''}`;
}

/** The headline without the name, for where the target is named already (an annotation under its title):
 *  `BackoffLimitExceeded: Job has reached the specified backoff limit; 3 pods failed, the last with exit 137 ...` */
export function failureWhy(f: FailureExplanation): string {
  const parts = [[f.reason, f.message].filter(Boolean).join(': ')].filter(Boolean);
  const last = f.failedPods[0];
  const container = last?.containers.find((c) => c.exitCode !== undefined);
  if (f.kind === 'Job' && f.failedCount > 0) {
    const count = `${f.failedCount} pod${f.failedCount === 1 ? '' : 's'} failed`;
    parts.push(container ? `${count}, the last with ${exit(container)} in container ${container.container}` : count);
  } else if (container) {
    parts.push(`${exit(container)} in container ${container.container}`);
  }
  return parts.join('; ');
}

/** One line per failed pod: `pod migrate-7xk2p (Failed): container migrate exit 1 (Error): relation "orders" does not exist` */
export function failedPodLines(f: FailureExplanation): string[] {
  return f.failedPods.map(podLine);
}

function podLine(pod: PodToExplain): string {
  const own = pod.reason ? `${pod.phase}, ${pod.reason}${pod.message ? `: ${pod.message}` : ''}` : pod.phase;
  const containers = pod.containers
    .filter((c) => c.exitCode !== undefined)
    .map((c) => `${c.init ? 'init container' : 'container'} ${c.container} ${exit(c)}${c.message ? `: ${c.message}` : ''}`);
  return `pod ${pod.name} (${own})${containers.length > 0 ? `: ${containers.join('; ')}` : ''}`;
}

/** `exit 137 (OOMKilled)`, `exit 1 (Error)` */
function exit(c: ContainerToExplain): string {
  return `exit ${c.exitCode}${c.terminationReason ? ` (${c.terminationReason})` : ''}`;
}
