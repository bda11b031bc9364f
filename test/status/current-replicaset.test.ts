/** currentReplicaSetName: which ReplicaSet's FailedCreate judges a Deployment's rollout. */
import { describe, expect, it } from '@jest/globals';
import { currentReplicaSetName, replicaSetFailedCreate } from '../../src/status/current-replicaset.js';

const deployment = (generation: number, observedGeneration?: number) => ({
  metadata: { name: 'web', uid: 'd-1', generation },
  ...(observedGeneration !== undefined && { status: { observedGeneration } }),
});
const replicaSet = (name: string, revision: string | undefined, ownerUid = 'd-1') => ({
  metadata: {
    name,
    ...(revision !== undefined && { annotations: { 'deployment.kubernetes.io/revision': revision } }),
    ownerReferences: [{ kind: 'Deployment', name: 'web', uid: ownerUid, controller: true }],
  },
});

describe('currentReplicaSetName', () => {
  it.each([
    ['the newest revision', deployment(3, 3), [replicaSet('web-a', '1'), replicaSet('web-c', '3'), replicaSet('web-b', '2')], 'web-c'],
    ['revisions compared as numbers', deployment(2, 2), [replicaSet('web-a', '9'), replicaSet('web-b', '10')], 'web-b'],
    ['none while the controller has not seen the latest spec', deployment(4, 3), [replicaSet('web-a', '1'), replicaSet('web-b', '2')], undefined],
    ['none before the controller ever wrote a status', deployment(1), [replicaSet('web-a', '1')], undefined],
    ['not another Deployment`s of the same name', deployment(2, 2), [replicaSet('web-a', '1'), replicaSet('web-z', '7', 'd-old')], 'web-a'],
    ['none without ReplicaSets', deployment(1, 1), [], undefined],
  ])('%s', (_, owner, replicaSets, expected) => {
    expect(currentReplicaSetName(owner, replicaSets)).toBe(expected);
  });
});

describe('replicaSetFailedCreate', () => {
  it.each([
    [{ reason: 'FailedCreate', involvedObject: { kind: 'ReplicaSet', name: 'web-a' } }, 'web-a'],
    [{ reason: 'FailedCreate', involvedObject: { kind: 'StatefulSet', name: 'db' } }, undefined],
    [{ reason: 'BackOff', involvedObject: { kind: 'ReplicaSet', name: 'web-a' } }, undefined],
    [{}, undefined],
  ])('%j -> %s', (event, expected) => {
    expect(replicaSetFailedCreate(event)).toBe(expected);
  });
});
