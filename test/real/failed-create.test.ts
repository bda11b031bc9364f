/**
 * Pods never created, on the real control plane: a real ResourceQuota, a real ValidatingAdmissionPolicy
 * and a real LimitRange make the real ReplicaSet controller write `FailedCreate`, and kubewait (dist/index.js
 * and dist/cli.js, as a runner runs them) fails the Deployment after its grace, naming the cause, with the
 * `cause` field a workflow branches on. The messages are the real controller's, not ours.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { runCommand } from '../e2e/runCommand.js';
import { builtBinDir, NOT_BUILT } from './binaries.js';
import { startRealCluster, type RealCluster } from './cluster.js';
import { deployment, namespace } from './objects.js';

const built = builtBinDir() !== undefined;
if (!built && process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
const describeReal = built ? describe : describe.skip;

let cluster: RealCluster;
let scratch: string;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];

/** Polls kubectl until `check` holds (the quota controller fills in a quota's status a moment after it is made). */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come about`);
}

describeReal('pods never created, on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({});
    scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-failed-create-'));
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('fails a Deployment whose pods exceed a ResourceQuota, with its figures (dist/index.js)', async () => {
    const ns = 'quota';
    await cluster.apply(namespace(ns), { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'team-a', namespace: ns }, spec: { hard: { pods: '1' } } });
    await eventually(
      'the quota status',
      async () => (await cluster.kubectl('get', 'resourcequota', 'team-a', '-n', ns, '-o', 'jsonpath={.status.hard.pods}')) === '1',
    );
    await cluster.apply({ ...deployment('web', { namespace: ns, replicas: 2, readyAfterMs: 300 }) });

    const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'deployment/web', timeout: '120s' });

    expect(r.exitCode).toBe(1);
    expect(r.outputs.result).toBe('failed');
    const [web] = resourcesOf(r.outputs);
    expect(web).toMatchObject({ status: 'Failed', cause: 'QuotaExceeded' });
    expect(web?.message).toMatch(/^ReplicaSet\/web-[a-z0-9]+: FailedCreate: exceeded quota: team-a, requested: pods=1, used: pods=1, limited: pods=1$/);
    // Failed after the grace (20 s), long before the timeout.
    expect(Number(r.outputs.duration)).toBeLessThan(60);
    const annotation = r.errors.find((e) => e.properties.title === `Deployment ${ns}/web`);
    expect(annotation?.message).toContain('exceeded quota: team-a');
  }, 180_000);

  it('fails a Deployment whose pods a ValidatingAdmissionPolicy denies, naming the policy (dist/cli.js -o json)', async () => {
    const ns = 'policy';
    await cluster.apply(
      namespace(ns),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'require-team' },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
          validations: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'every pod needs a team label' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'require-team' },
        spec: {
          policyName: 'require-team',
          validationActions: ['Deny'],
          matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } },
        },
      },
    );
    // The policy is in force once the API server refuses a pod for it (its informer sees it a moment later).
    await eventually('the policy in force', async () => {
      const probe = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe', namespace: ns }, spec: { containers: [{ name: 'p', image: 'p' }] } };
      try {
        await cluster.apply(probe);
        await cluster.kubectl('delete', 'pod', 'probe', '-n', ns, '--wait=false');
        return false;
      } catch (error) {
        return String(error).includes('every pod needs a team label');
      }
    });
    await cluster.apply(deployment('web', { namespace: ns, readyAfterMs: 300 }));
    const kubeconfig = path.join(scratch, 'policy.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: ns });

    const run = await runCommand(['deployment/web', '-o', 'json', '--timeout', '120s'], { env: { KUBECONFIG: kubeconfig }, killAfterMs: 150_000 });

    expect({ exitCode: run.exitCode, stderr: run.stderr }).toMatchObject({ exitCode: 1 });
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('failed');
    expect(document.resources[0]).toMatchObject({ status: 'Failed', cause: 'AdmissionDenied' });
    expect(document.resources[0]?.message).toMatch(
      /^ReplicaSet\/web-[a-z0-9]+: FailedCreate: ValidatingAdmissionPolicy 'require-team' with binding 'require-team' denied request: every pod needs a team label$/,
    );
  }, 180_000);

  it('fails a Deployment whose pods a LimitRange makes invalid (dist/index.js)', async () => {
    const ns = 'invalid';
    await cluster.apply(namespace(ns), {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'cpu', namespace: ns },
      spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] },
    });
    const web = deployment('web', { namespace: ns, readyAfterMs: 300 });
    // A request above the limit the LimitRange fills in: valid as a Deployment, invalid as a pod.
    const containers = web.spec.template.spec.containers.map((c) => ({ ...c, resources: { requests: { cpu: '2' } } }));
    await cluster.apply({ ...web, spec: { ...web.spec, template: { ...web.spec.template, spec: { ...web.spec.template.spec, containers } } } });

    const r = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'deployment/web', timeout: '120s' });

    expect(r.exitCode).toBe(1);
    const [target] = resourcesOf(r.outputs);
    expect(target).toMatchObject({ status: 'Failed', cause: 'InvalidSpec' });
    expect(target?.message).toMatch(/^ReplicaSet\/web-[a-z0-9]+: FailedCreate: Pod "web-[a-z0-9-]+" is invalid: .*must be less than or equal to cpu limit/);
  }, 180_000);
});
