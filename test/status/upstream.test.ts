/** Every upstream kstatus Compute test case, with upstream's own assertions (see upstream/kstatus-cases.ts). */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { computeStatus } from '../../src/status/index.js';
import { computeCases, watcherCases } from './upstream/kstatus-cases.js';

const now = new Date('2026-12-02T10:00:00Z');

/**
 * Upstream decodes with sigs.k8s.io/yaml, which tolerates duplicate keys (the last wins) and turns timestamps
 * into strings. The manifests use no YAML 1.1-only scalars, so the YAML 1.2 core schema reads them alike.
 */
const fromYaml = (manifest: string): unknown => parse(manifest, { uniqueKeys: false });

describe('upstream status_compute_test.go', () => {
  it.each(computeCases.map((c) => [`${c.test}/${c.name}`, c] as const))('%s', (_name, c) => {
    // Go's time.RFC3339 has second precision; upstream filled in time.Now().
    const manifest = c.needsNow ? c.manifest.replace('%s', now.toISOString().replace(/\.\d+Z$/, 'Z')) : c.manifest;
    const result = computeStatus(fromYaml(manifest), { now });

    expect(result.status).toBe(c.expectedStatus);
    for (const expected of c.expectedConditions) {
      const matching = result.conditions.filter((cond) => cond.type === expected.type);
      expect(matching.length).toBeGreaterThan(0);
      for (const cond of matching) {
        expect({ status: cond.status, reason: cond.reason }).toEqual({ status: expected.status, reason: expected.reason });
      }
    }
    for (const absent of c.absentConditionTypes) {
      expect(result.conditions.map((cond) => cond.type)).not.toContain(absent);
    }
  });
});

describe('upstream default_status_watcher_test.go messages', () => {
  it.each(watcherCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = computeStatus(fromYaml(c.manifest), { now });
    expect({ status: result.status, message: result.message }).toEqual({ status: c.status, message: c.message });
  });
});

describe('upstream core_test.go (suspended Jobs, kubernetes-sigs fork)', () => {
  const job = (suspend: boolean, suspended: string) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'test', generation: 1, namespace: 'qual' },
    spec: { suspend },
    status: { conditions: [{ type: 'Suspended', status: suspended }] },
  });
  it.each([
    ['TestSuspendedJobConditions', true, 'True', 'Current'],
    ['TestPreviouslySuspendedJobConditions', false, 'False', 'InProgress'],
    ['TestSuspendedJobTransitionConditions (to suspended)', true, 'False', 'InProgress'],
    ['TestSuspendedJobTransitionConditions (from suspended)', false, 'True', 'InProgress'],
  ] as const)('%s', (_name, suspend, suspended, expected) => {
    expect(computeStatus(job(suspend, suspended), { now }).status).toBe(expected);
  });
});

describe('upstream example_test.go', () => {
  it('TestExampleCompute: an available Deployment is Current', () => {
    const deployment = fromYaml(`
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
`);
    expect(computeStatus(deployment, { now })).toEqual({
      status: 'Current',
      message: 'Deployment is available. Replicas: 1',
      conditions: [],
    });
  });
});
