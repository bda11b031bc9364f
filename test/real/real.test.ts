/**
 * kubewait against a real control plane (test/real/cluster.ts): kube-apiserver, controller manager and
 * scheduler v1.35, etcd, kwok nodes. `dist/index.js` runs as the runner runs it (test/e2e/runAction.ts);
 * the real kubectl and helm run against the same server. One control plane for the whole file, one
 * namespace per test. Skipped, with one line saying so, when the binaries are not built; .ci/run builds
 * them and sets KUBEWAIT_REAL_CLUSTER=required, which turns a missing build into a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { builtBinDir, NOT_BUILT, ROOT } from './binaries.js';
import { auditEvents, startRealCluster, type RealCluster } from './cluster.js';
import { helmPath } from './helm.js';
import { configMap, daemonSet, deployment, failingDeployment, failingJob, job, namespace, roleFor, statefulSet, WIDGET_CRD } from './objects.js';

const run = promisify(execFile);
const built = builtBinDir() !== undefined;
if (!built) {
  if (process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
  process.stderr.write(`real-cluster suite skipped: ${NOT_BUILT}\n`);
}
const describeReal = built ? describe : describe.skip;

let cluster: RealCluster;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];
const statusByRef = (outputs: Record<string, string>) => Object.fromEntries(resourcesOf(outputs).map((r) => [`${r.namespace}/${r.kind}/${r.name}`, r.status]));

async function inNamespace(ns: string, ...objects: object[]): Promise<void> {
  await cluster.apply(namespace(ns));
  if (objects.length > 0) await cluster.apply(...objects);
}

/** Runs `fn` once, the first time the action's log contains `text` (the action is waiting by then). */
function once(text: string, fn: () => Promise<unknown>) {
  let started: Promise<unknown> | undefined;
  return {
    onStdout: (stdout: string) => {
      if (started || !stdout.includes(text)) return;
      started = fn();
      started.catch(() => undefined); // awaited in done(); until then a rejection must not count as unhandled
    },
    done: async () => {
      expect(started).toBeDefined();
      await started;
    },
  };
}

describeReal('kubewait on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({ users: ['no-watch', 'no-list'] });
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('waits for the rollout of a Deployment, a StatefulSet and a DaemonSet', async () => {
    const ns = 'rollout';
    await inNamespace(ns, deployment('web', { namespace: ns, readyAfterMs: 300 }), statefulSet('db', ns), daemonSet('agent', ns));

    const r = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns }),
      resources: 'deployment/web\nstatefulset/db\ndaemonset/agent',
      timeout: '120s',
    });

    expect(r.exitCode).toBe(0);
    expect(r.errors).toEqual([]);
    expect(statusByRef(r.outputs)).toEqual({ 'rollout/Deployment/web': 'Current', 'rollout/StatefulSet/db': 'Current', 'rollout/DaemonSet/agent': 'Current' });
    // The DaemonSet is Current only with a ready pod on every node: kwok's nodes, scheduled by the real controller.
    const ds = JSON.parse(await cluster.kubectl('get', 'daemonset', 'agent', '-n', ns, '-o', 'json')) as { status: { numberReady: number } };
    expect(ds.status.numberReady).toBe(cluster.nodeNames.length);
  }, 180_000);

  it.each([
    ['completes', job('migrate', { namespace: 'jobs', readyAfterMs: 300 }), 0, 'Current', /./],
    ['fails', failingJob('broken', 'jobs'), 1, 'Failed', /BackoffLimitExceeded|backoff limit/i],
  ])(
    'a Job that %s',
    async (_, object, exitCode, status, message) => {
      const ns = 'jobs';
      await inNamespace(ns, object);
      const name = object.metadata.name;

      const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `job/${name}`, timeout: '120s' });

      expect({ exitCode: r.exitCode, status: statusByRef(r.outputs)[`${ns}/Job/${name}`] }).toEqual({ exitCode, status });
      expect(resourcesOf(r.outputs)[0]?.message).toMatch(message);
    },
    180_000,
  );

  it.each([
    // [failure, final (fail-fast) or only reported until the deadline, what the annotation says]
    ['ImagePullBackOff', true, /ImagePullBackOff|ErrImagePull/],
    ['CrashLoopBackOff', true, /CrashLoopBackOff/],
    ['CreateContainerConfigError', true, /CreateContainerConfigError.*configmap "app-config" not found/],
    ['Unschedulable', false, /Unschedulable.*0\/3 nodes are available/],
  ] as const)(
    'a pod failing with %s',
    async (failure, final, message) => {
      const ns = `fail-${failure.toLowerCase()}`;
      const image = 'registry.example.com/api:v2';
      await inNamespace(ns, failingDeployment('api', ns, failure, image));

      const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'deployment/api', timeout: final ? '120s' : '12s' });

      expect(r.exitCode).toBe(1);
      expect(r.outputs.result).toBe(final ? 'failed' : 'timeout');
      expect(statusByRef(r.outputs)[`${ns}/Deployment/api`]).toBe(final ? 'Failed' : 'InProgress');
      const annotation = r.errors.find((e) => e.properties.title === `Deployment ${ns}/api`);
      expect(annotation?.message).toMatch(message);
      if (failure === 'ImagePullBackOff') expect(annotation?.message).toContain(image);
    },
    180_000,
  );

  it('waits for a CRD and its custom resource created mid-wait', async () => {
    const ns = 'crd';
    await inNamespace(ns);
    const later = once('Waiting for 1 target', async () => {
      await cluster.apply(WIDGET_CRD);
      await cluster.crdsEstablished('widgets.example.com');
      await cluster.apply({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: ns },
        spec: {},
        status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }] },
      });
    });

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'widgets.example.com/w1', timeout: '90s' },
      { onStdout: later.onStdout },
    );

    await later.done();
    expect(r.exitCode).toBe(0);
    expect(statusByRef(r.outputs)).toEqual({ 'crd/Widget/w1': 'Current' });
    expect(r.warnings.map((w) => w.message)).toEqual([expect.stringContaining('is not served by the cluster yet')]);
  }, 180_000);

  it('waits for a deletion held by a finalizer until the finalizer is removed', async () => {
    const ns = 'finalizer';
    await inNamespace(ns, configMap('held', { namespace: ns, finalizers: ['kubewait.test/hold'] }));
    await cluster.kubectl('delete', 'configmap', 'held', '-n', ns, '--wait=false');
    // Released only once the action has seen it Terminating: then it must also see it go.
    const release = once('Terminating', () =>
      cluster.kubectl('patch', 'configmap', 'held', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}'),
    );

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'configmap/held', 'wait-for': 'deleted', timeout: '60s' },
      { onStdout: release.onStdout },
    );

    await release.done();
    expect(r.exitCode).toBe(0);
    expect(r.outputs.result).toBe('ready');
    expect(r.log.join('\n')).toMatch(/Terminating/);
  }, 120_000);

  it('falls back to polling, with one warning, for a Role without watch', async () => {
    const ns = 'rbac-nowatch';
    await inNamespace(ns, ...roleFor('no-watch', ns, ['get', 'list']));
    // Created only once the action waits: its first LIST finds nothing, so it must follow the type.
    const create = once('Waiting for 1 target', () => cluster.apply(deployment('web', { namespace: ns, readyAfterMs: 300 })));

    const r = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns, user: 'no-watch' }), resources: 'deployment/web', timeout: '90s', 'poll-interval': '500ms' },
      { onStdout: create.onStdout },
    );

    await create.done();
    expect(r.exitCode).toBe(0);
    expect(r.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^cannot watch deployments\.apps in namespace "rbac-nowatch"; polling every 500ms instead/),
    ]);
    // The real authorizer said no to a watch, and the action did not ask again.
    const watches = auditEvents(cluster, 'no-watch').filter((e) => e.verb === 'watch');
    expect(watches.length).toBeGreaterThan(0);
    expect(watches.every((e) => e.responseStatus?.code === 403)).toBe(true);
  }, 120_000);

  it('fails with a clear error for a Role without list', async () => {
    const ns = 'rbac-nolist';
    await inNamespace(ns, ...roleFor('no-list', ns, ['get', 'watch']), deployment('web', { namespace: ns, readyAfterMs: 300 }));

    const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns, user: 'no-list' }), resources: 'deployment/web', timeout: '90s' });

    expect(r.exitCode).toBe(1);
    expect(r.outputs.result).toBe('error'); // it could not judge the targets: the Role refuses the list
    expect(r.errors.map((e) => e.message)).toContainEqual(expect.stringContaining('cannot list deployments.apps in namespace "rbac-nolist": forbidden'));
  }, 120_000);

  it('follows a label selector whose membership changes mid-wait', async () => {
    const ns = 'selector';
    const stuck = failingDeployment('stuck', ns, 'Unschedulable');
    await inNamespace(ns, deployment('web', { namespace: ns, labels: { tier: 'frontend' }, readyAfterMs: 300 }), {
      ...stuck,
      metadata: { ...stuck.metadata, labels: { ...stuck.metadata.labels, tier: 'frontend' } },
    });
    // stuck never becomes ready: the wait can only end once it leaves the selector.
    const relabel = once('Waiting for', () => cluster.kubectl('label', 'deployment', 'stuck', '-n', ns, 'tier-'));

    const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), selector: 'tier=frontend', timeout: '90s' }, { onStdout: relabel.onStdout });

    await relabel.done();
    expect(r.exitCode).toBe(0);
    expect(statusByRef(r.outputs)).toEqual({ 'selector/Deployment/web': 'Current' });
  }, 120_000);

  it('serves the real kubectl: get, wait, rollout status', async () => {
    const ns = 'kubectl';
    await inNamespace(ns, deployment('web', { namespace: ns, readyAfterMs: 300 }));

    expect(await cluster.kubectl('rollout', 'status', 'deployment/web', '-n', ns, '--timeout=90s')).toContain('successfully rolled out');
    expect(await cluster.kubectl('wait', '--for=condition=Available', 'deployment/web', '-n', ns, '--timeout=60s')).toContain('condition met');
    const table = await cluster.kubectl('get', 'pods', '-n', ns, '-l', 'app=web');
    expect(table.split('\n').filter((line) => /\s1\/1\s+Running\s/.test(line))).toHaveLength(2);
  }, 150_000);

  it('installs a chart with helm v4 --wait=watcher, and kubewait agrees it is ready', async () => {
    const ns = 'helm';
    const home = mkdtempSync(path.join(tmpdir(), 'kubewait-helm-'));
    const kubeconfig = path.join(home, 'kubeconfig');
    cluster.writeKubeconfig(kubeconfig);
    try {
      const helm = await helmPath();
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        KUBECONFIG: kubeconfig,
        HELM_CACHE_HOME: path.join(home, 'cache'),
        HELM_CONFIG_HOME: path.join(home, 'config'),
        HELM_DATA_HOME: path.join(home, 'data'),
      };
      const chart = path.join(ROOT, 'test/real/fixtures/chart');
      const { stdout } = await run(helm, ['install', 'shop', chart, '--namespace', ns, '--create-namespace', '--wait=watcher', '--timeout', '90s'], { env });
      expect(stdout).toMatch(/STATUS: deployed/);

      const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), selector: 'app.kubernetes.io/instance=shop', timeout: '30s' });
      expect(r.exitCode).toBe(0);
      expect(statusByRef(r.outputs)).toEqual({ 'helm/Deployment/shop-web': 'Current', 'helm/Service/shop-web': 'Current' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 180_000);
});
