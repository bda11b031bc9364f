/**
 * The report without noise, end to end: what `dist/index.js` writes for targets that are ready from the start,
 * stuck at the deadline or crash-looping, against the stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist, ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.3 });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

/** The cells of the summary table's row for a resource: Resource, Namespace, Status, Time, Message. */
const rowOf = (summary: string, resource: string) =>
  (
    summary
      .split('\n')
      .find((line) => line.startsWith(`| ${resource} |`))
      ?.split(' | ') ?? []
  ).map((c) => c.replace(/^\| | \|$/g, '').trim());

describe('the report without noise', () => {
  it('a Deployment stuck on its image at the deadline: the pod cause in the cell, the annotation and the output; own conditions; history from the first real status', async () => {
    const image = `registry.example.com/${'platform-team/'.repeat(8)}api:v2`;
    cluster.create(deployment('api', { namespace: 'stuck', podFailure: 'ImagePullBackOff', image }));
    cluster.create(deployment('web', { namespace: 'stuck', readyAfterMs: 50 }));
    await cluster.waitFor(() => cluster.list('apps/v1', 'Deployment', 'stuck').some((d) => d.metadata.name === 'web' && d.status?.readyReplicas === 2));

    // Shorter than the image pull grace: api is still InProgress when the deadline passes.
    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'stuck' }), resources: 'deployment/api\ndeployment/web', timeout: '3s' });

    expect(run.outputs.result).toBe('timeout');
    const api = (JSON.parse(run.outputs.resources!) as ResourceOutput[]).find((r) => r.name === 'api');
    expect(api?.status).toBe('InProgress');
    expect(api?.message).toMatch(/; (ErrImagePull|ImagePullBackOff) in container api$/);
    const cell = rowOf(run.summary, 'Deployment/api')[4] ?? '';
    expect(cell).toMatch(/(ErrImagePull|ImagePullBackOff) in container api/);
    expect(run.errors.find((e) => e.properties.title === 'Deployment stuck/api')?.message).toMatch(/(ErrImagePull|ImagePullBackOff) in container api/);
    // The Deployment's own conditions in the table; kstatus's only as a labelled reason.
    expect(run.summary).toContain('| Available | False | MinimumReplicasUnavailable |');
    expect(run.summary).not.toMatch(/\| Reconciling \| True \|/);
    expect(run.summary).toContain('_kstatus: Reconciling (LessAvailable)_');
    expect(run.summary).not.toContain('resolving the resource type');
    expect(run.summary).not.toContain('waiting for the first list');
    // Ready before the wait started: no time was spent on it, and the cell says so.
    expect(rowOf(run.summary, 'Deployment/web')[3]).toBe('already ready');
    // The pull error is said once, whole, in the failing containers: a container that never started has no log
    // block restating it.
    expect(run.summary).toMatch(/\| api \| (ErrImagePull|ImagePullBackOff) \| 0 \| .*: not found \|/);
    expect(run.summary).not.toContain('<summary>📄 pod api-');
    // Which kubewait wrote it: the package's version in the footer.
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run.summary.endsWith(`\n<sub>kubewait ${version}</sub>\n`)).toBe(true);
  }, 150_000);

  it('a crash loop says its restarts and last exit once, with no event rows restating it', async () => {
    cluster.create(deployment('worker', { namespace: 'loop', replicas: 1, podFailure: 'CrashLoopBackOff' }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'loop' }), resources: 'deployment/worker', timeout: '60s' });

    expect(run.outputs.result).toBe('failed');
    expect(run.summary).toContain('<summary>❌ <b>Deployment loop/worker</b> Failed</summary>');
    const containerRow = run.summary.split('\n').find((l) => l.startsWith('| worker-')) ?? '';
    expect(containerRow).toMatch(/\| CrashLoopBackOff \| \d+ \| last exit: Error \(exit code 1\) \|$/);
    expect(run.summary).not.toContain('Back-off restarting failed container');
    const annotation = run.errors.find((e) => e.properties.title === 'Deployment loop/worker')?.message ?? '';
    expect(annotation.match(/restarted \d+ times/g)).toHaveLength(1);
    expect(annotation.match(/last exit/g)).toHaveLength(1);
    expect(annotation).not.toMatch(/\d+ restarts/);
  }, 150_000);
});
