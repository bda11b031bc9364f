/**
 * The engine under a misbehaving API server: dropped watches, 410 Gone, 429/500 bursts, a server that
 * stalls or is not there yet. Each test ends in a state change the engine can only see if it recovered.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';
import { connect } from '../../src/kube/index.js';
import { waitForTargets } from '../../src/engine/index.js';
import { configMap, deployment, deploymentStatus } from './fixtures.js';
import { brief, following, namespace, requestsIn, runEngine } from './helpers.js';
import { driveUntil, driveUntilSettled } from './virtual.js';
import { ManualTime } from '../../src/time.js';

let server: TestCluster;

beforeAll(async () => {
  server = await startCluster({ controllers: false, bookmarkIntervalMs: 200 });
});
afterAll(async () => {
  await server.close();
});

const watchesOf = (ns: string) => requestsIn(server, ns).filter((r) => r.verb === 'watch').length;

describe('watch interruptions', () => {
  it('re-watches after dropped watches and relists after repeated 410 Gone, missing no change', async () => {
    const ns = namespace(server, 'flaky');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    server.create(deployment('api', { namespace: ns, state: 'progressing' }));
    const running = runEngine(server, [
      { type: 'deploy', name: 'web', namespace: ns },
      { type: 'deploy', name: 'api', namespace: ns },
    ]);
    await following(server, 'deployments', ns);

    for (let round = 0; round < 3; round++) {
      const before = watchesOf(ns);
      server.faults.goneOnNextWatch({ resource: 'deployments' });
      server.faults.closeWatches({ resource: 'deployments' });
      await server.waitFor(() => watchesOf(ns) >= before + 2, 20_000); // the 410 watch, then the one after the relist
    }
    // Changes made while no watch is open must still arrive: through history replay or a relist.
    server.faults.compactHistory('deployments');
    server.faults.closeWatches({ resource: 'deployments' });
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));
    server.patchStatus('apps/v1', 'Deployment', ns, 'api', deploymentStatus('ready'));

    const result = await running;
    expect(result.outcome).toBe('ready');
    expect(result.warnings).toEqual([]);
    const lists = requestsIn(server, ns).filter((r) => r.verb === 'list').length;
    expect(lists).toBeGreaterThanOrEqual(4); // the first list and one relist per 410
  });

  it('auto: falls back to polling when watches keep failing, with one warning', async () => {
    const ns = namespace(server, 'watch500');
    server.create(configMap('other', {}, ns));
    server.faults.failNext(8, { status: 500, verb: 'watch', resource: 'secrets' });
    const warnings: string[] = [];
    const running = runEngine(server, [{ type: 'secret', name: 'token', namespace: ns }], { observer: { warning: (m) => warnings.push(m) } });
    await server.waitFor(() => warnings.length > 0, 30_000);
    server.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token', namespace: ns }, data: {} });
    const result = await running;
    expect(result.outcome).toBe('ready');
    // The watch's error body is read now (kube transport on node:https), so the Status message shows.
    expect(result.warnings).toEqual([
      'watching secrets in namespace "watch500" keeps failing (500 Internal Server Error: Internal error occurred: injected fault); polling every 200ms instead',
    ]);
  });
});

describe('throttling and errors', () => {
  it('honours Retry-After on 429 and retries 500s', async () => {
    const ns = namespace(server, 'throttled');
    server.create(configMap('a', {}, ns));
    server.faults.failNext(2, { status: 429, retryAfterSeconds: 1, verb: 'list', resource: 'configmaps' });
    server.faults.failNext(1, { status: 500, verb: 'list', resource: 'configmaps' });
    const result = await runEngine(server, [{ type: 'cm', name: 'a', namespace: ns }]);
    expect(result.outcome).toBe('ready');
    const statuses = requestsIn(server, ns)
      .filter((r) => r.verb === 'list')
      .map((r) => r.status);
    expect(statuses).toEqual([429, 429, 500, 200]);
    expect(result.durationSeconds).toBeGreaterThanOrEqual(2); // two waits of Retry-After: 1
  });

  it('keeps the last known status and recovers after the server stalls for a while', async () => {
    const ns = namespace(server, 'stall');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }]);
    await following(server, 'deployments', ns);
    server.faults.unavailable(2500);
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));
    const result = await running;
    expect(result.outcome).toBe('ready');
    expect(result.targets.map(brief)).toEqual(['Deployment/stall/web Current done: Deployment is available. Replicas: 1']);
  });
});

describe('an API server that is not there yet', () => {
  it('retries discovery and lists until the server answers', async () => {
    // The port the stand-in really bound (port 0, read back), free again once it closes: the server "not there yet".
    const late = await startCluster({ controllers: false });
    const port = portOf(late);
    const kubeconfig = late.kubeconfig();
    await late.close();

    const cluster = await connect({ kubeconfig, context: '' }, { mask: () => {} }, { env: {}, serviceAccountDir: '/nonexistent' });
    const messages: string[] = [];
    const running = waitForTargets(cluster, {
      targets: [{ type: 'cm', name: 'a' }],
      defaultNamespace: 'default',
      waitFor: { kind: 'ready' },
      timeoutMs: 60_000,
      pollIntervalMs: 200,
      mode: 'auto',
      failFast: true,
      jobCompletion: true,
      observer: { resolved: (targets) => messages.push(...targets.map((t) => t.message)) },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The same kubeconfig (CA included: the stand-in's PKI is per process) now finds a server.
    const back = await startCluster({ controllers: false, port });
    try {
      back.create(configMap('a'));
      const result = await running;
      expect(messages).toEqual([`cannot discover the API server's resource types: cannot reach the API server at https://127.0.0.1:${port}: ECONNREFUSED`]);
      expect(result.outcome).toBe('ready');
    } finally {
      await cluster.close();
      await back.close();
    }
  });

  it('warns once when the server goes away mid-wait, and times out with the last known statuses', async () => {
    const gone = await startCluster({ controllers: false });
    gone.create(deployment('web', { state: 'progressing' }));
    const cluster = await connect({ kubeconfig: gone.kubeconfig(), context: '' }, { mask: () => {} }, { env: {}, serviceAccountDir: '/nonexistent' });
    try {
      const warnings: string[] = [];
      const running = waitForTargets(cluster, {
        targets: [{ type: 'deploy', name: 'web' }],
        defaultNamespace: 'default',
        waitFor: { kind: 'ready' },
        timeoutMs: 6000,
        pollIntervalMs: 200,
        mode: 'auto',
        failFast: true,
        jobCompletion: true,
        observer: { warning: (m) => warnings.push(m) },
      });
      await following(gone, 'deployments', 'default');
      await gone.close();
      const result = await running;
      expect(result.outcome).toBe('timeout');
      expect(result.warnings).toEqual([
        `cannot reach the API server at ${gone.url}: ECONNREFUSED; retrying until the deadline (statuses may be stale meanwhile)`,
      ]);
      expect(result.targets.map(brief)).toEqual(['Deployment/default/web InProgress: Available: 0/1']);
    } finally {
      await cluster.close();
    }
  });

  it('returns at the deadline and closes at once although the server holds every request', async () => {
    const stalled = await startCluster({ controllers: false });
    const cluster = await connect({ kubeconfig: stalled.kubeconfig(), context: '' }, { mask: () => {} }, { env: {}, serviceAccountDir: '/nonexistent' });
    await cluster.discovery.load();
    stalled.faults.unavailable(25_000);
    const result = await waitForTargets(cluster, {
      targets: [{ type: 'deploy', name: 'web' }],
      defaultNamespace: 'default',
      waitFor: { kind: 'ready' },
      timeoutMs: 1000,
      pollIntervalMs: 200,
      mode: 'auto',
      failFast: true,
      jobCompletion: true,
    });
    expect(result.outcome).toBe('timeout');
    expect(result.targets.map(brief)).toEqual([
      'Deployment/default/web Unknown: the API server did not answer the list of deployments.apps in namespace "default" in time',
    ]);
    await cluster.close(); // must not wait for the held requests (jest's 60 s timeout would fail a hang)
    stalled.faults.unavailable(0);
    await stalled.close();
  });

  it("an early verdict waits for the other types' first LIST no longer than the last look, and says so of their targets", async () => {
    const ns = namespace(server, 'last-look');
    server.create(deployment('web', { namespace: ns, state: 'deadline' }));
    server.create(configMap('settings', {}, ns));
    server.faults.slow('list', 'configmaps', 30_000); // far past the last look
    try {
      const result = await runEngine(server, [
        { type: 'deploy', name: 'web', namespace: ns },
        { type: 'configmap', name: 'settings', namespace: ns },
      ]);
      expect(result.outcome).toBe('failed');
      expect(result.targets.map(brief)).toEqual([
        expect.stringMatching(/^Deployment\/last-look\/web Failed: /),
        'ConfigMap/last-look/settings Unknown: not checked: the wait stopped (fail-fast: Deployment/web failed) before the API server answered the list of configmaps in namespace "last-look"',
      ]);
    } finally {
      server.faults.slow('list', 'configmaps', 0);
    }
  });

  it('a stop with a reason in words (the fleet: another cluster decided) names it on the targets it could not look at', async () => {
    const ns = namespace(server, 'stopped');
    server.create(configMap('settings', {}, ns));
    server.faults.slow('list', 'configmaps', 30_000);
    try {
      const stop = new AbortController();
      const waiting = runEngine(server, [{ type: 'configmap', name: 'settings', namespace: ns }], { signal: stop.signal });
      await server.waitFor(() => server.counters.requests().some((r) => r.verb === 'list' && r.resource === 'configmaps' && r.namespace === ns));
      stop.abort('cluster us-east was ready (cluster-policy: any)');
      const result = await waiting;
      expect(result.cancelled).toBe(true);
      expect(result.targets.map(brief)).toEqual([
        'ConfigMap/stopped/settings Unknown: not checked: the wait stopped (cluster us-east was ready (cluster-policy: any)) before the API server answered the list of configmaps in namespace "stopped"',
      ]);
    } finally {
      server.faults.slow('list', 'configmaps', 0);
    }
  });

  it('at a deadline shorter than 30 s, a server that never answered is an error naming the kubeconfig, not a timeout', async () => {
    const late = await startCluster({ controllers: false });
    const port = portOf(late);
    const kubeconfig = late.kubeconfig();
    await late.close();
    const cluster = await connect({ kubeconfig, context: '' }, { mask: () => {} }, { env: {}, serviceAccountDir: '/nonexistent' });
    try {
      const result = await waitForTargets(cluster, {
        targets: [{ type: 'deploy', name: 'web' }],
        defaultNamespace: 'default',
        waitFor: { kind: 'ready' },
        timeoutMs: 1500,
        pollIntervalMs: 200,
        mode: 'auto',
        failFast: true,
        jobCompletion: true,
      });
      expect(result.outcome).toBe('failed');
      expect(result.error).toEqual({
        input: 'kubeconfig',
        message: expect.stringMatching(
          new RegExp(
            `^Input "kubeconfig" \\(context "test"\\) cannot be used: cannot reach the API server at https://127\\.0\\.0\\.1:${port}: ECONNREFUSED \\(no answer for \\ds\\)$`,
          ),
        ),
      });
      expect(result.targets.map(brief)).toEqual([
        `Deployment/default/web Unknown: cannot discover the API server's resource types: cannot reach the API server at https://127.0.0.1:${port}: ECONNREFUSED`,
      ]);
    } finally {
      await cluster.close();
    }
  });

  // Issue 34: a server that answered and then went away during discovery was reported at 30 s as an unusable
  // `kubeconfig` (result: error). It is an outage, waited out until the deadline like one after discovery.
  it('a server that answered and went away before discovery completed is an outage until the deadline, not the kubeconfig', async () => {
    const server = await startCluster({ controllers: false });
    const time = new ManualTime();
    try {
      server.faults.failNext(1, { status: 503, verb: 'discovery', resource: '/apis' });
      const running = runEngine(server, [{ type: 'deploy', name: 'web' }], { time, timeoutMs: 60_000, failFast: true });
      await driveUntil(time, server, () => server.counters.requests().some((r) => r.resource === '/apis' && r.status === 503), 'the 503 on /apis');
      server.faults.refuse(10 * 60_000);
      const result = await driveUntilSettled(time, server, running);
      expect(result.error).toBeUndefined();
      expect(result.outcome).toBe('timeout');
      expect(result.targets.map(brief)).toEqual([
        expect.stringMatching(
          /^Deployment\/default\/web Unknown: cannot discover the API server's resource types: .* \(it answered earlier in this run; retrying until the deadline\)$/,
        ),
      ]);
    } finally {
      server.faults.refuse(0);
      await server.close();
    }
  });
});

/** The port a stand-in listens on (it binds port 0 and reads back what it got). */
function portOf(server: TestCluster): number {
  return Number(new URL(server.url).port);
}
