/**
 * The `cause` field of each `resources` entry (and of `-o json`): one word a workflow can branch on, for
 * why a target is not at the desired status. From the pod diagnosis (`QuotaExceeded`, `AdmissionDenied`,
 * `InvalidSpec`, `WebhookUnavailable`, `CreateFailed`, `ImagePull`, `CrashLoop`, `ContainerConfig`,
 * `ContainerStart`, `ContainerExit`, `OOMKilled`, `Unschedulable`, `PodFailed`), else from the target's own
 * status (`JobFailed`, `PodFailed`, `ProgressDeadline`, `Failed`, `NotFound`, `NotReady`); empty for a target
 * that is done. Pure.
 */
import type { TargetReport } from '../result.js';

export function targetCause(target: Pick<TargetReport, 'done' | 'status' | 'message' | 'kind' | 'diagnosis' | 'explanation'>): string {
  if (target.done) return '';
  if (target.diagnosis?.cause) return target.diagnosis.cause;
  const failure = target.explanation?.failure;
  if (failure) return failure.kind === 'Job' ? 'JobFailed' : 'PodFailed';
  switch (target.status) {
    case 'Failed':
      return /progress deadline/i.test(target.message) ? 'ProgressDeadline' : 'Failed';
    case 'NotFound':
      return 'NotFound';
    default:
      return 'NotReady';
  }
}
