import { describe, expect, it } from '@jest/globals';
import { closestType, describeType, editDistance, nearMissOf } from '../../src/kube/suggest.js';
import { qualifiedResource, type DiscoveryIndex, type ResourceType } from '../../src/kube/restmapper.js';

const type = (group: string, resource: string, kind: string, shortNames: string[] = []): ResourceType => ({
  group,
  version: 'v1',
  resource,
  kind,
  namespaced: true,
  singular: kind.toLowerCase(),
  shortNames,
  verbs: ['list', 'watch'],
});

const index: DiscoveryIndex = {
  groups: [
    { name: '', versions: ['v1'] },
    { name: 'apps', versions: ['v1'] },
    { name: 'cert-manager.io', versions: ['v1'] },
  ],
  resources: new Map([
    ['v1', [type('', 'configmaps', 'ConfigMap', ['cm']), type('', 'pods', 'Pod', ['po']), type('', 'services', 'Service', ['svc'])]],
    ['apps/v1', [type('apps', 'deployments', 'Deployment', ['deploy']), type('apps', 'statefulsets', 'StatefulSet', ['sts'])]],
    ['cert-manager.io/v1', [type('cert-manager.io', 'certificates', 'Certificate', ['cert'])]],
  ]),
};

describe('closestType', () => {
  it.each([
    ['deploymnt', 'deployments.apps'],
    ['Deploymnet', 'deployments.apps'],
    ['statefulste', 'statefulsets.apps'],
    ['configmpa', 'configmaps'],
    ['certificat.cert-manager.io', 'certificates.cert-manager.io'],
    ['svcs', 'services'],
    ['zzzzzzzz', undefined], // nothing close: no suggestion rather than a wrong one
  ])('%s -> %s', (written, expected) => {
    expect(closestType(index, written)).toBe(expected);
  });
});

describe('nearMissOf: a typo to report at once, or maybe a CRD not installed yet', () => {
  it.each<[string, string | undefined, string | undefined]>([
    ['deploymnet', undefined, 'deployments.apps'],
    ['deployments.app', undefined, 'deployments.apps'], // a dotless group is no CRD's
    ['certificat.cert-manager.io', undefined, 'certificates.cert-manager.io'], // a served group's own type
    ['Deployment', 'apps/v2', 'deployments.apps'],
    ['services.serving.knative.dev', undefined, undefined], // a group nobody serves may be a CRD's on its way
    ['certificates.cert-manager.dev', undefined, undefined],
    ['Sprocket', 'example.org/v1', undefined],
    ['zzzzzzzz', undefined, undefined],
  ])('%s (%s) -> %s', (type, apiVersion, expected) => {
    const found = nearMissOf(index, { type, ...(apiVersion && { apiVersion }) });
    expect(found && qualifiedResource(found)).toBe(expected);
  });

  it('describes the type with its other names', () => {
    expect(describeType(type('apps', 'deployments', 'Deployment', ['deploy']))).toBe('deployments.apps (deployment, deploy)');
    expect(describeType(type('', 'pods', 'Pod', ['po']))).toBe('pods (pod, po)');
  });
});

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['deploymnt', 'deployment', 1],
    ['kitten', 'sitting', 3],
  ])('%s / %s: %d', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});
