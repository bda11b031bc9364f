/** Type resolution over discovery data (pure), table-driven like kubectl's RESTMapper behaviour. */
import { describe, expect, it } from '@jest/globals';
import { addAggregated, fromResourceList, resolveType } from '../../src/kube/restmapper.js';
import type { DiscoveryIndex } from '../../src/kube/restmapper.js';

function resource(name: string, kind: string, opts: { namespaced?: boolean; shortNames?: string[]; singular?: string } = {}) {
  return {
    name,
    kind,
    namespaced: opts.namespaced ?? true,
    singularName: opts.singular ?? kind.toLowerCase(),
    shortNames: opts.shortNames,
    verbs: ['get', 'list', 'watch'],
  };
}

/** A cluster-like index: core, apps, batch, events, metrics (which also serves `pods`), two CRD groups
 *  sharing a short name, and a group with two versions. */
function index(): DiscoveryIndex {
  const idx: DiscoveryIndex = { groups: [], resources: new Map() };
  const add = (group: string, versions: string[], byVersion: Record<string, ReturnType<typeof resource>[]>) => {
    idx.groups.push({ name: group, versions });
    for (const version of versions) {
      idx.resources.set(group ? `${group}/${version}` : version, fromResourceList(group, version, { resources: byVersion[version] ?? [] }));
    }
  };
  add('', ['v1'], {
    v1: [
      resource('pods', 'Pod', { shortNames: ['po'] }),
      resource('pods/status', 'Pod'),
      resource('services', 'Service', { shortNames: ['svc'] }),
      resource('events', 'Event', { shortNames: ['ev'] }),
      resource('namespaces', 'Namespace', { namespaced: false, shortNames: ['ns'] }),
      resource('persistentvolumeclaims', 'PersistentVolumeClaim', { shortNames: ['pvc'] }),
    ],
  });
  add('apps', ['v1'], {
    v1: [resource('deployments', 'Deployment', { shortNames: ['deploy'] }), resource('statefulsets', 'StatefulSet', { shortNames: ['sts'] })],
  });
  add('batch', ['v1'], { v1: [resource('jobs', 'Job'), resource('cronjobs', 'CronJob', { shortNames: ['cj'] })] });
  add('events.k8s.io', ['v1'], { v1: [resource('events', 'Event', { shortNames: ['ev'] })] });
  add('metrics.k8s.io', ['v1beta1'], { v1beta1: [resource('pods', 'PodMetrics')] });
  add('cert-manager.io', ['v1'], { v1: [resource('certificates', 'Certificate', { shortNames: ['cert', 'certs'] })] });
  add('example.com', ['v1'], {
    v1: [resource('certificates', 'Certificate', { shortNames: ['cert'] }), resource('widgets', 'Widget', { shortNames: ['wdg'] })],
  });
  add('stable.example.org', ['v2', 'v1'], {
    v2: [resource('crontabs', 'CronTab', { shortNames: ['ct'] })],
    v1: [resource('crontabs', 'CronTab', { shortNames: ['ct'] }), resource('oldthings', 'OldThing')],
  });
  add('volcano.example.io', ['v1'], { v1: [resource('jobs', 'Job', { shortNames: ['vcjob'] })] });
  return idx;
}

describe('resolveType', () => {
  it.each([
    ['deploy', 'apps', 'v1', 'deployments'],
    ['deployment', 'apps', 'v1', 'deployments'],
    ['deployments', 'apps', 'v1', 'deployments'],
    ['Deployment', 'apps', 'v1', 'deployments'],
    ['DEPLOYMENTS', 'apps', 'v1', 'deployments'],
    ['deployments.apps', 'apps', 'v1', 'deployments'],
    ['deployments.v1.apps', 'apps', 'v1', 'deployments'],
    ['Deployment.apps', 'apps', 'v1', 'deployments'],
    ['po', '', 'v1', 'pods'],
    ['pods', '', 'v1', 'pods'], // core beats metrics.k8s.io
    ['events', '', 'v1', 'events'], // core beats events.k8s.io
    ['events.events.k8s.io', 'events.k8s.io', 'v1', 'events'],
    ['ns', '', 'v1', 'namespaces'],
    ['jobs', 'batch', 'v1', 'jobs'], // Kubernetes' own group beats a vendor group
    ['jobs.volcano.example.io', 'volcano.example.io', 'v1', 'jobs'],
    ['certificates.cert-manager.io', 'cert-manager.io', 'v1', 'certificates'],
    ['Certificate.cert-manager.io', 'cert-manager.io', 'v1', 'certificates'],
    ['certs', 'cert-manager.io', 'v1', 'certificates'],
    ['wdg', 'example.com', 'v1', 'widgets'],
    ['ct', 'stable.example.org', 'v2', 'crontabs'], // preferred version
    ['crontabs.v1.stable.example.org', 'stable.example.org', 'v1', 'crontabs'],
    ['oldthings', 'stable.example.org', 'v1', 'oldthings'], // only in a non-preferred version
  ])('%s -> %s/%s %s', (type, group, version, plural) => {
    expect(resolveType(index(), { type })).toMatchObject({ ok: true, type: { group, version, resource: plural } });
  });

  it('knows scope', () => {
    expect(resolveType(index(), { type: 'ns' })).toMatchObject({ ok: true, type: { namespaced: false, kind: 'Namespace' } });
    expect(resolveType(index(), { type: 'svc' })).toMatchObject({ ok: true, type: { namespaced: true, kind: 'Service' } });
  });

  it('never resolves to a subresource', () => {
    expect(resolveType(index(), { type: 'pods/status' })).toMatchObject({ ok: false, ambiguous: false });
  });

  it.each([
    ['cert', ['certificates.cert-manager.io', 'certificates.example.com']],
    ['certificates', ['certificates.cert-manager.io', 'certificates.example.com']],
    ['Certificate', ['certificates.cert-manager.io', 'certificates.example.com']],
  ])('%s is ambiguous and lists the candidates', (type, candidates) => {
    const result = resolveType(index(), { type });
    expect(result).toMatchObject({ ok: false, ambiguous: true, candidates });
    expect(result.ok || result.message).toBe(`resource type "${type}" is ambiguous: it matches ${candidates.join(', ')}; write one of them instead`);
  });

  it.each([
    ['widgetz', 'resource type "widgetz" is not served by the cluster'],
    ['deployments.extensions', 'resource type "deployments.extensions" (in API group "extensions") is not served by the cluster'],
  ])('%s is not served', (type, message) => {
    expect(resolveType(index(), { type })).toEqual({ ok: false, ambiguous: false, message });
  });

  it.each([
    ['Deployment', 'apps/v1', 'deployments'],
    ['Pod', 'v1', 'pods'],
    ['CronTab', 'stable.example.org/v1', 'crontabs'],
    ['PodMetrics', 'metrics.k8s.io/v1beta1', 'pods'],
  ])('an exact apiVersion + kind (%s %s) needs no guessing', (type, apiVersion, plural) => {
    const result = resolveType(index(), { type, apiVersion });
    expect(result).toMatchObject({ ok: true, type: { resource: plural, version: apiVersion.split('/').pop(), kind: type } });
  });

  it('an exact apiVersion + kind that is not served says so', () => {
    expect(resolveType(index(), { type: 'Deployment', apiVersion: 'apps/v1beta1' })).toEqual({
      ok: false,
      ambiguous: false,
      message: 'resource type Deployment (apps/v1beta1) is not served by the cluster',
    });
  });
});

describe('aggregated discovery', () => {
  it('reads an APIGroupDiscoveryList, preferred version first', () => {
    const idx: DiscoveryIndex = { groups: [], resources: new Map() };
    addAggregated(idx, {
      kind: 'APIGroupDiscoveryList',
      items: [
        {
          metadata: { name: 'apps' },
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'deployments',
                  responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
                  scope: 'Namespaced',
                  singularResource: 'deployment',
                  shortNames: ['deploy'],
                  verbs: ['list', 'watch'],
                },
              ],
            },
          ],
        },
        {
          metadata: { name: 'rbac.authorization.k8s.io' },
          versions: [{ version: 'v1', resources: [{ resource: 'clusterroles', responseKind: { kind: 'ClusterRole' }, scope: 'Cluster' }] }],
        },
      ],
    });
    expect(resolveType(idx, { type: 'deploy' })).toMatchObject({ ok: true, type: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true } });
    expect(resolveType(idx, { type: 'clusterrole' })).toMatchObject({ ok: true, type: { resource: 'clusterroles', namespaced: false } });
  });
});
