/** CustomResourceDefinitions: served after establishment, gone after deletion. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubernetesObjectApi } from '@kubernetes/client-node';
import { startCluster, type TestCluster } from './index.js';
import { eventually, kubeConfigFor, raw, until, widgetCrd } from './testkit.js';

let cluster: TestCluster;

const widget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default' }, spec: { size: 1 } });

beforeAll(async () => {
  cluster = await startCluster({ controllers: false, crdEstablishDelayMs: 50 });
});
afterAll(async () => {
  await cluster.close();
});

describe('custom resource definitions', () => {
  it('serve the new resource only once Established, and stop serving it when deleted', async () => {
    expect((await raw(cluster, 'GET', '/apis/example.com/v1/namespaces/default/widgets')).status).toBe(404);
    const created = await raw(cluster, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: widgetCrd() });
    expect(created.status).toBe(201);

    await until(
      () =>
        cluster
          .get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'widgets.example.com')
          ?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True'),
      'Established',
    );
    const crd = cluster.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'widgets.example.com')!;
    expect(crd.status.conditions.map((c: { type: string }) => c.type)).toEqual(['NamesAccepted', 'Established']);
    expect(crd.status.acceptedNames).toMatchObject({ kind: 'Widget', plural: 'widgets' });

    const group = (await raw(cluster, 'GET', '/apis')).json.groups.find((g: { name: string }) => g.name === 'example.com');
    expect(group).toMatchObject({ preferredVersion: { groupVersion: 'example.com/v1' } });
    const resources = (await raw(cluster, 'GET', '/apis/example.com/v1')).json.resources;
    expect(resources.map((r: { name: string }) => r.name)).toEqual(['widgets', 'widgets/status']);
    expect(resources[0]).toMatchObject({ kind: 'Widget', singularName: 'widget', shortNames: ['wdg'], namespaced: true });

    const client = KubernetesObjectApi.makeApiClient(kubeConfigFor(cluster));
    await client.create(widget('w1'));
    const list = await client.list('example.com/v1', 'Widget', 'default');
    expect(list.items.map((i) => [i.kind, i.metadata?.name, i.metadata?.generation])).toEqual([['Widget', 'w1', 1]]);

    await raw(cluster, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    await until(() => !cluster.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition').length, 'CRD gone');
    await eventually(async () => (await raw(cluster, 'GET', '/apis/example.com/v1/namespaces/default/widgets')).status === 404, 'resource unserved');
    expect((await raw(cluster, 'GET', '/apis/example.com/v1')).status).toBe(404);
  });
});
