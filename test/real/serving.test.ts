/**
 * Is it serving, on the real control plane: the real EndpointSlice controller (kube-controller-manager runs
 * its default controllers) writes the slices kubewait's `endpoints` check reads, and `service:` smoke checks
 * go through the real kube-apiserver's service proxy, through dist/index.js and dist/cli.js as a runner runs them.
 *
 * The proxy refuses loopback endpoints, and kwok's pods have no network of their own: the pod's IP (kwok gives
 * it one from 10.244.0.0/16) is added to `lo` here, as a /32 only this host reaches, and an HTTP server bound
 * to it plays the pod's container on a port no other test uses. The address is removed afterwards. Adding an
 * address needs CAP_NET_ADMIN (root): without it the proxy test is skipped, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { runCommand } from '../e2e/runCommand.js';
import { builtBinDir, NOT_BUILT } from './binaries.js';
import { auditEvents, startRealCluster, TOKEN_USER, type RealCluster } from './cluster.js';
import { deployment, namespace } from './objects.js';

const built = builtBinDir() !== undefined;
if (!built && process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
const describeReal = built ? describe : describe.skip;

/** An address of TEST-NET-like private space no cluster here uses: added and removed at once, to learn
 *  whether this process may add addresses at all. */
const PROBE_ADDRESS = '10.213.0.254/32';

/** Why addresses cannot be added to `lo` here, or undefined when they can. */
function cannotAddAddresses(): string | undefined {
  try {
    execFileSync('ip', ['addr', 'add', PROBE_ADDRESS, 'dev', 'lo'], { stdio: 'pipe' });
    execFileSync('ip', ['addr', 'del', PROBE_ADDRESS, 'dev', 'lo'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `cannot add an address to lo (${stderr || (error as Error).message}): the service proxy test needs root (CAP_NET_ADMIN)`;
  }
}
const addressBlocked = built ? cannotAddAddresses() : NOT_BUILT;
if (addressBlocked && built) console.warn(`test/real/serving.test.ts: skipping the service proxy test: ${addressBlocked}`);
const itWithAddress = addressBlocked ? it.skip : it;

let cluster: RealCluster;
let scratch: string;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];

/** A Service `web` selecting `app: selects`, port 80 to `targetPort`. */
function service(ns: string, selects: string, targetPort = 8080): object {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: ns },
    spec: { selector: { app: selects }, ports: [{ name: 'http', port: 80, targetPort }] },
  };
}

/** Polls kubectl until `read` returns something (a pod's IP, a slice's endpoints). */
async function eventually(what: string, read: () => Promise<string>): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const value = (await read()).trim();
    if (value) return value;
    await sleep(100);
  }
  throw new Error(`${what} did not come about`);
}

describeReal('is it serving, on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({ nodes: 1 });
    scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-serving-real-'));
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('endpoints: a Service whose selector matches nothing is not serving, saying so (dist/index.js)', async () => {
    const ns = 'serving-none';
    await cluster.apply(namespace(ns), deployment('web', { namespace: ns, replicas: 1, readyAfterMs: 300 }), service(ns, 'wbe'));
    // The real EndpointSlice controller wrote the Service's slice: no endpoint in it.
    const managedBy = await eventually('the EndpointSlice', () =>
      cluster.kubectl(
        'get',
        'endpointslices',
        '-n',
        ns,
        '-l',
        'kubernetes.io/service-name=web',
        '-o',
        'jsonpath={.items[*].metadata.labels.endpointslice\\.kubernetes\\.io/managed-by}',
      ),
    );
    expect(managedBy).toBe('endpointslice-controller.k8s.io');

    const inputs = { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'service/web\ndeployment/web', timeout: '20s' };
    const plain = await runAction(inputs);
    expect([plain.exitCode, plain.outputs.result]).toEqual([0, 'ready']);

    // As the `token` user, whose requests the audit log tells apart; twenty poll intervals.
    const checked = await runAction(
      { ...inputs, kubeconfig: cluster.kubeconfig({ user: 'token', namespace: ns }), endpoints: 'true', 'poll-interval': '1s' },
      { killAfterMs: 90_000 },
    );
    expect([checked.exitCode, checked.outputs.result]).toEqual([1, 'timeout']);
    expect(resourcesOf(checked.outputs).find((r) => r.kind === 'Service')).toMatchObject({
      status: 'InProgress',
      message: 'not serving: the Service selects no pod: is `spec.selector` right?',
      cause: 'NotReady',
    });
    // EndpointSlices read once and watched, not listed every poll (the real API server's audit log).
    const sliceRequests = auditEvents(cluster, TOKEN_USER)
      .filter((e) => e.objectRef?.resource === 'endpointslices' && e.objectRef.namespace === ns)
      .map((e) => e.verb);
    expect(sliceRequests.filter((verb) => verb === 'list')).toEqual(['list']);
    // One watch: it idles out only after 30 s without a byte, past the 20 s timeout.
    expect(sliceRequests.filter((verb) => verb === 'watch').length).toBe(1);
  }, 180_000);

  it('endpoints: a Service with a ready pod is serving once it held still (dist/cli.js)', async () => {
    const ns = 'serving-ready';
    await cluster.apply(namespace(ns), deployment('web', { namespace: ns, replicas: 1, readyAfterMs: 300 }), service(ns, 'web'));
    const kubeconfig = path.join(scratch, 'ready.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: ns });

    const run = await runCommand(['service/web', 'deployment/web', '--endpoints', '-o', 'json', '--timeout', '90s'], {
      env: { KUBECONFIG: kubeconfig },
      killAfterMs: 150_000,
    });

    expect({ exitCode: run.exitCode, stderr: run.exitCode === 0 ? '' : run.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('ready');
    expect(document.resources.find((r) => r.kind === 'Service')).toMatchObject({
      status: 'Current',
      message: expect.stringMatching(/; serving: 1 ready endpoint$/),
    });
    // The address it judged is the pod's, from the real controller's slice.
    const podIp = await cluster.kubectl('get', 'pods', '-n', ns, '-l', 'app=web', '-o', 'jsonpath={.items[0].status.podIP}');
    const sliceAddresses = await cluster.kubectl(
      'get',
      'endpointslices',
      '-n',
      ns,
      '-l',
      'kubernetes.io/service-name=web',
      '-o',
      'jsonpath={.items[*].endpoints[*].addresses[*]}',
    );
    expect(sliceAddresses.trim()).toBe(podIp.trim());
  }, 240_000);

  describe('smoke through the real service proxy', () => {
    let app: Server | undefined;
    let address: string | undefined;
    /** Requests the app received, by path: what the proxy delivered. */
    const hits = new Map<string, number>();

    afterAll(async () => {
      if (app) await new Promise((resolve) => app!.close(resolve));
      if (address) execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo'], { stdio: 'pipe' });
    });

    /** The pod's IP on `lo`, and the app on it (`/healthz` answers 200, anything else 503): its port. */
    async function serveAtPodIp(ns: string): Promise<number> {
      const podIp = await eventually('the pod IP', () => cluster.kubectl('get', 'pods', '-n', ns, '-l', 'app=web', '-o', 'jsonpath={.items[0].status.podIP}'));
      expect(podIp).toMatch(/^10\.244\./);
      execFileSync('ip', ['addr', 'add', `${podIp}/32`, 'dev', 'lo'], { stdio: 'pipe' });
      address = podIp;
      app = createServer((request, response) => {
        hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1);
        const up = request.url === '/healthz';
        response.writeHead(up ? 200 : 503).end(up ? 'ok' : 'down for maintenance');
      });
      await new Promise<void>((resolve) => app!.listen(0, podIp, resolve));
      return (app.address() as AddressInfo).port;
    }

    itWithAddress(
      'passes when the app answers 200 and fails with the last status when it answers 503 (dist/index.js, dist/cli.js)',
      async () => {
        const ns = 'serving-proxy';
        await cluster.apply(namespace(ns), deployment('web', { namespace: ns, replicas: 1, readyAfterMs: 300 }));
        // The Service's targetPort is the port the app was given on the pod's address.
        await cluster.apply(service(ns, 'web', await serveAtPodIp(ns)));
        const inputs = { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'service/web\ndeployment/web', endpoints: 'true' };

        const passed = await runAction({ ...inputs, timeout: '90s', smoke: `- service: ${ns}/web:http\n  path: /healthz` }, { killAfterMs: 150_000 });
        expect([passed.exitCode, passed.outputs.result]).toEqual([0, 'ready']);
        expect(JSON.parse(passed.outputs.smoke!)).toEqual([
          { name: `service ${ns}/web:http/healthz`, ok: true, status: 200, attempts: expect.any(Number), latencyMs: expect.any(Number) },
        ]);
        // The 200 was the app's, through the real API server's proxy to the pod's address.
        expect(hits.get('/healthz')).toBeGreaterThanOrEqual(1);

        const kubeconfig = path.join(scratch, 'proxy.yaml');
        cluster.writeKubeconfig(kubeconfig, { namespace: ns });
        const failed = await runCommand(
          ['service/web', 'deployment/web', '--smoke', `- service: ${ns}/web:http\n  path: /down\n  interval: 1s`, '-o', 'json', '--timeout', '30s'],
          { env: { KUBECONFIG: kubeconfig }, killAfterMs: 90_000 },
        );
        expect(failed.exitCode).toBe(1);
        const document = JSON.parse(failed.stdout) as { result: string; smoke: Array<{ ok: boolean; status: number; body?: string }> };
        expect(document.result).toBe('failed');
        // The application's own answer, as the real proxy relays it: its status and its body.
        expect(document.smoke).toEqual([expect.objectContaining({ ok: false, status: 503, body: 'down for maintenance' })]);
        expect(hits.get('/down')).toBeGreaterThanOrEqual(2);
        expect(failed.stderr).toMatch(
          new RegExp(
            `smoke check service ${ns}/web:http/down: did not pass by the deadline \\(expected status 200-299\\): status 503, .*; body: down for maintenance`,
          ),
        );
      },
      300_000,
    );
  });
});
