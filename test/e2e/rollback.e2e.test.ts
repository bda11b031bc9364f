/**
 * `rollback` through dist/index.js against the API server stand-in, for what the real control plane
 * (test/real/rollback.test.ts) cannot stage: an Argo Rollout aborted through its status subresource, and a
 * newer deploy landing between the failure and the rollback's read (the generation guard). The stand-in
 * records a request when it arrives and `slow` holds its answer, so the change is made while the
 * rollback's GET is held: an order, not a race against the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crdFor } from '../cluster/controllers/scripted.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { establishCrds } from '../cluster/testkit.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.5, crdEstablishDelayMs: 20 });
  await establishCrds(cluster, [crdFor({ group: 'argoproj.io', kind: 'Rollout', plural: 'rollouts', versions: ['v1alpha1'] })] as Array<{
    metadata: { name: string };
  }>);
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

describe('rollback (stand-in)', () => {
  it('aborts a Degraded Argo Rollout as kubectl argo rollouts abort does: status.abort through the status subresource', async () => {
    const ns = 'rb-rollout';
    const status = {
      observedGeneration: '$generation:string',
      phase: 'Degraded',
      message: 'ProgressDeadlineExceeded: ReplicaSet "web-5d8f" has timed out progressing.',
    };
    cluster.create({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: ns, annotations: { 'kubewait.test/status-script': JSON.stringify([{ afterMs: 100, status }]) } },
      spec: {},
    });

    const r = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns }),
      resources: 'rollouts.argoproj.io/web',
      timeout: '60s',
      rollback: 'on-failure',
    });

    expect({ exitCode: r.exitCode, result: r.outputs.result, rollback: r.outputs['rollback-result'] }).toEqual({
      exitCode: 1,
      result: 'failed',
      rollback: 'ready',
    });
    expect(r.outputs['rolled-back']).toBe(`${ns}/Rollout/web: aborted: its stable ReplicaSet takes over`);
    expect((cluster.get('argoproj.io/v1alpha1', 'Rollout', ns, 'web') as { status?: { abort?: boolean } }).status?.abort).toBe(true);
    expect(
      cluster.counters
        .requests()
        .filter((q) => q.verb === 'patch')
        .map((q) => q.resource),
    ).toContain('rollouts/status');
  }, 120_000);

  it('refuses a workload whose generation moved since the step saw it fail: a newer deploy started', async () => {
    const ns = 'rb-newer';
    cluster.create(deployment('web', { namespace: ns, replicas: 1, readyAfterMs: 100, podFailure: 'ImagePullBackOff' }));
    cluster.faults.slow('get', 'deployments', 20_000);
    const gets = () => cluster.counters.requests().filter((q) => q.verb === 'get' && q.resource === 'deployments' && q.namespace === ns).length;
    // The newer deploy lands while the rollback's read of the object is held.
    const newer = cluster
      .waitFor(() => gets() > 0, 120_000)
      .then(() => cluster.apply(deployment('web', { namespace: ns, replicas: 1, image: 'registry.example.com/web:3.0' })));

    try {
      const r = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'deployment/web', timeout: '60s', rollback: 'on-failure' },
        { killAfterMs: 150_000 },
      );
      await newer;

      expect({ exitCode: r.exitCode, result: r.outputs.result, rollback: r.outputs['rollback-result'] }).toEqual({
        exitCode: 1,
        result: 'failed',
        rollback: 'refused',
      });
      expect(r.outputs['rolled-back']).toMatch(
        new RegExp(`^${ns}/Deployment/web: refused \\(it changed since the step saw it fail \\(generation 1, now 2\\): a newer deploy started\\)$`),
      );
      expect(cluster.counters.requests().filter((q) => q.verb === 'patch' && q.resource === 'deployments')).toEqual([]);
    } finally {
      cluster.faults.slow('get', 'deployments', 0);
    }
  }, 200_000);
});
