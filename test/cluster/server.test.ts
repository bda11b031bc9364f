/** The stand-in's HTTP API through @kubernetes/client-node and raw HTTPS: discovery, CRUD, LIST, errors. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions, VersionApi, type KubernetesObject } from '@kubernetes/client-node';
import { startCluster, type TestCluster } from './index.js';
import { configMap, deployment, kubeConfigFor, raw } from './testkit.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startCluster({ controllers: false, tokens: { ci: [{ verbs: ['get', 'list'], resources: ['deployments'], apiGroups: ['apps'] }] } });
});
afterAll(async () => {
  await cluster.close();
});

describe('discovery', () => {
  it('serves /version over HTTPS verified by the CA in the kubeconfig', async () => {
    const version = await kubeConfigFor(cluster).makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe('v1.35.2');
    expect(cluster.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('lists core v1 and the API groups', async () => {
    const api = await raw(cluster, 'GET', '/api');
    expect(api.json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await raw(cluster, 'GET', '/apis')).json;
    expect(groups.kind).toBe('APIGroupList');
    expect(groups.groups.map((g: { name: string }) => g.name)).toEqual(expect.arrayContaining(['apps', 'batch', 'policy', 'apiextensions.k8s.io']));
    const apps = (await raw(cluster, 'GET', '/apis/apps')).json;
    expect(apps).toMatchObject({ kind: 'APIGroup', name: 'apps', preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
  });

  it.each([
    ['/api/v1', 'pods', { kind: 'Pod', singularName: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'] }],
    ['/api/v1', 'namespaces', { kind: 'Namespace', namespaced: false, shortNames: ['ns'] }],
    ['/apis/apps/v1', 'deployments', { kind: 'Deployment', singularName: 'deployment', shortNames: ['deploy'], categories: ['all'] }],
    ['/apis/batch/v1', 'cronjobs', { kind: 'CronJob', shortNames: ['cj'] }],
    ['/apis/policy/v1', 'poddisruptionbudgets', { kind: 'PodDisruptionBudget', shortNames: ['pdb'] }],
    ['/apis/apiextensions.k8s.io/v1', 'customresourcedefinitions', { kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'] }],
  ])('%s describes %s', async (path, name, expected) => {
    const list = (await raw(cluster, 'GET', path)).json;
    expect(list.kind).toBe('APIResourceList');
    const resource = list.resources.find((r: { name: string }) => r.name === name);
    expect(resource).toMatchObject({ ...expected, verbs: expect.arrayContaining(['get', 'list', 'watch', 'create', 'patch', 'delete']) });
  });

  it('lists the status subresource of workloads', async () => {
    const list = (await raw(cluster, 'GET', '/apis/apps/v1')).json;
    expect(list.resources.find((r: { name: string }) => r.name === 'deployments/status')).toMatchObject({
      kind: 'Deployment',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('answers an unknown group with a 404 Status', async () => {
    const res = await raw(cluster, 'GET', '/apis/nope.example.com/v1');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });
});

describe('objects', () => {
  it('creates with server-set metadata and reads back through KubernetesObjectApi', async () => {
    const client = KubernetesObjectApi.makeApiClient(kubeConfigFor(cluster));
    const created = await client.create<KubernetesObject>(deployment('web-create'));
    expect(created.metadata).toMatchObject({ name: 'web-create', namespace: 'default', generation: 1, uid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(created.metadata?.creationTimestamp).toBeDefined();
    const read = await client.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web-create', namespace: 'default' } });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('bumps generation on spec changes only, and ignores status sent to the main resource', async () => {
    const apps = kubeConfigFor(cluster).makeApiClient(AppsV1Api);
    const d = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web-gen') });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const labelled = await apps.patchNamespacedDeployment({ name: 'web-gen', namespace: 'default', body: { metadata: { labels: { tier: 'x' } } } }, merge);
    expect(labelled.metadata?.generation).toBe(1);
    expect(Number(labelled.metadata?.resourceVersion)).toBeGreaterThan(Number(d.metadata?.resourceVersion));
    const scaled = await apps.patchNamespacedDeployment(
      { name: 'web-gen', namespace: 'default', body: { spec: { replicas: 3 }, status: { replicas: 99 } } },
      merge,
    );
    expect(scaled.metadata?.generation).toBe(2);
    expect(scaled.status?.replicas).toBeUndefined();
    const status = await apps.patchNamespacedDeploymentStatus(
      { name: 'web-gen', namespace: 'default', body: { status: { replicas: 3, observedGeneration: 2 } } },
      merge,
    );
    expect(status.status).toMatchObject({ replicas: 3, observedGeneration: 2 });
    expect(status.metadata?.generation).toBe(2);
  });

  it.each([
    ['merge', 'application/merge-patch+json', { metadata: { labels: { a: '1' } } }],
    ['strategic', 'application/strategic-merge-patch+json', { metadata: { labels: { a: '1' } } }],
    ['json', 'application/json-patch+json', [{ op: 'add', path: '/metadata/labels', value: { a: '1' } }]],
  ])('applies a %s patch', async (_name, contentType, body) => {
    const name = `cm-patch-${_name}`;
    cluster.create(configMap(name));
    const res = await raw(cluster, 'PATCH', `/api/v1/namespaces/default/configmaps/${name}`, { body, headers: { 'Content-Type': contentType } });
    expect(res.status).toBe(200);
    expect(res.json.metadata.labels).toEqual({ a: '1' });
    expect(res.json.data).toEqual({ k: 'v' });
  });

  it('merges a strategic patch of containers by name (kubectl set image)', async () => {
    cluster.create(deployment('web-smp'));
    const res = await raw(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web-smp', {
      body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } },
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(res.json.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'app', image: 'nginx:2', imagePullPolicy: 'IfNotPresent' })]);
  });

  it('answers errors with real Status bodies', async () => {
    cluster.create(configMap('cm-exists'));
    const cases: Array<[string, string, unknown, number, string, string]> = [
      ['GET', '/apis/apps/v1/namespaces/default/deployments/missing', undefined, 404, 'NotFound', 'deployments.apps "missing" not found'],
      ['GET', '/api/v1/namespaces/default/pods/missing', undefined, 404, 'NotFound', 'pods "missing" not found'],
      ['POST', '/api/v1/namespaces/default/configmaps', configMap('cm-exists'), 409, 'AlreadyExists', 'configmaps "cm-exists" already exists'],
      [
        'POST',
        '/api/v1/namespaces/default/configmaps',
        configMap('Bad_Name'),
        422,
        'Invalid',
        'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"',
      ],
      ['GET', '/apis/apps/v1/namespaces/default/widgets', undefined, 404, 'NotFound', 'the server could not find the requested resource'],
    ];
    for (const [method, path, body, code, reason, message] of cases) {
      const res = await raw(cluster, method, path, { body });
      expect({ path, code: res.status }).toEqual({ path, code });
      expect(res.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
      expect(res.json.message).toContain(message);
    }
  });

  it('rejects an update with a stale resourceVersion with 409 Conflict', async () => {
    const cm = cluster.create(configMap('cm-conflict'));
    cluster.apply({ ...configMap('cm-conflict'), data: { k: 'changed' } });
    const res = await raw(cluster, 'PUT', '/api/v1/namespaces/default/configmaps/cm-conflict', { body: cm });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "cm-conflict": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('deletes objects with finalizers only after the finalizers are cleared', async () => {
    cluster.create({ ...configMap('cm-final'), metadata: { name: 'cm-final', namespace: 'default', finalizers: ['example.com/hold'] } });
    const del = await raw(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/cm-final');
    expect(del.status).toBe(200);
    expect(del.json.metadata.deletionTimestamp).toBeDefined();
    expect(cluster.get('v1', 'ConfigMap', 'default', 'cm-final')?.metadata.deletionTimestamp).toBeDefined();
    await raw(cluster, 'PATCH', '/api/v1/namespaces/default/configmaps/cm-final', {
      body: { metadata: { finalizers: null } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(cluster.get('v1', 'ConfigMap', 'default', 'cm-final')).toBeUndefined();
  });

  it('answers a plain delete with a Success Status', async () => {
    cluster.create(configMap('cm-del'));
    const del = await raw(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/cm-del');
    expect(del.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'cm-del', kind: 'configmaps' } });
    expect(cluster.get('v1', 'ConfigMap', 'default', 'cm-del')).toBeUndefined();
  });
});

describe('list', () => {
  beforeAll(() => {
    for (const ns of ['sel-a', 'sel-b']) cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    cluster.create(configMap('one', { app: 'web', tier: 'front' }, 'sel-a'));
    cluster.create(configMap('two', { app: 'web', tier: 'back' }, 'sel-a'));
    cluster.create(configMap('three', { app: 'db' }, 'sel-a'));
    cluster.create(configMap('four', { app: 'web', tier: 'front' }, 'sel-b'));
  });

  it.each([
    ['app=web', ['one', 'two']],
    ['app==web', ['one', 'two']],
    ['app!=web', ['three']],
    ['tier in (front,back)', ['one', 'two']],
    ['tier notin (front)', ['three', 'two']],
    ['tier', ['one', 'two']],
    ['!tier', ['three']],
    ['app=web,tier=back', ['two']],
    ['app in (web, db),!tier', ['three']],
  ])('filters by labelSelector %s', async (selector, names) => {
    const core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: 'sel-a', labelSelector: selector });
    expect(list.items.map((i) => i.metadata?.name).sort()).toEqual([...names].sort());
  });

  it.each([
    ['metadata.name=one', ['sel-a/one']],
    ['metadata.namespace=sel-b', ['sel-b/four']],
    ['metadata.name!=one,metadata.namespace=sel-a', ['sel-a/three', 'sel-a/two']],
  ])('filters all namespaces by fieldSelector %s', async (selector, keys) => {
    const core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
    const list = await core.listConfigMapForAllNamespaces({ fieldSelector: selector, labelSelector: 'app' });
    expect(list.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`).sort()).toEqual(keys);
  });

  it('rejects an unsupported field selector with 400', async () => {
    const res = await raw(cluster, 'GET', '/api/v1/configmaps?fieldSelector=spec.foo%3Dbar');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'field label not supported: spec.foo' });
  });

  it('pages with limit and continue at one resourceVersion', async () => {
    const first = (await raw(cluster, 'GET', '/api/v1/configmaps?labelSelector=app&limit=3')).json;
    expect(first.items).toHaveLength(3);
    expect(first.metadata).toMatchObject({ continue: expect.any(String), remainingItemCount: 1 });
    cluster.create(configMap('zz-later', { app: 'x' }, 'sel-b'));
    const second = (await raw(cluster, 'GET', `/api/v1/configmaps?labelSelector=app&limit=3&continue=${encodeURIComponent(first.metadata.continue)}`)).json;
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second.metadata.continue).toBeUndefined();
    const all = [...first.items, ...second.items].map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`);
    expect(all).toEqual(['sel-a/one', 'sel-a/three', 'sel-a/two', 'sel-b/four', 'sel-b/zz-later']);
  });

  it('drops kind and apiVersion from built-in list items, as a real server does', async () => {
    const list = (await raw(cluster, 'GET', '/api/v1/namespaces/sel-a/configmaps')).json;
    expect(list).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: expect.any(String) } });
    expect(list.items[0].kind).toBeUndefined();
  });

  it('prints a Table when asked (kubectl get)', async () => {
    const res = await raw(cluster, 'GET', '/api/v1/namespaces/sel-a/configmaps', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    });
    expect(res.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(res.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']); // kube-apiserver's ConfigMap columns
    expect(res.json.rows.map((r: { cells: string[] }) => r.cells[0])).toEqual(['one', 'three', 'two']);
    expect(res.json.rows[0].object.kind).toBe('PartialObjectMetadata');
  });
});

describe('authentication and authorization', () => {
  it('answers an unknown token with 401', async () => {
    const res = await raw(cluster, 'GET', '/api/v1/pods', { token: 'nobody' });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it.each([
    [
      'watch',
      '/apis/apps/v1/namespaces/default/deployments?watch=true',
      'deployments.apps is forbidden: User "ci" cannot watch resource "deployments" in API group "apps" in the namespace "default"',
    ],
    ['list', '/api/v1/namespaces/default/pods', 'pods is forbidden: User "ci" cannot list resource "pods" in API group "" in the namespace "default"'],
    ['get', '/api/v1/namespaces/default/pods/p1', 'pods "p1" is forbidden: User "ci" cannot get resource "pods" in API group "" in the namespace "default"'],
    ['list', '/apis/batch/v1/jobs', 'jobs.batch is forbidden: User "ci" cannot list resource "jobs" in API group "batch" at the cluster scope'],
    [
      'patch',
      '/apis/apps/v1/namespaces/default/deployments/x/status',
      'deployments.apps "x" is forbidden: User "ci" cannot patch resource "deployments/status" in API group "apps" in the namespace "default"',
    ],
  ])('forbids %s with the real message', async (_verb, path, message) => {
    const res = await raw(cluster, _verb === 'patch' ? 'PATCH' : 'GET', path, {
      token: 'ci',
      body: _verb === 'patch' ? {} : undefined,
      headers: _verb === 'patch' ? { 'Content-Type': 'application/merge-patch+json' } : {},
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message });
  });

  it('allows what the rules grant, and discovery to every authenticated user', async () => {
    expect((await raw(cluster, 'GET', '/apis/apps/v1/deployments', { token: 'ci' })).status).toBe(200);
    expect((await raw(cluster, 'GET', '/apis/apps/v1', { token: 'ci' })).status).toBe(200);
  });

  it('limits namespace-restricted rules to those namespaces', async () => {
    cluster.setAccess('team', [{ verbs: ['list'], resources: ['configmaps'], apiGroups: [''], namespaces: ['sel-a'] }]);
    expect((await raw(cluster, 'GET', '/api/v1/namespaces/sel-a/configmaps', { token: 'team' })).status).toBe(200);
    expect((await raw(cluster, 'GET', '/api/v1/namespaces/sel-b/configmaps', { token: 'team' })).status).toBe(403);
    expect((await raw(cluster, 'GET', '/api/v1/configmaps', { token: 'team' })).status).toBe(403);
  });
});

describe('kubeconfig', () => {
  it('names the context, user token and namespace', () => {
    const kc = kubeConfigFor(cluster, { token: 'ci', namespace: 'apps' });
    expect(kc.getCurrentContext()).toBe('test');
    expect(kc.getContextObject('test')?.namespace).toBe('apps');
    expect(kc.getCurrentUser()?.token).toBe('ci');
    expect(kc.getCurrentCluster()?.server).toBe(cluster.url);
  });
});

describe('plain http', () => {
  it('serves http with insecure-skip-tls-verify in the kubeconfig', async () => {
    const plain = await startCluster({ tls: false, controllers: false });
    try {
      expect(plain.url).toMatch(/^http:\/\//);
      expect(plain.kubeconfig()).toContain('insecure-skip-tls-verify: true');
      const ns = await kubeConfigFor(plain).makeApiClient(CoreV1Api).listNamespace();
      expect(ns.items.map((n) => n.metadata?.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    } finally {
      await plain.close();
    }
  });
});
