/** The suspended-Flux warning: Flux's own kinds follow kstatus, but a suspended one is not reconciled. */
import { expect, test } from '@jest/globals';
import { suspendWarning } from '../../../src/status/health/suspend.js';

test.each([
  [
    'a suspended Kustomization',
    { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'apps', namespace: 'flux-system' }, spec: { suspend: true } },
    'Kustomization flux-system/apps is suspended (spec.suspend: true): Flux does not reconcile it, so its readiness may be stale',
  ],
  [
    'a suspended HelmRelease',
    { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'podinfo', namespace: 'web' }, spec: { suspend: true } },
    'HelmRelease web/podinfo is suspended (spec.suspend: true): Flux does not reconcile it, so its readiness may be stale',
  ],
  [
    'a suspended GitRepository',
    { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'repo', namespace: 'flux-system' }, spec: { suspend: true } },
    expect.stringContaining('GitRepository flux-system/repo is suspended'),
  ],
  ['not suspended', { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'apps' }, spec: { suspend: false } }, undefined],
  [
    "suspend as a string is not Flux's boolean",
    { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'apps' }, spec: { suspend: 'true' } },
    undefined,
  ],
  [
    'another group with spec.suspend (a CronJob)',
    { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { suspend: true } },
    undefined,
  ],
  [
    'a look-alike group',
    { apiVersion: 'toolkit.fluxcd.io.example.com/v1', kind: 'Kustomization', metadata: { name: 'x' }, spec: { suspend: true } },
    undefined,
  ],
])('%s', (_name, obj, warning) => {
  expect(suspendWarning(obj)).toEqual(warning);
});
