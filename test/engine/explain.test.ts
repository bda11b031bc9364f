/** explainTargets over real HTTPS against the stand-in: which targets get explained, with which pods and logs,
 *  and what happens without permissions or with logs turned off. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { explainTargets, type ExplainOptions } from '../../src/engine/explain.js';
import type { TargetReport } from '../../src/result.js';
import { KubeClient } from '../../src/kube/client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { annotationLine } from '../../src/report/logs.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, until } from '../cluster/testkit.js';

let cluster: TestCluster;
const clients: KubeClient[] = [];
const NS = 'default';

beforeAll(async () => {
  cluster = await startCluster({
    speed: 0.05,
    tokens: {
      // Can read the targets and list pods, but not logs: explanations without log tails.
      'no-logs': [{ verbs: ['get', 'list'], resources: ['pods', 'events', 'deployments', 'replicasets', 'jobs'], apiGroups: ['', 'apps', 'batch'] }],
      // Can read the targets only.
      'targets-only': [{ verbs: ['list'], resources: ['deployments', 'jobs'], apiGroups: ['apps', 'batch'] }],
    },
  });
  cluster.create(deployment('api', { annotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff' } }));
  cluster.create(deployment('web', { annotations: { 'kubewait.test/pod-failure': 'ImagePullBackOff' }, image: 'shop/web:404' }));
  cluster.create(deployment('ok'));
  cluster.create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: NS, annotations: { 'kubewait.test/job-outcome': 'Failed', 'kubewait.test/exit-code': '3' } },
    spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'shop/migrate:5' }] } } },
  });
  const pods = () => cluster.list('v1', 'Pod', NS);
  await until(
    () =>
      pods().some((p) => p.metadata.name.startsWith('api-') && p.status?.containerStatuses?.[0]?.restartCount >= 1) &&
      pods().some((p) => p.metadata.name.startsWith('web-') && p.status?.containerStatuses?.[0]?.state?.waiting) &&
      cluster.get('batch/v1', 'Job', NS, 'migrate')?.status?.conditions?.some((c: { type: string }) => c.type === 'Failed') &&
      cluster.get('apps/v1', 'Deployment', NS, 'ok')?.status?.availableReplicas === 1,
    'the scene',
    20_000,
  );
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await cluster.close();
});

function client(token = 'admin'): KubeClient {
  const secrets = { mask: () => undefined };
  const loaded = loadKubeConfig({ kubeconfig: cluster.kubeconfig({ token }), context: '' }, secrets, { env: {}, serviceAccountDir: '/nonexistent' });
  const created = new KubeClient(loaded.kubeConfig, loaded.server, secrets);
  clients.push(created);
  return created;
}

const target = (kind: string, name: string, status: TargetReport['status'], done = false) => ({ kind, namespace: NS, name, status, done });
const TARGETS = [
  target('Deployment', 'api', 'InProgress'),
  target('Deployment', 'ok', 'Current', true),
  target('Service', 'api', 'InProgress'),
  target('Job', 'migrate', 'Failed'),
  target('Deployment', 'web', 'InProgress'),
  target('Deployment', 'gone', 'NotFound'),
];
// The bounds on the reads (the first answer, the LISTs' and the logs' budgets) run on `time`: a clock that
// stands still unless a test moves it, so a machine slow to answer never trips them.
let options: ExplainOptions;
beforeEach(() => {
  options = { logLines: 30, mask: (text) => text, time: new ManualTime() };
});

describe('explainTargets', () => {
  it('explains the workloads not done, each with its pods and their log lines', async () => {
    const { explanations, warnings } = await explainTargets(client(), TARGETS, options);
    expect(warnings).toEqual([]);
    expect(explanations.map((e) => e !== undefined)).toEqual([true, false, false, true, true, false]);
    const [api, , , migrate, web] = explanations;
    expect(api!.logs.map(annotationLine)).toEqual([`pod ${api!.pods[0]!.name}, container app: exit 1: panic: missing DATABASE_URL`]);
    expect(migrate!.failure).toMatchObject({ kind: 'Job', reason: 'BackoffLimitExceeded', failedCount: 1 });
    expect(migrate!.logs.map(annotationLine)).toEqual([
      `pod ${migrate!.pods[0]!.name}, container migrate: exit 3: Error: connect ECONNREFUSED 10.96.0.15:5432`,
    ]);
    expect(web!.logs).toHaveLength(1);
    expect(web!.logs[0]).toMatchObject({ request: { container: 'app' } });
    expect(web!.logs[0]!.outcome).toBeUndefined(); // waiting on its image: nothing to read
    expect(web!.logs[0]!.request.noLogs).toMatch(/^(ImagePullBackOff|ErrImagePull): /);
  });

  it("diagnoses the explained workloads' pods, as the engine would have, but not a failed Job (its failure says it)", async () => {
    const { diagnoses } = await explainTargets(client(), TARGETS, options);
    expect(diagnoses.map((d) => d !== undefined)).toEqual([true, false, false, false, true, false]);
    const [api, , , , web] = diagnoses;
    expect(api!.problems[0]).toMatchObject({ container: 'app', reason: 'CrashLoopBackOff' });
    expect(web!.problems[0]!.reason).toMatch(/^(ImagePullBackOff|ErrImagePull)$/);
    expect(web!.summary).toContain(`pod ${web!.problems[0]!.pod}: container app:`);
  });

  it('reads no logs with logLines 0, but still says why a container has none', async () => {
    cluster.counters.reset();
    const { explanations } = await explainTargets(client(), TARGETS, { ...options, logLines: 0 });
    expect(explanations[0]!.logs).toEqual([]);
    expect(explanations[4]!.logs).toHaveLength(1);
    expect(cluster.counters.requests().filter((r) => r.resource === 'pods/log')).toEqual([]);
  });

  it('without get on pods/log: one warning, the rest of the explanation stays', async () => {
    const { explanations, warnings } = await explainTargets(client('no-logs'), TARGETS, options);
    expect(warnings).toEqual([expect.stringContaining('grant get on pods/log')]);
    expect(explanations[0]!.pods).toHaveLength(1);
    expect(explanations[0]!.logs.map((l) => l.outcome)).toEqual([{ kind: 'forbidden' }]);
    expect(annotationLine(explanations[0]!.logs[0]!)).toMatch(/: exit 1$/);
  });

  it('without list on pods: warnings naming it, no pods, never a failure', async () => {
    const { explanations, warnings } = await explainTargets(client('targets-only'), TARGETS, options);
    expect(warnings).toContain('cannot list pods in namespace "default": the failure report cannot name the pods at fault there — grant list on them');
    expect(explanations[0]).toEqual({ pods: [], logs: [] });
    expect(explanations[3]!.failure).toMatchObject({ reason: 'BackoffLimitExceeded', failedPods: [] });
  });

  it('gives up on a server that answers none of the first reads, not after the whole budget', async () => {
    cluster.faults.latency(3000); // every answer takes 3 s: a hung server, for the first 750 ms of the run's clock
    const time = new ManualTime();
    const started = time.now();
    try {
      const explaining = explainTargets(client(), TARGETS, { ...options, time });
      await cluster.waitFor(() => cluster.counters.activity().serving > 0, 20_000); // the first LISTs are held
      await time.advance(750); // the first-answer bound, and not the budget (5 s)
      const { explanations } = await explaining;
      // Nothing to explain with: no answer came, and had the reads waited for one, they would have one.
      expect(explanations.every((e) => e === undefined)).toBe(true);
      expect(time.now() - started).toBe(750);
    } finally {
      cluster.faults.latency(0);
      await new Promise((resolve) => setTimeout(resolve, 3000)); // the held requests end before the next test
    }
  });

  it("waits for a slow server that answers: the first-answer bound is on the run's clock, not the machine's", async () => {
    cluster.faults.latency(1500); // twice the first-answer bound in real time; the run's clock stands still
    try {
      const { explanations, warnings } = await explainTargets(client(), TARGETS, options);
      expect(warnings).toEqual([]);
      expect(explanations.map((e) => e !== undefined)).toEqual([true, false, false, true, true, false]);
    } finally {
      cluster.faults.latency(0);
    }
  });

  it('at most maxTargets targets', async () => {
    const { explanations } = await explainTargets(client(), TARGETS, { ...options, maxTargets: 1 });
    expect(explanations.map((e) => e !== undefined)).toEqual([true, false, false, false, false, false]);
  });
});
