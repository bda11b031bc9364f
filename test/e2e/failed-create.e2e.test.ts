/**
 * Pods never created, end to end with `dist/cli.js` against the API server stand-in: only the Deployment's
 * current ReplicaSet's `FailedCreate` judges the rollout. An old revision's denial (events live an hour)
 * must not fail a new rollout whose pods are on their way (here written by hand, controllers off: as in a
 * Recreate rollout, where the new ReplicaSet creates no pod until the old ones are gone).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, deploymentStatus } from '../engine/fixtures.js';
import { ensureDist } from './dist.js';
import { runCommand } from './runCommand.js';

let cluster: TestCluster;
let scratch: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ controllers: false });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-fc-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const DENIED = 'Error creating: admission webhook "policy.example.com" denied the request: images must come from registry.example.com';

function replicaSet(ns: string, owner: string, name: string, revision: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: ns,
      annotations: { 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner, controller: true }],
    },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } } },
  };
}

describe('FailedCreate of the current ReplicaSet only (dist/cli.js)', () => {
  it('an old revision`s denial does not fail the rollout of the next revision', async () => {
    const ns = 'fc-old-revision';
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const created = cluster.create({ ...deployment('web', { namespace: ns, state: 'progressing' }) });
    cluster.create(replicaSet(ns, created.metadata.uid, 'web-1a2b', 1));
    cluster.create(replicaSet(ns, created.metadata.uid, 'web-5d8f', 2));
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    cluster.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-1a2b.1', namespace: ns },
      type: 'Warning',
      reason: 'FailedCreate',
      message: DENIED,
      count: 12,
      firstTimestamp: anHourAgo,
      lastTimestamp: anHourAgo,
      involvedObject: { kind: 'ReplicaSet', name: 'web-1a2b', namespace: ns },
    });
    const kubeconfig = path.join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig());

    // Pod diagnosis reads the old event after two 1 s polls; the rollout is done a few seconds later.
    const running = runCommand(['deployment/web', '-n', ns, '--poll-interval', '1s', '--timeout', '60s', '-o', 'json'], {
      env: { KUBECONFIG: kubeconfig },
    });
    await sleep(8_000);
    cluster.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));
    const run = await running;

    const document = JSON.parse(run.stdout) as { result: string; resources: Array<{ status: string; cause?: string }> };
    expect([run.exitCode, document.result]).toEqual([0, 'ready']);
    expect(document.resources).toEqual([expect.objectContaining({ status: 'Current' })]);
  }, 120_000);
});
