/** augment: kstatus Augment without mutation; the first table ports status_augment_test.go. */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { augment } from '../../src/status/index.js';

const now = new Date('2026-12-02T10:00:00.250Z');
const nowText = '2026-12-02T10:00:00Z';
const earlier = '2026-12-02T09:59:00Z';

const pod = parse(`
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Running
`) as Record<string, unknown>;
const custom = parse(`
apiVersion: v1beta1
kind: SomeCustomKind
metadata:
   generation: 1
   name: test
   namespace: default
`) as Record<string, unknown>;

const withConditions = (base: Record<string, unknown>, conditions: unknown[]) => ({
  ...base,
  status: { ...((base.status as object) ?? {}), conditions },
});
const conditionsOf = (obj: unknown) => (obj as { status: { conditions: Record<string, unknown>[] } }).status.conditions;

describe('upstream TestAugmentConditions', () => {
  it.each<[string, Record<string, unknown>, unknown[], { type: string; reason: string }[]]>([
    ['no existing conditions', pod, [], [{ type: 'Reconciling', reason: 'PodRunningNotReady' }]],
    [
      'has other existing conditions',
      pod,
      [{ lastTransitionTime: earlier, lastUpdateTime: earlier, type: 'Ready', status: 'False', reason: 'Pod has not started' }],
      [
        { type: 'Reconciling', reason: 'PodRunningNotReady' },
        { type: 'Ready', reason: 'Pod has not started' },
      ],
    ],
    [
      'already has condition of standard type InProgress',
      pod,
      [{ lastTransitionTime: earlier, lastUpdateTime: earlier, type: 'Reconciling', status: 'True', reason: 'PodIsAbsolutelyNotReady' }],
      [{ type: 'Reconciling', reason: 'PodIsAbsolutelyNotReady' }],
    ],
    [
      'already has condition of standard type Failed',
      pod,
      [{ lastTransitionTime: earlier, lastUpdateTime: earlier, type: 'Stalled', status: 'True', reason: 'PodHasFailed' }],
      [{ type: 'Stalled', reason: 'PodHasFailed' }],
    ],
    ['custom resource with no conditions', custom, [], []],
  ])('%s', (_name, base, existing, expected) => {
    const result = augment(withConditions(base, existing), { now });
    expect(result.error).toBeUndefined();
    const conditions = conditionsOf(result.object);
    expect(conditions).toHaveLength(expected.length);
    for (const e of expected) expect(conditions.find((c) => c.type === e.type)).toMatchObject(e);
  });
});

describe('augment details', () => {
  it('appends the computed condition with both timestamps', () => {
    const result = augment(pod, { now });
    expect(conditionsOf(result.object)).toEqual([
      {
        lastTransitionTime: nowText,
        lastUpdateTime: nowText,
        message: 'Pod is running but is not Ready',
        reason: 'PodRunningNotReady',
        status: 'True',
        type: 'Reconciling',
      },
    ]);
  });

  it('updates an existing condition, moving lastTransitionTime only when the status changes', () => {
    const existing = { type: 'Reconciling', status: 'False', reason: 'Old', message: 'old', lastTransitionTime: earlier, lastUpdateTime: earlier };
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { replicas: 2 },
      status: { replicas: 1, conditions: [existing] },
    };
    expect(conditionsOf(augment(sts, { now }).object)).toEqual([
      { type: 'Reconciling', status: 'True', reason: 'LessReplicas', message: 'Replicas: 1/2', lastTransitionTime: nowText, lastUpdateTime: nowText },
    ]);
  });

  it('leaves a Current object as it was, creating an empty condition list (upstream TestExampleAugment)', () => {
    const deployment = parse(`
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
   namespace: qual
status:
   observedGeneration: 1
   updatedReplicas: 1
   readyReplicas: 1
   availableReplicas: 1
   replicas: 1
   conditions:
    - type: Progressing
      status: "True"
      reason: NewReplicaSetAvailable
    - type: Available
      status: "True"
`) as Record<string, unknown>;
    expect(augment(deployment, { now }).object).toEqual(deployment);
    expect(augment(custom, { now }).object).toEqual({ ...custom, status: { conditions: [] } });
  });

  it('does not mutate its input', () => {
    const input = withConditions(pod, []);
    const before = structuredClone(input);
    augment(input, { now });
    expect(input).toEqual(before);
  });

  it.each<[string, unknown, string]>([
    ['Compute error', { ...pod, status: { phase: 'Unknown' } }, 'unknown phase Unknown'],
    [
      'null conditions',
      withConditions(pod, null as unknown as unknown[]),
      '.status.conditions accessor error: <nil> is of the type <nil>, expected []interface{}',
    ],
    ['a condition without a status', withConditions(pod, [{ type: 'Reconciling' }]), 'condition status does not have the expected type'],
  ])('errors like kstatus: %s', (_name, input, error) => {
    expect(augment(input, { now })).toEqual({ error });
  });
});
