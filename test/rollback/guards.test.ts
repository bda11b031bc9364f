/**
 * When `rollback` acts and what it refuses: the outcome against the mode, the targets it reports on, and
 * each guard's reason (the real-cluster suite runs them through dist/ too).
 */
import { describe, expect, it } from '@jest/globals';
import type { TargetReport } from '../../src/result.js';
import { consideredTargets, refusalByObject, refusalByTarget, rollbackWanted } from '../../src/rollback/guards.js';

function target(kind: string, apiVersion: string, extra: Partial<TargetReport> = {}): TargetReport {
  return {
    apiVersion,
    kind,
    namespace: 'shop',
    name: kind.toLowerCase(),
    status: 'Failed',
    message: 'ImagePullBackOff',
    rule: 'kstatus',
    done: false,
    seconds: 1,
    history: [],
    conditions: [],
    ...extra,
  };
}

describe('rollbackWanted', () => {
  const failed = { outcome: 'failed', cancelled: false } as const;
  const timeout = { outcome: 'timeout', cancelled: false } as const;

  it.each([
    ['on-failure', failed, true],
    ['on-failure', timeout, false],
    ['on-timeout', timeout, true],
    ['on-timeout', failed, false],
    ['on-failure-or-timeout', failed, true],
    ['on-failure-or-timeout', timeout, true],
    ['off', failed, false],
  ] as const)('%s after %o: %s', (mode, result, wanted) => {
    expect(rollbackWanted(mode, result, false)).toBe(wanted);
  });

  it('never after a ready wait, a cancelled one, an input problem, or a cluster stopped by another', () => {
    expect(rollbackWanted('on-failure-or-timeout', { outcome: 'ready', cancelled: false }, false)).toBe(false);
    expect(rollbackWanted('on-failure', { outcome: 'failed', cancelled: true }, false)).toBe(false);
    expect(rollbackWanted('on-failure', { outcome: 'failed', cancelled: false, error: { input: 'resources', message: 'x' } }, false)).toBe(false);
    expect(rollbackWanted('on-failure', failed, true)).toBe(false);
  });
});

describe('consideredTargets', () => {
  const ready = target('Deployment', 'apps/v1', { name: 'ok', status: 'Current', done: true });
  const broken = target('Deployment', 'apps/v1', { name: 'broken' });
  const config = target('ConfigMap', 'v1', { status: 'Current', done: true });

  it('failed: the targets not at the desired status; all: every workload too', () => {
    expect(consideredTargets([ready, broken, config], 'failed')).toEqual([broken]);
    expect(consideredTargets([ready, broken, config], 'all')).toEqual([ready, broken]);
  });
});

describe('refusals', () => {
  it('leaves Helm release objects to Helm, GitOps-applied objects to a revert, and never rolls back a Job', () => {
    const source = { kind: 'release', name: 'shop', revision: 3, line: 1 } as unknown as TargetReport['source'];
    expect(refusalByTarget(target('Deployment', 'apps/v1', { source }))).toMatch(/helm rollback shop/);
    expect(refusalByTarget(target('Deployment', 'apps/v1', { parent: { kind: 'Kustomization', namespace: 'flux-system', name: 'apps' } }))).toMatch(
      /applied by Kustomization flux-system\/apps.*revert the commit/,
    );
    expect(refusalByTarget(target('Job', 'batch/v1'))).toMatch(/Jobs are never rolled back/);
    expect(refusalByTarget(target('Deployment', 'apps/v1'))).toBeUndefined();
    expect(refusalByTarget(target('Rollout', 'argoproj.io/v1alpha1'))).toBeUndefined();
  });

  it('refuses an object Flux or Argo CD manages, and one whose generation moved since the failure', () => {
    const seen = { generation: 4 };
    expect(refusalByObject(seen, { metadata: { generation: 4, labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps' } } })).toMatch(
      /managed by Flux.*revert the commit/,
    );
    expect(refusalByObject(seen, { metadata: { generation: 4, annotations: { 'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/web' } } })).toMatch(
      /managed by Argo CD/,
    );
    expect(refusalByObject(seen, { metadata: { generation: 5 } })).toBe('it changed since the step saw it fail (generation 4, now 5): a newer deploy started');
    expect(refusalByObject(seen, { metadata: { generation: 4 } })).toBeUndefined();
  });
});
