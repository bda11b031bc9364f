/** Discovery against the API server stand-in: resolution, CRDs appearing later, rate-limited refresh,
 *  ambiguity between two CRD groups, and short user-facing API errors. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { connect, Discovery, listPages } from '../../src/kube/index.js';
import type { Cluster } from '../../src/kube/index.js';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';
import { configMap, raw, until } from '../cluster/testkit.js';

let server: TestCluster;
let cluster: Cluster;
const sources = { env: {}, serviceAccountDir: '/nonexistent' };

function crd(group: string, plural: string, kind: string, shortNames: string[]): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

function established(name: string): boolean {
  const object = server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, name);
  return (object?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
}

beforeAll(async () => {
  server = await startCluster({
    controllers: false,
    crdEstablishDelayMs: 50,
    tokens: { 'no-configmaps': [{ verbs: ['*'], resources: ['pods'], apiGroups: [''] }] },
  });
  cluster = await connect({ kubeconfig: server.kubeconfig(), context: '' }, { mask: () => {} }, sources);
});
afterAll(async () => {
  await cluster.close();
  await server.close();
});

describe('discovery', () => {
  it('resolves built-in types like kubectl', async () => {
    await cluster.discovery.load();
    for (const [type, group, plural] of [
      ['deploy', 'apps', 'deployments'],
      ['deployments.apps', 'apps', 'deployments'],
      ['po', '', 'pods'],
      ['cj', 'batch', 'cronjobs'],
      ['crd', 'apiextensions.k8s.io', 'customresourcedefinitions'],
      ['pdb', 'policy', 'poddisruptionbudgets'],
    ] as const) {
      expect(cluster.discovery.resolve({ type })).toMatchObject({ ok: true, type: { group, resource: plural } });
    }
  });

  it.each([
    // The stand-in serves aggregated discovery as kube-apiserver 1.26+ does: 2 requests. Without it
    // (older or aggregated API servers) Discovery falls back to one request per group version.
    ['aggregated discovery', true],
    ['legacy documents only', false],
  ])('discovers with %s in the fewest requests the server allows', async (_name, aggregatedDiscovery) => {
    const other = await startCluster({ controllers: false, aggregatedDiscovery });
    const client = await connect({ kubeconfig: other.kubeconfig(), context: '' }, { mask: () => {} }, sources);
    try {
      await client.discovery.load();
      const requests = other.counters
        .requests()
        .filter((r) => r.verb === 'discovery')
        .map((r) => r.resource);
      // core v1 plus every named group version
      const groupVersions = ((await raw(other, 'GET', '/apis')).json.groups as Array<{ versions: unknown[] }>).reduce((n, g) => n + g.versions.length, 1);
      expect(requests.slice(0, 2).sort()).toEqual(['/api', '/apis']);
      expect(requests).toHaveLength(aggregatedDiscovery ? 2 : 2 + groupVersions);
      for (const type of ['deploy', 'hpa', 'ing', 'roles', 'sc', 'leases', 'sa']) expect(client.discovery.resolve({ type })).toMatchObject({ ok: true });
      expect(client.discovery.resolve({ type: 'hpa' })).toMatchObject({
        ok: true,
        type: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', namespaced: true },
      });
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('finds a CRD installed later once it is established, at most once per interval', async () => {
    const discovery = new Discovery(cluster.client, 300);
    await discovery.load();
    expect(discovery.resolve({ type: 'gizmos' })).toMatchObject({
      ok: false,
      ambiguous: false,
      message: 'resource type "gizmos" is not served by the cluster',
    });
    server.create(crd('example.com', 'gizmos', 'Gizmo', ['gz']));
    await until(() => established('gizmos.example.com'), 'CRD established');

    const before = server.counters.requests().length;
    expect(await discovery.refresh()).toBe(false); // too soon: no request
    expect(server.counters.requests().length).toBe(before);
    await until(() => discovery.refreshDelayMs() === 0, 'refresh allowed');
    expect(await discovery.refresh()).toBe(true);
    expect(discovery.resolve({ type: 'gz' })).toMatchObject({ ok: true, type: { group: 'example.com', version: 'v1', resource: 'gizmos', kind: 'Gizmo' } });
    expect(discovery.resolve({ type: 'Gizmo', apiVersion: 'example.com/v1' })).toMatchObject({ ok: true });
  });

  it('reports two CRD groups sharing a short name as ambiguous, listing both', async () => {
    server.create(crd('one.example.com', 'backups', 'Backup', ['bk']));
    server.create(crd('two.example.com', 'backups', 'Backup', ['bk']));
    await until(() => established('backups.one.example.com') && established('backups.two.example.com'), 'CRDs established');
    const discovery = new Discovery(cluster.client, 0);
    await discovery.load();
    expect(discovery.resolve({ type: 'bk' })).toMatchObject({
      ok: false,
      ambiguous: true,
      candidates: ['backups.one.example.com', 'backups.two.example.com'],
    });
    expect(discovery.resolve({ type: 'bk.two.example.com' })).toMatchObject({ ok: true, type: { group: 'two.example.com' } });
  });

  it('turns a forbidden LIST into one short line from the Status body', async () => {
    const limited = await connect({ kubeconfig: server.kubeconfig({ token: 'no-configmaps' }), context: '' }, { mask: () => {} }, sources);
    try {
      await expect(listPages(limited.client, '/api/v1/namespaces/default/configmaps', () => {})).rejects.toMatchObject({
        status: 403,
        reason: 'Forbidden',
        message: expect.stringMatching(
          /^403 Forbidden: configmaps is forbidden: User "no-configmaps" cannot list resource "configmaps" in API group "" in the namespace "default"$/,
        ),
      });
    } finally {
      await limited.close();
    }
  });

  it('pages a LIST with continue tokens', async () => {
    for (let i = 0; i < 7; i++) server.create(configMap(`page-${i}`, { paged: 'yes' }));
    const pages: number[] = [];
    const version = await listPages(cluster.client, '/api/v1/namespaces/default/configmaps', (items) => pages.push(items.length), {
      labelSelector: 'paged=yes',
      pageSize: 3,
    });
    expect(pages).toEqual([3, 3, 1]);
    expect(version).toMatch(/^\d+$/);
  });

  it('says the server is unreachable in one line', async () => {
    const port = await closedPort();
    const gone = await connect({ kubeconfig: server.kubeconfig().replace(server.url, `https://127.0.0.1:${port}`), context: '' }, { mask: () => {} }, sources);
    try {
      await expect(gone.discovery.load()).rejects.toMatchObject({
        status: 0,
        message: `cannot reach the API server at https://127.0.0.1:${port}: ECONNREFUSED`,
      });
    } finally {
      await gone.close();
    }
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
