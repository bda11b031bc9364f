/** pods/log over real HTTP, its messages compared with the real sources: kube-apiserver
 *  pkg/registry/core/pod/strategy.go (LogLocation, validateContainer), pkg/apis/core/validation
 *  (ValidatePodLogOptions), the kubelet's pkg/kubelet/kubelet_pods.go (validateContainerLogStatus), relayed as a
 *  400 by apiserver's GenericHttpResponseChecker; and the container logs the simulated kubelet writes. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type KubeObject, type TestCluster } from './index.js';
import { deployment, raw, until } from './testkit.js';

let cluster: TestCluster;
const T = 20_000;

beforeAll(async () => {
  cluster = await startCluster({
    speed: 0.05,
    tokens: {
      'pod-reader': [{ verbs: ['get', 'list', 'watch'], resources: ['pods'], apiGroups: [''] }],
      'log-reader': [{ verbs: ['get'], resources: ['pods/log'], apiGroups: [''], namespaces: ['default'] }],
    },
  });
});
afterAll(async () => {
  await cluster.close();
});

const logPath = (pod: string, query = '', ns = 'default') => `/api/v1/namespaces/${ns}/pods/${pod}/log${query ? `?${query}` : ''}`;
const getPod = (name: string) => cluster.get('v1', 'Pod', 'default', name);
const podsOf = (prefix: string) => cluster.list('v1', 'Pod', 'default').filter((p) => p.metadata.name.startsWith(`${prefix}-`));
const status = (pod: KubeObject | undefined, container = 'app') => (pod?.status?.containerStatuses ?? []).find((c: { name: string }) => c.name === container);

function pod(
  name: string,
  opts: { annotations?: Record<string, string>; containers?: string[]; initContainers?: string[]; restartPolicy?: string } = {},
): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      restartPolicy: opts.restartPolicy ?? 'Always',
      ...(opts.initContainers ? { initContainers: opts.initContainers.map((n) => ({ name: n, image: 'busybox:1.36' })) } : {}),
      containers: (opts.containers ?? ['app']).map((n) => ({ name: n, image: 'busybox:1.36' })),
    },
  };
}

async function crashLoopPod(prefix: string, annotations: Record<string, string> = {}): Promise<string> {
  cluster.create(deployment(prefix, { annotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff', ...annotations } }));
  await until(() => (status(podsOf(prefix)[0])?.restartCount ?? 0) >= 2, `${prefix} restarted twice`, T);
  return podsOf(prefix)[0]!.metadata.name;
}

describe('pods/log: the log text the simulated kubelet writes', () => {
  it('a crash loop: text/plain, the last run with its panic line, the same for previous=true', async () => {
    const name = await crashLoopPod('crash');
    const current = await raw(cluster, 'GET', logPath(name), { headers: { Accept: '*/*' } });
    expect(current.status).toBe(200);
    expect(current.headers['content-type']).toBe('text/plain');
    const lines = current.text.split('\n');
    expect(lines).toContain('panic: missing DATABASE_URL');
    expect(lines.at(-1)).toBe(''); // every line ends with a newline
    const previous = await raw(cluster, 'GET', logPath(name, 'previous=true'));
    expect(previous.text).toBe(current.text); // waiting in CrashLoopBackOff: the current log is the last run's
    expect(status(getPod(name)).lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
  });

  it.each([
    ['tailLines=2', (text: string) => expect(text).toBe('main.main()\n\t/app/main.go:42 +0x1d\n')],
    ['tailLines=0', (text: string) => expect(text).toBe('')],
    ['limitBytes=12', (text: string) => expect(text).toBe('level=info m')], // cut mid-line, as a kubelet does
    ['tailLines=1&timestamps=true', (text: string) => expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z \t\/app\/main\.go:42 \+0x1d\n$/)],
  ])('%s', async (query, check) => {
    const name = podsOf('crash')[0]!.metadata.name;
    const response = await raw(cluster, 'GET', logPath(name, `previous=true&${query}`));
    expect(response.status).toBe(200);
    check(response.text);
  });

  it('kubewait.test/log scripts the text; OOMKilled exits 137', async () => {
    const name = await crashLoopPod('oom', { 'kubewait.test/exit-reason': 'OOMKilled', 'kubewait.test/log': 'loading model\nallocating 4Gi\n' });
    expect(status(getPod(name)).lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect((await raw(cluster, 'GET', logPath(name, 'previous=true'))).text).toBe('loading model\nallocating 4Gi\n');
  });

  it('a failing Job pod logs its error and exits with kubewait.test/exit-code', async () => {
    cluster.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'default', annotations: { 'kubewait.test/job-outcome': 'Failed', 'kubewait.test/exit-code': '3' } },
      spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'migrate:1' }] } } },
    });
    await until(() => podsOf('migrate').some((p) => p.status?.phase === 'Failed'), 'a failed migrate pod', T);
    const failed = podsOf('migrate').find((p) => p.status?.phase === 'Failed')!;
    expect(status(failed, 'migrate').state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    const response = await raw(cluster, 'GET', logPath(failed.metadata.name));
    expect(response.text).toBe(
      'migrating schema to version 42\nError: connect ECONNREFUSED 10.96.0.15:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1637:16)\n',
    );
    // A terminated container that never restarted has no previous run.
    const previous = await raw(cluster, 'GET', logPath(failed.metadata.name, 'previous=true'));
    expect(previous.json).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: `previous terminated container "migrate" in pod "${failed.metadata.name}" not found`,
    });
  });

  it('a running container keeps its ID and its log across status writes', async () => {
    cluster.create(pod('steady', { containers: ['app', 'sidecar'], annotations: { 'kubewait.test/log.sidecar': 'proxy up' } }));
    await until(() => getPod('steady')?.status?.phase === 'Running', 'steady running', T);
    expect((await raw(cluster, 'GET', logPath('steady', 'container=app'))).text).toBe('level=info msg="starting app"\nlevel=info msg="listening" addr=:8080\n');
    expect((await raw(cluster, 'GET', logPath('steady', 'container=sidecar'))).text).toBe('proxy up\n');
  });

  it('a fixture pod (created with its status) gets the text its annotations script', async () => {
    cluster.create({
      ...pod('fixture', { initContainers: ['init-db'], containers: ['app'], annotations: { 'kubewait.test/log.init-db': 'psql: error: connection refused' } }),
      spec: { nodeName: 'node-1', initContainers: [{ name: 'init-db', image: 'postgres:16' }], containers: [{ name: 'app', image: 'app:1' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          {
            name: 'init-db',
            ready: false,
            restartCount: 3,
            image: 'postgres:16',
            imageID: '',
            started: false,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=init-db' } },
            lastState: { terminated: { exitCode: 2, reason: 'Error', containerID: 'containerd://abc' } },
          },
        ],
        containerStatuses: [
          { name: 'app', ready: false, restartCount: 0, image: 'app:1', imageID: '', started: false, state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
    });
    expect((await raw(cluster, 'GET', logPath('fixture', 'container=init-db&previous=true'))).text).toBe('psql: error: connection refused\n');
    expect((await raw(cluster, 'GET', logPath('fixture', 'container=app'))).json.message).toBe(
      'container "app" in pod "fixture" is waiting to start: PodInitializing',
    );
  });
});

describe('pods/log: the errors a real API server answers with', () => {
  beforeAll(async () => {
    cluster.create(pod('multi', { initContainers: ['init'], containers: ['web', 'sidecar'] }));
    cluster.create(pod('slow', { annotations: { 'kubewait.test/ready-after-ms': '600000' } }));
    // The kubelet alternates ErrImagePull and ImagePullBackOff: fixtures hold each still.
    for (const [name, reason] of [
      ['pull', 'ImagePullBackOff'],
      ['errpull', 'ErrImagePull'],
    ] as const) {
      cluster.create({
        ...pod(name),
        spec: { nodeName: 'node-1', restartPolicy: 'Always', containers: [{ name: 'app', image: 'app:404' }] },
        status: {
          phase: 'Pending',
          containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: 'app:404', imageID: '', started: false, state: { waiting: { reason } } }],
        },
      });
    }
    cluster.create(pod('nowhere', { annotations: { 'kubewait.test/pod-failure': 'Unschedulable' } }));
    cluster.create(pod('fine'));
    await until(
      () => getPod('fine')?.status?.phase === 'Running' && getPod('slow')?.status?.phase === 'Pending' && !!getPod('slow')?.status?.containerStatuses,
      'fine running, slow creating',
      T,
    );
  });

  it.each([
    // strategy.go validateContainer
    ['no container named, several to choose from', 'multi', '', 400, 'a container name must be specified for pod multi, choose one of: [init web sidecar]'],
    ['an unknown container', 'fine', 'container=nope', 400, 'container nope is not valid for pod fine'],
    // kubelet_pods.go validateContainerLogStatus
    ['previous of a container that never restarted', 'fine', 'previous=true', 400, 'previous terminated container "app" in pod "fine" not found'],
    ['a container still being created', 'slow', '', 400, 'container "app" in pod "slow" is waiting to start: ContainerCreating'],
    ['a container whose image cannot be pulled', 'pull', '', 400, 'container "app" in pod "pull" is waiting to start: trying and failing to pull image'],
    ['a container whose image pull just failed', 'errpull', '', 400, 'container "app" in pod "errpull" is waiting to start: image can\'t be pulled'],
    // (the simulated kubelet reports no init container statuses)
    ['a container the kubelet has no status for', 'multi', 'container=init', 400, 'container "init" in pod "multi" is not available'],
    // ValidatePodLogOptions
    ['negative tailLines', 'fine', 'tailLines=-1', 422, 'PodLogOptions "fine" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0'],
    ['limitBytes 0', 'fine', 'limitBytes=0', 422, 'PodLogOptions "fine" is invalid: limitBytes: Invalid value: 0: must be greater than 0'],
    ['a pod that does not exist', 'ghost', '', 404, 'pods "ghost" not found'],
  ])('%s', async (_what, name, query, code, message) => {
    const response = await raw(cluster, 'GET', logPath(name, query));
    expect(response.status).toBe(code);
    expect(response.json).toMatchObject({ kind: 'Status', status: 'Failure', code, message });
  });

  it('a pod not bound to a node: 204, nothing to stream', async () => {
    const response = await raw(cluster, 'GET', logPath('nowhere'));
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
  });

  it('RBAC: get on pods/log is its own rule', async () => {
    const denied = await raw(cluster, 'GET', logPath('fine'), { token: 'pod-reader' });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('pods "fine" is forbidden: User "pod-reader" cannot get resource "pods/log" in API group "" in the namespace "default"');
    expect((await raw(cluster, 'GET', logPath('fine'), { token: 'log-reader' })).status).toBe(200);
    expect(cluster.counters.requests().some((r) => r.verb === 'get' && r.resource === 'pods/log' && r.status === 403)).toBe(true);
  });
});
