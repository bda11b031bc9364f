/**
 * checkServing against the API server stand-in (EndpointSlices served), on virtual time: a Service with no
 * ready endpoint by the deadline makes the wait a timeout saying what is missing; one whose endpoint turns
 * ready is served once its addresses held still for the settle window. Each type is read once per namespace and
 * then followed: one LIST and one WATCH of EndpointSlices however many polls the wait lasts; where watch is
 * forbidden, a LIST per poll with one warning; a watch that ends, or answers 410, is picked up again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '../../src/kube/index.js';
import type { RunResult } from '../../src/result.js';
import { checkServing } from '../../src/serving/index.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { driveUntilSettled } from '../engine/virtual.js';
import { result, target } from '../report/fixtures.js';

let server: TestCluster;
/** May list everything, but not watch EndpointSlices. */
const NO_WATCH = 'no-slice-watch';
/** May read Services only. */
const NO_SLICES = 'no-slices';
beforeAll(async () => {
  server = await startCluster({
    controllers: false,
    tokens: {
      [NO_WATCH]: [
        { verbs: ['get', 'list', 'watch'], resources: ['services'], apiGroups: [''] },
        { verbs: ['get', 'list'], resources: ['endpointslices'], apiGroups: ['discovery.k8s.io'] },
      ],
      [NO_SLICES]: [{ verbs: ['get', 'list', 'watch'], resources: ['services'], apiGroups: [''] }],
    },
  });
});
afterAll(async () => {
  await server.close();
});

const ns = (name: string) => {
  server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  server.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: name }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  return name;
};
const slice = (namespace: string, ready: boolean, address = '10.0.0.1') => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abcde', namespace, labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: [address], conditions: { ready } }],
});
/** The requests the check made in a namespace, per verb and resource: `{ 'list endpointslices': 1, ... }`. */
const requestsIn = (namespace: string) => {
  const counts: Record<string, number> = {};
  for (const r of server.counters.requests().filter((r) => r.namespace === namespace))
    counts[`${r.verb} ${r.resource}`] = (counts[`${r.verb} ${r.resource}`] ?? 0) + 1;
  return counts;
};
const readyService = (namespace: string): RunResult =>
  result([target({ apiVersion: 'v1', kind: 'Service', namespace, name: 'web', status: 'Current', message: 'Service is ready', done: true, seconds: 1 })], {
    outcome: 'ready',
    durationSeconds: 1,
  });

async function check(namespace: string, time: ManualTime, timeoutMs: number, during?: () => void, token = 'admin', ready = readyService(namespace)) {
  const cluster = await connect(
    { kubeconfig: server.kubeconfig({ token }), context: '' },
    { mask: () => {} },
    { env: {}, serviceAccountDir: '/nonexistent' },
    time,
  );
  const warnings: string[] = [];
  try {
    const running = checkServing(cluster.client, ready, {
      time,
      signal: new AbortController().signal,
      deadlineAtMs: time.now() + timeoutMs,
      pollIntervalMs: 1000,
      warning: (w) => warnings.push(w),
    });
    // At 3 s of virtual time: the check is watching by then, and no timer of its own may be due before its deadline.
    if (during) time.setTimer(3000, during);
    return { checked: await driveUntilSettled(time, server, running), warnings };
  } finally {
    await cluster.close();
  }
}

describe('checkServing', () => {
  it('times out on a Service whose pods are not ready, saying so', async () => {
    const name = ns('srv-none-ready');
    server.create(slice(name, false));
    const time = new ManualTime();
    const { checked } = await check(name, time, 20_000);
    expect(checked.outcome).toBe('timeout');
    expect(checked.targets[0]).toMatchObject({
      status: 'InProgress',
      done: false,
      message: 'not serving: the Service selects 1 pod, none ready: the pods are not ready, or a readiness probe fails',
    });
    expect(checked.durationSeconds).toBeGreaterThanOrEqual(19);
    // Twenty poll intervals, and each type read once, then followed: no LIST per poll.
    expect(requestsIn(name)).toEqual({ 'list services': 1, 'watch services': 1, 'list endpointslices': 1, 'watch endpointslices': 1 });
  }, 60_000);

  it('is served once a ready endpoint held still for the settle window', async () => {
    const name = ns('srv-turns-ready');
    const time = new ManualTime();
    const started = time.now();
    const { checked } = await check(name, time, 60_000, () => server.create(slice(name, true)));
    expect(checked.outcome).toBe('ready');
    expect(checked.targets[0]).toMatchObject({ status: 'Current', done: true, message: 'Service is ready; serving: 1 ready endpoint' });
    // Ready at about 3 s, then 5 s of settling.
    expect(time.now() - started).toBeGreaterThanOrEqual(8000);
    expect(time.now() - started).toBeLessThan(11_000);
    expect(requestsIn(name)).toEqual({ 'list services': 1, 'watch services': 1, 'list endpointslices': 1, 'watch endpointslices': 1 });
  }, 60_000);

  it('reads EndpointSlices once however often the addresses change while a Service settles', async () => {
    const name = ns('srv-flapping');
    server.create(slice(name, true, '10.0.0.1'));
    const time = new ManualTime();
    const started = time.now();
    const cluster = await connect(
      { kubeconfig: server.kubeconfig({ token: 'admin' }), context: '' },
      { mask: () => {} },
      { env: {}, serviceAccountDir: '/nonexistent' },
      time,
    );
    try {
      const running = checkServing(cluster.client, readyService(name), {
        time,
        signal: new AbortController().signal,
        deadlineAtMs: time.now() + 120_000,
        pollIntervalMs: 1000,
        warning: () => {},
      });
      // A new address every 3 s for 30 s: each change starts the 5 s window again, through ten changes and thirty polls.
      for (let change = 2; change <= 11; change++) time.setTimer((change - 1) * 3000, () => server.apply(slice(name, true, `10.0.0.${change}`)));
      const checked = await driveUntilSettled(time, server, running);
      expect(checked.outcome).toBe('ready');
      expect(checked.targets[0]!.message).toBe('Service is ready; serving: 1 ready endpoint');
      // Served only 5 s after the last change (at 30 s): the changes were seen as they came.
      expect(time.now() - started).toBeGreaterThanOrEqual(35_000);
      expect(time.now() - started).toBeLessThan(37_000);
      expect(requestsIn(name)).toEqual({ 'list services': 1, 'watch services': 1, 'list endpointslices': 1, 'watch endpointslices': 1 });
    } finally {
      await cluster.close();
    }
  }, 60_000);

  it('a watch that ends, or answers 410 Gone, is picked up again: a change after it is still seen', async () => {
    const name = ns('srv-rewatch');
    const time = new ManualTime();
    const started = time.now();
    time.setTimer(4000, () => server.create(slice(name, true)));
    const { checked } = await check(name, time, 60_000, () => {
      server.faults.goneOnNextWatch({ resource: 'endpointslices' });
      server.faults.closeWatches({ resource: 'endpointslices' });
    });
    // The endpoint came at 4 s, after the watch was closed and the next one answered 410: seen, then settled.
    expect(checked.outcome).toBe('ready');
    expect(time.now() - started).toBeGreaterThanOrEqual(9000);
    expect(time.now() - started).toBeLessThan(11_000);
    // The first LIST, then a LIST after the 410; the first watch, the one that got 410, and the one after.
    expect(requestsIn(name)).toMatchObject({ 'list endpointslices': 2, 'watch endpointslices': 3 });
  }, 60_000);

  it('sees an endpoint that arrives after its watch was replaced', async () => {
    const name = ns('srv-rewatch-ready');
    const time = new ManualTime();
    const started = time.now();
    const { checked } = await check(name, time, 60_000, () => {
      server.faults.closeWatches({ resource: 'endpointslices' });
      server.create(slice(name, true));
    });
    expect(checked.outcome).toBe('ready');
    expect(time.now() - started).toBeLessThan(11_000);
  }, 60_000);

  it('where watch is forbidden, LISTs every poll interval instead, saying so once', async () => {
    const name = ns('srv-no-watch');
    const time = new ManualTime();
    const started = time.now();
    const { checked, warnings } = await check(name, time, 60_000, () => server.create(slice(name, true)), NO_WATCH);
    expect(checked.outcome).toBe('ready');
    expect(time.now() - started).toBeGreaterThanOrEqual(8000);
    expect(time.now() - started).toBeLessThan(11_000);
    expect(warnings).toEqual([
      'cannot watch endpointslices (discovery.k8s.io) in namespace "srv-no-watch" (forbidden): polling it every 1s instead — grant the watch verb on endpointslices for a lighter check',
    ]);
    const requests = requestsIn(name);
    expect(requests['watch endpointslices']).toBe(1);
    // About one LIST a second over 8 to 11 s.
    expect(requests['list endpointslices']).toBeGreaterThanOrEqual(7);
    expect(requests['list endpointslices']).toBeLessThanOrEqual(12);
    expect(requests['list services']).toBe(1);
  }, 60_000);

  it('where EndpointSlices cannot be listed, leaves the Service as the wait judged it, saying so once', async () => {
    const name = ns('srv-no-list');
    server.create(slice(name, false));
    const time = new ManualTime();
    const { checked, warnings } = await check(name, time, 60_000, undefined, NO_SLICES);
    expect(checked.outcome).toBe('ready');
    expect(checked.targets[0]).toMatchObject({ status: 'Current', done: true, message: 'Service is ready' });
    expect(warnings).toEqual([
      'cannot list endpointslices (discovery.k8s.io) in namespace "srv-no-list" (forbidden): endpoints are not checked there — grant the list and watch verbs on endpointslices (discovery.k8s.io)',
    ]);
    // The forbidden LIST is not tried again every poll.
    expect(requestsIn(name)).toEqual({ 'list services': 1, 'watch services': 1, 'list endpointslices': 1 });
  }, 60_000);

  it('a LIST that keeps failing leaves the Service not serving by the deadline, saying what failed', async () => {
    const name = ns('srv-list-fails');
    server.create(slice(name, true));
    // More failures than 10 s of backoff (from 100 ms, capped at 750-1500 ms) can try: about fifteen.
    server.faults.failNext(40, { status: 500, verb: 'list', resource: 'endpointslices' });
    const time = new ManualTime();
    try {
      const { checked } = await check(name, time, 10_000);
      expect(checked.outcome).toBe('timeout');
      expect(checked.targets[0]).toMatchObject({ status: 'InProgress', done: false });
      expect(checked.targets[0]!.message).toMatch(/^not serving: cannot read endpointslices \(discovery\.k8s\.io\) in namespace "srv-list-fails": .*500/);
      expect(requestsIn(name)['list endpointslices']).toBeGreaterThan(3);
    } finally {
      // The rule's failures left would fail the next tests' LISTs: used up here.
      const cluster = await connect(
        { kubeconfig: server.kubeconfig({ token: 'admin' }), context: '' },
        { mask: () => {} },
        { env: {}, serviceAccountDir: '/nonexistent' },
        time,
      );
      for (let left = 40; left > 0; left--) {
        const answered = await cluster.client.get('/apis/discovery.k8s.io/v1/namespaces/drain/endpointslices').then(
          () => true,
          () => false,
        );
        if (answered) break;
      }
      await cluster.close();
    }
  }, 60_000);

  it('an Ingress is served once it has an address that held still, read once and watched', async () => {
    const name = ns('ing-address');
    server.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web', namespace: name },
      spec: { rules: [{ host: 'web.example.com' }] },
    });
    const ready = result(
      [
        target({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          namespace: name,
          name: 'web',
          status: 'Current',
          message: 'Resource is current',
          done: true,
          seconds: 1,
        }),
      ],
      { outcome: 'ready', durationSeconds: 1 },
    );
    const time = new ManualTime();
    const started = time.now();
    const { checked } = await check(
      name,
      time,
      60_000,
      () => server.patchStatus('networking.k8s.io/v1', 'Ingress', name, 'web', { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }),
      'admin',
      ready,
    );
    expect(checked.outcome).toBe('ready');
    expect(checked.targets[0]!.message).toBe('Resource is current; serving: address 203.0.113.7');
    expect(time.now() - started).toBeGreaterThanOrEqual(8000);
    expect(time.now() - started).toBeLessThan(11_000);
    expect(requestsIn(name)).toEqual({ 'list ingresses': 1, 'watch ingresses': 1 });
  }, 60_000);

  it('leaves a wait that was not ready as it was, reading nothing', async () => {
    const before = server.counters.requests().length;
    const time = new ManualTime();
    const cluster = await connect(
      { kubeconfig: server.kubeconfig({ token: 'admin' }), context: '' },
      { mask: () => {} },
      { env: {}, serviceAccountDir: '/nonexistent' },
      time,
    );
    const timedOut = { ...readyService('x'), outcome: 'timeout' as const };
    const checked = await checkServing(cluster.client, timedOut, {
      time,
      signal: new AbortController().signal,
      deadlineAtMs: time.now() + 1000,
      pollIntervalMs: 1000,
      warning: () => {},
    });
    await cluster.close();
    expect(checked).toBe(timedOut);
    expect(server.counters.requests().length).toBe(before);
  });
});
