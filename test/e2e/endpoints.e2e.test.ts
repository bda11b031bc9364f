/**
 * `endpoints` end to end: `dist/index.js` and `dist/cli.js` against the API server stand-in, which serves
 * EndpointSlices (written here as the EndpointSlice controller would). A Service whose pods are not ready
 * passes without `endpoints` and is a timeout with it, saying what is missing; one with a ready endpoint passes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

let cluster: TestCluster;
let scratch: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ controllers: false });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-endpoints-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A Service `web` whose one endpoint is `ready` or not. */
function service(namespace: string, ready: boolean): void {
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  cluster.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }], clusterIP: '10.96.0.10' },
  });
  cluster.create({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-x1', namespace, labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.244.0.7'], conditions: { ready } }],
  });
}

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];

describe('endpoints (dist/index.js)', () => {
  it('a Service whose pods are not ready: ready without endpoints, a timeout with it, saying why', async () => {
    service('ep-action', false);
    const inputs = { kubeconfig: cluster.kubeconfig(), namespace: 'ep-action', resources: 'service/web', timeout: '10s' };

    const plain = await runAction(inputs);
    expect([plain.exitCode, plain.outputs.result]).toEqual([0, 'ready']);

    const checked = await runAction({ ...inputs, endpoints: 'true' }, { killAfterMs: 60_000 });
    expect([checked.exitCode, checked.outputs.result]).toEqual([1, 'timeout']);
    expect(resourcesOf(checked.outputs)[0]).toMatchObject({
      status: 'InProgress',
      message: 'not serving: the Service selects 1 pod, none ready: the pods are not ready, or a readiness probe fails',
      cause: 'NotReady',
    });
  }, 120_000);
});

describe('endpoints (dist/cli.js)', () => {
  it('--endpoints passes a Service with a ready endpoint once it held still', async () => {
    service('ep-cli', true);
    const kubeconfig = path.join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig());

    const run = await runCommand(['-n', 'ep-cli', 'service/web', '--endpoints', '-o', 'json', '--timeout', '60s'], {
      env: { KUBECONFIG: kubeconfig },
      killAfterMs: 90_000,
    });

    expect({ exitCode: run.exitCode, stderr: run.exitCode === 0 ? '' : run.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.resources[0]).toMatchObject({ status: 'Current', message: expect.stringMatching(/; serving: 1 ready endpoint$/) });
  }, 120_000);
});
