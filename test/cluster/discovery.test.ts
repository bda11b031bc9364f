/** Aggregated discovery (apidiscovery.k8s.io v2/v2beta1) as kube-apiserver 1.35 serves it, its content
 *  negotiation, and its agreement with the legacy documents; the real kubectl needs 2 requests with it. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubectlSession } from '../conformance/kubectl-runner.js';
import { startCluster, type TestCluster } from './index.js';
import { raw, until } from './testkit.js';

let cluster: TestCluster;

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const CLIENT_GO = `${V2},${V2BETA1},application/json`;

beforeAll(async () => {
  cluster = await startCluster({ controllers: false, crdEstablishDelayMs: 0 });
});
afterAll(async () => {
  await cluster.close();
});

interface Resource {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ subresource: string }>;
}
interface GroupItem {
  metadata: { name?: string };
  versions: Array<{ version: string; resources: Resource[]; freshness: string }>;
}

describe('content negotiation on /api and /apis', () => {
  it.each([
    ['client-go (v2, v2beta1, json)', '/apis', CLIENT_GO, V2, 'APIGroupDiscoveryList'],
    ['client-go on /api', '/api', CLIENT_GO, V2, 'APIGroupDiscoveryList'],
    ['v2beta1 only (older clients)', '/apis', `${V2BETA1},application/json`, V2BETA1, 'APIGroupDiscoveryList'],
    ['plain JSON', '/apis', 'application/json', 'application/json', 'APIGroupList'],
    ['plain JSON first wins', '/api', `application/json,${V2}`, 'application/json', 'APIVersions'],
    [
      'protobuf discovery only (not served: falls to JSON)',
      '/apis',
      'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      'application/json',
      'APIGroupList',
    ],
    ['peer-aggregated profile (not served)', '/apis', `${V2};profile=nopeer,application/json`, 'application/json', 'APIGroupList'],
  ])('%s', async (_name, path, accept, contentType, kind) => {
    const res = await raw(cluster, 'GET', path, { headers: { Accept: accept } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
    expect(res.json.kind).toBe(kind);
    if (kind === 'APIGroupDiscoveryList') {
      expect(res.json.apiVersion).toBe(`apidiscovery.k8s.io/${contentType.includes('v2beta1') ? 'v2beta1' : 'v2'}`);
      expect(res.headers.etag).toMatch(/^"[0-9A-F]{64}"$/);
      expect(res.headers.vary).toBe('Accept');
    }
  });
});

function served(apiVersion: string, kind: string): boolean {
  try {
    cluster.list(apiVersion, kind);
    return true;
  } catch {
    return false;
  }
}

describe('the APIGroupDiscoveryList documents', () => {
  async function aggregated(path: '/api' | '/apis'): Promise<GroupItem[]> {
    return (await raw(cluster, 'GET', path, { headers: { Accept: CLIENT_GO } })).json.items as GroupItem[];
  }
  function find(items: GroupItem[], group: string, version: string, resource: string): Resource | undefined {
    return items
      .find((g) => (g.metadata.name ?? '') === group)
      ?.versions.find((v) => v.version === version)
      ?.resources.find((r) => r.resource === resource);
  }

  it('describes resources as kube-apiserver 1.35 does', async () => {
    const apis = await aggregated('/apis');
    const core = await aggregated('/api');
    expect(core).toHaveLength(1);
    expect(core[0]?.metadata).toEqual({});
    expect(find(apis, 'apps', 'v1', 'deployments')).toEqual({
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
      ],
    });
    expect(find(core, '', 'v1', 'secrets')).toEqual({
      resource: 'secrets',
      responseKind: { group: '', version: '', kind: 'Secret' },
      scope: 'Namespaced',
      singularResource: 'secret',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    });
    expect(apis.find((g) => g.metadata.name === 'apps')?.versions).toEqual([expect.objectContaining({ version: 'v1', freshness: 'Current' })]);
  });

  it.each([
    // group, version, resource, scope, short names
    ['rbac.authorization.k8s.io', 'v1', 'roles', 'Namespaced', undefined],
    ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'Namespaced', undefined],
    ['rbac.authorization.k8s.io', 'v1', 'clusterroles', 'Cluster', undefined],
    ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'Cluster', undefined],
    ['storage.k8s.io', 'v1', 'storageclasses', 'Cluster', ['sc']],
    ['networking.k8s.io', 'v1', 'ingresses', 'Namespaced', ['ing']],
    ['networking.k8s.io', 'v1', 'ingressclasses', 'Cluster', undefined],
    ['networking.k8s.io', 'v1', 'networkpolicies', 'Namespaced', ['netpol']],
    ['autoscaling', 'v2', 'horizontalpodautoscalers', 'Namespaced', ['hpa']],
    ['policy', 'v1', 'poddisruptionbudgets', 'Namespaced', ['pdb']],
    ['coordination.k8s.io', 'v1', 'leases', 'Namespaced', undefined],
    ['', 'v1', 'serviceaccounts', 'Namespaced', ['sa']],
    ['', 'v1', 'configmaps', 'Namespaced', ['cm']],
    ['', 'v1', 'persistentvolumes', 'Cluster', ['pv']],
  ])('serves %s/%s %s (%s, short names %j)', async (group, version, resource, scope, shortNames) => {
    const found = find(group ? await aggregated('/apis') : await aggregated('/api'), group, version, resource);
    expect(found).toMatchObject({ resource, scope });
    expect(found?.shortNames).toEqual(shortNames);
    // the legacy document says the same
    const legacy = (await raw(cluster, 'GET', group ? `/apis/${group}/${version}` : `/api/${version}`)).json;
    expect(legacy.resources.find((r: { name: string }) => r.name === resource)).toMatchObject({
      namespaced: scope === 'Namespaced',
      ...(shortNames ? { shortNames } : {}),
    });
  });

  it('lists the same resources as the legacy documents, custom resources with their full responseKind', async () => {
    cluster.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} } }],
      },
    });
    await until(() => served('example.com/v1', 'Widget'), 'widgets served');
    expect(find(await aggregated('/apis'), 'example.com', 'v1', 'widgets')).toMatchObject({
      responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      shortNames: ['wd'],
      subresources: [{ subresource: 'status' }],
    });

    const legacy = new Set<string>();
    const groups = (await raw(cluster, 'GET', '/apis')).json.groups as Array<{ versions: Array<{ groupVersion: string }> }>;
    for (const gv of ['v1', ...groups.flatMap((g) => g.versions.map((v) => v.groupVersion))]) {
      const list = (await raw(cluster, 'GET', gv === 'v1' ? '/api/v1' : `/apis/${gv}`)).json;
      for (const r of list.resources as Array<{ name: string }>) legacy.add(`${gv} ${r.name}`);
    }
    const fromAggregated = new Set<string>();
    for (const g of [...(await aggregated('/api')), ...(await aggregated('/apis'))]) {
      for (const v of g.versions) {
        const gv = g.metadata.name ? `${g.metadata.name}/${v.version}` : v.version;
        for (const r of v.resources) {
          fromAggregated.add(`${gv} ${r.resource}`);
          for (const s of r.subresources ?? []) fromAggregated.add(`${gv} ${r.resource}/${s.subresource}`);
        }
      }
    }
    expect([...fromAggregated].sort()).toEqual([...legacy].sort());
  });
});

describe('the real kubectl v1.35.2', () => {
  let kubectl: KubectlSession;
  beforeAll(async () => {
    kubectl = await KubectlSession.open(cluster);
  }, 120_000);
  afterAll(() => kubectl.close());

  it('discovers with 2 requests (aggregated /api and /apis) and finds every group', async () => {
    cluster.counters.reset();
    const result = await kubectl.run(['api-resources', '-o', 'name']);
    expect(result.stderr).toBe('');
    expect(cluster.counters.requests().filter((r) => r.verb === 'discovery')).toEqual([
      { verb: 'discovery', resource: '/api', status: 200 },
      { verb: 'discovery', resource: '/apis', status: 200 },
    ]);
    for (const name of [
      'deployments.apps',
      'horizontalpodautoscalers.autoscaling',
      'ingresses.networking.k8s.io',
      'roles.rbac.authorization.k8s.io',
      'storageclasses.storage.k8s.io',
      'leases.coordination.k8s.io',
      'serviceaccounts',
    ]) {
      expect(result.stdout.split('\n')).toContain(name);
    }
  });

  it('resolves the short names of the chart groups', async () => {
    const result = await kubectl.run(['get', 'hpa,ing,pdb,sa,sc,netpol,roles,rolebindings,leases', '-A', '-o', 'name']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });
});
