/**
 * The pull-request comment and the Deployment status end to end: `dist/index.js` run as the runner runs it,
 * with GITHUB_API_URL pointing at the GitHub REST API stand-in and a real event payload file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { READ_TOKEN, startGitHub, WRITE_TOKEN, type TestGitHub } from '../github/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

const RUN_ID = '4242'; // runAction's GITHUB_RUN_ID
let cluster: TestCluster;
let gh: TestGitHub;
let scratch: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  gh = await startGitHub();
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-gh-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  await gh?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The runner's environment for a `pull_request` event (payload file included). */
function pullRequestEnv(number: number, headSha: string, headRepo = `${gh.owner}/${gh.repo}`): Record<string, string> {
  const eventPath = path.join(scratch, `event-${number}-${headRepo.replace('/', '-')}.json`);
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number,
      pull_request: { number, head: { sha: headSha, ref: `feature-${number}`, repo: { full_name: headRepo } } },
      repository: { full_name: `${gh.owner}/${gh.repo}` },
    }),
  );
  return {
    GITHUB_API_URL: gh.url,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
    GITHUB_WORKFLOW: 'deploy',
    GITHUB_JOB: 'verify',
  };
}

const reportInputs = (token: string, more: Record<string, string> = {}) => ({ 'github-token': token, 'report-matrix': '', 'report-job-id': '', ...more });
const comments = (number: number) => gh.state.comments.filter((c) => c.issueNumber === number);

describe('reporting to GitHub end to end', () => {
  it('a first run creates the comment and the Deployment, a second run updates the same comment', async () => {
    cluster.create(deployment('web', { namespace: 'gh-ok', readyAfterMs: 300 }));
    const sha = 'a1'.repeat(20);
    gh.addPull({ number: 1, headSha: sha });
    const inputs = {
      kubeconfig: cluster.kubeconfig({ namespace: 'gh-ok' }),
      resources: 'deployment/web',
      timeout: '60s',
      'pr-comment': 'always',
      'deployment-environment': 'preview',
      'deployment-url': 'https://pr-1.example.com',
      ...reportInputs(WRITE_TOKEN),
    };

    const first = await runAction(inputs, { env: pullRequestEnv(1, sha) });
    expect(first.warnings).toEqual([]);
    expect(first.exitCode).toBe(0);
    expect(comments(1)).toHaveLength(1);
    expect(comments(1)[0]?.body).toContain('✅ kubewait: 1 of 1 target ready');
    const deployments = gh.state.deployments.filter((d) => d.sha === sha);
    expect(deployments.map((d) => d.environment)).toEqual(['preview']);
    expect(gh.state.statuses.filter((s) => s.deploymentId === deployments[0]?.id).map((s) => [s.state, s.environmentUrl])).toEqual([
      ['in_progress', 'https://pr-1.example.com'],
      ['success', 'https://pr-1.example.com'],
    ]);
    expect(first.masks).toContain(WRITE_TOKEN);

    const second = await runAction(inputs, { env: pullRequestEnv(1, sha) });
    expect(second.exitCode).toBe(0);
    expect(comments(1)).toHaveLength(1);
    expect(gh.requestsTo('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}')).toHaveLength(1);
    expect(second.log.join('\n')).toContain(
      `updated the pull-request comment https://github.com/${gh.owner}/${gh.repo}/pull/1#issuecomment-${comments(1)[0]?.id}`,
    );
  }, 150_000);

  /**
   * A Deployment whose three replicas crash-loop, beside a RoleBinding and a ConfigMap that are ready, defined
   * in a workspace file whose name has an `&`: each place says the cause once, the file link shows its name,
   * and the summary's facts name what failed.
   */
  it('a crash-looping Deployment: the cause once in the summary`s details, the annotation and the comment', async () => {
    const namespace = 'gh-causes';
    cluster.create(deployment('api', { namespace, replicas: 3, podFailure: 'CrashLoopBackOff' }));
    cluster.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'api-reader', namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'api', namespace }],
    });
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'api-settings', namespace }, data: { mode: 'strict' } });
    const workspace = mkdtempSync(path.join(scratch, 'workspace-'));
    mkdirSync(path.join(workspace, 'k8s'));
    writeFileSync(
      path.join(workspace, 'k8s', 'R&D app.yaml'),
      [
        `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: ${namespace}}`,
        `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: api-reader, namespace: ${namespace}}`,
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api-settings, namespace: ${namespace}}`,
      ].join('\n---\n'),
    );
    const sha = 'e5'.repeat(20);
    gh.addPull({ number: 5, headSha: sha });

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace }), manifests: 'k8s/*.yaml', timeout: '60s', 'pr-comment': 'always', ...reportInputs(WRITE_TOKEN) },
      { workspace, env: { ...pullRequestEnv(5, sha), GITHUB_SHA: sha } },
    );

    expect(run.exitCode).toBe(1);
    expect(run.outputs.failed).toBe(`${namespace}/Deployment/api`);
    const CAUSE = /last exit: Error \(exit code 1\)/g;
    const count = (text: string) => text.match(CAUSE)?.length ?? 0;
    const [, details = ''] = run.summary.split('### Why it is not ready');
    expect(count(details)).toBe(1);
    expect(details).toMatch(/^\| api-[\w-]+, api-[\w-]+, api-[\w-]+ \| api \| CrashLoopBackOff \| /m);
    const annotation = run.errors.find((e) => e.properties.title === `Deployment ${namespace}/api`)?.message ?? '';
    expect(count(annotation)).toBe(1);
    expect(annotation).toMatch(/^container api of pods api-[\w-]+, api-[\w-]+: the same$/m);
    expect(comments(5)).toHaveLength(1);
    expect(count(comments(5)[0]!.body)).toBe(1);
    // The comment shows the failing container's log tail, as the job summary does.
    expect(comments(5)[0]!.body).toMatch(/\*\*Last \d+ log lines?\*\* of container `api` in pod `api-[\w-]+`/);
    // The file's name as it is, in the link and beside it; the link goes to the file.
    expect(run.summary).not.toMatch(/\[[^\]]*&amp;[^\]]*\]\(/);
    expect(run.summary).toContain(`[k8s/R\\&D app.yaml:1](https://github.com/octo-org/shop/blob/${sha}/k8s/R%26D%20app.yaml#L1)`);
    // The facts line speaks of what failed, not of the slowest of the targets that were ready.
    expect(run.summary).toContain(`· **Failed** Deployment/api ·`);
    expect(run.summary).not.toContain('Slowest');
  }, 150_000);

  it('a Deployment Failed at its first look: the comment names its pods\' cause, not "no pod problems"', async () => {
    const namespace = 'gh-first-look';
    const web = deployment('web', { namespace, podFailure: 'ImagePullBackOff' });
    Object.assign(web.spec, { progressDeadlineSeconds: 1 });
    cluster.create(web);
    await cluster.waitFor(
      () =>
        (cluster.get('apps/v1', 'Deployment', namespace, 'web') as { status?: { conditions?: Array<{ reason?: string }> } })?.status?.conditions?.some(
          (c) => c.reason === 'ProgressDeadlineExceeded',
        ) === true,
      30_000,
    );
    const sha = 'f6'.repeat(20);
    gh.addPull({ number: 6, headSha: sha });

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace }), resources: 'deployment/web', timeout: '60s', 'pr-comment': 'always', ...reportInputs(WRITE_TOKEN) },
      { env: pullRequestEnv(6, sha) },
    );

    expect(run.outputs.result).toBe('failed');
    const body = comments(6)[0]?.body ?? '';
    expect(body).not.toContain('No pod problems or events were recorded');
    expect(body).toMatch(/container web of pods? web-[\w-]+.*: (ImagePullBackOff|ErrImagePull)/);
  }, 150_000);

  it('several clusters: one comment with the counts of each cluster and its own section, the failing cluster first', async () => {
    const other = await startCluster({ speed: 0.2 });
    try {
      cluster.create(deployment('api', { namespace: 'gh-fleet', readyAfterMs: 300 }));
      other.create(deployment('api', { namespace: 'gh-fleet', podFailure: 'ImagePullBackOff' }));
      const sha = 'f9'.repeat(20);
      gh.addPull({ number: 9, headSha: sha });
      const clusters = ['- name: eu-west', '  kubeconfig: KUBECONFIG_EU', '- name: us-east', '  kubeconfig: KUBECONFIG_US'].join('\n');

      const run = await runAction(
        { clusters, namespace: 'gh-fleet', resources: 'deployment/api', timeout: '60s', 'pr-comment': 'always', ...reportInputs(WRITE_TOKEN) },
        { env: { ...pullRequestEnv(9, sha), KUBECONFIG_EU: cluster.kubeconfig(), KUBECONFIG_US: other.kubeconfig() } },
      );

      expect(run.outputs.result).toBe('failed');
      expect(run.warnings).toEqual([]);
      expect(comments(9)).toHaveLength(1);
      const body = comments(9)[0]!.body;
      expect(body).toMatch(/^## ❌ kubewait: 1 of 2 targets failed · 1 of 2 clusters ready$/m);
      expect(body).toMatch(/^\| `eu-west` \| ✅ ready \| 1 of 1 \| 0 \|/m);
      expect(body).toMatch(/^\| `us-east` \| ❌ failed \| 0 of 1 \| 1 \|/m);
      expect(body.split('\n').filter((line) => /^## \S+ `/.test(line))).toEqual([
        '## ❌ `us-east`: 1 of 1 target failed',
        '## ✅ `eu-west`: 1 of 1 target ready',
      ]);
      const [, usEast = ''] = body.split('## ❌ `us-east`');
      expect(usEast.split('## ✅ `eu-west`')[0]).toContain('<summary>❌ <b>Deployment gh-fleet/api</b> Failed</summary>');
    } finally {
      await other.close();
    }
  }, 150_000);

  it('on-failure posts nothing when the wait succeeds', async () => {
    cluster.create(deployment('web', { namespace: 'gh-quiet', readyAfterMs: 300 }));
    gh.addPull({ number: 2, headSha: 'b2'.repeat(20) });
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'gh-quiet' }),
        resources: 'deployment/web',
        timeout: '60s',
        'pr-comment': 'on-failure',
        ...reportInputs(WRITE_TOKEN),
      },
      { env: pullRequestEnv(2, 'b2'.repeat(20)) },
    );
    expect(run.exitCode).toBe(0);
    expect(run.warnings).toEqual([]);
    expect(comments(2)).toHaveLength(0);
  }, 150_000);

  it("a fork's read-only token leaves the verdict intact: the step fails for the cluster's reason, with one reporting warning", async () => {
    cluster.create(deployment('web', { namespace: 'gh-fork', podFailure: 'ImagePullBackOff' }));
    gh.addPull({ number: 3, headSha: 'c3'.repeat(20), headRepo: 'someone/shop' });
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'gh-fork' }),
        resources: 'deployment/web',
        timeout: '60s',
        'pr-comment': 'always',
        ...reportInputs(READ_TOKEN),
      },
      { env: pullRequestEnv(3, 'c3'.repeat(20), 'someone/shop') },
    );
    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(run.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/403 Resource not accessible by integration.*`pull-requests: write`.*fork someone\/shop.*pull_request_target.*workflow_run/),
    ]);
    expect(comments(3)).toHaveLength(0);
    expect(run.masks).toContain(READ_TOKEN);
    expect(run.stdout.split('\n').filter((line) => line.includes(READ_TOKEN))).toEqual([`::add-mask::${READ_TOKEN}`]);
  }, 150_000);

  it('a job whose environment: made the Deployment gets no second one, and the log says so', async () => {
    cluster.create(deployment('web', { namespace: 'gh-env', readyAfterMs: 300 }));
    const sha = 'd4'.repeat(20);
    gh.addPull({ number: 4, headSha: sha });
    gh.addEnvironmentDeployment({ environment: 'production', sha, runId: Number(RUN_ID) });
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'gh-env' }),
        resources: 'deployment/web',
        timeout: '60s',
        'deployment-environment': 'production',
        ...reportInputs(WRITE_TOKEN),
      },
      { env: pullRequestEnv(4, sha) },
    );
    expect(run.exitCode).toBe(0);
    expect(run.warnings).toEqual([]);
    expect(gh.state.deployments.filter((d) => d.sha === sha)).toHaveLength(1);
    expect(run.log.join('\n')).toContain('already deploys to environment "production"');
  }, 150_000);

  // A runner that does not expand the defaults (`${{ job.check_run_id }}`, `${{ toJSON(matrix) }}`) passes them
  // as literal text: the reports go on without them, with one warning, and the verdict is the cluster's.
  it.each<[string, number, string]>([
    ['report-job-id', 7, '${{ job.check_run_id }}'],
    ['report-matrix', 8, '${{ toJSON(matrix) }}'],
  ])(
    'an unparseable %s is one warning naming it, never the verdict',
    async (input, number, literal) => {
      cluster.create(deployment('web', { namespace: `gh-literal-${number}`, readyAfterMs: 300 }));
      const sha = `${number}e`.repeat(20);
      gh.addPull({ number, headSha: sha });
      const run = await runAction(
        {
          kubeconfig: cluster.kubeconfig({ namespace: `gh-literal-${number}` }),
          resources: 'deployment/web',
          timeout: '60s',
          'pr-comment': 'always',
          ...reportInputs(WRITE_TOKEN, { [input]: literal }),
        },
        { env: pullRequestEnv(number, sha) },
      );
      expect(run.outputs.result).toBe('ready');
      expect(run.exitCode).toBe(0);
      expect(run.errors).toEqual([]);
      expect(run.warnings.map((w) => w.message)).toEqual([expect.stringContaining(`input "${input}" is "${literal}"`)]);
      expect(comments(number)).toHaveLength(1);
      expect(comments(number)[0]?.body).toContain('✅ kubewait: 1 of 1 target ready');
      expect(comments(number)[0]?.body).not.toContain('${{');
    },
    150_000,
  );

  it.each<[string, number, Record<string, string>, string]>([
    ['a bad input', 5, { timeout: 'soon' }, 'timeout'],
    ['an unusable kubeconfig', 6, { kubeconfig: 'clusters: [' }, 'kubeconfig'],
  ])(
    '%s still reports: the configured Deployment ends in error and the comment names the input',
    async (_name, number, bad, input) => {
      const sha = `${number}f`.repeat(20);
      gh.addPull({ number, headSha: sha });
      const run = await runAction(
        {
          kubeconfig: cluster.kubeconfig({ namespace: 'gh-setup' }),
          resources: 'deployment/web',
          'pr-comment': 'on-failure',
          'deployment-environment': 'preview',
          ...reportInputs(WRITE_TOKEN),
          ...bad,
        },
        { env: pullRequestEnv(number, sha) },
      );
      expect(run.exitCode).toBe(1);
      expect(run.outputs.result).toBe('error');
      expect(run.errors.map((e) => e.message)).toEqual([expect.stringContaining(input)]);
      expect(run.warnings).toEqual([]);
      const deployments = gh.state.deployments.filter((d) => d.sha === sha);
      expect(deployments.map((d) => d.environment)).toEqual(['preview']);
      expect(gh.state.statuses.filter((s) => s.deploymentId === deployments[0]?.id).map((s) => s.state)).toEqual(['in_progress', 'error']);
      expect(comments(number).map((c) => c.body.split('\n')[2])).toEqual([`## ❌ kubewait: stopped: a problem with input \`${input}\``]);
    },
    150_000,
  );
});
