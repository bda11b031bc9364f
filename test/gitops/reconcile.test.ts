/**
 * What the `reconcile` input annotates for each GitOps kind, against what `flux reconcile ... --with-source`
 * (fluxcd/flux2 cmd/flux reconcile_kustomization.go, reconcile_helmrelease.go, reconcile_source_chart.go) and
 * Argo CD's refresh patch, on the objects the controllers' tests use (test/status/gitops/statuses.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { ARGO_REFRESH, FLUX_RECONCILE_REQUEST, reconcileRequests } from '../../src/gitops/reconcile.js';
import type { KubeObject } from '../../src/status/fields.js';
import { application, helmRelease, kustomization, OLD } from '../status/gitops/statuses.js';

const AT = '2026-12-03T10:20:30.123Z';
const REQUEST = { [FLUX_RECONCILE_REQUEST]: AT };

/** `base` with `spec` merged over its own, and a namespace. */
function withSpec(base: object, spec: object, namespace = 'flux-system'): KubeObject {
  const object = base as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  return { ...object, metadata: { ...object.metadata, namespace }, spec: { ...object.spec, ...spec } };
}

describe('reconcileRequests', () => {
  it('a Kustomization: its GitRepository (the referrer’s namespace by default), then itself', () => {
    expect(reconcileRequests('Kustomization', kustomization.object(kustomization.ready(OLD)) as KubeObject, AT)).toEqual([
      { group: 'source.toolkit.fluxcd.io', kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system', annotations: REQUEST },
      { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', namespace: 'flux-system', name: 'apps', annotations: REQUEST },
    ]);
  });

  it.each(['OCIRepository', 'Bucket'])('a Kustomization from a %s in another namespace', (kind) => {
    const obj = withSpec(kustomization.object(), { sourceRef: { kind, name: 'fleet', namespace: 'sources' } }, 'apps');
    expect(reconcileRequests('Kustomization', obj, AT)[0]).toEqual({
      group: 'source.toolkit.fluxcd.io',
      kind,
      namespace: 'sources',
      name: 'fleet',
      annotations: REQUEST,
    });
  });

  it.each([
    [{ kind: 'GitRepository', name: 'fleet', namespace: '..' }, '"..'],
    [{ kind: 'GitRepository', name: 'x?watch=1' }, '"x?watch=1"'],
    [{ kind: 'GitRepository', name: 'a'.repeat(300) }, 'is not a valid object name'],
  ])('a sourceRef no API server would hold (%j): itself alone, the reference said in `skipped`', (sourceRef, said) => {
    const skipped: string[] = [];
    const obj = withSpec(kustomization.object(), { sourceRef });
    expect(reconcileRequests('Kustomization', obj, AT, skipped).map((r) => r.kind)).toEqual(['Kustomization']);
    expect(skipped).toEqual([expect.stringContaining('the spec.sourceRef of Kustomization flux-system/apps: ')]);
    expect(skipped[0]).toContain(said);
  });

  it('a Kustomization from a source kind the CLI cannot reconcile (ExternalArtifact): itself alone', () => {
    const obj = withSpec(kustomization.object(), { sourceRef: { kind: 'ExternalArtifact', name: 'x' } });
    expect(reconcileRequests('Kustomization', obj, AT).map((r) => r.kind)).toEqual(['Kustomization']);
  });

  it('a HelmRelease from spec.chart: the chart’s source, the HelmChart helm-controller made (<namespace>-<name>), then itself', () => {
    expect(reconcileRequests('HelmRelease', helmRelease.object() as KubeObject, AT)).toEqual([
      { group: 'source.toolkit.fluxcd.io', kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system', annotations: REQUEST },
      { group: 'source.toolkit.fluxcd.io', kind: 'HelmChart', namespace: 'flux-system', name: 'flux-system-shop', annotations: REQUEST },
      { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', namespace: 'flux-system', name: 'shop', annotations: REQUEST },
    ]);
  });

  it('a HelmRelease whose chart comes from a HelmRepository in another namespace: the HelmChart is made there', () => {
    const obj = withSpec(
      helmRelease.object(),
      { chart: { spec: { chart: 'shop', sourceRef: { kind: 'HelmRepository', name: 'charts', namespace: 'sources' } } } },
      'apps',
    );
    expect(reconcileRequests('HelmRelease', obj, AT).map(({ kind, namespace, name }) => `${kind} ${namespace}/${name}`)).toEqual([
      'HelmRepository sources/charts',
      'HelmChart sources/apps-shop',
      'HelmRelease apps/shop',
    ]);
  });

  it.each([
    [{ kind: 'OCIRepository', name: 'shop-chart' }, 'OCIRepository flux-system/shop-chart'],
    [{ kind: 'HelmChart', name: 'shop', namespace: 'charts' }, 'HelmChart charts/shop'],
  ])('a HelmRelease with spec.chartRef %j: that source, then itself', (chartRef, source) => {
    const obj = withSpec(helmRelease.object(), { chart: undefined, chartRef });
    expect(reconcileRequests('HelmRelease', obj, AT).map(({ kind, namespace, name }) => `${kind} ${namespace}/${name}`)).toEqual([
      source,
      'HelmRelease flux-system/shop',
    ]);
  });

  it('a suspended Flux object: nothing (the CLI refuses it, the controller would ignore it)', () => {
    expect(reconcileRequests('Kustomization', withSpec(kustomization.object(), { suspend: true }), AT)).toEqual([]);
    expect(reconcileRequests('HelmRelease', withSpec(helmRelease.object(), { suspend: true }), AT)).toEqual([]);
  });

  it('an Argo CD Application: a normal refresh of itself, no source', () => {
    expect(reconcileRequests('Application', application.object() as KubeObject, AT)).toEqual([
      { group: 'argoproj.io', kind: 'Application', namespace: 'argocd', name: 'shop', annotations: { [ARGO_REFRESH]: 'normal' } },
    ]);
  });
});
