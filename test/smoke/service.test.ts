/**
 * `service:` smoke checks through the API server's service proxy, against the stand-in (which forwards to
 * the Service's `kubewait.test/proxy-to` address, an HTTP server on loopback here), on a ManualTime.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '../../src/kube/index.js';
import { parseSmoke } from '../../src/smoke/parse.js';
import { runSmokeChecks } from '../../src/smoke/run.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { PROXY_TO_ANNOTATION } from '../cluster/service-proxy.js';
import { driveUntilSettled } from '../engine/virtual.js';

let cluster: TestCluster;
let app: Server;
let readyzHits = 0;

beforeAll(async () => {
  cluster = await startCluster({ controllers: false });
  app = createServer((request, response) => {
    if (request.url === '/down') return response.writeHead(503).end('down for maintenance');
    if (request.url === '/empty') return response.writeHead(204).end();
    if (request.url === '/readyz') readyzHits++;
    const up = request.url === '/readyz' && readyzHits > 1;
    response.writeHead(up ? 200 : 503).end(up ? 'ok' : 'warming up');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  cluster.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'shop', annotations: { [PROXY_TO_ANNOTATION]: base } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
  });
  cluster.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'idle', namespace: 'shop' },
    spec: { selector: { app: 'idle' }, ports: [{ name: 'http', port: 80 }] },
  });
});
afterAll(async () => {
  await cluster?.close();
  await new Promise((resolve) => app?.close(resolve));
});

async function run(text: string, deadlineMs: number) {
  const time = new ManualTime();
  const kube = await connect(
    { kubeconfig: cluster.kubeconfig({ token: 'admin' }), context: '' },
    { mask: () => {} },
    { env: {}, serviceAccountDir: '/nonexistent' },
    time,
  );
  try {
    const work = runSmokeChecks(parseSmoke(text, 'default'), {
      client: kube.client,
      time,
      signal: new AbortController().signal,
      deadlineAt: time.now() + deadlineMs,
      mask: (t) => t,
    });
    return await driveUntilSettled(time, cluster, work);
  } finally {
    await kube.close();
  }
}

describe('service smoke checks', () => {
  it('pass through the service proxy once the app answers', async () => {
    const [result] = await run('- service: shop/web:http\n  path: /readyz\n  interval: 1s', 30_000);
    expect(result).toMatchObject({ name: 'service shop/web:http/readyz', ok: true, status: 200, attempts: 2, body: 'ok' });
    expect(cluster.counters.requests().some((r) => r.resource === 'services/proxy' && r.verb === 'get' && r.namespace === 'shop')).toBe(true);
  });

  // The proxy passes the application's answer on: its own status and body, not the client's words for a 503.
  it("report the application's status and body, not the client's error text", async () => {
    const [down] = await run('- service: shop/web:http\n  path: /down\n  interval: 1s', 3_000);
    expect(down).toMatchObject({ ok: false, status: 503, body: 'down for maintenance' });
    const [empty] = await run('- service: shop/web:http\n  path: /empty\n  expect-status: 204', 3_000);
    expect(empty).toMatchObject({ ok: true, status: 204 });
  });

  it('fail with the proxy’s 503 when the Service has no endpoint', async () => {
    const [result] = await run('- service: shop/idle:http\n  interval: 1s', 3_000);
    expect(result).toMatchObject({ ok: false, status: 503 });
    expect(result!.body).toContain('no endpoints available for service "idle"');
  });
});
