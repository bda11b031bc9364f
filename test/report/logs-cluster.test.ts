/** The pieces together over real HTTPS against the stand-in, as the engine and report will use them: objects
 *  read from the API -> podsToExplain / explainFailedJob -> readContainerLogs -> the report's words. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeClient } from '../../src/kube/client.js';
import { listPages } from '../../src/kube/index.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { readContainerLogs } from '../../src/kube/logs.js';
import { failureHeadline } from '../../src/report/failure.js';
import { annotationLine, logDetails } from '../../src/report/logs.js';
import { explainFailedJob } from '../../src/status/explain-failure.js';
import { podsToExplain } from '../../src/status/explain-pods.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, until } from '../cluster/testkit.js';

let cluster: TestCluster;
let client: KubeClient;
const NS = 'default';

beforeAll(async () => {
  cluster = await startCluster({ speed: 0.05 });
  const secrets = { mask: () => undefined };
  const loaded = loadKubeConfig({ kubeconfig: cluster.kubeconfig({ token: 'admin' }), context: '' }, secrets, { env: {}, serviceAccountDir: '/nonexistent' });
  client = new KubeClient(loaded.kubeConfig, loaded.server, secrets);
});
afterAll(async () => {
  await client.close();
  await cluster.close();
});

async function list(resource: string, group = ''): Promise<unknown[]> {
  const items: unknown[] = [];
  await listPages(client, `${group ? `/apis/${group}` : '/api/v1'}/namespaces/${NS}/${resource}`, (page) => items.push(...page));
  return items;
}
const mask = (text: string) => text;

describe('explained with logs, from the API', () => {
  it("a crash-looping Deployment after a rollout: the new ReplicaSet's pod, its panic line", async () => {
    cluster.create(deployment('api', { replicas: 2 }));
    await until(() => cluster.get('apps/v1', 'Deployment', NS, 'api')?.status?.availableReplicas === 2, 'api available', 20_000);
    // The new template crashes; the old pods stay up (maxUnavailable 25% of 2 rounds down to 0).
    const next = deployment('api', { replicas: 2, podAnnotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff' } }) as {
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    };
    next.spec.template.spec.containers[0]!.image = 'shop/api:2.0';
    cluster.apply(next);
    await until(
      () => cluster.list('v1', 'Pod', NS).some((p) => p.metadata.name.startsWith('api-') && p.status?.containerStatuses?.[0]?.restartCount >= 1),
      'a crash',
      20_000,
    );

    const target = await client.get(`/apis/apps/v1/namespaces/${NS}/deployments/api`);
    const explained = podsToExplain({ target, pods: await list('pods'), replicaSets: await list('replicasets', 'apps/v1'), events: await list('events') });
    // Only the newest ReplicaSet's pods: the old ReplicaSet's ready pods explain nothing.
    const newest = cluster.list('apps/v1', 'ReplicaSet', NS).find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2')!;
    const newPods = cluster
      .list('v1', 'Pod', NS)
      .filter((p) => p.metadata.ownerReferences?.[0]?.uid === newest.metadata.uid)
      .map((p) => p.metadata.name);
    expect(explained.map((p) => p.name).sort()).toEqual(newPods.sort());
    const containers = explained.slice(0, 1).flatMap((p) => p.containers);
    expect(containers).toMatchObject([{ container: 'app', reason: 'CrashLoopBackOff', exitCode: 1, previous: true }]);

    const { reads, warnings } = await readContainerLogs(
      client,
      containers.filter((c) => !c.noLogs),
      { tailLines: 30, mask },
    );
    expect(warnings).toEqual([]);
    expect(annotationLine(reads[0]!)).toBe(`pod ${explained[0]!.name}, container app: exit 1: panic: missing DATABASE_URL`);
    expect(logDetails(reads[0]!)).toContain(`More: \`kubectl logs -n default ${explained[0]!.name} -c app --previous --tail=200\``);
  });

  it('a Job past its backoff limit: reason, failed pods with exit codes, their error line', async () => {
    cluster.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: NS, annotations: { 'kubewait.test/job-outcome': 'Failed', 'kubewait.test/exit-code': '3' } },
      spec: { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'shop/migrate:5' }] } } },
    });
    await until(
      () => cluster.get('batch/v1', 'Job', NS, 'migrate')?.status?.conditions?.some((c: { type: string }) => c.type === 'Failed'),
      'migrate failed',
      20_000,
    );

    const job = await client.get(`/apis/batch/v1/namespaces/${NS}/jobs/migrate`);
    const failure = explainFailedJob(job, await list('pods'), await list('events'));
    expect(failure).toMatchObject({ reason: 'BackoffLimitExceeded', failedCount: 2, events: [{ reason: 'BackoffLimitExceeded' }] });
    expect(failure.failedPods).toHaveLength(2);
    expect(failureHeadline(failure)).toBe(
      'Job default/migrate failed: BackoffLimitExceeded: Job has reached the specified backoff limit; 2 pods failed, the last with exit 3 (Error) in container migrate',
    );

    const { reads } = await readContainerLogs(
      client,
      failure.failedPods.flatMap((p) => p.containers),
      { tailLines: 30, mask },
    );
    expect(reads.map((r) => annotationLine(r))).toEqual(
      failure.failedPods.map((p) => `pod ${p.name}, container migrate: exit 3: Error: connect ECONNREFUSED 10.96.0.15:5432`),
    );
  });

  it("an image that does not exist: no log read, the waiting reason and the pod's events", async () => {
    cluster.create(deployment('web', { annotations: { 'kubewait.test/pod-failure': 'ImagePullBackOff' }, image: 'shop/web:404' }));
    await until(
      () =>
        cluster
          .list('v1', 'Pod', NS)
          .some((p) => p.metadata.name.startsWith('web-') && p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ImagePullBackOff'),
      'ImagePullBackOff',
      20_000,
    );
    const target = await client.get(`/apis/apps/v1/namespaces/${NS}/deployments/web`);
    const [pod] = podsToExplain({ target, pods: await list('pods'), replicaSets: await list('replicasets', 'apps/v1'), events: await list('events') });
    const container = pod!.containers[0]!;
    expect(container.noLogs).toMatch(/^(ImagePullBackOff: Back-off pulling image "shop\/web:404"|ErrImagePull: rpc error: code = NotFound).*not found$/);
    expect(pod!.events.map((e) => e.reason)).toContain('Failed');
    // The pod's pull events restate the waiting message, which the heading shows whole: no table repeats them.
    const block = logDetails({ request: container, events: pod!.events });
    expect(block).toMatch(/<summary>.*not found<\/summary>/);
    expect(block).not.toContain('**Warning events of the pod**');
  });
});
