/**
 * A GitOps parent's inventory as targets, from the statuses kustomize-controller and the Argo CD
 * application controller write (test/status/gitops/statuses.ts), and when it is the shipped revision's.
 */
import { describe, expect, it } from '@jest/globals';
import {
  helmReleaseStorage,
  inventoryReady,
  InventorySightings,
  inventoryTargets,
  parentKindOf,
  parseObjMetadata,
  SETTLE_MS,
} from '../../src/gitops/inventory.js';
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

  it('is the shipped revision’s once applied or its health checks ended, never at "Building manifests" (lastAttemptedRevision)', () => {
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED);
    const real = kustomization.real(OLD, NEW);
    expect(at(kustomization.ready(OLD))).toBe(false);
    expect(at(real.fetching)).toBe(false);
    expect(at(real.building)).toBe(false); // lastAttemptedRevision is the shipped one, the inventory the previous commit's
    expect(at(real.drift)).toBe(false);
    expect(at(real.healthConditions)).toBe(false);
    expect(at(real.healthInventory)).toBe(false); // without sightings, the status alone cannot tell
    expect(at(real.appliedConditionsNoWait)).toBe(false); // Ready=True written, the inventory and lastAppliedRevision not yet
    expect(at(real.applied)).toBe(true);
    expect(at(real.healthFailed)).toBe(true); // the history says the health checks of this revision failed
    expect(at(real.buildFailed)).toBe(false); // nothing applied: the previous inventory is no answer
    expect(at(real.pathNotFound)).toBe(false);
  });

  it('during the health checks, once the run has seen the inventory write land after their conditions', () => {
    let now = 0;
    const sightings = new InventorySightings(() => now);
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED, sightings);
    const real = kustomization.real(OLD, NEW);
    expect(at(real.building)).toBe(false);
    expect(at(real.healthConditions)).toBe(false);
    expect(sightings.pending).toBe(true); // read again soon
    now += 40;
    expect(at(real.healthInventory)).toBe(true); // another inventory than at an earlier step of the revision: the new one
  });

  it('the same inventory at the health checks is the revision’s once seen SETTLE_MS apart (a commit that kept the set)', () => {
    let now = 0;
    const sightings = new InventorySightings(() => now);
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED, sightings);
    const real = kustomization.real(OLD, NEW);
    expect(at(real.healthConditions)).toBe(false);
    now += SETTLE_MS - 1;
    expect(at(real.healthConditions)).toBe(false);
    now += 1;
    expect(at(real.healthConditions)).toBe(true);
  });

  it('a sighting at another revision’s step says nothing about the shipped one', () => {
    const now = 0;
    const sightings = new InventorySightings(() => now);
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED, sightings);
    expect(at(kustomization.real(OLD, `main@sha1:${'1'.repeat(40)}`).healthInventory)).toBe(false); // at the health checks of another commit
    expect(at(kustomization.real(OLD, NEW).healthConditions)).toBe(false);
    expect(sightings.pending).toBe(true);
  });

  it('a first deploy: no inventory until the write that holds it', () => {
    const sightings = new InventorySightings(() => 0);
    const at = (status: object) => inventoryReady('Kustomization', kustomization.object(status), SHIPPED, sightings);
    const first = kustomization.real('', NEW, true);
    expect(at(first.building)).toBe(false);
    expect(at(first.healthConditions)).toBe(false);
    expect(at(first.healthInventory)).toBe(true);
    expect(inventoryReady('Kustomization', kustomization.object(first.appliedConditionsNoWait), SHIPPED, new InventorySightings(() => 0))).toBe(false);
    expect(inventoryReady('Kustomization', kustomization.object(first.appliedConditionsNoWait), undefined)).toBe(false);
    expect(inventoryReady('Kustomization', kustomization.object(first.applied), undefined)).toBe(true);
  });

  it('the inventory of the revision leaves out what Flux pruned', () => {
    const targets = inventoryTargets('Kustomization', kustomization.object(kustomization.real(OLD, NEW).applied));
    expect(targets.map((t) => `${t.type}/${t.name}`)).toEqual(['Deployment/api', 'Deployment/web']);
  });

  it('ids no controller writes are left out with one warning naming the parent', () => {
    const entries = [
      { id: 'shop_api_apps_Deployment', v: 'v1' },
      { id: '.._web_apps_Deployment', v: 'v1' },
      { id: 'shop_a%2F..%2Fb_apps_Deployment', v: 'v1' },
      { id: 'shop_web?watch=1_apps_Deployment', v: 'v1' },
      { id: `shop_${'a'.repeat(10_000)}_apps_Deployment`, v: 'v1' },
      { id: 'shop_web_apps_Deploy/ment', v: 'v1' },
    ];
    const warnings: string[] = [];
    const obj = kustomization.object({ inventory: { entries } }) as KubeObject;
    expect(inventoryTargets('Kustomization', obj, (w) => warnings.push(w))).toEqual([
      { type: 'Deployment', apiVersion: 'apps/v1', namespace: 'shop', name: 'api' },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Not judged: 5 entries of status.inventory of Kustomization flux-system\/apps: ".._web_apps_Deployment", /);
    expect(warnings[0]).toContain('and 2 more');
    expect(warnings[0]!.length).toBeLessThan(500);
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
