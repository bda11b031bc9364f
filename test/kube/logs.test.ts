/** readContainerLogs against the API server stand-in over real HTTPS: tails, the previous-run fallback, no-log
 *  reasons, RBAC, the time budget, cancellation, and masking. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeClient } from '../../src/kube/client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { readContainerLogs, type LogReadOptions, type LogRequest } from '../../src/kube/logs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, until } from '../cluster/testkit.js';

let cluster: TestCluster;
const clients: KubeClient[] = [];
const SECRET = 'hunter2-db-password';

beforeAll(async () => {
  cluster = await startCluster({
    speed: 0.05,
    tokens: { 'no-logs': [{ verbs: ['get', 'list'], resources: ['pods'], apiGroups: [''] }] },
  });
  cluster.create(
    deployment('crash', {
      annotations: {
        'kubewait.test/pod-failure': 'CrashLoopBackOff',
        'kubewait.test/log': `connecting with password ${SECRET}\npanic: missing DATABASE_URL\n`,
      },
    }),
  );
  cluster.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'fine', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
  });
  cluster.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pull', namespace: 'default' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'app:404' }] },
    status: {
      phase: 'Pending',
      containerStatuses: [
        { name: 'app', ready: false, restartCount: 0, image: 'app:404', imageID: '', started: false, state: { waiting: { reason: 'ImagePullBackOff' } } },
      ],
    },
  });
  await until(
    () => crashPod()?.status?.containerStatuses?.[0]?.restartCount >= 1 && cluster.get('v1', 'Pod', 'default', 'fine')?.status?.phase === 'Running',
    'a crash and a running pod',
    20_000,
  );
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await cluster.close();
});

const crashPod = () => cluster.list('v1', 'Pod', 'default').find((p) => p.metadata.name.startsWith('crash-'));

function client(token = 'admin'): KubeClient {
  const secrets = { mask: () => undefined };
  const loaded = loadKubeConfig({ kubeconfig: cluster.kubeconfig({ token }), context: '' }, secrets, { env: {}, serviceAccountDir: '/nonexistent' });
  const created = new KubeClient(loaded.kubeConfig, loaded.server, secrets);
  clients.push(created);
  return created;
}

const mask = (text: string) => text.split(SECRET).join('***');
const read = (requests: LogRequest[], options: Partial<LogReadOptions> = {}, token?: string) =>
  readContainerLogs(client(token), requests, { tailLines: 30, mask, ...options });
const req = (pod: string, previous: boolean, container = 'app'): LogRequest => ({ namespace: 'default', pod, container, previous });

describe('readContainerLogs', () => {
  it.each<[string, () => LogRequest, Partial<LogReadOptions>, unknown]>([
    [
      "a crash loop's previous run, masked",
      () => req(crashPod()!.metadata.name, true),
      {},
      { kind: 'text', text: 'connecting with password ***\npanic: missing DATABASE_URL\n', previous: true, truncated: false },
    ],
    ['tailLines', () => req(crashPod()!.metadata.name, true), { tailLines: 1 }, { kind: 'text', text: 'panic: missing DATABASE_URL\n' }],
    ['limitBytes: cut, and said so', () => req(crashPod()!.metadata.name, true), { limitBytes: 10 }, { kind: 'text', text: 'connecting', truncated: true }],
    [
      'previous asked, none there: the current run',
      () => req('fine', true),
      {},
      { kind: 'text', text: 'level=info msg="starting app"\nlevel=info msg="listening" addr=:8080\n', previous: false },
    ],
    [
      'a container waiting on its image: the reason',
      () => req('pull', false),
      {},
      { kind: 'unavailable', reason: 'container "app" in pod "pull" is waiting to start: trying and failing to pull image' },
    ],
    ['a pod that is gone', () => req('ghost', false), {}, { kind: 'unavailable', reason: 'pods "ghost" not found' }],
    ['an unknown container', () => req('fine', false, 'nope'), {}, { kind: 'unavailable', reason: 'container nope is not valid for pod fine' }],
  ])('%s', async (_what, request, options, expected) => {
    const result = await read([request()], options);
    expect(result.warnings).toEqual([]);
    expect(result.reads).toHaveLength(1);
    expect(result.reads[0]!.outcome).toMatchObject(expected as object);
  });

  it('results keep request order, each with its request', async () => {
    const requests = [req('pull', false), req(crashPod()!.metadata.name, true), req('fine', false), req('ghost', false)];
    const { reads } = await read(requests, { concurrency: 2 });
    expect(reads.map((r) => r.request)).toEqual(requests);
    expect(reads.map((r) => r.outcome.kind)).toEqual(['unavailable', 'text', 'text', 'unavailable']);
  });

  it('403: one warning naming the rule, no more reads in that namespace', async () => {
    cluster.counters.reset();
    const { reads, warnings } = await read([req('fine', false), req('pull', false), req('ghost', false)], { concurrency: 1 }, 'no-logs');
    expect(reads.map((r) => r.outcome.kind)).toEqual(['forbidden', 'forbidden', 'forbidden']);
    expect(warnings).toEqual([
      'cannot read container logs in namespace "default": the report shows no log tails there — grant get on pods/log (apiGroups [""], resources ["pods/log"], verbs ["get"]) in that namespace',
    ]);
    expect(cluster.counters.requests().filter((r) => r.resource === 'pods/log')).toHaveLength(1);
  });

  it('cancelled before it starts: nothing read', async () => {
    const controller = new AbortController();
    controller.abort();
    cluster.counters.reset();
    const { reads, warnings } = await read([req('fine', false), req('pull', false)], { signal: controller.signal });
    expect(reads.map((r) => r.outcome)).toEqual([
      { kind: 'failed', message: 'cancelled' },
      { kind: 'failed', message: 'cancelled' },
    ]);
    expect(warnings).toEqual([]);
    expect(cluster.counters.requests().filter((r) => r.resource === 'pods/log')).toHaveLength(0);
  });

  // Last: the latency applies to every request of the cluster.
  it('a slow server: the budget ends every read, with one warning', async () => {
    cluster.faults.latency(600); // longer than the budget, short enough to be over when the cluster closes
    try {
      const { reads, warnings } = await read([req('fine', false), req('pull', false), req('ghost', false), req('fine', true)], {
        budgetMs: 200,
        concurrency: 2,
      });
      expect(reads.map((r) => r.outcome)).toEqual(Array(4).fill({ kind: 'failed', message: 'not read within 200 ms' }));
      expect(warnings).toEqual(['container logs: 4 of 4 not read within 200 ms']);
    } finally {
      cluster.faults.latency(0);
    }
  });
});
