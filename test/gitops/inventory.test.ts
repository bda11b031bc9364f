/**
 * A GitOps parent's inventory as targets, from the statuses kustomize-controller and the Argo CD
 * application controller write (test/status/gitops/statuses.ts), and when it is the shipped revision's.
 */
import { describe, expect, it } from '@jest/globals';
import { helmReleaseStorage, inventoryReady, inventoryTargets, parentKindOf, parseObjMetadata } from '../../src/gitops/inventory.js';
import type { KubeObject } from '../../src/status/fields.js';
import { parseRevision } from '../../src/status/gitops/revision.js';
import { application, helmRelease, kustomization, NEW, NEW_SHA, OLD, OLD_SHA } from '../status/gitops/statuses.js';

const revision = (text: string) => {
  const parsed = parseRevision(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
};
const SHIPPED = revision(NEW_SHA.slice(0, 7));

describe('Flux inventory entries', () => {
  it('become targets with their group, version, namespace and name', () => {
    const obj = kustomization.object(kustomization.ready(NEW)) as KubeObject;
    expect(inventoryTargets('Kustomization', obj)).toEqual([
      { type: 'Deployment', apiVersion: 'apps/v1', namespace: 'shop', name: 'api' },
      { type: 'Service', apiVersion: 'v1', namespace: 'shop', name: 'api' },
    ]);
  });

  it.each([
    ['shop_api_apps_Deployment', { namespace: 'shop', name: 'api', group: 'apps', kind: 'Deployment' }],
    ['shop_api__Service', { namespace: 'shop', name: 'api', group: '', kind: 'Service' }],
    ['_shop__Namespace', { namespace: '', name: 'shop', group: '', kind: 'Namespace' }],
    [
      '_system__controller__flux_rbac.authorization.k8s.io_ClusterRole',
      { namespace: '', name: 'system:controller:flux', group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
    ],
  ])('cli-utils id %s', (id, expected) => {
    expect(parseObjMetadata(id)).toEqual(expected);
  });

  it('leaves out entries it cannot read', () => {
    const obj = {
      status: { inventory: { entries: [{ id: 'nonsense', v: 'v1' }, { id: 'shop_api_apps_Deployment' }, 'x', { id: 'shop_web_apps_Deployment', v: 'v1' }] } },
    };
    expect(inventoryTargets('Kustomization', obj as KubeObject)).toEqual([{ type: 'Deployment', apiVersion: 'apps/v1', namespace: 'shop', name: 'web' }]);
  });

  it('is taken once the shipped revision is attempted (applied, health checks running), not before', () => {
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED);
    expect(at(kustomization.ready(OLD))).toBe(false);
    expect(at(kustomization.fetching(OLD, NEW))).toBe(false);
    expect(at(kustomization.checkingHealth(OLD, NEW))).toBe(true);
    expect(at(kustomization.failed(OLD, NEW, 'HealthCheckFailed', 'x'))).toBe(true);
    expect(at(kustomization.ready(NEW))).toBe(true);
  });

  it('without a revision, once Flux has finished (Ready True or False)', () => {
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), undefined);
    expect(at(kustomization.checkingHealth(OLD, NEW))).toBe(false);
    expect(at(kustomization.ready(OLD))).toBe(true);
    expect(at(kustomization.failed(OLD, NEW, 'HealthCheckFailed', 'x'))).toBe(true);
  });
});

describe('Flux HelmRelease: its Helm release', () => {
  const OLD_CHART = `0.1.0+${OLD_SHA.slice(0, 12)}`;
  const NEW_CHART = `0.1.0+${NEW_SHA.slice(0, 12)}`;
  const hr = (status: object) => helmRelease.object(status) as KubeObject;

  it('is stored where status.storageNamespace and the newest history snapshot say', () => {
    expect(helmReleaseStorage(hr(helmRelease.ready(NEW_CHART, 2)))).toEqual({ namespace: 'shop', name: 'shop' });
    expect(helmReleaseStorage(hr({ conditions: [] }))).toBeUndefined();
  });

  it('is read once the shipped chart version is attempted, or without a revision once Ready is True or False', () => {
    expect(inventoryReady('HelmRelease', hr(helmRelease.ready(OLD_CHART)), SHIPPED)).toBe(false);
    expect(inventoryReady('HelmRelease', hr(helmRelease.upgrading(OLD_CHART, NEW_CHART)), SHIPPED)).toBe(true);
    expect(inventoryReady('HelmRelease', hr(helmRelease.upgrading(OLD_CHART, NEW_CHART)), undefined)).toBe(false);
    expect(inventoryReady('HelmRelease', hr(helmRelease.upgradeFailed(OLD_CHART, NEW_CHART)), undefined)).toBe(true);
    expect(inventoryTargets('HelmRelease', hr(helmRelease.ready(NEW_CHART)))).toEqual([]);
  });
});

describe('Argo CD status.resources', () => {
  it('become targets, hooks and objects only kept to prune left out', () => {
    const status = application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Healthy' });
    status.resources.push(
      { group: 'batch', version: 'v1', kind: 'Job', namespace: 'shop', name: 'migrate', status: 'Synced', hook: true } as never,
      { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'shop', name: 'old', status: 'OutOfSync', requiresPruning: true } as never,
    );
    expect(inventoryTargets('Application', application.object(status) as KubeObject)).toEqual([
      { type: 'Service', apiVersion: 'v1', namespace: 'shop', name: 'api' },
      { type: 'Deployment', apiVersion: 'apps/v1', namespace: 'shop', name: 'api' },
    ]);
  });

  it('are taken once synced to the shipped revision, or without one once Synced', () => {
    const at = (sync: string, rev: string, wanted: typeof SHIPPED | null = SHIPPED) =>
      inventoryReady('Application', application.object(application.status({ sync, revision: rev, health: 'Progressing' })), wanted ?? undefined);
    expect(at('Synced', OLD_SHA)).toBe(false);
    expect(at('OutOfSync', NEW_SHA)).toBe(true);
    expect(at('Synced', NEW_SHA)).toBe(true);
    expect(at('OutOfSync', OLD_SHA, null)).toBe(false);
    expect(at('Synced', OLD_SHA, null)).toBe(true);
  });
});

it('only Kustomizations, HelmReleases and Applications have an inventory', () => {
  expect(parentKindOf('kustomize.toolkit.fluxcd.io', 'Kustomization')).toBe('Kustomization');
  expect(parentKindOf('helm.toolkit.fluxcd.io', 'HelmRelease')).toBe('HelmRelease');
  expect(parentKindOf('argoproj.io', 'Application')).toBe('Application');
  expect(parentKindOf('apps', 'Deployment')).toBeUndefined();
});
