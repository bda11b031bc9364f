/** The simulated controllers: rollouts, scripted failures, events, and garbage collection. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type KubeObject, type TestCluster } from './index.js';
import { deployment, kubeConfigFor, RecordedWatch, until, widgetCrd } from './testkit.js';

let cluster: TestCluster;
const T = 20_000;

beforeAll(async () => {
  cluster = await startCluster({ speed: 0.1, nodes: 3, crdEstablishDelayMs: 20 });
});
afterAll(async () => {
  await cluster.close();
});

const get = (apiVersion: string, kind: string, name: string, ns = 'default') => cluster.get(apiVersion, kind, ns, name);
const cond = (obj: KubeObject | undefined, type: string) => obj?.status?.conditions?.find((c: { type: string }) => c.type === type);
const ownedBy = (kind: string, apiVersion: string, owner: KubeObject | undefined) =>
  cluster.list(apiVersion, kind, 'default').filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === owner?.metadata.uid && r.controller));
const eventsFor = (name: string) => cluster.list('v1', 'Event', 'default').filter((e) => (e.involvedObject as { name: string }).name === name);

function pod(name: string, opts: { restartPolicy?: string; annotations?: Record<string, string>; image?: string } = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: { restartPolicy: opts.restartPolicy ?? 'Always', containers: [{ name: 'app', image: opts.image ?? 'busybox:1.36' }] },
  };
}

describe('deployments', () => {
  it('roll out through an owned ReplicaSet to ready pods with real status and conditions', async () => {
    cluster.create(deployment('roll', { replicas: 3 }));
    await until(() => get('apps/v1', 'Deployment', 'roll')?.status?.availableReplicas === 3, 'available', T);
    const d = get('apps/v1', 'Deployment', 'roll')!;
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d.status.unavailableReplicas).toBeUndefined();
    expect(cond(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    const rs = ownedBy('ReplicaSet', 'apps/v1', d)[0]!;
    expect(rs.metadata.name).toBe(`roll-${rs.metadata.labels!['pod-template-hash']}`);
    expect(rs.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('1');
    const pods = ownedBy('Pod', 'v1', rs);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.status).toMatchObject({
        phase: 'Running',
        podIP: expect.any(String),
        containerStatuses: [expect.objectContaining({ ready: true, restartCount: 0, state: { running: expect.anything() } })],
      });
      expect(cond(p, 'Ready')?.status).toBe('True');
      expect(p.spec.nodeName).toMatch(/^node-[123]$/);
    }
  });

  it('roll a template change out to a new ReplicaSet and scale the old one down', async () => {
    cluster.create(deployment('update', { replicas: 2 }));
    await until(() => get('apps/v1', 'Deployment', 'update')?.status?.availableReplicas === 2, 'first rollout', T);
    const changed = deployment('update', { replicas: 2, image: 'nginx:1.28' });
    cluster.apply(changed);
    await until(
      () => {
        const d = get('apps/v1', 'Deployment', 'update');
        return d?.status?.observedGeneration === 2 && d.status.updatedReplicas === 2 && d.status.replicas === 2 && d.status.availableReplicas === 2;
      },
      'second rollout',
      T,
    );
    const d = get('apps/v1', 'Deployment', 'update')!;
    expect(d.metadata.generation).toBe(2);
    const sets = ownedBy('ReplicaSet', 'apps/v1', d);
    expect(sets.map((s) => [s.metadata.annotations!['deployment.kubernetes.io/revision'], s.spec.replicas]).sort()).toEqual([
      ['1', 0],
      ['2', 2],
    ]);
    await until(() => sets.every((s) => ownedBy('Pod', 'v1', s).length === s.spec.replicas), 'old pods gone', T);
  });

  it('report ProgressDeadlineExceeded when pods never get ready', async () => {
    cluster.create({
      ...deployment('stuck', { podAnnotations: { 'kubewait.test/pod-failure': 'ImagePullBackOff' } }),
      spec: {
        ...(deployment('stuck') as { spec: object }).spec,
        progressDeadlineSeconds: 3,
        template: {
          metadata: { labels: { app: 'stuck' }, annotations: { 'kubewait.test/pod-failure': 'ImagePullBackOff' } },
          spec: { containers: [{ name: 'app', image: 'nginx:nope' }] },
        },
      },
    });
    await until(() => cond(get('apps/v1', 'Deployment', 'stuck'), 'Progressing')?.status === 'False', 'deadline', T);
    const d = get('apps/v1', 'Deployment', 'stuck')!;
    expect(cond(d, 'Progressing')).toMatchObject({
      reason: 'ProgressDeadlineExceeded',
      message: expect.stringMatching(/^ReplicaSet "stuck-\w+" has timed out progressing\.$/),
    });
    expect(cond(d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    expect(d.status.unavailableReplicas).toBe(1);
  });

  it('are garbage collected with their ReplicaSets and pods', async () => {
    cluster.create(deployment('gc'));
    await until(() => get('apps/v1', 'Deployment', 'gc')?.status?.availableReplicas === 1, 'rollout', T);
    const rs = ownedBy('ReplicaSet', 'apps/v1', get('apps/v1', 'Deployment', 'gc'))[0]!;
    cluster.delete('apps/v1', 'Deployment', 'default', 'gc');
    await until(() => !get('apps/v1', 'ReplicaSet', rs.metadata.name) && ownedBy('Pod', 'v1', rs).length === 0, 'dependents gone', T);
  });
});

describe('namespaces', () => {
  it('terminate: contents are deleted, finalizers hold the namespace, then it goes', async () => {
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    cluster.create(deployment('web', { namespace: 'doomed' }));
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: 'doomed', finalizers: ['example.com/hold'] } });
    await until(() => cluster.list('v1', 'Pod', 'doomed').length === 1, 'pod', T);
    cluster.delete('v1', 'Namespace', undefined, 'doomed');
    expect(cluster.get('v1', 'Namespace', undefined, 'doomed')).toMatchObject({
      metadata: { deletionTimestamp: expect.any(String) },
      status: { phase: 'Terminating' },
    });
    await until(() => cluster.list('apps/v1', 'Deployment', 'doomed').length === 0 && cluster.list('v1', 'Pod', 'doomed').length === 0, 'contents deleted', T);
    expect(cluster.get('v1', 'ConfigMap', 'doomed', 'held')?.metadata.deletionTimestamp).toBeDefined();
    expect(cluster.get('v1', 'Namespace', undefined, 'doomed')).toBeDefined();
    const held = cluster.get('v1', 'ConfigMap', 'doomed', 'held')!;
    cluster.apply({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await until(() => cluster.get('v1', 'Namespace', undefined, 'doomed') === undefined, 'namespace gone', T);
  });
});

describe('pod failures', () => {
  it.each([
    [
      'ImagePullBackOff',
      {},
      (p: KubeObject) => p.status.containerStatuses?.[0].state.waiting?.reason === 'ImagePullBackOff',
      ['Failed: Error: ErrImagePull', 'Failed: Error: ImagePullBackOff', 'BackOff: Back-off pulling image "nginx:nope"'],
      'Pending',
    ],
    [
      'CrashLoopBackOff',
      {},
      (p: KubeObject) => p.status.containerStatuses?.[0].restartCount >= 2,
      ['BackOff: Back-off restarting failed container app in pod'],
      'Running',
    ],
    [
      'CreateContainerConfigError',
      {},
      (p: KubeObject) => p.status.containerStatuses?.[0].state.waiting?.reason === 'CreateContainerConfigError',
      ['Failed: Error: secret "x" not found'],
      'Pending',
    ],
    [
      'Unschedulable',
      {},
      (p: KubeObject) => cond(p, 'PodScheduled')?.status === 'False',
      ['FailedScheduling: 0/3 nodes are available: 3 Insufficient cpu.'],
      'Pending',
    ],
  ])('%s shows in the pod status and Warning events', async (failure, extra, reached, events, phase) => {
    const name = `fail-${failure.toLowerCase()}`;
    cluster.create(pod(name, { image: 'nginx:nope', annotations: { 'kubewait.test/pod-failure': failure, ...extra } }));
    await until(
      () => {
        const p = get('v1', 'Pod', name);
        return Boolean(p?.status && reached(p));
      },
      failure,
      T,
    );
    await until(() => events.every((e) => eventsFor(name).some((ev) => `${ev.reason}: ${ev.message}`.startsWith(e))), `${failure} events`, T);
    const p = get('v1', 'Pod', name)!;
    expect(p.status.phase).toBe(phase);
    expect(cond(p, 'Ready')?.status ?? 'False').toBe('False');
    const warning = eventsFor(name).find((e) => e.type === 'Warning')!;
    expect(warning).toMatchObject({
      count: expect.any(Number),
      source: { component: expect.any(String) },
      firstTimestamp: expect.any(String),
      lastTimestamp: expect.any(String),
    });
    expect(warning.involvedObject).toMatchObject({ kind: 'Pod', name, namespace: 'default', uid: p.metadata.uid });
  });

  it('CrashLoopBackOff reports the OOMKilled last state when scripted, and counts repeated events', async () => {
    cluster.create(pod('oom', { annotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff', 'kubewait.test/exit-reason': 'OOMKilled' } }));
    await until(() => get('v1', 'Pod', 'oom')?.status?.containerStatuses?.[0].restartCount >= 3, 'restarts', T);
    const status = get('v1', 'Pod', 'oom')!.status.containerStatuses[0];
    expect(status.lastState.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect(status.state.waiting.message).toMatch(/^back-off \d+s restarting failed container=app pod=oom_default\(/);
    await until(() => eventsFor('oom').some((e) => e.reason === 'BackOff' && Number(e.count) >= 2), 'counted event', T);
  });
});

describe('bare pods', () => {
  it.each([
    ['Always', 'Running', 'True'],
    ['Never', 'Succeeded', 'False'],
    ['OnFailure', 'Succeeded', 'False'],
  ])('with restartPolicy %s end %s', async (restartPolicy, phase, ready) => {
    const name = `bare-${restartPolicy.toLowerCase()}`;
    cluster.create(pod(name, { restartPolicy }));
    await until(() => get('v1', 'Pod', name)?.status?.phase === phase, phase, T);
    expect(cond(get('v1', 'Pod', name), 'Ready')?.status).toBe(ready);
  });

  it('created with a status (a fixture) are left alone', async () => {
    cluster.create({ ...pod('fixture'), status: { phase: 'Failed', containerStatuses: [] } });
    cluster.create(pod('fixture-marker'));
    await until(() => get('v1', 'Pod', 'fixture-marker')?.status?.phase === 'Running', 'marker runs', T);
    expect(get('v1', 'Pod', 'fixture')?.status).toEqual({ phase: 'Failed', containerStatuses: [] });
  });
});

describe('statefulsets', () => {
  const sts = (image: string, partition = 0) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      replicas: 3,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image }] } },
    },
  });

  it('create pods in order, each after the previous is ready, then honour the partition on update', async () => {
    const w = await RecordedWatch.start(kubeConfigFor(cluster), '/api/v1/namespaces/default/pods', { labelSelector: 'app=db' });
    try {
      cluster.create(sts('postgres:16'));
      await until(() => get('apps/v1', 'StatefulSet', 'db')?.status?.readyReplicas === 3, 'ready', T);
      const added = w.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
      expect(added).toEqual(['db-0', 'db-1', 'db-2']);
      const readyBefore = (name: string, next: string) => {
        const readyAt = w.events.findIndex(
          (e) =>
            e.object.metadata.name === name &&
            e.object.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'),
        );
        const addedAt = w.events.findIndex((e) => e.type === 'ADDED' && e.object.metadata.name === next);
        return readyAt >= 0 && readyAt < addedAt;
      };
      expect([readyBefore('db-0', 'db-1'), readyBefore('db-1', 'db-2')]).toEqual([true, true]);
      const first = get('apps/v1', 'StatefulSet', 'db')!.status;
      expect(first).toMatchObject({ replicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3 });
      expect(first.currentRevision).toBe(first.updateRevision);

      cluster.apply(sts('postgres:17', 2));
      await until(
        () => get('apps/v1', 'StatefulSet', 'db')?.status?.updatedReplicas === 1 && get('apps/v1', 'StatefulSet', 'db')?.status?.readyReplicas === 3,
        'partitioned update',
        T,
      );
      const status = get('apps/v1', 'StatefulSet', 'db')!.status;
      expect(status).toMatchObject({ observedGeneration: 2, currentReplicas: 2, updatedReplicas: 1, currentRevision: first.currentRevision });
      expect(status.updateRevision).not.toBe(first.currentRevision);
      expect(['db-0', 'db-1', 'db-2'].map((n) => get('v1', 'Pod', n)?.spec.containers[0].image)).toEqual(['postgres:16', 'postgres:16', 'postgres:17']);
    } finally {
      w.stop();
    }
  });
});

describe('daemonsets, jobs, volumes, services', () => {
  it('run a DaemonSet pod on every node', async () => {
    cluster.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:1' }] } },
      },
    });
    await until(() => get('apps/v1', 'DaemonSet', 'agent')?.status?.numberReady === 3, 'ready on all nodes', T);
    expect(get('apps/v1', 'DaemonSet', 'agent')!.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
      numberMisscheduled: 0,
      observedGeneration: 1,
    });
    expect(
      cluster
        .list('v1', 'Pod', 'default')
        .filter((p) => p.metadata.labels?.app === 'agent')
        .map((p) => p.spec.nodeName)
        .sort(),
    ).toEqual(['node-1', 'node-2', 'node-3']);
  });

  const job = (name: string, annotations: Record<string, string> = {}, backoffLimit = 1) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', annotations },
    spec: { backoffLimit, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox' }] } } },
  });

  it('complete a Job', async () => {
    cluster.create(job('migrate'));
    await until(() => cond(get('batch/v1', 'Job', 'migrate'), 'Complete')?.status === 'True', 'complete', T);
    const j = get('batch/v1', 'Job', 'migrate')!;
    expect(j.status).toMatchObject({ succeeded: 1, startTime: expect.any(String), completionTime: expect.any(String) });
    expect(cond(j, 'SuccessCriteriaMet')?.status).toBe('True');
  });

  it('fail a Job past its backoffLimit', async () => {
    cluster.create(job('broken', { 'kubewait.test/job-outcome': 'Failed' }, 1));
    await until(() => cond(get('batch/v1', 'Job', 'broken'), 'Failed')?.status === 'True', 'failed', T);
    const j = get('batch/v1', 'Job', 'broken')!;
    expect(cond(j, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(j.status.failed).toBe(2);
    expect(eventsFor('broken').map((e) => [e.type, e.reason])).toContainEqual(['Warning', 'BackoffLimitExceeded']);
  });

  it.each([
    [{}, 'Bound'],
    [{ 'kubewait.test/pvc': 'Pending' }, 'Pending'],
  ])('bind a PVC or keep it Pending (%p)', async (annotations, phase) => {
    const name = `data-${phase.toLowerCase()}`;
    cluster.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: 'default', annotations },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
    });
    if (phase === 'Bound') {
      await until(() => get('v1', 'PersistentVolumeClaim', name)?.status?.phase === 'Bound', 'bound', T);
      expect(get('v1', 'PersistentVolumeClaim', name)!.status.capacity).toEqual({ storage: '2Gi' });
    } else {
      await until(() => eventsFor(name).some((e) => e.reason === 'ProvisioningFailed'), 'provisioning event', T);
      expect(get('v1', 'PersistentVolumeClaim', name)!.status.phase).toBe('Pending');
    }
  });

  it('give a LoadBalancer Service a clusterIP at once and ingress later', async () => {
    const svc = cluster.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb', namespace: 'default' },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    });
    expect(svc.spec.clusterIP).toMatch(/^10\.96\./);
    await until(() => get('v1', 'Service', 'lb')?.status?.loadBalancer?.ingress?.length === 1, 'ingress', T);
  });
});

describe('custom resources', () => {
  beforeAll(async () => {
    cluster.create(widgetCrd());
    await until(
      () => cond(get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com', undefined), 'Established')?.status === 'True',
      'CRD established',
      T,
    );
  });

  it.each([
    [{}, 'Ready', 'True'],
    [{ 'kubewait.test/cr-outcome': 'Stalled' }, 'Stalled', 'True'],
  ])('move through Reconciling to their scripted outcome (%p)', async (extra, type, status) => {
    const name = `w-${type.toLowerCase()}`;
    cluster.create({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name, namespace: 'default', annotations: { 'kubewait.test/conditions-after-ms': '300', ...extra } },
      spec: {},
    });
    await until(() => cond(get('example.com/v1', 'Widget', name), 'Reconciling')?.status === 'True', 'reconciling', T);
    await until(() => cond(get('example.com/v1', 'Widget', name), type)?.status === status, type, T);
    const w = get('example.com/v1', 'Widget', name)!;
    expect(w.status.observedGeneration).toBe(1);
    expect(cond(w, 'Reconciling')).toBeUndefined();
  });
});
