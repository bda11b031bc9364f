/**
 * Why a target failed, end to end: `dist/index.js` against the stand-in, whose simulated kubelet writes
 * container logs (a crash loop's Go panic, a failed Job pod's connection error). Judged by what a reviewer
 * sees: the annotation, the `::group::` in the step log and the job summary.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment, job } from './objects.js';
import { runAction, type ActionRun } from './runAction.js';

/** A readable bearer token, so a test can see whether it leaks (the kubeconfig's token is a registered secret). */
const SECRET_TOKEN = 'tok-8f3a91c2d7e4b6a5';
/** Everything but pods/log: the report must say which rule is missing and still explain the rest. */
const NO_LOGS = [{ verbs: ['get', 'list', 'watch'], resources: ['deployments', 'replicasets', 'pods', 'events', 'jobs'], apiGroups: ['*'] }];

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({
    speed: 0.3,
    tokens: { [SECRET_TOKEN]: [{ verbs: ['*'], resources: ['*'], apiGroups: ['*'] }], 'no-logs': NO_LOGS },
  });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

function failedJob(name: string, namespace: string, log?: string) {
  const object = job(name, { namespace, readyAfterMs: 200 });
  const annotations = object.metadata.annotations;
  annotations['kubewait.test/job-outcome'] = 'Failed';
  if (log !== undefined) annotations['kubewait.test/log'] = log;
  return object;
}

const groups = (run: ActionRun) => run.commands.filter((c) => c.command === 'group').map((c) => c.message);
const annotationOf = (run: ActionRun, title: string) => run.errors.find((e) => e.properties.title === title)?.message ?? '';

describe('a failed target explained', () => {
  it('a failed Job: its failed pods, exit code, log tail and the kubectl logs command', async () => {
    cluster.create(failedJob('migrate', 'job-failed'));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'job-failed' }), resources: 'job/migrate', timeout: '60s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const annotation = annotationOf(run, 'Job job-failed/migrate');
    expect(annotation).toMatch(/BackoffLimitExceeded/);
    expect(annotation).toMatch(/exit 1 \(Error\)/);
    expect(annotation).toContain('exit 1: Error: connect ECONNREFUSED 10.96.0.15:5432');
    expect(annotation).toMatch(/kubectl logs -n job-failed migrate-\w+ -c migrate/);
    expect(groups(run).some((g) => /^Logs job-failed\/migrate-\w+\/migrate: exit 1: Error: connect ECONNREFUSED/.test(g))).toBe(true);
    expect(run.summary).toMatch(/<summary>📄 pod migrate-\w+, container migrate: exit 1: Error: connect ECONNREFUSED 10\.96\.0\.15:5432<\/summary>/);
    expect(run.summary).toContain('    at TCPConnectWrap.afterConnect');
  }, 150_000);

  it('a crash-looping Deployment: the panic line in the annotation and the previous run in the summary', async () => {
    cluster.create(deployment('api', { namespace: 'crash', replicas: 2, podFailure: 'CrashLoopBackOff' }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'crash' }), resources: 'deployment/api', timeout: '60s' });

    expect(run.exitCode).toBe(1);
    const annotation = annotationOf(run, 'Deployment crash/api');
    expect(annotation).toContain('container api: exit 1: panic: missing DATABASE_URL');
    expect(annotation).toMatch(/kubectl logs -n crash api-[\w-]+ -c api --previous --tail=200/);
    expect(groups(run).some((g) => /^Logs crash\/api-[\w-]+\/api \(previous\): exit 1: panic: missing DATABASE_URL$/.test(g))).toBe(true);
    expect(run.summary).toMatch(/container api \(previous run\): exit 1: panic: missing DATABASE_URL/);
    expect(run.summary).toContain('goroutine 1 [running]:');
  }, 150_000);

  it.each<{ name: string; inputs: Record<string, string>; token: string; logShown: boolean; warning: RegExp | undefined }>([
    { name: 'logs: false reads no log', inputs: { logs: 'false' }, token: SECRET_TOKEN, logShown: false, warning: undefined },
    { name: 'log-lines: 1 shows the last line only', inputs: { 'log-lines': '1' }, token: SECRET_TOKEN, logShown: true, warning: undefined },
    { name: 'a 403 on pods/log is one warning naming the rule', inputs: {}, token: 'no-logs', logShown: false, warning: /get.*pods\/log/ },
  ])(
    '$name',
    async ({ inputs, token, logShown, warning }) => {
      const namespace = `logs-${token === 'no-logs' ? 'forbidden' : Object.keys(inputs)[0]}`;
      cluster.create(failedJob('seed', namespace, `connecting with ${SECRET_TOKEN}\nfirst line\nError: seed data missing\n`));

      const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace, token }), resources: 'job/seed', timeout: '60s', ...inputs });

      expect(run.exitCode).toBe(1);
      expect(run.outputs.result).toBe('failed');
      // The failed pod is named whatever happens to its log.
      expect(annotationOf(run, `Job ${namespace}/seed`)).toMatch(/pod seed-\w+ \(Failed\): container seed exit 1 \(Error\)/);
      expect(run.summary.includes('Error: seed data missing')).toBe(logShown);
      if (inputs['log-lines'] === '1') expect(run.summary).not.toContain('first line');
      const warnings = run.warnings.map((w) => w.message).filter((m) => /pods\/log/.test(m));
      if (warning) expect(warnings).toEqual([expect.stringMatching(warning)]);
      else expect(warnings).toEqual([]);
      // The kubeconfig's token is a registered secret: never in the summary, even when a container printed it.
      expect(run.summary).not.toContain(SECRET_TOKEN);
      expect(run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::') && line.includes(SECRET_TOKEN))).toEqual([]);
    },
    150_000,
  );

  it('a wait that fail-fast stopped early explains the failed target only, not the ones still starting', async () => {
    cluster.create(failedJob('seed', 'stopped-early'));
    cluster.create(deployment('web', { namespace: 'stopped-early', readyAfterMs: 30_000 }));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'stopped-early' }), resources: 'job/seed\ndeployment/web', timeout: '60s' });

    expect(run.outputs.result).toBe('failed');
    expect(run.outputs.pending).toContain('stopped-early/Deployment/web');
    expect(groups(run).filter((g) => g.startsWith('Logs '))).toEqual([expect.stringMatching(/^Logs stopped-early\/seed-\w+\/seed: /)]);
    expect(run.summary).not.toMatch(/📄 pod web-/);
  }, 150_000);

  it('a bad log-lines is a clear input error', async () => {
    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'bad-lines' }), resources: 'job/x', 'log-lines': 'lots' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.errors[0]?.message).toBe(
      'Input "log-lines" is "lots": expected a whole number of lines from 1 to 1000, like 30. To show no logs, set logs: false.',
    );
  }, 60_000);
});
