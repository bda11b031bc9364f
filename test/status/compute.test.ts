/** computeStatus: one case per rule branch of kstatus-spec sections 3-6, with the exact status, message and conditions. */
import { describe, expect, it } from '@jest/globals';
import { computeStatus, type StatusResult } from '../../src/status/index.js';
import { cur, fail, ip, unknown } from './expected.js';

const now = new Date('2026-12-02T10:00:00Z');
const secondsAgo = (s: number) => new Date(now.getTime() - s * 1000).toISOString();

type Obj = Record<string, unknown>;
const obj = (apiVersion: string, kind: string, rest: Obj = {}): Obj => ({
  apiVersion,
  kind,
  metadata: { name: 'x', namespace: 'ns', ...(rest.metadata ?? {}) },
  ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'metadata')),
});
const cond = (type: string, status: string, reason = '', message = '') => ({ type, status, reason, message });

type Case = [string, unknown, StatusResult];
const check = (cases: Case[]) =>
  it.each(cases)('%s', (_name, input, expected) => {
    expect(computeStatus(input, { now })).toEqual(expected);
  });

describe('order of evaluation (section 3)', () => {
  check([
    [
      'deletionTimestamp wins over everything',
      obj('apps/v1', 'Deployment', {
        metadata: { deletionTimestamp: '2026-12-02T09:00:00Z', generation: 2 },
        status: { observedGeneration: 1, conditions: [cond('Stalled', 'True')] },
      }),
      { status: 'Terminating', message: 'Resource scheduled for deletion', conditions: [] },
    ],
    ['empty deletionTimestamp is not terminating', obj('example.com/v1', 'Widget', { metadata: { deletionTimestamp: '' } }), cur('Resource is current')],
    [
      'generation not observed',
      obj('apps/v1', 'Deployment', { metadata: { generation: 2 }, status: { observedGeneration: 1 } }),
      ip('LatestGenerationNotObserved', 'Deployment generation is 2, but latest observed generation is 1'),
    ],
    [
      'generation check applies to custom resources and beats Stalled',
      obj('example.com/v1', 'Widget', {
        metadata: { generation: 5 },
        status: { observedGeneration: 4, conditions: [cond('Stalled', 'True', 'Boom', 'it broke')] },
      }),
      ip('LatestGenerationNotObserved', 'Widget generation is 5, but latest observed generation is 4'),
    ],
    ['observedGeneration absent: check skipped', obj('example.com/v1', 'Widget', { metadata: { generation: 5 }, status: {} }), cur('Resource is current')],
    ['Reconciling=True', obj('example.com/v1', 'Widget', { status: { conditions: [cond('Reconciling', 'True', 'Working', 'busy')] } }), ip('Working', 'busy')],
    ['Stalled=True', obj('example.com/v1', 'Widget', { status: { conditions: [cond('Stalled', 'True', 'Boom', 'it broke')] } }), fail('Boom', 'it broke')],
    [
      'first standard condition in array order wins',
      obj('example.com/v1', 'Widget', {
        status: { conditions: [cond('Stalled', 'True', 'Boom', 'it broke'), cond('Reconciling', 'True', 'W', 'busy')] },
      }),
      fail('Boom', 'it broke'),
    ],
    [
      'Reconciling=False is ignored',
      obj('example.com/v1', 'Widget', { status: { conditions: [cond('Reconciling', 'False', 'W', 'done')] } }),
      cur('Resource is current'),
    ],
    [
      'standard conditions beat the per-kind rule',
      obj('v1', 'ConfigMap', { status: { conditions: [cond('Reconciling', 'True', 'W', 'busy')] } }),
      ip('W', 'busy'),
    ],
    [
      'per-kind rule beats the Ready fallback',
      obj('v1', 'Secret', { status: { conditions: [cond('Ready', 'False', 'NotYet', 'wait')] } }),
      cur('Resource is always ready'),
    ],
    ['Ready=True', obj('example.com/v1', 'Widget', { status: { conditions: [cond('Ready', 'True')] } }), cur('Resource is Ready')],
    ['Ready=False', obj('example.com/v1', 'Widget', { status: { conditions: [cond('Ready', 'False', 'Waiting', 'not yet')] } }), ip('Waiting', 'not yet')],
    ['Ready=Unknown', obj('example.com/v1', 'Widget', { status: { conditions: [cond('Ready', 'Unknown', 'Pending', 'hmm')] } }), ip('Pending', 'hmm')],
    [
      'a Ready condition with another status value is skipped',
      obj('example.com/v1', 'Widget', {
        status: { conditions: [cond('Ready', 'Maybe'), cond('Ready', 'False', 'Second', 'second one')] },
      }),
      ip('Second', 'second one'),
    ],
    ['default for an unknown kind', obj('example.com/v1', 'Widget'), cur('Resource is current')],
    ['kinds without a rule (Namespace) use the default', obj('v1', 'Namespace'), cur('Resource is current')],
    ['the group decides the rule: a Deployment in another group is a custom resource', obj('example.com/v1', 'Deployment'), cur('Resource is current')],
    ['apiVersion with two slashes has no group/kind', obj('a/b/v1', 'Pod'), cur('Resource is current')],
  ]);
});

describe('Deployment (4.1)', () => {
  const dep = (spec: Obj, status: Obj, conditions: unknown[] = []) => obj('apps/v1', 'Deployment', { spec, status: { ...status, conditions } });
  const full = { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 };
  const healthy = [cond('Progressing', 'True', 'NewReplicaSetAvailable'), cond('Available', 'True')];
  check([
    [
      'ProgressDeadlineExceeded (any status) is Failed with the Progressing reason and message',
      dep({ replicas: 3 }, full, [cond('Progressing', 'False', 'ProgressDeadlineExceeded', 'RS "x" has timed out')]),
      {
        status: 'Failed',
        message: 'Progress deadline exceeded',
        conditions: [{ type: 'Stalled', status: 'True', reason: 'ProgressDeadlineExceeded', message: 'RS "x" has timed out' }],
      },
    ],
    ['no status', obj('apps/v1', 'Deployment'), ip('LessReplicas', 'Replicas: 0/1')],
    ['LessReplicas', dep({ replicas: 3 }, { ...full, replicas: 2 }, healthy), ip('LessReplicas', 'Replicas: 2/3')],
    ['LessUpdated', dep({ replicas: 3 }, { ...full, updatedReplicas: 1 }, healthy), ip('LessUpdated', 'Updated: 1/3')],
    ['ExtraPods', dep({ replicas: 3 }, { ...full, replicas: 5 }, healthy), ip('ExtraPods', 'Pending termination: 2')],
    ['LessAvailable compares against updated', dep({ replicas: 3 }, { ...full, availableReplicas: 2 }, healthy), ip('LessAvailable', 'Available: 2/3')],
    ['LessReady', dep({ replicas: 3 }, { ...full, readyReplicas: 1 }, healthy), ip('LessReady', 'Ready: 1/3')],
    [
      'ReplicaSetNotAvailable when a deadline is set and Progressing is not NewReplicaSetAvailable',
      dep({ replicas: 3, progressDeadlineSeconds: 600 }, full, [cond('Progressing', 'True', 'ReplicaSetUpdated'), cond('Available', 'True')]),
      ip('ReplicaSetNotAvailable', 'ReplicaSet not Available'),
    ],
    [
      'progressDeadlineSeconds MaxInt32 counts as progressing',
      dep({ replicas: 3, progressDeadlineSeconds: 2147483647 }, full, [cond('Available', 'True')]),
      cur('Deployment is available. Replicas: 3'),
    ],
    [
      'DeploymentNotAvailable',
      dep({ replicas: 3 }, full, [cond('Progressing', 'True', 'NewReplicaSetAvailable'), cond('Available', 'False')]),
      ip('DeploymentNotAvailable', 'Deployment not Available'),
    ],
    ['Current', dep({ replicas: 3 }, full, healthy), cur('Deployment is available. Replicas: 3')],
    ['extensions group', { ...dep({ replicas: 3 }, full, healthy), apiVersion: 'extensions/v1beta1' }, cur('Deployment is available. Replicas: 3')],
    ['replicas 0 with Available', dep({ replicas: 0 }, {}, [cond('Available', 'True')]), cur('Deployment is available. Replicas: 0')],
    ['string replica counts read as their defaults (lenient)', dep({ replicas: '3' }, { replicas: '1' }, healthy), ip('LessReplicas', 'Replicas: 0/1')],
    [
      'float replica counts read as their defaults',
      dep({ replicas: 2.5 }, { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 }, healthy),
      cur('Deployment is available. Replicas: 1'),
    ],
  ]);
});

describe('ReplicaSet (4.2)', () => {
  const rs = (status: Obj, conditions: unknown[] = [], replicas = 2) => obj('apps/v1', 'ReplicaSet', { spec: { replicas }, status: { ...status, conditions } });
  const full = { replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 2, readyReplicas: 2 };
  check([
    [
      'ReplicaFailure=True is InProgress, not Failed',
      rs(full, [cond('ReplicaFailure', 'True', 'FailedCreate', 'quota')]),
      ip('ReplicaFailure', 'Replica Failure condition. Check Pods'),
    ],
    ['no status', obj('apps/v1', 'ReplicaSet'), ip('LessLabelled', 'Labelled: 0/1')],
    ['LessLabelled', rs({ ...full, fullyLabeledReplicas: 1 }), ip('LessLabelled', 'Labelled: 1/2')],
    ['LessAvailable', rs({ ...full, availableReplicas: 0 }), ip('LessAvailable', 'Available: 0/2')],
    ['LessReady', rs({ ...full, readyReplicas: 1 }), ip('LessReady', 'Ready: 1/2')],
    ['ExtraPods', rs({ ...full, replicas: 3 }), ip('ExtraPods', 'Pending termination: 1')],
    ['Current', rs(full), cur('ReplicaSet is available. Replicas: 2')],
    ['extensions group', { ...rs(full), apiVersion: 'extensions/v1beta1' }, cur('ReplicaSet is available. Replicas: 2')],
  ]);
});

describe('StatefulSet (4.3)', () => {
  const sts = (spec: Obj, status: Obj) => obj('apps/v1', 'StatefulSet', { spec, status });
  const full = { replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3 };
  check([
    ['OnDelete is Current at once', sts({ replicas: 3, updateStrategy: { type: 'OnDelete' } }, {}), cur('StatefulSet is using the ondelete update strategy')],
    ['no status', obj('apps/v1', 'StatefulSet'), ip('LessReplicas', 'Replicas: 0/1')],
    ['LessReplicas', sts({ replicas: 3 }, { ...full, replicas: 1 }), ip('LessReplicas', 'Replicas: 1/3')],
    ['LessReady', sts({ replicas: 3 }, { ...full, readyReplicas: 2 }), ip('LessReady', 'Ready: 2/3')],
    ['ExtraPods', sts({ replicas: 3 }, { ...full, replicas: 4 }), ip('ExtraPods', 'Pending termination: 1')],
    [
      'partition rollout in progress',
      sts({ replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, { ...full, updatedReplicas: 1 }),
      ip('PartitionRollout', 'updated: 1/2'),
    ],
    [
      'partition rollout complete skips revision checks',
      sts(
        { replicas: 3, updateStrategy: { rollingUpdate: { partition: 1 } } },
        { ...full, updatedReplicas: 2, currentReplicas: 0, currentRevision: 'a', updateRevision: 'b' },
      ),
      cur('Partition rollout complete. updated: 2'),
    ],
    [
      'partition 0 counts as present',
      sts({ replicas: 3, updateStrategy: { rollingUpdate: { partition: 0 } } }, { ...full, updatedReplicas: 2 }),
      ip('PartitionRollout', 'updated: 2/3'),
    ],
    ['LessCurrent', sts({ replicas: 3 }, { ...full, currentReplicas: 2 }), ip('LessCurrent', 'current: 2/3')],
    [
      'RevisionMismatch',
      sts({ replicas: 3 }, { ...full, currentRevision: 'web-1', updateRevision: 'web-2' }),
      ip('RevisionMismatch', 'Waiting for updated revision to match current'),
    ],
    ['Current', sts({ replicas: 3 }, { ...full, currentRevision: 'web-2', updateRevision: 'web-2' }), cur('All replicas scheduled as expected. Replicas: 3')],
  ]);
});

describe('DaemonSet (4.4)', () => {
  const ds = (status: Obj, metadata: Obj = { generation: 1 }) => obj('apps/v1', 'DaemonSet', { metadata, status: { observedGeneration: 1, ...status } });
  const full = { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 2, numberReady: 2 };
  check([
    ['no generation', obj('apps/v1', 'DaemonSet'), ip('NoGeneration', 'DaemonSet metadata.generation not found')],
    [
      'no observedGeneration',
      obj('apps/v1', 'DaemonSet', { metadata: { generation: 1 } }),
      ip('NoObservedGeneration', 'DaemonSet status.observedGeneration not found'),
    ],
    ['no desired number', ds({}), ip('NoDesiredNumber', 'Missing .status.desiredNumberScheduled')],
    ['LessCurrent', ds({ ...full, currentNumberScheduled: 1 }), ip('LessCurrent', 'Current: 1/2')],
    ['LessUpdated', ds({ ...full, updatedNumberScheduled: 0 }), ip('LessUpdated', 'Updated: 0/2')],
    ['LessAvailable', ds({ ...full, numberAvailable: 1 }), ip('LessAvailable', 'Available: 1/2')],
    ['LessReady', ds({ ...full, numberReady: 1 }), ip('LessReady', 'Ready: 1/2')],
    ['Current', ds(full), cur('All replicas scheduled as expected. Replicas: 2')],
    ['no matching nodes is Current', ds({ desiredNumberScheduled: 0 }), cur('All replicas scheduled as expected. Replicas: 0')],
    ['extensions group', { ...ds(full), apiVersion: 'extensions/v1beta1' }, cur('All replicas scheduled as expected. Replicas: 2')],
  ]);
});

describe('Pod (4.5)', () => {
  const pod = (status: Obj, metadata: Obj = {}) => obj('v1', 'Pod', { metadata, status });
  const unschedulable = [cond('PodScheduled', 'False', 'Unschedulable', '0/3 nodes are available')];
  check([
    ['Succeeded', pod({ phase: 'Succeeded' }), cur('Pod has completed successfully')],
    ['Failed is Current in kstatus', pod({ phase: 'Failed' }), cur('Pod has completed, but not successfully')],
    ['Running and Ready', pod({ phase: 'Running', conditions: [cond('Ready', 'True')] }), cur('Pod is Ready')],
    [
      'Running with crash-looping containers, in status order, init containers ignored',
      pod({
        phase: 'Running',
        initContainerStatuses: [{ name: 'init', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        containerStatuses: [
          { name: 'b', state: { waiting: { reason: 'CrashLoopBackOff' } } },
          { name: 'ok', state: { running: {} } },
          { name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } },
          { name: 'pulling', state: { waiting: { reason: 'ImagePullBackOff' } } },
        ],
      }),
      fail('ContainerCrashLooping', 'Containers in CrashLoop state: b,a'),
    ],
    ['Running, not Ready', pod({ phase: 'Running', conditions: [cond('Ready', 'False')] }), ip('PodRunningNotReady', 'Pod is running but is not Ready')],
    [
      'Pending, unschedulable within 15 s',
      pod({ phase: 'Pending', conditions: unschedulable }, { creationTimestamp: secondsAgo(14) }),
      ip('PodNotScheduled', 'Pod has not been scheduled'),
    ],
    [
      'Pending, unschedulable for exactly 15 s is Failed',
      pod({ phase: 'Pending', conditions: unschedulable }, { creationTimestamp: secondsAgo(15) }),
      fail('PodUnschedulable', 'Pod could not be scheduled'),
    ],
    [
      'Pending, unschedulable without creationTimestamp is Failed at once',
      pod({ phase: 'Pending', conditions: unschedulable }),
      fail('PodUnschedulable', 'Pod could not be scheduled'),
    ],
    [
      'Pending with another PodScheduled reason',
      pod({ phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'SchedulerError')] }),
      ip('PodPending', 'Pod is in the Pending phase'),
    ],
    ['Pending', pod({ phase: 'Pending' }), ip('PodPending', 'Pod is in the Pending phase')],
    ['no phase', pod({}), ip('PodNotObserved', 'Pod phase not available')],
    ['non-string phase reads as missing', pod({ phase: 3 }), ip('PodNotObserved', 'Pod phase not available')],
    ['unknown phase is an error', pod({ phase: 'Unknown' }), unknown('unknown phase Unknown')],
  ]);
});

describe('Job (4.6)', () => {
  const job = (spec: Obj, status: Obj) => obj('batch/v1', 'Job', { spec, status });
  check([
    ['no status', obj('batch/v1', 'Job'), ip('JobNotStarted', 'Job not started')],
    ['Complete=True', job({ completions: 3 }, { succeeded: 3, conditions: [cond('Complete', 'True')] }), cur('Job Completed. succeeded: 3/3')],
    [
      'Failed=True',
      job({ parallelism: 2 }, { failed: 4, conditions: [cond('Failed', 'True', 'BackoffLimitExceeded')] }),
      fail('JobFailed', 'Job Failed. failed: 4/2'),
    ],
    ['Suspended=True with spec.suspend', job({ suspend: true }, { conditions: [cond('Suspended', 'True')] }), cur('Job is suspended')],
    ['Suspended=True without spec.suspend', job({ suspend: false }, { conditions: [cond('Suspended', 'True')] }), ip('JobNotStarted', 'Job not started')],
    [
      'a started Job is Current',
      job({}, { startTime: '2026-12-02T09:59:00Z', succeeded: 1, active: 2, failed: 3 }),
      cur('Job in progress. success:1, active: 2, failed: 3'),
    ],
  ]);
});

describe('simple kinds (4.7-4.11)', () => {
  check([
    ['CronJob', obj('batch/v1', 'CronJob'), cur('Resource is always ready')],
    ['Secret', obj('v1', 'Secret'), cur('Resource is always ready')],
    ['ConfigMap', obj('v1', 'ConfigMap'), cur('Resource is always ready')],
    ['Service default', obj('v1', 'Service'), cur('Service is ready')],
    [
      'LoadBalancer without clusterIP',
      obj('v1', 'Service', { spec: { type: 'LoadBalancer' } }),
      ip('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer'),
    ],
    [
      'LoadBalancer with clusterIP but no ingress is Current',
      obj('v1', 'Service', { spec: { type: 'LoadBalancer', clusterIP: '10.0.0.1' }, status: { loadBalancer: {} } }),
      cur('Service is ready'),
    ],
    ['PVC without phase', obj('v1', 'PersistentVolumeClaim'), ip('NotBound', 'PVC is not Bound. phase: unknown')],
    ['PVC Pending', obj('v1', 'PersistentVolumeClaim', { status: { phase: 'Pending' } }), ip('NotBound', 'PVC is not Bound. phase: Pending')],
    ['PVC Bound', obj('v1', 'PersistentVolumeClaim', { status: { phase: 'Bound' } }), cur('PVC is Bound')],
    ['PDB', obj('policy/v1', 'PodDisruptionBudget'), cur('AllowedDisruptions has been computed.')],
    [
      'PDB not observed',
      obj('policy/v1', 'PodDisruptionBudget', { metadata: { generation: 2 }, status: { observedGeneration: 1 } }),
      ip('LatestGenerationNotObserved', 'PodDisruptionBudget generation is 2, but latest observed generation is 1'),
    ],
  ]);
});

describe('CustomResourceDefinition (4.11)', () => {
  const crd = (...conditions: unknown[]) => obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { status: { conditions } });
  check([
    ['no conditions', crd(), ip('Installing', 'Install in progress')],
    ['NamesAccepted=False', crd(cond('NamesAccepted', 'False', 'NameConflict', 'plural taken')), fail('NameConflict', 'plural taken')],
    ['Established=False Installing', crd(cond('Established', 'False', 'Installing', 'wait')), ip('Installing', 'Install in progress')],
    ['Established=False other reason', crd(cond('Established', 'False', 'Broken', 'no')), fail('Broken', 'no')],
    ['Established=True', crd(cond('Established', 'True')), cur('CRD is established')],
    [
      'NamesAccepted=False after Established=True is never reached',
      crd(cond('Established', 'True'), cond('NamesAccepted', 'False', 'NameConflict', 'x')),
      cur('CRD is established'),
    ],
  ]);
});
