/** explainFailedJob / explainFailedPod: reason, failed pods with exit codes and termination reasons, own events.
 *  The Job and Pod are shaped as the v1.35 job controller and kubelet leave them. */
import { describe, expect, it } from '@jest/globals';
import { explainFailedJob, explainFailedPod } from '../../src/status/explain-failure.js';

type Obj = Record<string, unknown>;
const NS = 'shop';
const at = (seconds: number) => new Date(Date.parse('2026-12-02T10:00:00Z') + seconds * 1000).toISOString();

function job(condition: { reason: string; message: string }, failed: number): Obj {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: NS, uid: 'job-uid' },
    spec: { backoffLimit: 2 },
    status: {
      failed,
      startTime: at(0),
      terminating: 0,
      ready: 0,
      uncountedTerminatedPods: {},
      conditions: [
        { type: 'FailureTarget', status: 'True', ...condition, lastProbeTime: at(60), lastTransitionTime: at(60) },
        { type: 'Failed', status: 'True', ...condition, lastProbeTime: at(60), lastTransitionTime: at(60) },
      ],
    },
  };
}

function jobPod(name: string, started: number, container: Obj, podStatus: Obj = {}): Obj {
  return {
    metadata: {
      name,
      namespace: NS,
      creationTimestamp: at(started),
      labels: {
        'batch.kubernetes.io/controller-uid': 'job-uid',
        'batch.kubernetes.io/job-name': 'migrate',
        'controller-uid': 'job-uid',
        'job-name': 'migrate',
      },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', uid: 'job-uid', controller: true }],
    },
    spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'shop/migrate:5' }] },
    status: {
      phase: 'Failed',
      startTime: at(started),
      containerStatuses: [{ name: 'migrate', ready: false, restartCount: 0, lastState: {}, ...container }],
      ...podStatus,
    },
  };
}
const ended = (exitCode: number, reason: string, message?: string) => ({
  state: { terminated: { exitCode, reason, ...(message ? { message } : {}), startedAt: at(1), finishedAt: at(9), containerID: 'containerd://1' } },
});
const warning = (kind: string, name: string, reason: string, message: string, seconds: number) => ({
  type: 'Warning',
  reason,
  message,
  count: 1,
  lastTimestamp: at(seconds),
  involvedObject: { kind, name, namespace: NS },
});

describe('explainFailedJob', () => {
  it.each<[string, Obj, Obj[], Obj[], Obj]>([
    [
      'backoff limit exceeded: each failed pod with its exit code, newest first; the Job event',
      job({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, 3),
      [jobPod('migrate-a', 0, ended(1, 'Error')), jobPod('migrate-b', 20, ended(1, 'Error')), jobPod('migrate-c', 40, ended(137, 'OOMKilled'))],
      [
        warning('Job', 'migrate', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', 60),
        warning('Pod', 'migrate-c', 'Failed', 'x', 50),
        warning('Job', 'other', 'BackoffLimitExceeded', 'x', 60),
      ],
      {
        kind: 'Job',
        namespace: NS,
        name: 'migrate',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
        failedCount: 3,
        podNames: ['migrate-c', 'migrate-b', 'migrate-a'],
        containers: [{ container: 'migrate', exitCode: 137, terminationReason: 'OOMKilled', previous: false }],
        eventReasons: ['BackoffLimitExceeded'],
      },
    ],
    [
      'deadline exceeded: the pods were deleted, the count and the reason remain',
      job({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }, 1),
      [],
      [warning('Job', 'migrate', 'DeadlineExceeded', 'Job was active longer than specified deadline', 60)],
      { reason: 'DeadlineExceeded', failedCount: 1, podNames: [], eventReasons: ['DeadlineExceeded'] },
    ],
    [
      'a pod that ran past its activeDeadlineSeconds: the pod-level reason',
      job({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, 1),
      [jobPod('migrate-a', 0, ended(137, 'Error'), { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' })],
      [],
      {
        podNames: ['migrate-a'],
        pod: { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' },
        containers: [{ exitCode: 137 }],
      },
    ],
  ])('%s', (_what, j, pods, events, expected) => {
    const { podNames, containers, eventReasons, pod, ...fields } = expected as { podNames?: string[]; containers?: Obj[]; eventReasons?: string[]; pod?: Obj };
    const explained = explainFailedJob(j, pods, events);
    expect(explained).toMatchObject(fields);
    if (podNames) expect(explained.failedPods.map((p) => p.name)).toEqual(podNames);
    if (pod) expect(explained.failedPods[0]).toMatchObject(pod);
    if (containers) expect(explained.failedPods[0]!.containers).toMatchObject(containers);
    if (eventReasons) expect(explained.events.map((e) => e.reason)).toEqual(eventReasons);
  });

  it('at most maxPods pods; running and succeeded pods are not failures', () => {
    const running = jobPod('migrate-run', 90, { state: { running: { startedAt: at(90) } } }, { phase: 'Running' });
    const pods = [0, 10, 20, 30].map((s) => jobPod(`migrate-${s}`, s, ended(2, 'Error'))).concat(running);
    const explained = explainFailedJob(job({ reason: 'BackoffLimitExceeded', message: '' }, 4), pods, [], { maxPods: 2 });
    expect(explained.failedPods.map((p) => p.name)).toEqual(['migrate-30', 'migrate-20']);
    expect(explained.failedCount).toBe(4);
  });
});

describe('explainFailedPod', () => {
  it.each<[string, Obj, Obj]>([
    [
      'a container that exited non-zero',
      jobPod('solo', 0, ended(1, 'Error', 'missing DATABASE_URL')),
      {
        reason: '',
        failedCount: 1,
        containers: [{ container: 'migrate', exitCode: 1, terminationReason: 'Error', message: 'missing DATABASE_URL', previous: false }],
      },
    ],
    [
      "an evicted pod: the reason is the pod's own",
      jobPod('solo', 0, ended(137, 'ContainerStatusUnknown', 'The container could not be located when the pod was terminated'), {
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91328Ki.',
      }),
      {
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91328Ki.',
        failedCount: 1,
        containers: [{ exitCode: 137, terminationReason: 'ContainerStatusUnknown' }],
      },
    ],
  ])('%s', (_what, p, expected) => {
    const { containers, ...fields } = expected as { containers: Obj[] };
    const explained = explainFailedPod(p, [warning('Pod', 'solo', 'Evicted', 'The node was low on resource: memory.', 5)]);
    expect(explained).toMatchObject({ kind: 'Pod', namespace: NS, name: 'solo', ...fields });
    expect(explained.failedPods[0]!.containers).toMatchObject(containers);
    expect(explained.events.map((e) => e.reason)).toEqual(['Evicted']);
  });
});
