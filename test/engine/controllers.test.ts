/**
 * The engine against the stand-in's simulated controllers (Deployments -> ReplicaSets -> Pods, Jobs,
 * kubelet failures with their events): the scenarios a CI job meets, end to end over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';
import { deployment } from '../cluster/testkit.js';
import { brief, namespace, runEngine } from './helpers.js';
import { runVirtual } from './virtual.js';

let server: TestCluster;

beforeAll(async () => {
  server = await startCluster({ speed: 0.1 });
});
afterAll(async () => {
  await server.close();
});

function job(name: string, ns: string, annotations: Record<string, string> = {}): object {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: ns, annotations },
    spec: { backoffLimit: 1, template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  };
}

describe('rollouts', () => {
  it('waits for Deployments, a StatefulSet, a DaemonSet and a Job to become ready', async () => {
    const ns = namespace(server, 'rollout');
    server.create(deployment('web', { namespace: ns, replicas: 3 }));
    server.create(deployment('api', { namespace: ns, replicas: 2, annotations: { 'kubewait.test/ready-after-ms': '2000' } }));
    server.create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: ns },
      spec: {
        replicas: 2,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres' }] } },
      },
    });
    server.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent' }] } },
      },
    });
    server.create(job('migrate', ns));
    const result = await runEngine(server, [
      { type: 'deploy', selector: '', namespace: ns },
      { type: 'sts', name: 'db', namespace: ns },
      { type: 'ds', name: 'agent', namespace: ns },
      { type: 'job', name: 'migrate', namespace: ns },
    ]);
    expect(result.outcome).toBe('ready');
    expect(result.targets.map((t) => `${t.kind}/${t.name} ${t.status}`)).toEqual([
      'Deployment/api Current',
      'Deployment/web Current',
      'StatefulSet/db Current',
      'DaemonSet/agent Current',
      'Job/migrate Current',
    ]);
  });
});

describe('failures, fail-fast with the reason', () => {
  it.each([
    ['ImagePullBackOff', {}, /ImagePullBackOff|ErrImagePull/],
    ['CrashLoopBackOff', {}, /CrashLoopBackOff/],
    ['CreateContainerConfigError', {}, /CreateContainerConfigError/],
  ])('a Deployment whose pods hit %s', async (failure, _extra, reason) => {
    const ns = namespace(server, `fail-${failure.toLowerCase()}`);
    server.create(deployment('web', { namespace: ns, podAnnotations: { 'kubewait.test/pod-failure': failure } }));
    server.create(deployment('fine', { namespace: ns }));
    const result = await runEngine(
      server,
      [
        { type: 'deploy', name: 'web', namespace: ns },
        { type: 'deploy', name: 'fine', namespace: ns },
      ],
      { timeoutMs: 600_000, imagePullGraceMs: 500 },
    );
    expect(result.outcome).toBe('failed');
    const web = result.targets[0]!;
    expect(web.status).toBe('Failed');
    expect(web.message).toMatch(reason);
    expect(web.diagnosis?.unrecoverable).toBe(true);
    expect(web.diagnosis?.problems[0]?.pod).toMatch(/^web-/);
  });

  it('a Deployment past its progress deadline', async () => {
    const ns = namespace(server, 'progress-deadline');
    const stuck = deployment('web', { namespace: ns, annotations: { 'kubewait.test/ready-after-ms': '600000' } }) as { spec: Record<string, unknown> };
    stuck.spec.progressDeadlineSeconds = 10; // x speed 0.1: one second
    server.create(stuck);
    const result = await runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    expect(result.targets.map(brief)).toEqual(['Deployment/progress-deadline/web Failed: Progress deadline exceeded']);
  });

  it('a Job that fails past its backoff limit', async () => {
    const ns = namespace(server, 'failing-job');
    server.create(job('migrate', ns, { 'kubewait.test/job-outcome': 'Failed' }));
    const result = await runEngine(server, [{ type: 'job', name: 'migrate', namespace: ns }], { timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    expect(result.targets[0]).toMatchObject({ kind: 'Job', status: 'Failed' });
    expect(result.targets[0]?.message).toMatch(/BackoffLimitExceeded|backoff limit/i);
  });

  it('without fail-fast, judges the crash loop Failed as with it, and waits to the deadline', async () => {
    const ns = namespace(server, 'no-fail-fast');
    server.create(deployment('web', { namespace: ns, podAnnotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff' } }));
    // The simulated kubelet works in real time, the engine on virtual time: its pods crash first, then the wait runs to its deadline.
    await server.waitFor(() => server.list('v1', 'Pod', ns).some((p) => JSON.stringify(p.status ?? {}).includes('CrashLoopBackOff')));
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 4000, failFast: false });
    expect(result.outcome).toBe('failed');
    expect(result.durationSeconds).toBe(4); // the deadline, on virtual time: fail-fast: false did not stop it
    expect(result.targets[0]?.status).toBe('Failed');
    expect(result.targets[0]?.diagnosis?.summary).toMatch(/CrashLoopBackOff/);
  });

  it('an unschedulable bare Pod turns Failed when its 15 s window ends (a timer re-checks it)', async () => {
    const ns = namespace(server, 'unschedulable');
    server.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'big', namespace: ns, annotations: { 'kubewait.test/pod-failure': 'Unschedulable' } },
      spec: { containers: [{ name: 'big', image: 'big' }] },
    });
    // The simulated scheduler works in real time, the engine on virtual time: the pod is unschedulable first,
    // then the engine sees it InProgress until its window's timer fires 15 virtual seconds after the condition.
    await server.waitFor(() => JSON.stringify(server.get('v1', 'Pod', ns, 'big')?.status ?? {}).includes('Unschedulable'));
    const result = await runVirtual(server, [{ type: 'pod', name: 'big', namespace: ns }], { timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    expect(result.targets.map(brief)).toEqual(['Pod/unschedulable/big Failed: Pod could not be scheduled']);
    expect(result.targets[0]?.history.map((h) => h.status)).toContain('InProgress');
    expect(result.durationSeconds).toBeGreaterThan(10); // the window, not the deadline, and not at once
    expect(result.durationSeconds).toBeLessThan(60);
  });
});
