/**
 * waitForTargets against the API server stand-in (HTTPS, real client-node), with statuses written by the
 * test itself (no simulated controllers), so every step is deterministic.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';
import { until } from '../cluster/testkit.js';
import { configMap, deployment, deploymentStatus, pod } from './fixtures.js';
import { brief, following, listed, namespace, requestsIn, runEngine } from './helpers.js';
import { workloadTargets } from '../../src/targets/workloads.js';
import { ManualTime } from '../../src/time.js';
import { driveUntil, driveUntilSettled, runVirtual } from './virtual.js';

let server: TestCluster;

beforeAll(async () => {
  server = await startCluster({
    controllers: false,
    crdEstablishDelayMs: 50,
    tokens: {
      'list-only': [
        { verbs: ['get', 'list'], resources: ['*'], apiGroups: ['*'] },
        { verbs: ['watch'], resources: ['configmaps'], apiGroups: [''] },
      ],
      'no-deployments': [{ verbs: ['*'], resources: ['configmaps', 'pods', 'events'], apiGroups: [''] }],
      'no-pods': [{ verbs: ['*'], resources: ['deployments'], apiGroups: ['apps'] }],
      'no-daemonsets': [{ verbs: ['*'], resources: ['deployments', 'statefulsets', 'jobs', 'pods', 'persistentvolumeclaims', 'services', 'events'] }],
    },
  });
});
afterAll(async () => {
  await server.close();
});

const ready = (ns: string, name: string) => server.patchStatus('apps/v1', 'Deployment', ns, name, deploymentStatus('ready'));

describe('readiness', () => {
  it('waits for Deployments that become ready after a delay', async () => {
    const ns = namespace(server, 'delay');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    server.create(deployment('api', { namespace: ns, state: 'progressing' }));
    const transitions: string[] = [];
    const running = runEngine(
      server,
      [
        { type: 'deploy', name: 'web', namespace: ns },
        { type: 'deployments.apps', name: 'api', namespace: ns },
      ],
      {
        observer: { transition: (t) => transitions.push(`${t.name} ${t.status}`) },
      },
    );
    await following(server, 'deployments', ns);
    ready(ns, 'web');
    ready(ns, 'api');
    const result = await running;
    expect(result).toMatchObject({ outcome: 'ready', cancelled: false, warnings: [] });
    expect(result.targets.map(brief)).toEqual([
      'Deployment/delay/web Current done: Deployment is available. Replicas: 1',
      'Deployment/delay/api Current done: Deployment is available. Replicas: 1',
    ]);
    expect(result.targets[0]?.history.map((h) => h.status)).toEqual(['InProgress', 'Current']);
    expect(result.targets[0]?.apiVersion).toBe('apps/v1');
    expect(transitions).toEqual(expect.arrayContaining(['web InProgress', 'web Current', 'api Current']));
  });

  it('says the wait is decided once, in the burst of its last transition, before any continuation runs', async () => {
    const ns = namespace(server, 'decided');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const events: string[] = [];
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], {
      observer: {
        transition: (t) => {
          events.push(`${t.name} ${t.status}`);
          // The engine closes its watches and builds the result in continuations: they run after this one.
          if (t.status === 'Current') queueMicrotask(() => events.push('a continuation'));
        },
        decided: () => events.push('decided'),
      },
    });
    await following(server, 'deployments', ns);
    ready(ns, 'web');
    await running;
    expect(events.slice(-3)).toEqual(['web Current', 'decided', 'a continuation']);
    expect(events.filter((e) => e === 'decided')).toHaveLength(1);
  });

  it('waits for targets created after the wait started, and for selector members', async () => {
    const ns = namespace(server, 'later');
    const resolved: string[][] = [];
    const running = runEngine(
      server,
      [
        { type: 'cm', name: 'settings', namespace: ns },
        { type: 'deploy', selector: 'tier=web', namespace: ns },
      ],
      {
        observer: { resolved: (targets) => resolved.push(targets.map(brief)) },
      },
    );
    await following(server, 'deployments', ns);
    await following(server, 'configmaps', ns);
    server.create(configMap('settings', {}, ns));
    server.create(deployment('a', { namespace: ns, labels: { tier: 'web' }, state: 'progressing' }));
    server.create(deployment('b', { namespace: ns, labels: { tier: 'web' }, state: 'ready' }));
    await until(() => server.counters.requests().length > 0, 'noop');
    ready(ns, 'a');
    const result = await running;
    expect(resolved).toEqual([
      [
        'ConfigMap/later/settings Unknown: waiting for the first list of configmaps in namespace "later"',
        'Deployment/later/(tier=web) Unknown: waiting for the first list of deployments.apps in namespace "later"',
      ],
    ]);
    expect(result.outcome).toBe('ready');
    expect(result.targets.map((t) => `${t.kind}/${t.name} ${t.status}`)).toEqual([
      'ConfigMap/settings Current',
      'Deployment/a Current',
      'Deployment/b Current',
    ]);
  });

  it('times out on a target that never gets ready, saying where it is stuck', async () => {
    const ns = namespace(server, 'stuck');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const result = await runVirtual(
      server,
      [
        { type: 'deploy', name: 'web', namespace: ns },
        { type: 'deploy', name: 'ghost', namespace: ns },
        { type: 'deploy', selector: 'app=none', namespace: ns },
      ],
      { timeoutMs: 3000 },
    );
    expect(result.outcome).toBe('timeout');
    expect(result.targets.map(brief)).toEqual([
      'Deployment/stuck/web InProgress: Available: 0/1',
      'Deployment/stuck/ghost NotFound: not found; waiting for it to be created',
      'Deployment/stuck/(app=none) NotFound: no deployments match app=none in namespace stuck yet',
    ]);
    expect(result.durationSeconds).toBeGreaterThanOrEqual(3);
  });

  it('fails fast on a Deployment past its progress deadline', async () => {
    const ns = namespace(server, 'deadline');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    server.create(deployment('api', { namespace: ns, state: 'progressing' }));
    const running = runEngine(
      server,
      [
        { type: 'deploy', name: 'web', namespace: ns },
        { type: 'deploy', name: 'api', namespace: ns },
      ],
      { timeoutMs: 600_000 },
    );
    await following(server, 'deployments', ns);
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('deadline'));
    const result = await running; // never waits for the 10-minute deadline (jest's timeout would fail first)
    expect(result.outcome).toBe('failed');
    expect(result.targets.map(brief)).toEqual([
      'Deployment/deadline/web Failed: Progress deadline exceeded',
      'Deployment/deadline/api InProgress: Available: 0/1',
    ]);
  });

  it('fails a Job that failed, under job-completion', async () => {
    const ns = namespace(server, 'jobs');
    server.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: ns },
      spec: { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'm', image: 'm' }] } } },
      status: {
        failed: 2,
        conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }],
      },
    });
    const result = await runEngine(server, [{ type: 'job', name: 'migrate', namespace: ns }], { timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    expect(result.targets[0]).toMatchObject({ kind: 'Job', status: 'Failed' });
    expect(result.targets[0]?.message).toMatch(/BackoffLimitExceeded|backoff limit/);
  });

  it('fails fast on a workload whose pods cannot pull their image, naming the reason', async () => {
    const ns = namespace(server, 'pull');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    server.create(
      pod('web-5d8f-abcde', {
        namespace: ns,
        app: 'web',
        owner: { kind: 'ReplicaSet', name: 'web-5d8f' },
        image: 'web:nope',
        waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "web:nope"' },
      }),
    );
    server.create(pod('other-1', { namespace: ns, app: 'other', waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } }));
    server.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-5d8f-abcde.1', namespace: ns },
      type: 'Warning',
      reason: 'Failed',
      message: 'Failed to pull image "web:nope": not found',
      count: 3,
      involvedObject: { kind: 'Pod', name: 'web-5d8f-abcde', namespace: ns },
    });
    const result = await runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000, imagePullGraceMs: 0 });
    expect(result.outcome).toBe('failed');
    const web = result.targets[0]!;
    expect(web.status).toBe('Failed');
    expect(web.message).toContain('ImagePullBackOff');
    expect(web.diagnosis).toMatchObject({ unrecoverable: true, problems: [{ pod: 'web-5d8f-abcde', reason: 'ImagePullBackOff' }] });
    expect(web.diagnosis!.problems.map((p) => p.pod)).not.toContain('other-1');
    expect(web.diagnosis!.events).toEqual([expect.objectContaining({ reason: 'Failed', object: 'Pod/web-5d8f-abcde' })]);
  });

  it('ends when the signal is aborted, reporting every target', async () => {
    const ns = namespace(server, 'cancel');
    server.create(configMap('a', {}, ns));
    const controller = new AbortController();
    const running = runEngine(
      server,
      [
        { type: 'cm', name: 'a', namespace: ns },
        { type: 'cm', name: 'b', namespace: ns },
      ],
      { signal: controller.signal, timeoutMs: 600_000 },
    );
    await following(server, 'configmaps', ns);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ cancelled: true, outcome: 'timeout' });
    expect(result.targets.map(brief)).toEqual([
      'ConfigMap/cancel/a Current done: Resource is always ready',
      'ConfigMap/cancel/b NotFound: not found; waiting for it to be created',
    ]);
  });

  it('sends heartbeats with the pending targets while waiting', async () => {
    const ns = namespace(server, 'heartbeat');
    server.create(configMap('here', {}, ns));
    const beats: Array<[string[], number]> = [];
    await runVirtual(
      server,
      [
        { type: 'cm', name: 'here', namespace: ns },
        { type: 'cm', name: 'missing', namespace: ns },
      ],
      {
        timeoutMs: 3000,
        heartbeatMs: 300,
        observer: { heartbeat: (pending, elapsed) => beats.push([pending.map((t) => t.name), elapsed]) },
      },
    );
    expect(beats.length).toBeGreaterThanOrEqual(1);
    for (const [pending, elapsed] of beats) {
      expect(pending).toContain('missing');
      expect(elapsed).toBeGreaterThan(0);
    }
    expect(beats[beats.length - 1]?.[0]).toEqual(['missing']);
  });

  it('succeeds at once with nothing to wait for', async () => {
    expect(await runEngine(server, [])).toMatchObject({ outcome: 'ready', targets: [] });
  });
});

describe('a selector on its own (every workload type)', () => {
  it('is ready when the matching objects are, whatever types have no match', async () => {
    const ns = namespace(server, 'lone');
    server.create(deployment('web', { namespace: ns, labels: { app: 'shop' }, state: 'ready' }));
    server.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: ns, labels: { app: 'shop' } },
      spec: { type: 'ClusterIP', ports: [{ port: 80 }] },
    });
    server.create(deployment('other', { namespace: ns, labels: { app: 'else' }, state: 'progressing' }));
    const result = await runEngine(
      server,
      workloadTargets('app=shop').map((t) => ({ ...t, namespace: ns })),
    );
    expect(result.outcome).toBe('ready');
    expect(result.targets.map((t) => `${t.kind}/${t.name} ${t.status}`)).toEqual(['Deployment/web Current', 'Service/web Current']);
  });

  it('reports one entry while nothing matches', async () => {
    const ns = namespace(server, 'lone-empty');
    const result = await runVirtual(
      server,
      workloadTargets('app=shop').map((t) => ({ ...t, namespace: ns })),
      { timeoutMs: 3000 },
    );
    expect(result.outcome).toBe('timeout');
    expect(result.targets.map(brief)).toEqual([
      'Deployment/lone-empty/(app=shop) NotFound: no deployments, statefulsets, daemonsets, jobs, pods without an owner, persistentvolumeclaims or services match app=shop in namespace lone-empty yet',
    ]);
  });
});

describe('wait-for', () => {
  it('deleted: done when deleted, and when deleted and created again (new UID)', async () => {
    const ns = namespace(server, 'deleting');
    server.create(configMap('a', {}, ns));
    server.create(configMap('b', {}, ns));
    const running = runEngine(
      server,
      [
        { type: 'cm', name: 'a', namespace: ns },
        { type: 'cm', name: 'b', namespace: ns },
        { type: 'cm', name: 'never', namespace: ns },
      ],
      { waitFor: { kind: 'deleted' } },
    );
    await following(server, 'configmaps', ns);
    server.delete('v1', 'ConfigMap', ns, 'a');
    server.delete('v1', 'ConfigMap', ns, 'b');
    server.create(configMap('b', {}, ns));
    const result = await running;
    expect(result.outcome).toBe('ready');
    expect(result.targets.map(brief)).toEqual([
      'ConfigMap/deleting/a NotFound done: deleted',
      'ConfigMap/deleting/b NotFound done: deleted',
      'ConfigMap/deleting/never NotFound done: does not exist',
    ]);
  });

  it.each([
    [
      'a type no CRD defines',
      'widgets.gone.example.com',
      'resources',
      'resource type "widgets.gone.example.com" is not served by the cluster and no CRD defines it, so it cannot be waited for.',
    ],
    [
      'a mistyped type',
      'deploymnt',
      'resources',
      'resource type "deploymnt" is not served by the cluster and no CRD defines it, so it cannot be waited for. Did you mean deployments.apps (deployment, deploy)?',
    ],
  ])('deleted: %s is an input error after discovery was read again, never a pass', async (_case, type, input, message) => {
    const result = await runVirtual(server, [{ type, name: 'w' }], { waitFor: { kind: 'deleted' } });
    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({ input, message });
    expect(result.targets.map((t) => [t.status, t.done])).toEqual([['Unknown', false]]);
  });

  it('condition=Available on a Deployment', async () => {
    const ns = namespace(server, 'cond');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { waitFor: { kind: 'condition', type: 'Available', value: 'True' } });
    await following(server, 'deployments', ns);
    ready(ns, 'web');
    const result = await running;
    expect(result.targets.map(brief)).toEqual(['Deployment/cond/web Current done: condition Available=True']);
  });
});

describe('custom resources', () => {
  it('waits for a CRD installed mid-wait and its custom resource becoming Ready', async () => {
    const ns = namespace(server, 'crd');
    const warnings: string[] = [];
    // On virtual time: re-discovery (at most every 3 s) comes when the clock is moved, not after real seconds.
    const time = new ManualTime();
    const running = runEngine(server, [{ type: 'databases.example.net', name: 'main', namespace: ns }], {
      observer: { warning: (m) => warnings.push(m) },
      time,
    });
    await until(() => warnings.length > 0, 'the not-served warning');
    expect(warnings).toEqual([
      'resource type "databases.example.net" (in API group "example.net") is not served by the cluster yet; waiting for it until the deadline',
    ]);
    server.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'databases.example.net' },
      spec: {
        group: 'example.net',
        scope: 'Namespaced',
        names: { plural: 'databases', singular: 'database', kind: 'Database', shortNames: ['db'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            subresources: { status: {} },
          },
        ],
      },
    });
    await server.waitFor(() =>
      (server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'databases.example.net')?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
      ),
    );
    server.create({
      apiVersion: 'example.net/v1',
      kind: 'Database',
      metadata: { name: 'main', namespace: ns },
      spec: {},
      status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False', reason: 'Starting', message: 'starting' }] },
    });
    await driveUntil(time, server, () => listed(server, 'databases', ns), 'a LIST of databases');
    server.patchStatus('example.net/v1', 'Database', ns, 'main', {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }],
    });
    const result = await driveUntilSettled(time, server, running);
    expect(result.outcome).toBe('ready');
    expect(result.targets.map(brief)).toEqual(['Database/crd/main Current done: Resource is Ready']);
    expect(result.targets[0]?.history.map((h) => h.status)).toEqual(expect.arrayContaining(['InProgress', 'Current']));
    expect(result.targets[0]?.apiVersion).toBe('example.net/v1');
  });

  it('says at the deadline that a type is not served', async () => {
    const result = await runVirtual(server, [{ type: 'gadgets', name: 'g' }], { timeoutMs: 3000 });
    expect(result.outcome).toBe('timeout');
    expect(result.targets.map(brief)).toEqual(['gadgets//g Unknown: resource type "gadgets" is not served by the cluster']);
  });

  it('fails at once on an ambiguous type, naming the input and the candidates', async () => {
    for (const group of ['a.example.org', 'b.example.org']) {
      server.create({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `caches.${group}` },
        spec: {
          group,
          scope: 'Namespaced',
          names: { plural: 'caches', singular: 'cache', kind: 'Cache' },
          versions: [{ name: 'v1', served: true, storage: true }],
        },
      });
    }
    // Established, not only NamesAccepted (which comes first): both types are served before the wait starts.
    await server.waitFor(
      () =>
        server
          .list('apiextensions.k8s.io/v1', 'CustomResourceDefinition')
          .filter(
            (c) =>
              c.metadata.name.startsWith('caches.') &&
              (c.status?.conditions ?? []).some((cond: { type: string; status: string }) => cond.type === 'Established' && cond.status === 'True'),
          ).length === 2,
    );
    const result = await runEngine(
      server,
      [
        { type: 'cache', name: 'x' },
        { type: 'cm', name: 'y' },
      ],
      { timeoutMs: 600_000 },
    );
    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({
      input: 'resources',
      message: 'resource type "cache" is ambiguous: it matches caches.a.example.org, caches.b.example.org; write one of them instead',
    });
    expect(result.targets).toHaveLength(2);
  });
});

describe('permissions', () => {
  it('auto: a forbidden watch falls back to polling with one warning naming the permission', async () => {
    const ns = namespace(server, 'nowatch');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const warnings: string[] = [];
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { token: 'list-only', observer: { warning: (m) => warnings.push(m) } });
    await until(() => warnings.length > 0, 'the fallback warning');
    ready(ns, 'web');
    const result = await running;
    expect(result.outcome).toBe('ready');
    expect(result.warnings).toEqual([
      'cannot watch deployments.apps in namespace "nowatch"; polling every 200ms instead — grant the watch verb on deployments.apps to this kubeconfig\'s identity for faster, lighter waits',
    ]);
    expect(warnings).toEqual(result.warnings);
  });

  it('watch: a forbidden watch is an error', async () => {
    const ns = namespace(server, 'nowatch2');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const result = await runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { token: 'list-only', mode: 'watch', timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    // The missing permission, attributed to `mode` (the input that makes it fatal), not to the kubeconfig.
    expect(result.error).toEqual({ input: 'mode', message: expect.stringContaining('cannot watch deployments.apps in namespace "nowatch2": forbidden') });
    expect(result.targets[0]).toMatchObject({ status: 'Unknown', message: result.error!.message });
  });

  it('without access to pods, waits all the same and warns once that diagnosis is unavailable', async () => {
    const ns = namespace(server, 'nopods');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const warnings: string[] = [];
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { token: 'no-pods', observer: { warning: (m) => warnings.push(m) } });
    await until(() => warnings.length > 0, 'the diagnosis warning');
    ready(ns, 'web');
    const result = await running;
    expect(result.outcome).toBe('ready');
    expect(result.warnings).toEqual([
      'cannot list pods in namespace "nopods": pod diagnosis (why a workload is not ready) is unavailable there — grant the list verb on pods and events',
    ]);
  });

  it('a selector alone warns about a type it may not list, and waits for the others', async () => {
    const ns = namespace(server, 'nods');
    server.create(deployment('web', { namespace: ns, labels: { app: 'shop' }, state: 'ready' }));
    const result = await runEngine(
      server,
      workloadTargets('app=shop').map((t) => ({ ...t, namespace: ns })),
      { token: 'no-daemonsets' },
    );
    expect(result.outcome).toBe('ready');
    expect(result.targets.map((t) => `${t.kind}/${t.name} ${t.status}`)).toEqual(['Deployment/web Current']);
    expect(result.warnings).toEqual([
      'cannot list daemonsets.apps in namespace "nods": forbidden, so matching objects of this type are not waited for — grant the list and watch verbs on daemonsets.apps to this kubeconfig\'s identity',
    ]);
  });

  it('poll: never watches', async () => {
    const ns = namespace(server, 'polling');
    server.create(configMap('a', {}, ns));
    const result = await runEngine(server, [{ type: 'cm', name: 'a', namespace: ns }], { mode: 'poll' });
    expect(result.outcome).toBe('ready');
    expect(requestsIn(server, ns).filter((r) => r.verb === 'watch')).toEqual([]);
  });

  it('a forbidden LIST fails with the permission named, once nothing else can progress', async () => {
    const ns = namespace(server, 'nolist');
    server.create(configMap('a', {}, ns));
    const result = await runEngine(
      server,
      [
        { type: 'cm', name: 'a', namespace: ns },
        { type: 'deploy', name: 'web', namespace: ns },
      ],
      { token: 'no-deployments', timeoutMs: 600_000 },
    );
    expect(result.outcome).toBe('failed');
    const message =
      'cannot list deployments.apps in namespace "nolist": forbidden — grant the list and watch verbs on deployments.apps to this kubeconfig\'s identity';
    expect(result.error).toEqual({ input: 'kubeconfig', message });
    expect(result.targets.map(brief)).toEqual(['ConfigMap/nolist/a Current done: Resource is always ready', `Deployment/nolist/web Unknown: ${message}`]);
  });

  it('rejected credentials (401 on discovery) end the wait with an error now, not at the deadline', async () => {
    const ns = namespace(server, 'unauthorized');
    const result = await runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { token: 'not-a-known-token', timeoutMs: 600_000 });
    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({ input: 'kubeconfig', message: expect.stringContaining('rejected the credentials (401 Unauthorized)') });
    expect(result.targets.map((t) => t.status)).toEqual(['Unknown']);
  });
});

describe('efficiency', () => {
  it('follows 1,000 targets in one namespace with a handful of requests', async () => {
    const ns = namespace(server, 'many');
    for (let i = 0; i < 1000; i++) server.create(configMap(`cm-${i}`, { app: 'many' }, ns));
    const targets = Array.from({ length: 1000 }, (_, i) => ({ type: 'configmaps', name: `cm-${i}`, namespace: ns }));
    const result = await runEngine(server, targets);
    expect(result.outcome).toBe('ready');
    expect(result.targets).toHaveLength(1000);
    const verbs = requestsIn(server, ns).map((r) => r.verb);
    // One paginated LIST (500 per page) and at most one WATCH: nothing per target.
    expect(verbs.filter((v) => v === 'list').length).toBeLessThanOrEqual(2);
    expect(verbs.filter((v) => v === 'watch').length).toBeLessThanOrEqual(1);
  });
});
