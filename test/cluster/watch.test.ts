/** WATCH through client-node's Watch and informer: resourceVersion semantics, 410, bookmarks, selectors,
 *  faults and counters. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoreV1Api, makeInformer, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { startCluster, type TestCluster } from './index.js';
import { configMap, kubeConfigFor, raw, RecordedWatch, until } from './testkit.js';

let cluster: TestCluster;
const watches: RecordedWatch[] = [];

async function watchConfigMaps(namespace: string, query: Record<string, string | number | boolean | undefined> = {}, token?: string): Promise<RecordedWatch> {
  const w = await RecordedWatch.start(kubeConfigFor(cluster, { token }), `/api/v1/namespaces/${namespace}/configmaps`, query);
  watches.push(w);
  return w;
}

function ns(name: string): string {
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

beforeAll(async () => {
  cluster = await startCluster({
    controllers: false,
    watchHistory: 5,
    bookmarkIntervalMs: 50,
    tokens: { lister: [{ verbs: ['list'], resources: ['configmaps'], apiGroups: [''] }] },
  });
});
afterAll(async () => {
  for (const w of watches) w.stop();
  await cluster.close();
});

describe('watch', () => {
  it('without resourceVersion sends the current objects as ADDED, then live changes', async () => {
    const n = ns('w-initial');
    cluster.create(configMap('a', {}, n));
    cluster.create(configMap('b', {}, n));
    const w = await watchConfigMaps(n);
    await until(() => w.events.length === 2, 'initial ADDED events');
    cluster.apply({ ...configMap('a', {}, n), data: { k: 'new' } });
    cluster.delete('v1', 'ConfigMap', n, 'b');
    await until(() => w.events.length === 4, 'live events');
    expect(w.summary()).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b']);
    expect(w.events[2]?.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'new' } });
  });

  it('from a list resourceVersion replays exactly the changes after it', async () => {
    const n = ns('w-replay');
    cluster.create(configMap('a', {}, n));
    const core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: n });
    cluster.create(configMap('b', {}, n));
    cluster.apply({ ...configMap('a', {}, n), data: { k: 'x' } });
    const w = await watchConfigMaps(n, { resourceVersion: list.metadata?.resourceVersion });
    await until(() => w.events.length === 2, 'replayed events');
    expect(w.summary()).toEqual(['ADDED b', 'MODIFIED a']);
    expect(Number(w.events[1]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(w.events[0]!.object.metadata.resourceVersion));
  });

  it('from a resourceVersion older than the history sends ERROR 410 Expired and ends', async () => {
    const n = ns('w-expired');
    const core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: n });
    for (let i = 0; i < 8; i++) cluster.create(configMap(`c${i}`, {}, n)); // history keeps 5
    const w = await watchConfigMaps(n, { resourceVersion: list.metadata?.resourceVersion });
    await until(() => w.endedAt, 'watch end');
    expect(w.events).toHaveLength(1);
    expect(w.events[0]?.type).toBe('ERROR');
    expect(w.events[0]?.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(w.events[0]?.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it('sends BOOKMARK events carrying the current resourceVersion when asked', async () => {
    const n = ns('w-bookmark');
    const w = await watchConfigMaps(n, { allowWatchBookmarks: true, resourceVersion: cluster.resourceVersion() });
    cluster.create(configMap('elsewhere', {}, 'default'));
    await until(
      () => w.events.some((e) => e.type === 'BOOKMARK' && Number(e.object.metadata.resourceVersion) >= Number(cluster.resourceVersion())),
      'a bookmark',
    );
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK')!;
    expect(bookmark.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(w.events.every((e) => e.type === 'BOOKMARK')).toBe(true);
  });

  it('without allowWatchBookmarks sends no bookmarks', async () => {
    const n = ns('w-nobookmark');
    const plain = await watchConfigMaps(n, { resourceVersion: cluster.resourceVersion() });
    const withBookmarks = await watchConfigMaps(n, { resourceVersion: cluster.resourceVersion(), allowWatchBookmarks: true });
    await until(() => withBookmarks.events.filter((e) => e.type === 'BOOKMARK').length >= 3, 'bookmarks on the other watch');
    cluster.create(configMap('marker', {}, n));
    await until(() => plain.events.length >= 1, 'marker');
    expect(plain.summary()).toEqual(['ADDED marker']);
  });

  it('sends initial events and an initial-events-end bookmark for sendInitialEvents (watch-list)', async () => {
    const n = ns('w-watchlist');
    cluster.create(configMap('a', {}, n));
    const w = await watchConfigMaps(n, { sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: 'NotOlderThan' });
    await until(() => w.events.length >= 2, 'initial events and bookmark');
    expect(w.events[0]?.type).toBe('ADDED');
    expect(w.events[1]).toMatchObject({ type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
  });

  it('turns label changes into ADDED/DELETED for a labelSelector watch', async () => {
    const n = ns('w-selector');
    cluster.create(configMap('a', { app: 'web' }, n));
    cluster.create(configMap('b', { app: 'db' }, n));
    const w = await watchConfigMaps(n, { labelSelector: 'app=web' });
    await until(() => w.events.length === 1, 'initial');
    cluster.apply(configMap('a', { app: 'other' }, n));
    cluster.apply(configMap('b', { app: 'web' }, n));
    await until(() => w.events.length === 3, 'transitions');
    expect(w.summary()).toEqual(['ADDED a', 'DELETED a', 'ADDED b']);
  });

  it('watches one object by fieldSelector metadata.name and by a /watch/ path', async () => {
    const n = ns('w-byname');
    cluster.create(configMap('a', {}, n));
    cluster.create(configMap('b', {}, n));
    const byField = await watchConfigMaps(n, { fieldSelector: 'metadata.name=b' });
    const legacy = await RecordedWatch.start(kubeConfigFor(cluster), `/api/v1/watch/namespaces/${n}/configmaps/b`, {});
    watches.push(legacy);
    cluster.apply({ ...configMap('a', {}, n), data: { k: '1' } });
    cluster.apply({ ...configMap('b', {}, n), data: { k: '1' } });
    await until(() => byField.events.length === 2 && legacy.events.length === 2, 'b events');
    expect(byField.summary()).toEqual(['ADDED b', 'MODIFIED b']);
    expect(legacy.summary()).toEqual(['ADDED b', 'MODIFIED b']);
  });

  it('ends the stream after timeoutSeconds', async () => {
    const w = await watchConfigMaps(ns('w-timeout'), { timeoutSeconds: 1 });
    await until(() => w.endedAt, 'server-side end', 10_000);
    expect(w.ended).toBeNull();
  });

  it('answers a forbidden watch with 403 (client-node reports statusCode 403)', async () => {
    const w = await watchConfigMaps('default', {}, 'lister');
    await until(() => w.endedAt, 'watch refused');
    expect((w.ended as { statusCode?: number }).statusCode).toBe(403);
  });

  it('lets an informer list, watch and keep a cache', async () => {
    const n = ns('w-informer');
    cluster.create(configMap('a', {}, n));
    const kc = kubeConfigFor(cluster);
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap & KubernetesObject>(kc, `/api/v1/namespaces/${n}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: n }),
    );
    await informer.start();
    try {
      cluster.create(configMap('b', {}, n));
      await until(() => informer.list(n).length === 2, 'informer cache');
      expect(
        informer
          .list(n)
          .map((c) => c.metadata?.name)
          .sort(),
      ).toEqual(['a', 'b']);
    } finally {
      await informer.stop().catch(() => undefined);
    }
  });
});

describe('faults', () => {
  it('closeWatches ends open watch streams', async () => {
    const w = await watchConfigMaps(ns('f-close'));
    await until(() => cluster.counters.openWatches() > 0, 'watch open');
    cluster.faults.closeWatches({ resource: 'configmaps' });
    await until(() => w.endedAt, 'watch closed');
    expect(w.ended).toBeNull();
  });

  it('goneOnNextWatch answers the next watch with ERROR 410', async () => {
    cluster.faults.goneOnNextWatch({ resource: 'configmaps' });
    const w = await watchConfigMaps(ns('f-gone'), { resourceVersion: cluster.resourceVersion() });
    await until(() => w.endedAt, 'watch end');
    expect(w.events.map((e) => [e.type, e.object.code])).toEqual([['ERROR', 410]]);
    const next = await watchConfigMaps('f-gone', { resourceVersion: cluster.resourceVersion() });
    cluster.create(configMap('after', {}, 'f-gone'));
    await until(() => next.events.length === 1, 'next watch works');
    expect(next.summary()).toEqual(['ADDED after']);
  });

  it.each([
    [500, 'InternalError', undefined],
    [503, 'ServiceUnavailable', 2],
    [429, 'TooManyRequests', 3],
  ] as const)('failNext answers %d with a Status body (and Retry-After)', async (status, reason, retryAfterSeconds) => {
    cluster.faults.failNext(2, { status, retryAfterSeconds, verb: 'list', resource: 'configmaps' });
    const get = await raw(cluster, 'GET', '/api/v1/namespaces/default/configmaps/nothing');
    expect(get.status).toBe(404); // other verbs are not affected
    for (let i = 0; i < 2; i++) {
      const res = await raw(cluster, 'GET', '/api/v1/namespaces/default/configmaps');
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ kind: 'Status', reason, code: status });
      if (retryAfterSeconds) expect(res.headers['retry-after']).toBe(String(retryAfterSeconds));
    }
    expect((await raw(cluster, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
  });

  it('unavailable holds requests until the window ends', async () => {
    const started = Date.now();
    cluster.faults.unavailable(300);
    const res = await raw(cluster, 'GET', '/api/v1/namespaces');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // a lower bound only: held, never early
  });

  it('latency delays every response', async () => {
    cluster.faults.latency(150);
    try {
      const started = Date.now();
      expect((await raw(cluster, 'GET', '/api/v1/namespaces')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      cluster.faults.latency(0);
    }
  });
});

describe('counters', () => {
  it('count requests by verb and resource, bytes and open watches', async () => {
    cluster.counters.reset();
    expect(cluster.counters.bytesSent()).toBe(0);
    await raw(cluster, 'GET', '/apis/apps/v1');
    await raw(cluster, 'GET', '/api/v1/namespaces/default/configmaps');
    await raw(cluster, 'GET', '/api/v1/namespaces/default/configmaps/none');
    await raw(cluster, 'GET', '/api/v1/pods', { token: 'lister' });
    const open = cluster.counters.openWatches();
    const w = await watchConfigMaps('default');
    await until(() => cluster.counters.openWatches() === open + 1, 'watch counted');
    expect(cluster.counters.byVerb()).toMatchObject({ discovery: 1, list: 2, get: 1, watch: 1 });
    expect(cluster.counters.requests().slice(0, 4)).toEqual([
      { verb: 'discovery', resource: '/apis/apps/v1', status: 200 },
      { verb: 'list', resource: 'configmaps', namespace: 'default', status: 200 },
      { verb: 'get', resource: 'configmaps', namespace: 'default', status: 404 },
      { verb: 'list', resource: 'pods', status: 403 },
    ]);
    expect(cluster.counters.bytesSent()).toBeGreaterThan(100);
    w.stop();
    await until(() => cluster.counters.openWatches() === open, 'watch closed');
  });
});
