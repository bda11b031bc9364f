/** Job controller: runs pods to completion; completes (SuccessCriteriaMet, Complete) or fails past
 *  backoffLimit (FailureTarget, Failed/BackoffLimitExceeded) with the status a real Job reports. */
import { timestamp, type KubeObject } from '../store.js';
import { annotation, ANNOTATION, condition, isPodReady, isPodTerminal, omitZero, podName, type Runtime } from './runtime.js';

export class JobController {
  constructor(private readonly rt: Runtime) {}

  reconcile(job: KubeObject): void {
    if (job.metadata.deletionTimestamp) return;
    const conditions: Array<Record<string, string>> = job.status?.conditions ?? [];
    if (conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) return;
    if (job.spec?.suspend) return;

    const pods = this.rt.store.ownedBy(job.metadata.uid).filter((p) => p.kind === 'Pod' && !p.metadata.deletionTimestamp);
    const succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
    const failed = pods.filter((p) => p.status?.phase === 'Failed').length;
    let active = pods.filter((p) => !isPodTerminal(p));
    const completions = Number(job.spec?.completions ?? 1);
    const backoffLimit = Number(job.spec?.backoffLimit ?? 6);
    const startTime = job.status?.startTime ?? timestamp();

    if (succeeded >= completions) {
      const now = timestamp();
      return void this.rt.writeStatus(job, {
        ...this.counts(job, startTime, [], succeeded, failed),
        completionTime: now,
        conditions: [
          condition(conditions, 'SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'),
          condition(conditions, 'Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'),
        ],
      });
    }
    if (failed > backoffLimit) {
      for (const p of active) this.rt.deleteObject(p);
      this.rt.event(job, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', { component: 'job-controller' });
      return void this.rt.writeStatus(job, {
        ...this.counts(job, startTime, [], succeeded, failed),
        conditions: [
          condition(conditions, 'FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
          condition(conditions, 'Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
        ],
      });
    }
    const wanted = Math.min(Number(job.spec?.parallelism ?? 1), completions - succeeded);
    for (let i = active.length; i < wanted; i++) active = [...active, this.createPod(job)];
    this.rt.writeStatus(job, { ...this.counts(job, startTime, active, succeeded, failed), ...(conditions.length ? { conditions } : {}) });
  }

  private counts(job: KubeObject, startTime: string, active: KubeObject[], succeeded: number, failed: number): object {
    return {
      startTime,
      ...omitZero({ active: active.length, succeeded, failed }),
      terminating: 0,
      ready: active.filter(isPodReady).length,
      uncountedTerminatedPods: {},
    };
  }

  private createPod(job: KubeObject): KubeObject {
    const template = job.spec?.template ?? {};
    const failing = annotation(job, ANNOTATION.jobOutcome) === 'Failed';
    const controllerUid = job.metadata.uid;
    return this.rt.createOwned(job, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName(job.metadata.name),
        namespace: job.metadata.namespace,
        labels: {
          ...template.metadata?.labels,
          'batch.kubernetes.io/controller-uid': controllerUid,
          'batch.kubernetes.io/job-name': job.metadata.name,
          'controller-uid': controllerUid,
          'job-name': job.metadata.name,
        },
        annotations: { ...template.metadata?.annotations, ...(failing ? { [ANNOTATION.podOutcome]: 'Failed' } : {}) },
      },
      spec: structuredClone(template.spec ?? {}),
    } as KubeObject);
  }
}
