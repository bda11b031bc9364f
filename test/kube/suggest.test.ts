import { describe, expect, it } from '@jest/globals';
import { closestType, editDistance } from '../../src/kube/suggest.js';
import type { DiscoveryIndex, ResourceType } from '../../src/kube/restmapper.js';

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
  groups: [],
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
