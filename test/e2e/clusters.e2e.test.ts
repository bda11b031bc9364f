/**
 * Several clusters in one step (the `clusters` input, `--context a,b` and `--clusters` of the command),
 * end to end through dist/index.js and dist/cli.js against three API server stand-ins: `eu-west` where
 * everything gets ready (its kubeconfig a secret in an environment variable), `us-east` where a Deployment
 * fails (its kubeconfig a file of the workspace), and `ap-south` that rejects the credentials it is given.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { ClusterOutput, ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { configMap, deployment } from './objects.js';
import { runAction, type ActionRun } from './runAction.js';
import { runCommand } from './runCommand.js';

const euToken = `kubewait-eu-${randomBytes(12).toString('hex')}`;
let eu: TestCluster;
let us: TestCluster;
let ap: TestCluster;
let workspace: string;

beforeAll(async () => {
  await ensureDist();
  [eu, us, ap] = await Promise.all([
    startCluster({ speed: 0.2, tokens: { [euToken]: [{ verbs: ['*'], resources: ['*'] }] } }),
    startCluster({ speed: 0.2 }),
    startCluster({ speed: 0.2 }),
  ]);
  eu.create(deployment('api', { namespace: 'shop', readyAfterMs: 200 }));
  // Never ready before the deadline: only fail-fast across clusters ends the wait early.
  // Never ready while the file runs, however long a loaded machine takes (600 s at speed 0.2 was 2 minutes of real time).
  eu.create(deployment('slow', { namespace: 'shop', readyAfterMs: 86_400_000 }));
  us.create(deployment('api', { namespace: 'shop', podFailure: 'ImagePullBackOff' }));
  us.create(deployment('web', { namespace: 'shop', readyAfterMs: 200 }));
  ap.create(deployment('api', { namespace: 'shop', readyAfterMs: 200 }));
  workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-clusters-'));
  us.writeKubeconfig(path.join(workspace, 'us.yaml'), { namespace: 'shop' });
}, 300_000);

afterAll(async () => {
  await Promise.all([eu, us, ap].map((cluster) => cluster?.close()));
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

const clustersOf = (run: ActionRun) => JSON.parse(run.outputs.clusters ?? '') as Record<string, ClusterOutput>;
const resourcesOf = (run: ActionRun) => JSON.parse(run.outputs.resources ?? '') as ResourceOutput[];

/** The secrets of the step: eu-west's kubeconfig in KUBECONFIG_EU, ap-south's (a token it rejects) in KUBECONFIG_AP. */
const env = () => ({
  KUBECONFIG_EU: Buffer.from(eu.kubeconfig({ token: euToken })).toString('base64'),
  KUBECONFIG_AP: ap.kubeconfig({ token: 'not-a-token' }),
});
const euAndAp = [
  '- name: eu-west',
  '  kubeconfig: KUBECONFIG_EU',
  '  namespace: shop',
  '- name: ap-south',
  '  kubeconfig: KUBECONFIG_AP',
  '  namespace: shop',
].join('\n');

describe('the action', () => {
  it('names a cluster whose credentials are rejected as the step`s error, and still judges and reports the others', async () => {
    const clusters = `${euAndAp}\n- name: nowhere\n  kubeconfig: KUBECONFIG_NOWHERE`; // a variable the step does not set

    const run = await runAction({ clusters, resources: 'deployment/api', timeout: '60s' }, { workspace, env: env() });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(clustersOf(run)).toMatchObject({
      'eu-west': { result: 'ready', ready: true, failed: [], pending: [] },
      'ap-south': { result: 'error', ready: false, error: expect.stringMatching(/rejected the credentials \(401 Unauthorized\)/) },
      nowhere: { result: 'error', error: expect.stringMatching(/environment variable KUBECONFIG_NOWHERE, which is empty or unset/) },
    });
    expect(run.errors.map((e) => e.message).join('\n')).toMatch(/\[ap-south\] .*rejected the credentials/);
    expect(resourcesOf(run).filter((r) => r.cluster === 'eu-west')).toEqual([expect.objectContaining({ name: 'api', status: 'Current' })]);
    // Every target in every cluster, also where nothing could be checked.
    for (const cluster of ['ap-south', 'nowhere']) {
      expect(resourcesOf(run).filter((r) => r.cluster === cluster)).toEqual([expect.objectContaining({ name: 'api', status: 'Unknown' })]);
    }
    expect(run.summary).toMatch(/## ❌ `ap-south`[\s\S]*## ❌ `nowhere`[\s\S]*## ✅ `eu-west`/); // one section per cluster, the worst first
    // The secret of the environment variable's kubeconfig was masked, and shown nowhere.
    expect(run.masks).toContain(euToken);
    const visible = [...run.log, run.stderr, JSON.stringify(run.outputs), run.summary].join('\n');
    expect(visible).not.toContain(euToken);
  }, 90_000);

  it('with cluster-policy any, is ready when one cluster is, and still reports one that could not be used', async () => {
    // eu-west's target comes once ap-south has rejected its credentials (no live log line says so): a ready
    // cluster ends the waits still going, and one whose verdict came first keeps it.
    ap.counters.reset();
    const running = runAction({ clusters: euAndAp, 'cluster-policy': 'any', resources: 'deployment/after-ap', timeout: '60s' }, { workspace, env: env() });
    await ap.waitFor(() => ap.counters.requests().some((request) => request.status === 401), 60_000);
    eu.create(deployment('after-ap', { namespace: 'shop', readyAfterMs: 200 }));
    const run = await running;

    expect(run.exitCode).toBe(0);
    expect(run.outputs.result).toBe('ready');
    expect(clustersOf(run)['ap-south']).toMatchObject({ result: 'error', error: expect.stringMatching(/rejected the credentials/) });
    expect(clustersOf(run)['ap-south']?.stopped).toBeUndefined();
  }, 90_000);

  it('with cluster-policy any, ends as soon as one cluster is ready, the stuck one reported as it stood', async () => {
    const clusters = failoverPair('failover-action');
    const onStdout = readyOnceEuWestIsStuck('failover-action');

    // Ten minutes: only the policy ends this wait before the process is killed (a hang is a failure).
    const run = await runAction(
      { clusters, namespace: 'shop', 'cluster-policy': 'any', timeout: '10m' },
      { workspace, env: env(), onStdout, killAfterMs: 120_000 },
    );

    expect(run.exitCode).toBe(0);
    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(clustersOf(run)).toEqual({
      'eu-west': expect.objectContaining({ stopped: true, ready: false, pending: ['Deployment shop/slow'] }),
      'us-east': expect.objectContaining({ result: 'ready', ready: true }),
    });
    expect(clustersOf(run)['us-east']?.stopped).toBeUndefined();
    // The stuck cluster's target as it stood when the wait ended, with its reason: not `Unknown`.
    expect(resourcesOf(run)).toEqual([
      expect.objectContaining({ cluster: 'eu-west', name: 'slow', status: 'InProgress', message: 'Available: 0/2' }),
      expect.objectContaining({ cluster: 'us-east', name: 'failover-action', status: 'Current' }),
    ]);
    expect(run.log).toContain('[eu-west] stopped: cluster us-east was ready (cluster-policy: any)');
    expect(run.summary).toContain('(stopped: cluster us-east was ready (cluster-policy: any))');
  }, 180_000);

  it('names a cluster that never answers as an error at the deadline, the others judged', async () => {
    const nobody = await closedPort();
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: dark', '  kubeconfig: KUBECONFIG_DARK'].join('\n');
    const dark = ap.kubeconfig().replace(/server: .*/, `server: https://127.0.0.1:${nobody}`);

    const run = await runAction(
      { clusters, namespace: 'shop', resources: 'deployment/api', timeout: '6s' },
      { workspace, env: { ...env(), KUBECONFIG_DARK: dark } },
    );

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(clustersOf(run)).toMatchObject({
      'eu-west': { result: 'ready' },
      dark: { result: 'error', error: expect.stringMatching(/cannot reach the API server at https:\/\/127\.0\.0\.1:\d+/) },
    });
    expect(run.errors.map((e) => e.message).join('\n')).toMatch(/\[dark\] .*cannot reach the API server/);
  }, 90_000);

  it('a cancelled job stops every cluster with the one signal: cancelled, every cluster reported', async () => {
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: us-east', '  kubeconfig: us.yaml'].join('\n');

    const run = await runAction(
      { clusters, namespace: 'shop', resources: 'deployment/slow', timeout: '120s' },
      // Once both clusters have listed: us-east has no deployment/slow (NotFound), eu-west's is not ready.
      {
        workspace,
        env: env(),
        signalWhen: (stdout) => (/\[eu-west\].*InProgress/.test(stdout) && /\[us-east\].*NotFound/.test(stdout) ? 'SIGTERM' : undefined),
      },
    );

    expect(run.outputs.result).toBe('cancelled');
    expect(clustersOf(run)).toEqual({
      'eu-west': expect.objectContaining({ result: 'cancelled', pending: ['Deployment shop/slow'] }),
      'us-east': expect.objectContaining({ result: 'cancelled', pending: ['Deployment shop/slow'] }),
    });
    expect(Object.values(clustersOf(run)).some((cluster) => cluster.stopped)).toBe(false); // the job's signal, not fail-fast
  }, 90_000);

  it('asks each cluster for 2 discovery documents, then one LIST and at most one WATCH per type and namespace', async () => {
    const ns = 'count';
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: ap-south', '  kubeconfig: KUBECONFIG_AP_ADMIN'].join('\n');
    // Two targets of each type. The ConfigMaps are there (Current at the first LIST); the Deployments come
    // once the action waits, so that each cluster must follow them with its watch.
    for (const cluster of [eu, ap]) {
      cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      for (const name of ['settings', 'flags']) cluster.create(configMap(name, { namespace: ns }));
    }
    let created = false;
    const onStdout = (stdout: string) => {
      if (created || !stdout.includes('[eu-west] Waiting for') || !stdout.includes('[ap-south] Waiting for')) return;
      created = true;
      for (const cluster of [eu, ap]) for (const name of ['api', 'web']) cluster.create(deployment(name, { namespace: ns, readyAfterMs: 200 }));
    };
    for (const cluster of [eu, ap]) cluster.counters.reset();

    const run = await runAction(
      { clusters, namespace: ns, resources: 'deployment/api, deployment/web, configmap/settings, configmap/flags', timeout: '60s' },
      { workspace, env: { ...env(), KUBECONFIG_AP_ADMIN: ap.kubeconfig() }, onStdout },
    );

    expect(created).toBe(true);
    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    for (const cluster of [eu, ap]) {
      const requests = cluster.counters.requests().map((r) => `${r.verb} ${r.resource} ${r.namespace ?? ''}`.trim());
      // Beyond the one LIST and WATCH per type and namespace, only what the first LIST called for: a watch of a
      // type whose targets were all done at it may not start before the wait ends, and a named target not
      // found makes one GET of its namespace (to say whether it exists). Never a second of either.
      const optional = (r: string) => r === `watch configmaps ${ns}` || r.startsWith('get namespaces');
      expect(requests.filter((r) => r === `watch configmaps ${ns}`).length).toBeLessThanOrEqual(1);
      expect(requests.filter((r) => r.startsWith('get namespaces')).length).toBeLessThanOrEqual(1);
      expect(requests.filter((r) => !optional(r)).sort()).toEqual(
        ['discovery /api', 'discovery /apis', `list configmaps ${ns}`, `list deployments ${ns}`, `watch deployments ${ns}`].sort(),
      );
    }
  }, 90_000);

  it('waits in a cluster with resources of its own for those instead of the step`s, and reports each cluster`s own targets', async () => {
    // us-east's deployment/api fails: only its own resources (deployment/web) keep the step green.
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: us-east', '  kubeconfig: us.yaml', '  resources: [deployment/web]'].join('\n');

    const run = await runAction({ clusters, namespace: 'shop', resources: 'deployment/api', timeout: '60s' }, { workspace, env: env() });

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(resourcesOf(run).map((r) => `${r.cluster} ${r.kind} ${r.namespace}/${r.name} ${r.status}`)).toEqual([
      'eu-west Deployment shop/api Current',
      'us-east Deployment shop/web Current',
    ]);
    expect(clustersOf(run)).toMatchObject({ 'eu-west': { result: 'ready' }, 'us-east': { result: 'ready' } });
    // Each cluster's section starts `## ✅ \`us-east\`: ...`.
    const section = (name: string) => run.summary.split(/^## /m).find((part) => part.startsWith(`✅ \`${name}\``)) ?? '';
    expect(section('us-east')).toMatch(/\bweb\b/);
    expect(section('us-east')).not.toMatch(/\bapi\b/);
    expect(section('eu-west')).toMatch(/\bapi\b/);
    expect(section('eu-west')).not.toMatch(/\bweb\b/);
  }, 90_000);

  it('ends every cluster`s wait at the first Failed target anywhere, reporting the others as they stood', async () => {
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: us-east', '  kubeconfig: us.yaml'].join('\n');
    const started = Date.now();

    const run = await runAction(
      { clusters, namespace: 'shop', resources: 'deployment/api\ndeployment/slow', timeout: '120s' },
      { workspace, env: env(), killAfterMs: 150_000 },
    );

    // us-east has no deployment/slow: NotFound there, pending, as eu-west's slow one is.
    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(Date.now() - started).toBeLessThan(100_000); // not the 120 s deadline
    const clusters_ = clustersOf(run);
    expect(clusters_['us-east']).toMatchObject({ result: 'failed', failed: ['Deployment shop/api'] });
    expect(clusters_['eu-west']).toMatchObject({ result: 'cancelled', stopped: true, pending: ['Deployment shop/slow'] });
    expect(resourcesOf(run).map((r) => `${r.cluster} ${r.name} ${r.status}`)).toEqual(
      expect.arrayContaining(['eu-west api Current', 'eu-west slow InProgress', 'us-east api Failed']),
    );
    expect(run.errors.map((e) => e.properties.title)).toContain('[us-east] Deployment shop/api');
    expect(run.outputs.failed).toBe('[us-east] shop/Deployment/api');
    expect(run.log.some((line) => line.startsWith('[us-east] '))).toBe(true); // the live log says which cluster
  }, 180_000);
});

/** eu-west waits for its deployment/slow (never ready), us-east for its own `name`, which only
 *  `readyOnceEuWestIsStuck` creates. */
function failoverPair(name: string): string {
  return [
    '- name: eu-west',
    '  kubeconfig: KUBECONFIG_EU',
    '  resources: [deployment/slow]',
    '- name: us-east',
    '  kubeconfig: us.yaml',
    `  resources: [deployment/${name}]`,
  ].join('\n');
}

/** Creates us-east's deployment `name` (ready soon after) once eu-west has seen its own target not ready:
 *  one cluster becomes ready while the other is stuck, whatever the order in which the clusters connect. */
function readyOnceEuWestIsStuck(name: string): (output: string) => void {
  let created = false;
  return (output) => {
    if (created || !/\[eu-west\].*InProgress/.test(output)) return;
    created = true;
    us.create(deployment(name, { namespace: 'shop', readyAfterMs: 200 }));
  };
}

/** A local port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One kubeconfig with a context per stand-in (`eu-west`, `us-east`), as a fleet's merged kubeconfig has. */
function mergedKubeconfig(): string {
  const part = (cluster: TestCluster, name: string) => {
    const config = parse(cluster.kubeconfig({ namespace: 'shop' })) as { clusters: [{ cluster: object }]; users: [{ user: object }] };
    return {
      cluster: { name, cluster: config.clusters[0].cluster },
      user: { name, user: config.users[0].user },
      context: { name, context: { cluster: name, user: name, namespace: 'shop' } },
    };
  };
  const parts = [part(eu, 'eu-west'), part(us, 'us-east')];
  const file = path.join(workspace, 'fleet.yaml');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: parts.map((p) => p.cluster),
      users: parts.map((p) => p.user),
      contexts: parts.map((p) => p.context),
      'current-context': 'eu-west',
    }),
  );
  return file;
}

describe('the command', () => {
  it('--context a,b waits in each context of the one kubeconfig, and -o json has every cluster', async () => {
    const report = path.join(workspace, 'fleet.xml');

    const run = await runCommand(['--context', 'eu-west,us-east', 'deployment/api', '-o', 'json', '--junit', report], {
      env: { KUBECONFIG: mergedKubeconfig() },
    });

    expect(run.exitCode).toBe(1);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[]; clusters: Record<string, ClusterOutput> };
    expect(document.result).toBe('failed');
    expect(document.resources.map((r) => `${r.cluster} ${r.name} ${r.status}`)).toEqual(expect.arrayContaining(['us-east api Failed']));
    expect(document.clusters['us-east']).toMatchObject({ result: 'failed', context: 'us-east' });
    expect(Object.keys(document.clusters)).toEqual(['eu-west', 'us-east']);
    expect(run.stderr).toContain('[us-east] '); // the live log, on stderr with -o json
    // --junit: one testsuite per cluster.
    const suites = [...readFileSync(report, 'utf8').matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => m.slice(1));
    expect(suites).toEqual([
      ['kubewait [eu-west]: ready', '1', '0'],
      ['kubewait [us-east]: failed', '1', '1'],
    ]);
  }, 90_000);

  it('--clusters: a cluster that rejects the credentials is a cluster error (exit 4), named, the others judged', async () => {
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: ap-south', '  kubeconfig: KUBECONFIG_AP'].join('\n');

    const run = await runCommand(['--clusters', clusters, '-n', 'shop', 'deployment/api', '-o', 'json'], { env: env() });

    expect(run.exitCode).toBe(4);
    const document = JSON.parse(run.stdout) as { result: string; error?: string; clusters: Record<string, ClusterOutput> };
    expect(document.result).toBe('error');
    expect(document.error).toMatch(/\[ap-south\] .*rejected the credentials/);
    expect(document.clusters['eu-west']?.result).toBe('ready');
    expect(run.stdout + run.stderr).not.toContain(euToken);
  }, 90_000);

  it('--cluster-policy any ends as soon as one cluster is ready, the stuck one reported as it stood', async () => {
    const clusters = failoverPair('failover-cli');

    const run = await runCommand(['--clusters', clusters, '--cluster-policy', 'any', '-n', 'shop', '--timeout', '10m', '-o', 'json'], {
      cwd: workspace,
      env: env(),
      onOutput: readyOnceEuWestIsStuck('failover-cli'),
      killAfterMs: 120_000, // a hang is a failure: only the policy ends this wait before the 10 minutes
    });

    expect(run.exitCode).toBe(0);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[]; clusters: Record<string, ClusterOutput> };
    expect(document.result).toBe('ready');
    expect(document.clusters['eu-west']).toMatchObject({ stopped: true, pending: ['Deployment shop/slow'] });
    expect(document.resources.map((r) => `${r.cluster} ${r.name} ${r.status} ${r.message}`)).toEqual([
      'eu-west slow InProgress Available: 0/2',
      'us-east failover-cli Current Deployment is available. Replicas: 2',
    ]);
    expect(run.stderr).toContain('[eu-west] stopped: cluster us-east was ready (cluster-policy: any)');
  }, 180_000);

  it('--clusters: the same YAML with resources of each cluster needs no TYPE/NAME arguments', async () => {
    const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '  resources: [deployment/api]', '- name: us-east', '  resources: deployment/web'].join(
      '\n',
    );

    const run = await runCommand(['--clusters', clusters, '-n', 'shop', '-o', 'json'], {
      env: { ...env(), KUBECONFIG: path.join(workspace, 'us.yaml') },
    });

    expect(run.exitCode).toBe(0);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('ready');
    expect(document.resources.map((r) => `${r.cluster} ${r.name} ${r.status}`)).toEqual(['eu-west api Current', 'us-east web Current']);
  }, 90_000);
});
