/**
 * Several clusters in one step (the `clusters` input) against two real control planes
 * (test/real/cluster.ts), `eu-west` and `us-east`, started side by side for the file: `dist/index.js` waits
 * in both at once and gives one verdict, one report. Each kubeconfig is a secret in an environment variable
 * (a bearer token, so that the real kube-apiserver's audit log counts the action's own requests).
 * test/e2e/clusters.e2e.test.ts has the rest (rejected credentials, unreachable, cancelled, the command)
 * on stand-ins. Skipped, with one line saying so, when the binaries are not built;
 * KUBEWAIT_REAL_CLUSTER=required turns a missing build into a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import type { ClusterOutput, ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction, type ActionRun } from '../e2e/runAction.js';
import { builtBinDir, NOT_BUILT } from './binaries.js';
import { auditEvents, startRealCluster, TOKEN_USER, type AuditEvent, type RealCluster } from './cluster.js';
import { configMap, deployment, failingDeployment, namespace } from './objects.js';

const built = builtBinDir() !== undefined;
if (!built) {
  if (process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
  process.stderr.write(`real-cluster fleet suite skipped: ${NOT_BUILT}\n`);
}
const describeReal = built ? describe : describe.skip;

let eu: RealCluster;
let us: RealCluster;

const clustersOf = (run: ActionRun) => JSON.parse(run.outputs.clusters ?? '{}') as Record<string, ClusterOutput>;
const resourcesOf = (run: ActionRun) => JSON.parse(run.outputs.resources ?? '[]') as ResourceOutput[];

const CLUSTERS = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: us-east', '  kubeconfig: KUBECONFIG_US'].join('\n');
/** The step's secrets: each cluster's kubeconfig, a bearer token of the `token` user. */
const env = () => ({ KUBECONFIG_EU: eu.kubeconfig({ user: 'token' }), KUBECONFIG_US: us.kubeconfig({ user: 'token' }) });
const tokenOf = (kubeconfig: string) => (parse(kubeconfig) as { users: [{ user: { token: string } }] }).users[0].user.token;

/** The requests of the action (the `token` user) in `cluster` after the first `from`, one line each:
 *  `VERB RESOURCE NAMESPACE`, or `VERB PATH` for a request that is not of a resource (discovery). */
function requestsOf(cluster: RealCluster, from: number): string[] {
  const line = (e: AuditEvent) =>
    e.objectRef?.resource ? `${e.verb} ${e.objectRef.resource} ${e.objectRef.namespace ?? ''}`.trim() : `${e.verb} ${e.requestURI.split('?')[0]}`;
  return auditEvents(cluster, TOKEN_USER).slice(from).map(line);
}

describeReal('several clusters: two real control planes in one step', () => {
  beforeAll(async () => {
    await ensureDist();
    [eu, us] = await Promise.all([startRealCluster({ nodes: 1 }), startRealCluster({ nodes: 1 })]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([eu?.close(), us?.close()]);
  });

  it('one verdict: us-east fails a Deployment, eu-west is ready; each reported under its name', async () => {
    const ns = 'shop';
    const image = 'registry.example.com/api:v2';
    await Promise.all([eu.apply(namespace(ns)), us.apply(namespace(ns))]);
    await eu.apply(deployment('api', { namespace: ns, readyAfterMs: 300 }));
    await eu.kubectl('rollout', 'status', 'deployment/api', '-n', ns, '--timeout=90s');
    // The rollout reaches us-east once eu-west's Deployment is Current (its only target: its wait is over), so
    // that fail-fast cannot cut eu-west's wait short.
    let rolledOut: Promise<unknown> | undefined;
    const onStdout = (stdout: string) => {
      if (!rolledOut && /\[eu-west\] deployment\/api \(shop\): (\w+ -> )?Current after/.test(stdout)) {
        rolledOut = us.apply(failingDeployment('api', ns, 'ImagePullBackOff', image));
        rolledOut.catch(() => undefined); // awaited below
      }
    };

    const run = await runAction(
      { clusters: CLUSTERS, namespace: ns, resources: 'deployment/api', timeout: '120s' },
      { env: env(), onStdout, killAfterMs: 150_000 },
    );

    await rolledOut;
    expect(rolledOut).toBeDefined();
    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(clustersOf(run)).toEqual({
      'eu-west': expect.objectContaining({ result: 'ready', ready: true, server: eu.url, failed: [], pending: [] }),
      'us-east': expect.objectContaining({ result: 'failed', ready: false, server: us.url, failed: [`Deployment ${ns}/api`] }),
    });
    expect(resourcesOf(run).map((r) => `${r.cluster} ${r.namespace}/${r.kind}/${r.name} ${r.status}`)).toEqual(
      expect.arrayContaining([`eu-west ${ns}/Deployment/api Current`, `us-east ${ns}/Deployment/api Failed`]),
    );
    expect(run.outputs.failed).toBe(`[us-east] ${ns}/Deployment/api`);
    // One annotation, titled with the cluster, saying why with the real pod's state.
    expect(run.errors.map((e) => e.properties.title)).toEqual([`[us-east] Deployment ${ns}/api`]);
    expect(run.errors[0]?.message).toMatch(/ImagePullBackOff|ErrImagePull/);
    expect(run.errors[0]?.message).toContain(image);
    expect(run.summary).toMatch(/## ❌ `us-east`[\s\S]*## ✅ `eu-west`/); // one section per cluster, the worst first
    // Both clusters' bearer tokens were masked and shown nowhere.
    const tokens = [tokenOf(env().KUBECONFIG_EU), tokenOf(env().KUBECONFIG_US)];
    expect(run.masks).toEqual(expect.arrayContaining(tokens));
    const masking = (line: string) => line.startsWith('::add-mask::');
    const visible = [...run.stdout.split('\n').filter((line) => !masking(line)), run.stderr, JSON.stringify(run.outputs), run.summary].join('\n');
    for (const token of tokens) expect(visible).not.toContain(token);
  }, 240_000);

  it('asks each cluster for 2 discovery documents, then one LIST and at most one WATCH per type and namespace', async () => {
    const ns = 'fleet';
    const from = { eu: auditEvents(eu, TOKEN_USER).length, us: auditEvents(us, TOKEN_USER).length };
    // Two targets of each type. The ConfigMaps are there (Current at the first LIST); the Deployments come
    // once the action waits, so that each cluster must follow them with its watch.
    for (const cluster of [eu, us]) await cluster.apply(namespace(ns), configMap('settings', { namespace: ns }), configMap('flags', { namespace: ns }));
    let created: Promise<unknown> | undefined;
    const onStdout = (stdout: string) => {
      if (created || !stdout.includes('[eu-west] Waiting for') || !stdout.includes('[us-east] Waiting for')) return;
      const deployments = [deployment('api', { namespace: ns, readyAfterMs: 300 }), deployment('web', { namespace: ns, readyAfterMs: 300 })];
      created = Promise.all([eu.apply(...deployments), us.apply(...deployments)]);
      created.catch(() => undefined); // awaited below
    };

    const run = await runAction(
      { clusters: CLUSTERS, namespace: ns, resources: 'deployment/api, deployment/web, configmap/settings, configmap/flags', timeout: '120s' },
      { env: env(), onStdout, killAfterMs: 150_000 },
    );

    await created;
    expect(created).toBeDefined();
    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(Object.values(clustersOf(run)).map((c) => c.result)).toEqual(['ready', 'ready']);
    for (const [cluster, mark] of [
      [eu, from.eu],
      [us, from.us],
    ] as const) {
      const requests = requestsOf(cluster, mark);
      // Beyond the one LIST and WATCH per type and namespace, only what the first LIST called for: a watch of a
      // type whose targets were all done at it may not start before the wait ends, and a named target not
      // found makes one GET of its namespace (to say whether it exists). Never a second of either.
      const optional = (r: string) => r === `watch configmaps ${ns}` || r.startsWith('get namespaces');
      expect(requests.filter((r) => r === `watch configmaps ${ns}`).length).toBeLessThanOrEqual(1);
      expect(requests.filter((r) => r.startsWith('get namespaces')).length).toBeLessThanOrEqual(1);
      expect(requests.filter((r) => !optional(r)).sort()).toEqual(
        ['get /api', 'get /apis', `list configmaps ${ns}`, `list deployments ${ns}`, `watch deployments ${ns}`].sort(),
      );
    }
  }, 240_000);
});
