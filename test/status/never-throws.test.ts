/**
 * Every public function is total: seeded random corruptions of realistic objects never make one throw, and
 * computeStatus always returns one of the statuses kstatus can produce (or Unknown for its errors).
 */
import { describe, expect, it } from '@jest/globals';
import { augment, computeStatus, diagnosePods, matchesCondition, matchesJsonPath, targetStatus } from '../../src/status/index.js';

const now = new Date('2026-12-02T10:00:00Z');

/** mulberry32: a tiny deterministic PRNG so that failures reproduce. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const oddValues: unknown[] = [null, '', '3', 'Unknown', 'True', 0, -1, 3, 2.5, 1e300, true, false, [], [1, 'a'], {}, { a: null }, [{}], [null], ['x']];

const samples: Record<string, unknown>[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', generation: 2 },
    spec: { replicas: 2, progressDeadlineSeconds: 600 },
    status: {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
        { type: 'Available', status: 'True' },
      ],
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 's' },
    spec: { replicas: 2, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } },
    status: { replicas: 2, readyReplicas: 2, updatedReplicas: 2, currentReplicas: 2, currentRevision: 'a', updateRevision: 'a' },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'ds', generation: 1 },
    status: { observedGeneration: 1, desiredNumberScheduled: 1, currentNumberScheduled: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberReady: 1 },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'rs' },
    spec: { replicas: 1 },
    status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'ReplicaFailure', status: 'False' }] },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', creationTimestamp: '2026-12-02T09:00:00Z', ownerReferences: [{ controller: true }] },
    spec: { restartPolicy: 'Never' },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
      ],
      initContainerStatuses: [{ name: 'i', state: { terminated: { exitCode: 1 } } }],
      containerStatuses: [
        { name: 'c', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } } },
      ],
    },
  },
  {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j' },
    spec: { completions: 2, parallelism: 1, suspend: false },
    status: { startTime: '2026-12-02T09:00:00Z', active: 1, succeeded: 1, failed: 0, conditions: [{ type: 'Complete', status: 'False' }] },
  },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { type: 'LoadBalancer', clusterIP: '10.0.0.1' } },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc' }, status: { phase: 'Bound' } },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crd' },
    status: {
      conditions: [
        { type: 'NamesAccepted', status: 'True' },
        { type: 'Established', status: 'True' },
      ],
    },
  },
  {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', generation: 1, deletionTimestamp: '' },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True' }] },
  },
];

/** Every path to a value in the object (including inside arrays). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const own = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (value && typeof value === 'object') return [...own, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return own;
}

function corrupt(sample: Record<string, unknown>, random: () => number): unknown {
  const copy = structuredClone(sample) as Record<string | number, unknown>;
  const all = paths(copy);
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const path = all[Math.floor(random() * all.length)]!;
    let parent: Record<string | number, unknown> = copy;
    for (const key of path.slice(0, -1)) {
      const next = parent[key];
      if (!next || typeof next !== 'object') break;
      parent = next as Record<string | number, unknown>;
    }
    parent[path.at(-1)!] = structuredClone(oddValues[Math.floor(random() * oddValues.length)]);
  }
  return copy;
}

describe('public functions never throw', () => {
  it('on 3000 corrupted objects', () => {
    const random = prng(20261202);
    const statuses = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const input = corrupt(samples[i % samples.length]!, random);
      const result = computeStatus(input, { now });
      statuses.add(result.status);
      expect(['InProgress', 'Failed', 'Current', 'Terminating', 'Unknown']).toContain(result.status);
      expect(typeof result.message).toBe('string');
      expect(() => targetStatus(input, { now, jobCompletion: true })).not.toThrow();
      expect(() => augment(input, { now })).not.toThrow();
      expect(() => diagnosePods([input], [input], { now })).not.toThrow();
      expect(() => matchesCondition(input, 'Ready', 'True')).not.toThrow();
      expect(() => matchesJsonPath(input, '{.status.conditions[?(@.type=="Ready")].status}', 'True')).not.toThrow();
    }
    // The corruptions reach every outcome, so the loop exercises error paths as well as normal ones.
    expect([...statuses].sort()).toEqual(['Current', 'Failed', 'InProgress', 'Terminating', 'Unknown']);
  });
});
