/**
 * `rollback` (issue 32) on a real control plane: the real Deployment and DaemonSet controllers roll out a
 * revision whose pods fail (kwok Stages, `kubewait.test/pod-failure`), `dist/index.js` reports the failure,
 * rolls them back and waits for the old pods the controllers bring back; the real kubectl v1.35.2's
 * `rollout undo` on the same state restores the same template. The guards and a forbidden patch, on the
 * same server. Skipped like real.test.ts when the binaries are not built.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { runCommand } from '../e2e/runCommand.js';
import { builtBinDir, NOT_BUILT } from './binaries.js';
import { startRealCluster, type RealCluster } from './cluster.js';
import { daemonSet, deployment, failingJob, namespace, roleFor, statefulSet } from './objects.js';

const built = builtBinDir() !== undefined;
if (!built) {
  if (process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
  process.stderr.write(`real-cluster rollback suite skipped: ${NOT_BUILT}\n`);
}
const describeReal = built ? describe : describe.skip;

let cluster: RealCluster;

type Workload = { metadata: { annotations?: Record<string, string>; generation: number }; spec: { template: Record<string, unknown> } };

async function workload(ns: string, kind: string, name: string): Promise<Workload> {
  return JSON.parse(await cluster.kubectl('get', kind, name, '-n', ns, '-o', 'json')) as Workload;
}

/** Revision 1 ready, then revision 2 whose pods fail with ImagePullBackOff (the old pods keep running). */
async function deploymentAtFailingRevision(ns: string, name: string, labels: Record<string, string> = {}): Promise<void> {
  await cluster.apply(namespace(ns), deployment(name, { namespace: ns, replicas: 2, readyAfterMs: 300, labels }));
  await cluster.kubectl('rollout', 'status', `deployment/${name}`, '-n', ns, '--timeout=90s');
  await cluster.apply(
    deployment(name, { namespace: ns, replicas: 2, readyAfterMs: 300, labels, image: `registry.example.com/${name}:2.0`, podFailure: 'ImagePullBackOff' }),
  );
}

/** `base` with a revision whose pods fail with ImagePullBackOff (image 2.0). */
function failingRevision<T extends { spec: { template: { metadata: { annotations: Record<string, string> }; spec: object } } }>(base: T, name: string): T {
  const template = base.spec.template;
  return {
    ...base,
    spec: {
      ...base.spec,
      template: {
        metadata: { ...template.metadata, annotations: { ...template.metadata.annotations, 'kubewait.test/pod-failure': 'ImagePullBackOff' } },
        spec: { ...template.spec, containers: [{ name, image: `registry.example.com/${name}:2.0` }] },
      },
    },
  };
}

describeReal('rollback on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({ users: ['no-patch'] });
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('rolls a failed Deployment back to its previous revision, the controller brings the old pods back, and kubectl rollout undo restores the same template', async () => {
    const [ours, theirs] = ['rb-deploy', 'rb-kubectl'];
    await Promise.all([deploymentAtFailingRevision(ours, 'web'), deploymentAtFailingRevision(theirs, 'web')]);
    const failing = await workload(ours, 'deployment', 'web');

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ours }), resources: 'deployment/web', timeout: '120s', rollback: 'on-failure', 'rollback-timeout': '120s' },
      { killAfterMs: 300_000 },
    );
    await cluster.kubectl('rollout', 'undo', 'deployment/web', '-n', theirs);
    await cluster.kubectl('rollout', 'status', 'deployment/web', '-n', theirs, '--timeout=90s');

    // The verdict is the wait's: a rollback is a recovery, not a success.
    expect({ exitCode: r.exitCode, result: r.outputs.result }).toEqual({ exitCode: 1, result: 'failed' });
    expect({ rolledBack: r.outputs['rolled-back'], result: r.outputs['rollback-result'] }).toEqual({
      rolledBack: `${ours}/Deployment/web revision 2 -> 1: ready`,
      result: 'ready',
    });
    // The failure's cause first, then what was rolled back.
    expect(r.errors.find((e) => e.properties.title === `Deployment ${ours}/web`)?.message).toMatch(/ImagePullBackOff|ErrImagePull/);
    const summary = r.summary;
    expect(summary.indexOf('ImagePullBackOff')).toBeGreaterThan(-1);
    expect(summary.indexOf('### Rolled back')).toBeGreaterThan(summary.indexOf('ImagePullBackOff'));
    expect(r.stdout.indexOf('rolling back')).toBeGreaterThan(-1);

    const [rolled, undone] = [await workload(ours, 'deployment', 'web'), await workload(theirs, 'deployment', 'web')];
    expect(JSON.stringify(rolled.spec.template)).toContain('registry.example.com/web:1.0');
    expect(rolled.spec.template).toEqual(undone.spec.template);
    expect(rolled.spec.template).not.toEqual(failing.spec.template);
    const kept = (w: Workload) => {
      const { 'kubectl.kubernetes.io/last-applied-configuration': _applied, ...rest } = w.metadata.annotations ?? {};
      return rest;
    };
    expect(kept(rolled)).toEqual(kept(undone));
    // The real controller brought the old revision's pods back: both replicas ready, nothing of revision 2 left.
    const status = JSON.parse(await cluster.kubectl('get', 'deployment', 'web', '-n', ours, '-o', 'jsonpath={.status}')) as {
      readyReplicas: number;
      updatedReplicas: number;
    };
    expect({ ready: status.readyReplicas, updated: status.updatedReplicas }).toEqual({ ready: 2, updated: 2 });
  }, 400_000);

  it('rolls a failed DaemonSet back through its ControllerRevisions', async () => {
    const ns = 'rb-daemonset';
    await cluster.apply(namespace(ns), daemonSet('agent', ns));
    await cluster.kubectl('rollout', 'status', 'daemonset/agent', '-n', ns, '--timeout=90s');
    await cluster.apply(failingRevision(daemonSet('agent', ns), 'agent'));

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'daemonset/agent', timeout: '120s', rollback: 'on-failure', 'rollback-timeout': '120s' },
      { killAfterMs: 300_000 },
    );

    expect({ exitCode: r.exitCode, result: r.outputs.result }).toEqual({ exitCode: 1, result: 'failed' });
    expect(r.outputs['rolled-back']).toBe(`${ns}/DaemonSet/agent revision 2 -> 1: ready`);
    expect(r.outputs['rollback-result']).toBe('ready');
    expect(JSON.stringify((await workload(ns, 'daemonset', 'agent')).spec.template)).toContain('registry.example.com/agent:1.0');
  }, 400_000);

  it("a StatefulSet is rolled back, but its controller keeps the broken pod until it is deleted (Kubernetes' forced rollback): timeout, said so", async () => {
    const ns = 'rb-statefulset';
    await cluster.apply(namespace(ns), statefulSet('db', ns));
    await cluster.kubectl('rollout', 'status', 'statefulset/db', '-n', ns, '--timeout=90s');
    await cluster.apply(failingRevision(statefulSet('db', ns), 'db'));

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'statefulset/db', timeout: '120s', rollback: 'on-failure', 'rollback-timeout': '20s' },
      { killAfterMs: 300_000 },
    );

    expect({ exitCode: r.exitCode, result: r.outputs.result }).toEqual({ exitCode: 1, result: 'failed' });
    // The template is the previous revision's again (what kubectl rollout undo does too) ...
    expect(JSON.stringify((await workload(ns, 'statefulset', 'db')).spec.template)).toContain('registry.example.com/db:1.0');
    // ... but the StatefulSet controller waits for the broken pod, so the rolled-back wait says what holds it.
    expect(r.outputs['rolled-back']).toMatch(new RegExp(`^${ns}/StatefulSet/db revision 2 -> 1: (timeout|failed) \\(`));
    expect(['timeout', 'failed']).toContain(r.outputs['rollback-result']);
  }, 400_000);

  it('a rollback to a revision that fails too is reported failed, after the cause of the first failure', async () => {
    const ns = 'rb-fails-again';
    await cluster.apply(namespace(ns), deployment('api', { namespace: ns, replicas: 1, readyAfterMs: 300, podFailure: 'CrashLoopBackOff' }));
    await cluster.kubectl('wait', 'deployment/api', '-n', ns, '--for=jsonpath={.status.observedGeneration}=1', '--timeout=60s');
    await cluster.apply(
      deployment('api', { namespace: ns, replicas: 1, readyAfterMs: 300, image: 'registry.example.com/api:2.0', podFailure: 'ImagePullBackOff' }),
    );

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'deployment/api', timeout: '120s', rollback: 'on-failure', 'rollback-timeout': '120s' },
      { killAfterMs: 300_000 },
    );

    expect({ exitCode: r.exitCode, result: r.outputs.result, rollback: r.outputs['rollback-result'] }).toEqual({
      exitCode: 1,
      result: 'failed',
      rollback: 'failed',
    });
    expect(r.outputs['rolled-back']).toMatch(new RegExp(`^${ns}/Deployment/api revision 2 -> 1: failed \\(.*CrashLoopBackOff`));
    // The log: the wait's failure (ImagePullBackOff) first, then the rollback and its own failure.
    const [pull, rolling, crash] = [
      r.stdout.search(/ImagePullBackOff|ErrImagePull/),
      r.stdout.indexOf('rolling back'),
      r.stdout.lastIndexOf('CrashLoopBackOff'),
    ];
    expect(pull).toBeGreaterThan(-1);
    expect(rolling).toBeGreaterThan(pull);
    expect(crash).toBeGreaterThan(rolling);
  }, 400_000);

  it('with clusters, only the failing cluster rolls back', async () => {
    const [good, bad] = ['rb-fleet-good', 'rb-fleet-bad'];
    await cluster.apply(namespace(good), deployment('web', { namespace: good, replicas: 1, readyAfterMs: 300 }));
    await deploymentAtFailingRevision(bad, 'web');
    const clusters = JSON.stringify([
      { name: 'good', namespace: good },
      { name: 'bad', namespace: bad },
    ]);

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig(), clusters, resources: 'deployment/web', timeout: '120s', rollback: 'on-failure', 'rollback-timeout': '120s' },
      { killAfterMs: 300_000 },
    );

    expect({ exitCode: r.exitCode, result: r.outputs.result, rollback: r.outputs['rollback-result'] }).toEqual({
      exitCode: 1,
      result: 'failed',
      rollback: 'ready',
    });
    expect(r.outputs['rolled-back']).toBe(`[bad] ${bad}/Deployment/web revision 2 -> 1: ready`);
    expect((await workload(good, 'deployment', 'web')).metadata.generation).toBe(1);
  }, 400_000);

  it('refuses what must not be rolled back, each with its reason, and says when there is nothing to do', async () => {
    const ns = 'rb-guards';
    await deploymentAtFailingRevision(ns, 'flux', { 'kustomize.toolkit.fluxcd.io/name': 'apps' });
    await cluster.apply(deployment('fresh', { namespace: ns, replicas: 1, readyAfterMs: 300, podFailure: 'ImagePullBackOff' }), failingJob('migrate', ns));
    const before = await workload(ns, 'deployment', 'flux');

    // Through the command this time: -o json and --junit carry the rollback too.
    const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-rollback-'));
    const kubeconfig = path.join(scratch, 'kubeconfig');
    cluster.writeKubeconfig(kubeconfig, { namespace: ns });
    const junit = path.join(scratch, 'report.xml');
    const args = ['deployment/flux', 'deployment/fresh', 'job/migrate', '--kubeconfig', kubeconfig, '--timeout', '120s'];
    const r = await runCommand([...args, '--rollback', 'on-failure', '-o', 'json', '--junit', junit], { killAfterMs: 300_000 });

    const document = JSON.parse(r.stdout) as { result: string; rollback: { result: string; workloads: Array<{ line: string; action: string }> } };
    expect({ exitCode: r.exitCode, result: document.result, rollback: document.rollback.result }).toEqual({
      exitCode: 1,
      result: 'failed',
      rollback: 'refused',
    });
    const lines = document.rollback.workloads.map((row) => row.line);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^${ns}/Deployment/flux: refused \\(it is managed by Flux \\(label kustomize.toolkit.fluxcd.io/name=apps\\).*revert the commit`),
      ),
      `${ns}/Deployment/fresh: nothing to do (no previous revision to roll back to)`,
      expect.stringMatching(new RegExp(`^${ns}/Job/migrate: refused \\(Jobs are never rolled back`)),
    ]);
    expect((await workload(ns, 'deployment', 'flux')).metadata.generation).toBe(before.metadata.generation);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="kubewait rollback: refused" tests="3" failures="0" errors="0" skipped="3"');
    rmSync(scratch, { recursive: true, force: true });
  }, 400_000);

  it('a forbidden patch is one warning naming the verb and the resource; the verdict is unchanged', async () => {
    const ns = 'rb-forbidden';
    await deploymentAtFailingRevision(ns, 'web');
    await cluster.apply(...roleFor('no-patch', ns, ['get', 'list', 'watch']));
    const before = await workload(ns, 'deployment', 'web');

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ user: 'no-patch', namespace: ns }), resources: 'deployment/web', timeout: '120s', rollback: 'on-failure' },
      { killAfterMs: 300_000 },
    );

    expect({ exitCode: r.exitCode, result: r.outputs.result, rollback: r.outputs['rollback-result'] }).toEqual({
      exitCode: 1,
      result: 'failed',
      rollback: 'failed',
    });
    const forbidden = r.warnings.filter((w) => /forbidden \(403\)/.test(w.message));
    expect(forbidden).toHaveLength(1);
    expect(forbidden[0]?.message).toContain(`patch on deployments.apps in namespace ${ns} is forbidden (403)`);
    expect(r.outputs['rolled-back']).toBe(`${ns}/Deployment/web revision 2 -> 1: failed (patch on deployments.apps is forbidden (403))`);
    expect((await workload(ns, 'deployment', 'web')).metadata.generation).toBe(before.metadata.generation);
  }, 400_000);
});
