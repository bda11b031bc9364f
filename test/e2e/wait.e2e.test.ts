/**
 * The action end to end against the API server stand-in: `dist/index.js` run as the runner runs it,
 * judged only by what the runner sees (exit code, workflow commands, outputs file, job summary file).
 * Each test uses its own namespace of one shared cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { configMap, deployment, job, pendingClaim } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({
    speed: 0.2,
    tokens: { 'no-watch': [{ verbs: ['get', 'list'], resources: ['*'] }] },
  });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];
const statusByRef = (outputs: Record<string, string>) => Object.fromEntries(resourcesOf(outputs).map((r) => [`${r.namespace}/${r.kind}/${r.name}`, r.status]));

describe('kubewait end to end', () => {
  it('succeeds when every target becomes ready, with outputs, log and summary', async () => {
    cluster.create(deployment('web', { namespace: 'ok', readyAfterMs: 300 }));
    cluster.create(job('migrate', { namespace: 'ok', readyAfterMs: 300 }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'ok' }), resources: 'deployment/web\njob/migrate', timeout: '60s' });

    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', ready: 'true', pending: '', failed: '' });
    expect(statusByRef(run.outputs)).toEqual({ 'ok/Deployment/web': 'Current', 'ok/Job/migrate': 'Current' });
    // A fast wait can round to 0 s; what must hold is that no target took longer than the whole wait.
    const duration = Number(run.outputs.duration);
    expect(Number.isFinite(duration)).toBe(true);
    expect(duration).toBeGreaterThanOrEqual(Math.max(...resourcesOf(run.outputs).map((r) => r.seconds)));
    expect(run.commands.filter((c) => c.command === 'group').map((c) => c.message)).toContain('Waiting for 2 targets to be ready');
    expect(run.log.some((line) => /^deployment\/web \(ok\): .*Current after \d+\.\ds/.test(line))).toBe(true);
    expect(run.summary).toContain('Deployment');
    expect(run.summary).toMatch(/web/);
    expect(run.summary).toMatch(/migrate/);
  }, 150_000);

  it('with a selector alone, waits for the matching workloads and nothing else', async () => {
    const frontend = { tier: 'frontend' };
    cluster.create(deployment('web', { namespace: 'sel', labels: frontend, readyAfterMs: 300 }));
    cluster.create(job('assets', { namespace: 'sel', labels: frontend, readyAfterMs: 300 }));
    cluster.create(deployment('broken', { namespace: 'sel', podFailure: 'ImagePullBackOff' })); // not selected

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'sel' }), selector: 'tier=frontend', timeout: '60s', summary: 'false' });

    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.result).toBe('ready');
    // The pods of the Deployment and the Job have the label too, but their owners stand for them.
    expect(statusByRef(run.outputs)).toEqual({ 'sel/Deployment/web': 'Current', 'sel/Job/assets': 'Current' });
    expect(run.summary).toBe(''); // summary: false
  }, 150_000);

  it('with fail-fast: false, annotates the targets still pending at the deadline beside the failed ones', async () => {
    const failing = job('seed', { namespace: 'nofailfast', readyAfterMs: 200 });
    failing.metadata.annotations['kubewait.test/job-outcome'] = 'Failed';
    cluster.create(failing);
    cluster.create(deployment('web', { namespace: 'nofailfast', readyAfterMs: 300 }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'nofailfast' }),
      resources: 'job/seed, deployment/web, deployment/missing',
      timeout: '5s',
      'fail-fast': 'false',
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'failed', failed: 'nofailfast/Job/seed', pending: 'nofailfast/Job/seed\nnofailfast/Deployment/missing' });
    const titles = run.errors.map((e) => e.properties.title);
    expect(titles).toContain('Job nofailfast/seed');
    expect(titles).toContain('Deployment nofailfast/missing');
    expect(titles).not.toContain('Deployment nofailfast/web');
  }, 150_000);

  it('with fail-fast: false, a crash loop is Failed as with fail-fast, only the wait goes on to the deadline', async () => {
    cluster.create(deployment('api', { namespace: 'loopnofailfast', podFailure: 'CrashLoopBackOff' }));
    cluster.create(deployment('web', { namespace: 'loopnofailfast', readyAfterMs: 300 }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'loopnofailfast' }),
      resources: 'deployment/api, deployment/web',
      timeout: '8s',
      'poll-interval': '1s',
      'fail-fast': 'false',
    });

    expect(run.outputs).toMatchObject({ result: 'failed', failed: 'loopnofailfast/Deployment/api', pending: 'loopnofailfast/Deployment/api' });
    expect(statusByRef(run.outputs)).toEqual({ 'loopnofailfast/Deployment/api': 'Failed', 'loopnofailfast/Deployment/web': 'Current' });
    expect(Number(run.outputs.duration)).toBeGreaterThanOrEqual(8); // it waited to the deadline: fail-fast is off
  }, 150_000);

  it('without fail-fast, the heartbeat lists a Failed target apart from the ones still waited for', async () => {
    cluster.create(deployment('api', { namespace: 'heartbeat', podFailure: 'CrashLoopBackOff' }));
    cluster.create(deployment('web', { namespace: 'heartbeat', readyAfterMs: 600_000 }));

    // The heartbeat comes every 30 s: the wait runs just past the first.
    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'heartbeat' }),
      resources: 'deployment/api, deployment/web',
      timeout: '33s',
      'poll-interval': '1s',
      'fail-fast': 'false',
    });

    const at = run.log.findIndex((line) => line.startsWith('Still waiting after '));
    expect(run.log.slice(at, at + 4)).toEqual([
      expect.stringMatching(/^Still waiting after 3\d\.\ds for 1 of 2 targets:$/),
      expect.stringMatching(/^ {2}deployment\/web \(heartbeat\): InProgress: /),
      expect.stringMatching(/^Failed after 3\d\.\ds, 1 of 2 targets \(fail-fast is off: the wait goes on\):$/),
      expect.stringMatching(/^ {2}deployment\/api \(heartbeat\): Failed: .*CrashLoopBackOff/),
    ]);
  }, 150_000);

  it('fails fast on a bad image and says why in the annotation', async () => {
    cluster.create(deployment('api', { namespace: 'bad', podFailure: 'ImagePullBackOff', image: 'registry.example.com/api:v2' }));
    cluster.create(deployment('web', { namespace: 'bad', readyAfterMs: 300 }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'bad' }), resources: 'deployment/api, deployment/web', timeout: '120s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'failed', ready: 'false', failed: 'bad/Deployment/api' });
    expect(statusByRef(run.outputs)['bad/Deployment/api']).toBe('Failed');
    const annotation = run.errors.find((e) => e.properties.title === 'Deployment bad/api');
    expect(annotation?.message).toMatch(/ImagePullBackOff|ErrImagePull/);
    expect(annotation?.message).toContain('registry.example.com/api:v2');
    expect(run.summary).toMatch(/ImagePullBackOff|ErrImagePull/);
  }, 150_000);

  it('with wait-for: condition=..., a bad image does not end the wait: like kubectl wait, it waits for the condition and says why not', async () => {
    cluster.create(deployment('api', { namespace: 'badcond', podFailure: 'ImagePullBackOff', image: 'registry.example.com/api:v2' }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'badcond' }),
      resources: 'deployment/api',
      'wait-for': 'condition=Available',
      timeout: '4s',
    });

    expect(run.outputs).toMatchObject({ result: 'timeout', pending: 'badcond/Deployment/api' });
    expect(statusByRef(run.outputs)['badcond/Deployment/api']).toBe('InProgress');
    const annotation = run.errors.find((e) => e.properties.title === 'Deployment badcond/api');
    expect(annotation?.message).toContain('waiting for condition Available=True');
    expect(annotation?.message).toMatch(/ImagePullBackOff|ErrImagePull/);
  }, 150_000);

  it('times out with every pending target in the outputs, the annotations and the summary', async () => {
    cluster.create(deployment('web', { namespace: 'slow', readyAfterMs: 100 }));
    cluster.create(pendingClaim('data', { namespace: 'slow' }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'slow' }),
      resources: 'deployment/web\npvc/data\ndeployment/ghost',
      timeout: '4s',
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('timeout');
    expect(run.outputs.pending?.split('\n').sort()).toEqual(['slow/Deployment/ghost', 'slow/PersistentVolumeClaim/data']);
    expect(statusByRef(run.outputs)).toEqual({
      'slow/Deployment/web': 'Current',
      'slow/PersistentVolumeClaim/data': 'InProgress',
      'slow/Deployment/ghost': 'NotFound',
    });
    expect(run.errors.map((e) => e.properties.title).sort()).toEqual(expect.arrayContaining(['Deployment slow/ghost', 'PersistentVolumeClaim slow/data']));
    for (const name of ['web', 'data', 'ghost']) expect(run.summary).toContain(name);
  }, 150_000);

  it('falls back to polling with one warning when watch is forbidden', async () => {
    let created = false;

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'rbac', token: 'no-watch' }), resources: 'deployment/web', timeout: '60s', 'poll-interval': '200ms' },
      {
        // Created only once the action waits: its first LIST finds nothing, so it must follow the type.
        onStdout: (stdout) => {
          if (created || !stdout.includes('Waiting for 1 target')) return;
          created = true;
          cluster.create(deployment('web', { namespace: 'rbac', readyAfterMs: 300 }));
        },
      },
    );

    expect(created).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.result).toBe('ready');
    const watchWarnings = run.warnings.filter((w) => /watch/i.test(w.message));
    expect(watchWarnings).toHaveLength(1);
    expect(watchWarnings[0]?.message).toMatch(/deployments/);
  }, 150_000);

  it('waits for deletion, including objects that are already gone', async () => {
    cluster.create(configMap('old-a', { namespace: 'gone' }));
    cluster.create(configMap('old-b', { namespace: 'gone' }));
    let deleted = false;

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'gone' }),
        resources: 'configmap/old-a\nconfigmap/old-b\nconfigmap/never-was',
        'wait-for': 'deleted',
        timeout: '60s',
      },
      {
        onStdout: (stdout) => {
          if (deleted || !stdout.includes('Waiting for 3 targets to be deleted')) return;
          deleted = true;
          cluster.delete('v1', 'ConfigMap', 'gone', 'old-a');
          cluster.delete('v1', 'ConfigMap', 'gone', 'old-b');
        },
      },
    );

    expect(deleted).toBe(true);
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', pending: '' });
    expect(
      resourcesOf(run.outputs)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['never-was', 'old-a', 'old-b']);
  }, 150_000);

  it('fails with one annotation on an input problem found on the cluster (an ambiguous type), reporting every target', async () => {
    for (const group of ['a.example.org', 'b.example.org']) {
      cluster.create({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `caches.${group}` },
        spec: {
          group,
          scope: 'Namespaced',
          names: { plural: 'caches', singular: 'cache', kind: 'Cache' },
          versions: [{ name: 'v1', served: true, storage: true }],
        },
      });
    }
    await cluster.waitFor(
      () =>
        cluster
          .list('apiextensions.k8s.io/v1', 'CustomResourceDefinition')
          .filter((crd) => crd.metadata.name.startsWith('caches.') && crd.status?.conditions?.length).length === 2,
    );
    cluster.create(configMap('settings', { namespace: 'ambiguous' }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'ambiguous' }), resources: 'cache/x\nconfigmap/settings', timeout: '5m' });

    expect(run.exitCode).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.message).toContain('resource type "cache" is ambiguous: it matches caches.a.example.org, caches.b.example.org');
    expect(run.errors[0]?.properties.title).toContain('resources');
    expect(run.outputs.result).toBe('error');
    expect(
      resourcesOf(run.outputs)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['settings', 'x']);
  }, 150_000);

  it('reports every target when the job is cancelled', async () => {
    cluster.create(pendingClaim('data', { namespace: 'cancel' }));
    cluster.create(deployment('web', { namespace: 'cancel', readyAfterMs: 100 }));

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'cancel' }), resources: 'pvc/data\ndeployment/web', timeout: '5m' },
      // Cancel once the log shows web Current (in the resolved group or as a transition): pvc/data never is.
      { signalWhen: (stdout) => (/^deployment\/web \(cancel\).*Current/m.test(stdout) ? 'SIGINT' : undefined) },
    );

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('cancelled');
    expect(run.outputs.ready).toBe('false');
    expect(run.outputs.pending).toBe('cancel/PersistentVolumeClaim/data');
    expect(statusByRef(run.outputs)).toEqual({ 'cancel/PersistentVolumeClaim/data': 'InProgress', 'cancel/Deployment/web': 'Current' });
    expect(run.errors.at(-1)?.message).toMatch(/^kubewait: cancelled after/);
  }, 150_000);
});
