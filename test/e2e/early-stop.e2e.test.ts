/**
 * A wait whose verdict is known early (fail-fast, a cancel) still reports every target as it stands on the
 * server: the types whose first LIST answers after another type's already holds a Failed target are listed
 * before the step ends (the engine's last look). The stand-in answers the LISTs of some types a second late,
 * as a busy API server (or a large namespace) does. Through `dist/index.js`, as the runner runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment, job } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

/** The LISTs that answer late: a second is far longer than a healthy server takes, and well inside the last look. */
const LATE_LIST_MS = 1_000;
const LATE = ['statefulsets', 'jobs', 'services', 'namespaces'];

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  for (const resource of LATE) cluster.faults.slow('list', resource, LATE_LIST_MS);
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

const PART_OF = { 'app.kubernetes.io/part-of': 'shop' };

/** The quick start after a failed deploy: one Deployment past its progress deadline (its pods cannot pull
 *  their image), a ready StatefulSet and Service, a completed Job and a failed one. */
async function failedDeploy(namespace: string): Promise<void> {
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const web = deployment('web', { namespace, labels: PART_OF, podFailure: 'ImagePullBackOff' });
  Object.assign(web.spec, { progressDeadlineSeconds: 1 });
  cluster.create(web);
  cluster.create({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace, labels: { app: 'db', ...PART_OF }, annotations: { 'kubewait.test/ready-after-ms': '100' } },
    spec: {
      replicas: 1,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'registry.example.com/db:1.0' }] } },
    },
  });
  cluster.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'db', namespace, labels: PART_OF },
    spec: { selector: { app: 'db' }, ports: [{ port: 5432 }] },
  });
  cluster.create(job('migrate', { namespace, labels: PART_OF, readyAfterMs: 100 }));
  const seed = job('seed', { namespace, labels: PART_OF, readyAfterMs: 100 });
  seed.metadata.annotations['kubewait.test/job-outcome'] = 'Failed';
  cluster.create(seed);

  const condition = (kind: string, name: string, type: string) => {
    const object = cluster.get(kind === 'Job' ? 'batch/v1' : 'apps/v1', kind, namespace, name) as {
      status?: { conditions?: Array<{ type: string; status: string; reason?: string }> };
    };
    return object?.status?.conditions?.find((c) => c.type === type);
  };
  await cluster.waitFor(() => condition('Deployment', 'web', 'Progressing')?.reason === 'ProgressDeadlineExceeded', 30_000);
  await cluster.waitFor(() => condition('Job', 'seed', 'Failed')?.status === 'True', 30_000);
  await cluster.waitFor(() => condition('Job', 'migrate', 'Complete')?.status === 'True', 30_000);
  await cluster.waitFor(
    () => (cluster.get('apps/v1', 'StatefulSet', namespace, 'db') as { status?: { readyReplicas?: number } })?.status?.readyReplicas === 1,
    30_000,
  );
}

const statusByRef = (outputs: Record<string, string>) =>
  Object.fromEntries((JSON.parse(outputs.resources!) as ResourceOutput[]).map((r) => [`${r.kind}/${r.name}`, r.status]));

/** What `failedDeploy` leaves on the server, as each object is reported once listed. */
const AS_THE_SERVER_HAS_THEM = {
  'Deployment/web': 'Failed',
  'StatefulSet/db': 'Current',
  'Service/db': 'Current',
  'Job/migrate': 'Current',
  'Job/seed': 'Failed',
};

describe('a wait stopped early by fail-fast', () => {
  it('reports every named target as the server has it, and every failed one in `failed`', async () => {
    await failedDeploy('named');

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'named' }),
      resources: 'deployment/web, statefulset/db, service/db, job/migrate, job/seed, namespace/named',
      timeout: '2m',
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(statusByRef(run.outputs)).toEqual({ ...AS_THE_SERVER_HAS_THEM, 'Namespace/named': 'Current' });
    expect(run.outputs.failed!.split('\n').sort()).toEqual(['named/Deployment/web', 'named/Job/seed']);
    expect(run.summary).not.toContain('waiting for the first list');
    expect(run.log.join('\n')).toMatch(/4 of 6 targets ready/);
    // Each target's first state is logged once it is known, never as "Unknown: waiting for the first list".
    expect(run.stdout).not.toContain('waiting for the first list');
    expect(run.log.filter((line) => line.startsWith('statefulset/db (named)'))).toEqual([
      'statefulset/db (named)  apps/v1',
      expect.stringMatching(/^statefulset\/db \(named\): Current after \d+(\.\d)?s: /),
    ]);
    // Ready at the first look: no time was spent waiting for it, and the table says so rather than leaving it blank.
    expect(run.summary).toMatch(/StatefulSet\/db.*\| already ready \|/);
  }, 150_000);

  it('with a selector, lists every type it covers before reporting', async () => {
    await failedDeploy('selected');

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'selected' }),
      selector: 'app.kubernetes.io/part-of=shop',
      timeout: '2m',
    });

    expect(run.outputs.result).toBe('failed');
    expect(statusByRef(run.outputs)).toEqual(AS_THE_SERVER_HAS_THEM);
    expect(run.outputs.failed!.split('\n').sort()).toEqual(['selected/Deployment/web', 'selected/Job/seed']);
  }, 150_000);

  it("names the pods' cause of a workload failed at its first look, in its annotation", async () => {
    await failedDeploy('cause');

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'cause' }), resources: 'deployment/web', timeout: '2m' });

    expect(run.outputs.result).toBe('failed');
    const web = run.errors.find((e) => e.properties.title?.includes('web'));
    expect(web?.message).toMatch(/Progress deadline exceeded|ProgressDeadlineExceeded/i);
    // The stand-in's kubelet pulls again now and then, as a real one does: the pod is in ErrImagePull or in
    // ImagePullBackOff, whichever moment the explain step reads it at.
    const pullFailure = /ImagePullBackOff|ErrImagePull/;
    expect(web?.message).toMatch(pullFailure);
    const [resource] = JSON.parse(run.outputs.resources!) as ResourceOutput[];
    expect(resource?.message).toMatch(pullFailure);
    // The summary's block for it says the cause once: in its failing containers, not again as a message, an
    // event restating the pull error, or a log block for a container that never started.
    const block = run.summary.slice(run.summary.indexOf('<details>'));
    expect(block).toContain('**Failing containers**');
    expect(block.match(/failed to resolve reference/g)).toHaveLength(1);
  }, 150_000);
});
