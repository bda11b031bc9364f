/** targetStatus: kstatus plus the job-completion rule (Jobs must complete, controller-less Pods must succeed). */
import { describe, expect, it } from '@jest/globals';
import { computeStatus, targetStatus, type StatusResult } from '../../src/status/index.js';
import { cur, fail, ip } from './expected.js';

const now = new Date('2026-12-02T10:00:00Z');

type Obj = Record<string, unknown>;
const job = (spec: Obj, status: Obj, metadata: Obj = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'migrate', ...metadata },
  spec,
  status,
});
const pod = (restartPolicy: string | undefined, status: Obj, metadata: Obj = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'task', ...metadata },
  spec: restartPolicy === undefined ? {} : { restartPolicy },
  status,
});
const controller = { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true }] };

describe('job completion: Jobs', () => {
  it.each<[string, unknown, StatusResult]>([
    ['Complete=True', job({ completions: 3 }, { succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] }), cur('Job completed: succeeded 3/3')],
    [
      'Failed=True names the condition reason and message',
      job(
        {},
        { failed: 7, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }] },
      ),
      fail('BackoffLimitExceeded', 'Job failed: BackoffLimitExceeded: Job has reached the specified backoff limit'),
    ],
    ['Failed=True without reason or message', job({}, { conditions: [{ type: 'Failed', status: 'True' }] }), fail('JobFailed', 'Job failed')],
    [
      'running: InProgress with counts (kstatus says Current)',
      job({ completions: 3, parallelism: 1 }, { startTime: '2026-12-02T09:59:00Z', succeeded: 1, active: 1, failed: 0 }),
      ip('JobNotComplete', 'Job in progress: succeeded 1/3, active 1, failed 0'),
    ],
    ['not started', job({}, {}), ip('JobNotComplete', 'Job in progress: succeeded 0/1, active 0, failed 0')],
    ['completions default to parallelism', job({ parallelism: 4 }, { active: 4 }), ip('JobNotComplete', 'Job in progress: succeeded 0/4, active 4, failed 0')],
    [
      'suspended is not complete',
      job({ suspend: true }, { conditions: [{ type: 'Suspended', status: 'True' }] }),
      ip('JobSuspended', 'Job is suspended: succeeded 0/1, active 0, failed 0'),
    ],
    [
      'Complete=False is not complete',
      job({}, { conditions: [{ type: 'Complete', status: 'False' }], active: 1 }),
      ip('JobNotComplete', 'Job in progress: succeeded 0/1, active 1, failed 0'),
    ],
    [
      'Terminating comes first',
      job({}, { conditions: [{ type: 'Complete', status: 'True' }] }, { deletionTimestamp: '2026-12-02T09:00:00Z' }),
      { status: 'Terminating', message: 'Resource scheduled for deletion', conditions: [] },
    ],
    [
      'an unobserved generation comes first',
      job({}, { observedGeneration: 1, conditions: [{ type: 'Failed', status: 'True' }] }, { generation: 2 }),
      ip('LatestGenerationNotObserved', 'Job generation is 2, but latest observed generation is 1'),
    ],
    [
      'malformed conditions are Unknown',
      job({}, { conditions: 'Complete' }),
      { status: 'Unknown', message: 'cannot restore slice from string', conditions: [] },
    ],
  ])('%s', (_name, input, expected) => {
    expect(targetStatus(input, { now, jobCompletion: true })).toEqual(expected);
  });
});

describe('job completion: Pods without a controller', () => {
  it.each<[string, unknown, StatusResult]>([
    ['Never, Succeeded', pod('Never', { phase: 'Succeeded' }), cur('Pod succeeded')],
    ['OnFailure, Succeeded', pod('OnFailure', { phase: 'Succeeded' }), cur('Pod succeeded')],
    [
      'Never, Failed names the containers that exited non-zero and why',
      pod('Never', {
        phase: 'Failed',
        initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
        containerStatuses: [
          { name: 'main', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } },
          { name: 'sidecar', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'report', state: { terminated: { exitCode: 2, reason: 'Error', message: 'no such file' } } },
        ],
      }),
      fail('PodFailed', 'Pod failed: container main exited with code 137 (OOMKilled); container report exited with code 2 (Error: no such file)'),
    ],
    [
      'Failed init container',
      pod('Never', { phase: 'Failed', initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 1 } } }] }),
      fail('PodFailed', 'Pod failed: init container setup exited with code 1'),
    ],
    [
      'evicted pod names the pod-level reason',
      pod('Never', { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' }),
      fail('PodFailed', 'Pod failed: Evicted: The node was low on resource: memory.'),
    ],
    ['Failed without any detail', pod('Never', { phase: 'Failed' }), fail('PodFailed', 'Pod failed: phase Failed')],
    [
      'running and Ready is not yet complete',
      pod('Never', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }),
      ip('PodNotComplete', 'Pod is Running, waiting for it to complete'),
    ],
    ['pending follows kstatus', pod('OnFailure', { phase: 'Pending' }), ip('PodPending', 'Pod is in the Pending phase')],
    [
      'a crash loop stays Failed as in kstatus',
      pod('OnFailure', { phase: 'Running', containerStatuses: [{ name: 'main', state: { waiting: { reason: 'CrashLoopBackOff' } } }] }),
      fail('ContainerCrashLooping', 'Containers in CrashLoop state: main'),
    ],
    ['unknown phase stays Unknown', pod('Never', { phase: 'Unknown' }), { status: 'Unknown', message: 'unknown phase Unknown', conditions: [] }],
    ['Always follows kstatus: Ready is Current', pod('Always', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }), cur('Pod is Ready')],
    ['no restartPolicy means Always', pod(undefined, { phase: 'Failed' }), cur('Pod has completed, but not successfully')],
    ['a Pod owned by a controller follows kstatus', pod('Never', { phase: 'Failed' }, controller), cur('Pod has completed, but not successfully')],
    [
      'a non-controller owner does not count',
      pod('Never', { phase: 'Failed' }, { ownerReferences: [{ kind: 'ConfigMap', name: 'c', controller: false }] }),
      fail('PodFailed', 'Pod failed: phase Failed'),
    ],
    [
      'Terminating comes first',
      pod('Never', { phase: 'Failed' }, { deletionTimestamp: '2026-12-02T09:00:00Z' }),
      { status: 'Terminating', message: 'Resource scheduled for deletion', conditions: [] },
    ],
  ])('%s', (_name, input, expected) => {
    expect(targetStatus(input, { now, jobCompletion: true })).toEqual(expected);
  });
});

describe('targetStatus', () => {
  const samples: unknown[] = [
    job({}, { startTime: '2026-12-02T09:59:00Z', active: 1 }),
    pod('Never', { phase: 'Failed' }),
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
    null,
    'text',
  ];
  it.each(samples.map((s) => [JSON.stringify(s)?.slice(0, 60), s]))('without job completion equals computeStatus: %s', (_n, input) => {
    expect(targetStatus(input, { now, jobCompletion: false })).toEqual(computeStatus(input, { now }));
  });
  it('with job completion, kinds the rule does not cover equal computeStatus', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
    expect(targetStatus(deployment, { now, jobCompletion: true })).toEqual(computeStatus(deployment, { now }));
  });
  it('never throws on malformed input', () => {
    for (const input of [
      null,
      3,
      [],
      { kind: 'Job', apiVersion: 'batch/v1', status: 'x' },
      { kind: 'Pod', apiVersion: 'v1', spec: { restartPolicy: 'Never' }, metadata: 'x' },
    ]) {
      expect(() => targetStatus(input, { now, jobCompletion: true })).not.toThrow();
      expect(targetStatus(input, { now, jobCompletion: true }).status).toBe('Unknown');
    }
  });
});
