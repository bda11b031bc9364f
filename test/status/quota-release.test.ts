/** canReleaseQuota: kubedog's quota-recovery cases (tracker_quota_recovery_test.go), ported. */
import { describe, expect, it } from '@jest/globals';
import { canReleaseQuota, newReplicaSet } from '../../src/status/quota-release.js';

type Obj = Record<string, unknown>;
const deployment = (strategy: Obj, replicas = 1) => ({ metadata: { name: 'demo', uid: 'd-uid' }, spec: { replicas, strategy } });
const rolling = (maxUnavailable: number | string, maxSurge: number | string) => ({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } });
const replicaSet = (name: string, revision: number, spec: Obj, status: Obj) => ({
  metadata: {
    name,
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    ownerReferences: [{ kind: 'Deployment', name: 'demo', uid: 'd-uid', controller: true }],
  },
  spec,
  status,
});
const newRs = replicaSet('demo-new', 2, { replicas: 1 }, { replicas: 0, availableReplicas: 0 });
const oldRs = (replicas = 1, status: Obj = { replicas: 1, availableReplicas: 1 }) => replicaSet('demo-old', 1, { replicas }, status);

describe('canReleaseQuota', () => {
  it('finds the new ReplicaSet by its revision', () => {
    expect(newReplicaSet(deployment(rolling(1, 1)), [oldRs(), newRs])?.metadata).toMatchObject({ name: 'demo-new' });
  });

  it.each<[string, unknown, unknown[], boolean]>([
    ['an old ReplicaSet that can scale down (maxUnavailable 1, maxSurge 1)', deployment(rolling(1, 1)), [oldRs(), newRs], true],
    [
      'an old ReplicaSet whose pods are terminating (maxUnavailable 0)',
      deployment(rolling(0, 1)),
      [oldRs(0, { replicas: 0, terminatingReplicas: 1 }), newRs],
      true,
    ],
    ['an old ReplicaSet above its desired count', deployment(rolling(0, 1)), [oldRs(0, { replicas: 1 }), newRs], true],
    ['maxSurge 0: maxUnavailable becomes 1, room to scale down', deployment(rolling(0, 0)), [oldRs(), newRs], true],
    [
      'maxSurge 25% of 4 (1), maxUnavailable 0: no room below the minimum',
      deployment(rolling(0, '25%'), 4),
      [oldRs(4, { replicas: 4, availableReplicas: 4 }), replicaSet('demo-new', 2, { replicas: 1 }, {})],
      false,
    ],
    [
      'maxUnavailable 25% of 4 (1): room',
      deployment(rolling('25%', '25%'), 4),
      [oldRs(4, { replicas: 4, availableReplicas: 4 }), replicaSet('demo-new', 2, { replicas: 1 }, {})],
      true,
    ],
    ['Recreate with old replicas', deployment({ type: 'Recreate' }), [oldRs(), newRs], true],
    ['no old ReplicaSet (a first rollout)', deployment(rolling(1, 1)), [newRs], false],
    ['old ReplicaSets already at zero', deployment(rolling(1, 1)), [oldRs(0, { replicas: 0 }), newRs], false],
    [
      'another Deployment’s ReplicaSets do not count',
      deployment(rolling(1, 1)),
      [{ ...oldRs(), metadata: { name: 'x', ownerReferences: [{ kind: 'Deployment', name: 'other', uid: 'o', controller: true }] } }, newRs],
      false,
    ],
  ])('%s', (_, d, replicaSets, expected) => {
    expect(canReleaseQuota(d, replicaSets)).toBe(expected);
  });
});
