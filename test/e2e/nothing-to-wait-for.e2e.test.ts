/**
 * Inputs that can never be satisfied end at once, or after `status-grace`, as input errors, end to end:
 * a mistyped resource type (a near-miss of a served type: at once, with the suggestion), a type that no
 * server serves and no CRD defines (after status-grace), and a selector that matches nothing (after
 * status-grace from the first LIST). Before, each waited out the whole timeout, and the empty selector was
 * reported as a target without a name (`pending: shop/Deployment/`).
 *
 * The timeouts are far longer than any of these waits: reaching them is the old behaviour, a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

let cluster: TestCluster;
let scratch: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-nothing-e2e-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function kubeconfigFile(namespace: string): string {
  const file = path.join(scratch, `${namespace}.yaml`);
  cluster.writeKubeconfig(file, { namespace });
  return file;
}

/** Long enough that a run reaching it waited as before the fix; short enough to fail, not hang, then. */
const TIMEOUT = '45s';

describe('a resource type the cluster does not serve', () => {
  it('a near-miss of a served type is a usage error at once, with the suggestion (command)', async () => {
    const run = await runCommand(['deploymnet/web', '--kubeconfig', kubeconfigFile('typo-cli'), '--timeout', TIMEOUT]);

    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/resource type "deploymnet" is not served by the cluster.*Did you mean deployments\.apps \(deployment, deploy\)\?/);
  }, 120_000);

  it('a near-miss of a served type is an error annotation on `resources` at once (action)', async () => {
    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'typo-action' }), resources: 'deploymnet/web', timeout: TIMEOUT });

    expect(run.outputs.result).toBe('error');
    expect(run.exitCode).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.message).toMatch(/^resource type "deploymnet" .*Did you mean deployments\.apps \(deployment, deploy\)\?/);
    expect(run.errors[0]?.properties.title).toBe('kubewait: input "resources"');
  }, 120_000);

  it('a type no CRD defines is a usage error once status-grace has passed, saying so (command)', async () => {
    const run = await runCommand(['gizmos.example.com/main', '--kubeconfig', kubeconfigFile('unserved-cli'), '--timeout', TIMEOUT, '--status-grace', '1s']);

    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/resource type "gizmos\.example\.com" is not served by the cluster within 1s \(status-grace\) and no CRD defines it/);
  }, 120_000);
});

describe('a selector that matches nothing', () => {
  it('is an error on `selector` once status-grace has passed, naming the selector, the types and the namespace; no target without a name', async () => {
    cluster.create(deployment('web', { namespace: 'no-match', labels: { app: 'web' }, readyAfterMs: 100 }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'no-match' }),
      resources: 'deployment',
      selector: 'app=wbe',
      'status-grace': '1s',
      timeout: TIMEOUT,
    });

    expect(run.outputs.result).toBe('error');
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.message).toMatch(/^Input "selector" \(app=wbe\) matches no deployments in namespace no-match\b.*like selector: /);
    const reported = JSON.parse(run.outputs.resources!) as ResourceOutput[];
    expect(reported).toHaveLength(1);
    expect(reported[0]?.name).not.toBe('');
    for (const line of [...run.outputs.pending!.split('\n'), ...run.outputs.failed!.split('\n')]) expect(line).not.toMatch(/\/$/);
    expect(run.outputs.pending).toContain('app=wbe');
  }, 120_000);

  it('a bare type with nothing of it is an error on `resources`, and the log does not speak of an empty selector', async () => {
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'no-jobs' } });

    const run = await runCommand(['job', '--kubeconfig', kubeconfigFile('no-jobs'), '--timeout', TIMEOUT, '--status-grace', '1s', '-o', 'json']);

    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('Every Job object in namespace no-jobs is a target as it is listed');
    expect(run.stderr).not.toContain('Selector  ');
    const document = JSON.parse(run.stdout) as { result: string; error?: string; resources: ResourceOutput[] };
    expect(document.result).toBe('error');
    expect(document.error).toMatch(/no jobs exist in namespace no-jobs/);
    expect(document.resources.map((r) => r.name)).not.toContain('');
  }, 120_000);

  it('with wait-for: deleted, matching nothing is success', async () => {
    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'no-match-deleted' }),
      resources: 'deployment',
      selector: 'app=gone',
      'wait-for': 'deleted',
      'status-grace': '0s',
      timeout: TIMEOUT,
    });

    expect([run.outputs.result, run.exitCode]).toEqual(['ready', 0]);
  }, 120_000);
});
