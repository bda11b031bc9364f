/**
 * `failure-grace` end to end: `dist/index.js` and `dist/cli.js` against the API server stand-in, whose
 * scripted controller turns a custom resource Degraded and then Healthy, as an Argo CD Application does
 * while a PodDisruptionBudget holds a rolling update. Bounds here only catch hangs: the grace itself is
 * timed on the engine's clock in test/engine/failure-grace.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { crdFor } from '../cluster/controllers/scripted.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { establishCrds } from '../cluster/testkit.js';
import { ensureDist } from './dist.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

let cluster: TestCluster;
let scratch: string;
const CRD = crdFor({ group: 'example.com', kind: 'Widget', plural: 'widgets' });
const RULE = "- apiVersion: example.com/v1\n  kind: Widget\n  current: status.phase == 'Healthy'\n  failed: status.phase == 'Degraded'\n";

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ crdEstablishDelayMs: 20 });
  await establishCrds(cluster, [CRD] as Array<{ metadata: { name: string } }>);
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-failure-grace-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Degraded at once, Healthy `recoverAfterMs` later (never, without it). */
function flapping(namespace: string, recoverAfterMs?: number) {
  const script = [{ afterMs: 0, status: { phase: 'Degraded' } }, ...(recoverAfterMs ? [{ afterMs: recoverAfterMs, status: { phase: 'Healthy' } }] : [])];
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'app', namespace, annotations: { 'kubewait.test/status-script': JSON.stringify(script) } },
    spec: {},
  };
}

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];

describe('failure-grace (dist/index.js)', () => {
  it('a Degraded that recovers within the grace passes; without the grace it fails', async () => {
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fg-action' } });
    cluster.create(flapping('fg-action', 3000));
    const inputs = { kubeconfig: cluster.kubeconfig(), namespace: 'fg-action', resources: 'widgets.example.com/app', 'health-checks': RULE, timeout: '120s' };

    const graced = await runAction({ ...inputs, 'failure-grace': '90s' }, { killAfterMs: 150_000 });
    expect([graced.exitCode, graced.outputs.result]).toEqual([0, 'ready']);
    expect(resourcesOf(graced.outputs)[0]).toMatchObject({ status: 'Current', cause: '' });

    cluster.delete('example.com/v1', 'Widget', 'fg-action', 'app');
    cluster.create(flapping('fg-action', 60_000));
    const ungraced = await runAction(inputs, { killAfterMs: 150_000 });
    expect([ungraced.exitCode, ungraced.outputs.result]).toEqual([1, 'failed']);
    expect(resourcesOf(ungraced.outputs)[0]).toMatchObject({ status: 'Failed', rule: 'health-checks[0]', cause: 'Failed' });
  }, 300_000);

  it('rejects a bad failure-grace, naming the input with an example', async () => {
    const r = await runAction({ kubeconfig: cluster.kubeconfig(), resources: 'widgets.example.com/app', 'failure-grace': 'a while' });
    expect(r.exitCode).toBe(1);
    expect(r.errors.map((e) => e.message).join('\n')).toContain(
      'Input "failure-grace" is "a while": expected a duration of zero or more, like 30s, 2m or 0s (off).',
    );
  }, 60_000);
});

describe('failure-grace (dist/cli.js)', () => {
  it('--failure-grace holds a Degraded that recovers; one that holds fails after it', async () => {
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fg-cli' } });
    cluster.create(flapping('fg-cli', 3000));
    const rules = path.join(scratch, 'rules.yaml');
    writeFileSync(rules, RULE);
    const kubeconfig = path.join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig());
    const args = ['-n', 'fg-cli', 'widgets.example.com/app', '--health-checks', rules, '-o', 'json', '--timeout', '120s'];

    const recovered = await runCommand([...args, '--failure-grace', '90s'], { env: { KUBECONFIG: kubeconfig }, cwd: scratch, killAfterMs: 150_000 });
    expect({ exitCode: recovered.exitCode, stderr: recovered.stderr }).toMatchObject({ exitCode: 0 });

    cluster.delete('example.com/v1', 'Widget', 'fg-cli', 'app');
    cluster.create(flapping('fg-cli'));
    const held = await runCommand([...args, '--failure-grace', '2s'], { env: { KUBECONFIG: kubeconfig }, cwd: scratch, killAfterMs: 150_000 });
    expect(held.exitCode).toBe(1);
    const document = JSON.parse(held.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('failed');
    expect(document.resources[0]).toMatchObject({ status: 'Failed', cause: 'Failed' });
  }, 300_000);
});
