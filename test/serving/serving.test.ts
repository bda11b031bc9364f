/**
 * checkServing against the API server stand-in (EndpointSlices served), on virtual time: a Service with no
 * ready endpoint by the deadline makes the wait a timeout saying what is missing; one whose endpoint turns
 * ready is served once its addresses held still for the settle window; one LIST per type and namespace per poll.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '../../src/kube/index.js';
import type { RunResult } from '../../src/result.js';
import { checkServing } from '../../src/serving/index.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { driveUntil, driveUntilSettled } from '../engine/virtual.js';
import { result, target } from '../report/fixtures.js';

let server: TestCluster;
beforeAll(async () => {
  server = await startCluster({ controllers: false });
});
afterAll(async () => {
  await server.close();
});

const ns = (name: string) => {
  server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  server.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: name }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  return name;
};
const slice = (namespace: string, ready: boolean) => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abcde', namespace, labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready } }],
});
const readyService = (namespace: string): RunResult =>
  result([target({ apiVersion: 'v1', kind: 'Service', namespace, name: 'web', status: 'Current', message: 'Service is ready', done: true, seconds: 1 })], {
    outcome: 'ready',
    durationSeconds: 1,
  });

async function check(namespace: string, time: ManualTime, timeoutMs: number, during?: () => void) {
  const cluster = await connect(
    { kubeconfig: server.kubeconfig({ token: 'admin' }), context: '' },
    { mask: () => {} },
    { env: {}, serviceAccountDir: '/nonexistent' },
    time,
  );
  const warnings: string[] = [];
  try {
    const running = checkServing(cluster.client, readyService(namespace), {
      time,
      signal: new AbortController().signal,
      deadlineAtMs: time.now() + timeoutMs,
      pollIntervalMs: 1000,
      warning: (w) => warnings.push(w),
    });
    if (during) {
      const started = time.now();
      await driveUntil(time, server, () => time.now() - started >= 3000, '3 s of virtual time');
      during();
    }
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
    // One LIST of Services and one of EndpointSlices per poll (about one a second), no watch.
    const requests = server.counters.requests().filter((r) => r.namespace === name);
    expect(requests.every((r) => r.verb === 'list')).toBe(true);
    const slices = requests.filter((r) => r.resource === 'endpointslices').length;
    expect(slices).toBeGreaterThanOrEqual(15);
    expect(slices).toBeLessThanOrEqual(22);
    expect(requests.filter((r) => r.resource === 'services').length).toBe(slices);
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
