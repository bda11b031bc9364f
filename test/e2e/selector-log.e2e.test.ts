/**
 * A lone `selector` in the step log, end to end: the log says what the selector expands to before anything
 * is listed, and counts the targets as they join, ending at the number the outputs report.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment, job } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

it('logs what a lone selector expands to and the count as members join', async () => {
  const labels = { tier: 'frontend' };
  cluster.create(deployment('web', { namespace: 'members', labels, readyAfterMs: 200 }));
  cluster.create(deployment('admin', { namespace: 'members', labels, readyAfterMs: 200 }));
  cluster.create(job('assets', { namespace: 'members', labels, readyAfterMs: 200 }));

  const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'members' }), selector: 'tier=frontend', timeout: '60s' });

  expect(run.exitCode).toBe(0);
  const targets = JSON.parse(run.outputs.resources!) as ResourceOutput[];
  expect(targets).toHaveLength(3);
  expect(run.commands.filter((c) => c.command === 'group').map((c) => c.message)).toContain('Waiting for the targets a selector matches to be ready');
  expect(run.log).toContain(
    'Selector tier=frontend expands to the Deployments, StatefulSets, DaemonSets, Jobs, Pods without an owner, PersistentVolumeClaims and Services in namespace members that match it: each is a target as it is listed',
  );
  const counts = run.log.filter((line) => line.startsWith('tier=frontend matches ')).map((line) => /: (\d+) targets? now$/.exec(line)?.[1]);
  expect(counts).toEqual(['1', '2', '3']);
  expect(run.log.some((line) => line.startsWith('Waiting for 1 target'))).toBe(false);
}, 150_000);
