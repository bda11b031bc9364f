/**
 * The GitHub reporters against the GitHub REST API stand-in (real HTTP through Octokit, nothing mocked):
 * the sticky comment, the Deployment statuses, and that no reporting failure ever touches the verdict.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { RunResult } from '../../../src/result.js';
import type { WaitFor } from '../../../src/settings.js';
import {
  finishGitHubReports,
  MAX_COMMENT_CHARS,
  startDeploymentReport,
  startGitHubReports,
  type GitHubReportOptions,
  type ReporterSettings,
  type GitHubRunContext,
} from '../../../src/report/github/index.js';
import { CLIENT_DEFAULTS } from '../../../src/report/github/client.js';
import { READ_TOKEN, startGitHub, WRITE_TOKEN, type TestGitHub } from '../../github/index.js';
import { failed, imagePullDiagnosis, pending, ready, result, withLog } from '../fixtures.js';

const ROUTES = {
  listComments: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  createComment: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  updateComment: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  commitPulls: 'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
  listDeployments: 'GET /repos/{owner}/{repo}/deployments',
  createDeployment: 'POST /repos/{owner}/{repo}/deployments',
  createStatus: 'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses',
};
const WAIT_FOR: WaitFor = { kind: 'ready' };
const RUN_ID = 7001;

let gh: TestGitHub;
let nextPr = 100;
beforeAll(async () => {
  gh = await startGitHub();
});
afterAll(async () => {
  await gh.close();
});
beforeEach(() => {
  gh.clearFaults();
});

/** A fresh pull request per test, so tests never see each other's comments. */
function newPull(overrides: { headRepo?: string; state?: 'open' | 'closed' } = {}): { number: number; sha: string } {
  const number = nextPr++;
  const sha = number.toString(16).padStart(40, '0');
  gh.addPull({ number, headSha: sha, ...overrides });
  return { number, sha };
}

function runContext(overrides: Partial<GitHubRunContext> = {}): GitHubRunContext {
  return {
    eventName: 'pull_request',
    owner: gh.owner,
    repo: gh.repo,
    sha: 'f'.repeat(40),
    serverUrl: 'https://github.com',
    apiUrl: gh.url,
    runId: RUN_ID,
    runAttempt: 1,
    workflow: 'deploy',
    job: 'verify',
    matrix: '',
    ...overrides,
  };
}

/**
 * The request timeout is a real-time transport guard (it bounds real I/O): an answer of the local stand-in
 * that comes later than it fails the test, so it is the default 10 s, which no loaded machine reaches.
 * The tests of a request that hangs need it to fire: theirs is 2 s, still hundreds of times what an answer takes.
 */
// Three attempts fit the 5 s reporting grace after the verdict (src/report/github/index.ts).
const HANG_TIMEOUT_MS = 1000;

function options(
  run: GitHubRunContext,
  settings: Partial<ReporterSettings> = {},
  timeoutMs: number = CLIENT_DEFAULTS.timeoutMs,
): GitHubReportOptions & { waitFor: WaitFor } {
  return {
    settings: { prComment: 'always', githubToken: WRITE_TOKEN, deploymentEnvironment: '', deploymentUrl: '', ...settings },
    run,
    waitFor: WAIT_FOR,
    // Short retries keep the test quick; the logic is the same as with the defaults.
    client: { timeoutMs, retries: 2, backoffMs: 5, maxRateLimitWaitMs: 1000, budgetMs: 20_000 },
  };
}

const green = () => result([ready('web'), ready('api')]);
const red = () => result([ready('api'), failed('web', { diagnosis: imagePullDiagnosis() })]);

/** Requests since `mark` to one route, for one pull request where the path names it. */
function since(mark: number, route: string): TestGitHub['requests'] {
  return gh.requests.slice(mark).filter((r) => r.route === route);
}

function commentsOn(number: number) {
  return gh.state.comments.filter((c) => c.issueNumber === number);
}

describe('the sticky pull-request comment', () => {
  it('is created on the first run and updated in place on the next ones, past other comments on later pages', async () => {
    const pr = newPull();
    const run = runContext({ pullRequest: { number: pr.number }, sha: pr.sha });
    // 150 comments first: this job's comment lands on page 2, found only by following the Link header.
    for (let i = 0; i < 150; i++) gh.addComment(pr.number, `review comment ${i}`);
    const first = await finishGitHubReports(red(), options(run));
    expect(first.warnings).toEqual([]);
    const mine = commentsOn(pr.number).filter((c) => c.user.login === 'github-actions[bot]');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.body).toMatch(/^<!-- kubewait:pr-comment [0-9a-f]{16} -->\n/);
    expect(mine[0]?.body).toContain('❌ kubewait: 1 of 2 targets failed');
    expect(first.commentUrl).toBe(`https://github.com/${gh.owner}/${gh.repo}/pull/${pr.number}#issuecomment-${mine[0]?.id}`);

    const mark = gh.requests.length;
    const second = await finishGitHubReports(green(), options(run));
    expect(second.warnings).toEqual([]);
    expect(since(mark, ROUTES.createComment)).toHaveLength(0);
    expect(since(mark, ROUTES.updateComment).map((r) => r.path)).toEqual([`/repos/${gh.owner}/${gh.repo}/issues/comments/${mine[0]?.id}`]);
    expect(since(mark, ROUTES.listComments).map((r) => new URL(r.path, gh.url).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
    const after = commentsOn(pr.number).filter((c) => c.user.login === 'github-actions[bot]');
    expect(after).toHaveLength(1);
    expect(after[0]?.body).toContain('✅ kubewait: 2 of 2 targets ready');
    expect(commentsOn(pr.number).filter((c) => c.body.startsWith('review comment'))).toHaveLength(150);
  });

  it.each([
    ['another matrix entry', { matrix: '{"cluster":"us"}' }, 2],
    ['another job', { job: 'smoke' }, 2],
    ['the same matrix entry written differently', { matrix: '{\n  "cluster": "eu"\n}' }, 1],
  ])('keeps one comment per job and matrix entry: %s', async (_name, change, comments) => {
    const pr = newPull();
    const base = runContext({ pullRequest: { number: pr.number }, sha: pr.sha, matrix: '{"cluster":"eu"}' });
    await finishGitHubReports(red(), options(base));
    await finishGitHubReports(red(), options({ ...base, ...change }));
    expect(commentsOn(pr.number)).toHaveLength(comments);
  });

  it('does not take over a comment that only quotes the marker', async () => {
    const pr = newPull();
    const run = runContext({ pullRequest: { number: pr.number }, sha: pr.sha });
    await finishGitHubReports(red(), options(run));
    const original = commentsOn(pr.number)[0];
    gh.addComment(pr.number, `> ${original?.body ?? ''}\n\nWhy is web failing?`);
    await finishGitHubReports(green(), options(run));
    expect(commentsOn(pr.number).map((c) => c.body.startsWith('> '))).toEqual([false, true]);
    expect(commentsOn(pr.number)[1]?.body).toContain('❌');
  });

  it.each<[string, () => RunResult, boolean]>([
    ['a successful wait', green, false],
    ['a failed wait', red, true],
    ['a timed-out wait', () => result([pending('web')], { outcome: 'timeout' }), true],
    ['a cancelled wait', () => result([pending('web')], { outcome: 'timeout', cancelled: true }), true],
  ])('with on-failure, posts for %s only when it did not succeed', async (_name, outcome, posts) => {
    const pr = newPull();
    const run = runContext({ pullRequest: { number: pr.number }, sha: pr.sha });
    const mark = gh.requests.length;
    const out = await finishGitHubReports(outcome(), options(run, { prComment: 'on-failure' }));
    expect(out.warnings).toEqual([]);
    expect(since(mark, ROUTES.createComment)).toHaveLength(posts ? 1 : 0);
    expect(since(mark, ROUTES.updateComment)).toHaveLength(0);
    expect(commentsOn(pr.number)).toHaveLength(posts ? 1 : 0);
  });

  it('with on-failure, turns an earlier failure comment green instead of leaving it stale', async () => {
    const pr = newPull();
    const run = runContext({ pullRequest: { number: pr.number }, sha: pr.sha });
    await finishGitHubReports(red(), options(run, { prComment: 'on-failure' }));
    await finishGitHubReports(green(), options(run, { prComment: 'on-failure' }));
    expect(commentsOn(pr.number)).toHaveLength(1);
    expect(commentsOn(pr.number)[0]?.body).toContain('✅ kubewait: 2 of 2 targets ready');
  });

  it.each([
    ['finds the open pull request of the pushed commit', 'open', 1, undefined],
    ['posts nothing and says so when the commit has no open pull request', 'closed', 0, /no open pull request has commit [0-9a-f]{7}/],
  ] as const)('on push, %s', async (_name, state, comments, notice) => {
    const pr = newPull({ state });
    const out = await finishGitHubReports(red(), options(runContext({ eventName: 'push', sha: pr.sha })));
    expect(out.warnings).toEqual([]);
    expect(commentsOn(pr.number)).toHaveLength(comments);
    if (notice) expect(out.notices).toEqual([expect.stringMatching(notice)]);
  });

  it("posts a body under GitHub's limit for 5,000 targets with long messages and a long log tail", async () => {
    const pr = newPull();
    const long = 'x'.repeat(5_000);
    const log = Array.from({ length: 5_000 }, (_, i) => `log line ${i} ${'y'.repeat(200)}`).join('\n');
    const targets = Array.from({ length: 5_000 }, (_, i) =>
      i % 2 === 0 ? failed(`web-${i}`, { message: long, diagnosis: imagePullDiagnosis(), ...withLog(`web-${i}-abc`, 'web', log) }) : ready(`ok-${i}`),
    );
    const out = await finishGitHubReports(result(targets), options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha })));
    expect(out.warnings).toEqual([]);
    const body = commentsOn(pr.number)[0]?.body ?? '';
    expect(body.length).toBeGreaterThan(1_000);
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body).toContain('2450 more targets that are not ready are not listed here');
    expect(body).toContain('2500 targets are ready (not listed)');
    expect(body).toContain('log line 4999');
  });
});

describe('reporting failures never change the verdict', () => {
  it("a fork's read-only token: one warning naming the permission and the fork pattern, the result untouched", async () => {
    const pr = newPull({ headRepo: 'someone/shop' });
    const run = runContext({ pullRequest: { number: pr.number, headRepo: 'someone/shop' }, sha: pr.sha });
    const wait = red();
    const before = JSON.stringify(wait);
    const out = await finishGitHubReports(wait, options(run, { githubToken: READ_TOKEN }));
    expect(JSON.stringify(wait)).toBe(before);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain('could not update the pull-request comment: GitHub answered 403 Resource not accessible by integration');
    expect(out.warnings[0]).toContain('`pull-requests: write`');
    expect(out.warnings[0]).toContain('fork someone/shop');
    expect(out.warnings[0]).toMatch(/pull_request_target.*workflow_run/);
    expect(commentsOn(pr.number)).toHaveLength(0);
  });

  it.each<[string, Parameters<TestGitHub['failRoute']>[1], number, number, RegExp | undefined]>([
    ['two 500s are retried', { kind: 'status', status: 500 }, 2, 3, undefined],
    [
      'a 503 that persists is one warning after 3 attempts',
      { kind: 'status', status: 503 },
      Infinity,
      3,
      /answered 503 Service Unavailable 3 times.*`pull-requests: write`/,
    ],
    ['a short secondary rate limit is waited out', { kind: 'rate-limit', status: 429, retryAfterSeconds: 0 }, 1, 2, undefined],
    [
      'a long primary rate limit is one warning at once',
      { kind: 'rate-limit', status: 403 },
      Infinity,
      1,
      /rate limit was hit \(GitHub asks to wait \d+s\): 403 API rate limit exceeded/,
    ],
    [
      'a 404 is one warning, not retried',
      { kind: 'status', status: 404 },
      Infinity,
      1,
      /GitHub answered 404 Not Found\. The token needs `pull-requests: write`/,
    ],
    ['a 422 is one warning, not retried', { kind: 'status', status: 422 }, Infinity, 1, /GitHub answered 422 Validation Failed/],
  ])('creating the comment: %s', async (_name, fault, times, attempts, warning) => {
    const pr = newPull();
    gh.failRoute(ROUTES.createComment, fault, times);
    const mark = gh.requests.length;
    const out = await finishGitHubReports(red(), options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha })));
    expect(since(mark, ROUTES.createComment)).toHaveLength(attempts);
    if (warning) {
      expect(out.warnings).toEqual([expect.stringMatching(warning)]);
      expect(commentsOn(pr.number)).toHaveLength(0);
    } else {
      expect(out.warnings).toEqual([]);
      expect(commentsOn(pr.number)).toHaveLength(1);
    }
  });

  it.each([
    ['a listing (idempotent) that hangs once is retried and succeeds', ROUTES.listComments, 1, 2, 1, undefined],
    ['a create that hangs is not retried (it may have been applied) and is one warning', ROUTES.createComment, 1, 1, 0, /no answer within 1s \(1 attempt\)/],
    ['a listing that always hangs gives up after 3 attempts', ROUTES.listComments, Infinity, 3, 0, /no answer within 1s \(3 attempts\)/],
  ])('honours the request timeout: %s', async (_name, route, times, attempts, comments, warning) => {
    const pr = newPull();
    gh.failRoute(route, { kind: 'hang' }, times);
    const mark = gh.requests.length;
    const out = await finishGitHubReports(red(), options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha }), {}, HANG_TIMEOUT_MS));
    expect(since(mark, route)).toHaveLength(attempts);
    expect(commentsOn(pr.number)).toHaveLength(comments);
    expect(out.warnings).toEqual(warning ? [expect.stringMatching(warning)] : []);
  });

  it.each([
    ['an empty token', '', /input "github-token" is empty/],
    ['a rejected token', 'ghs_revoked0000000000000000000000000000', /GitHub rejected the `github-token` \(401 Bad credentials\)/],
  ])('%s is one warning, and the token is masked and never printed', async (_name, token, warning) => {
    const pr = newPull();
    const masked: string[] = [];
    const out = await finishGitHubReports(red(), {
      ...options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha }), { githubToken: token }),
      mask: (s) => masked.push(s),
    });
    expect(out.warnings).toEqual([expect.stringMatching(warning)]);
    if (token) {
      expect(masked).toEqual([token]);
      expect(JSON.stringify(out)).not.toContain(token);
    }
  });

  it('sends the token only in the Authorization header, and masks it once for all reports', async () => {
    const pr = newPull();
    const mark = gh.requests.length;
    const masked: string[] = [];
    const opts = {
      ...options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha }), { deploymentEnvironment: 'preview' }),
      mask: (s: string) => masked.push(s),
    };
    await finishGitHubReports(red(), { ...opts, deployment: await startDeploymentReport(opts) });
    expect(masked).toEqual([WRITE_TOKEN]);
    const sent = gh.requests.slice(mark);
    expect(sent.length).toBeGreaterThan(3);
    for (const r of sent) {
      expect(r.authorization).toBe(`token ${WRITE_TOKEN}`);
      expect(`${r.path} ${JSON.stringify(r.body ?? '')}`).not.toContain(WRITE_TOKEN);
    }
  });
});

describe('the Deployment status', () => {
  const deploymentsOf = (sha: string) => gh.state.deployments.filter((d) => d.sha === sha);
  const statesOf = (id: number | undefined) => gh.state.statuses.filter((s) => s.deploymentId === id).map((s) => s.state);

  it('creates a Deployment for the commit, in_progress at the start, success at the end, with the URLs', async () => {
    const sha = '1'.repeat(40);
    const run = runContext({ eventName: 'push', sha });
    const opts = options(run, { prComment: 'off', deploymentEnvironment: 'staging', deploymentUrl: 'https://staging.example.com' });
    const started = await startDeploymentReport(opts);
    expect(started.warnings).toEqual([]);
    expect(started.deploymentId).toBeDefined();
    const created = gh.requestsTo(ROUTES.createDeployment).at(-1);
    expect(created?.body).toMatchObject({ ref: sha, environment: 'staging', auto_merge: false, required_contexts: [] });
    expect(statesOf(started.deploymentId)).toEqual(['in_progress']);

    const finished = await finishGitHubReports(green(), { ...opts, deployment: started });
    expect(finished.warnings).toEqual([]);
    expect(deploymentsOf(sha)).toHaveLength(1);
    expect(statesOf(started.deploymentId)).toEqual(['in_progress', 'success']);
    const last = gh.state.statuses.at(-1);
    expect(last).toMatchObject({
      logUrl: `https://github.com/${gh.owner}/${gh.repo}/actions/runs/${RUN_ID}`,
      environmentUrl: 'https://staging.example.com',
      environment: 'staging',
    });
    expect(last?.description).toMatch(/^kubewait: 2 of 2 targets ready in 42\.4s$/);
  });

  it.each<[string, string, RunResult]>([
    ['failed', 'failure', result([failed('web')])],
    ['timed out', 'failure', result([pending('web')], { outcome: 'timeout' })],
    ['was cancelled', 'error', result([pending('web')], { outcome: 'timeout', cancelled: true })],
    [
      'was stopped by a bad input',
      'error',
      result([pending('web')], { outcome: 'failed', error: { input: 'resources', message: 'Input "resources": ambiguous type' } }),
    ],
  ])('ends a wait that %s as %s, with a description of at most 140 characters', async (_name, state, wait) => {
    const sha = '2'.repeat(40);
    const opts = options(runContext({ eventName: 'push', sha }), { prComment: 'off', deploymentEnvironment: `env-${state}-${_name.length}` });
    const started = await startDeploymentReport(opts);
    await finishGitHubReports(wait, { ...opts, deployment: started });
    expect(statesOf(started.deploymentId)).toEqual(['in_progress', state]);
    expect(gh.state.statuses.at(-1)?.description.length).toBeLessThanOrEqual(140);
  });

  it("makes no second Deployment when the job's own environment: made one, and says so", async () => {
    const sha = '3'.repeat(40);
    const jobDeployment = gh.addEnvironmentDeployment({ environment: 'production', sha, runId: RUN_ID });
    const opts = options(runContext({ eventName: 'push', sha }), { prComment: 'off', deploymentEnvironment: 'production' });
    const mark = gh.requests.length;
    const started = await startDeploymentReport(opts);
    const finished = await finishGitHubReports(green(), { ...opts, deployment: started });
    expect([...started.warnings, ...finished.warnings]).toEqual([]);
    expect(started.notices).toEqual([expect.stringContaining(`its \`environment:\` made Deployment ${jobDeployment}`)]);
    expect(since(mark, ROUTES.createDeployment)).toHaveLength(0);
    expect(since(mark, ROUTES.createStatus)).toHaveLength(0);
    expect(deploymentsOf(sha)).toHaveLength(1);
  });

  it.each<[string, string, { runId: number; jobId?: number }, Partial<GitHubRunContext>, number]>([
    ['this job (known by its id)', '41', { runId: RUN_ID, jobId: 555 }, { jobId: 555 }, 1],
    ["a sibling job of this run, with this job's id known", '42', { runId: RUN_ID, jobId: 556 }, { jobId: 555 }, 2],
    ["a job of this run, without this job's id: counted as a duplicate", '43', { runId: RUN_ID, jobId: 556 }, {}, 1],
    ['a job of another run', '44', { runId: RUN_ID - 1 }, {}, 2],
  ])('an environment Deployment made for %s', async (_name, shaPrefix, made, run, deployments) => {
    const sha = shaPrefix.padEnd(40, '0');
    gh.addEnvironmentDeployment({ environment: 'production', sha, ...made });
    await startDeploymentReport(options(runContext({ eventName: 'push', sha, ...run }), { prComment: 'off', deploymentEnvironment: 'production' }));
    expect(deploymentsOf(sha)).toHaveLength(deployments);
  });

  it('a read-only token: one warning naming deployments: write, and nothing more at the end', async () => {
    const sha = '5'.repeat(40);
    const opts = options(runContext({ eventName: 'push', sha }), { prComment: 'off', deploymentEnvironment: 'staging', githubToken: READ_TOKEN });
    const started = await startDeploymentReport(opts);
    const finished = await finishGitHubReports(red(), { ...opts, deployment: started });
    expect(started.warnings).toEqual([
      expect.stringMatching(
        /could not create the Deployment for environment "staging": GitHub answered 403 Resource not accessible by integration\. The token needs `deployments: write`/,
      ),
    ]);
    expect(finished.warnings).toEqual([]);
    expect(deploymentsOf(sha)).toHaveLength(0);
  });

  it('without a start, the finish makes the Deployment itself', async () => {
    const sha = '6'.repeat(40);
    const out = await finishGitHubReports(green(), options(runContext({ eventName: 'push', sha }), { prComment: 'off', deploymentEnvironment: 'qa' }));
    expect(out.warnings).toEqual([]);
    expect(statesOf(deploymentsOf(sha)[0]?.id)).toEqual(['in_progress', 'success']);
  });

  it('a status that fails at the end is one warning; the comment is still written', async () => {
    const pr = newPull();
    const opts = options(runContext({ pullRequest: { number: pr.number }, sha: pr.sha }), { deploymentEnvironment: 'review' });
    const started = await startDeploymentReport(opts);
    gh.failRoute(ROUTES.createStatus, { kind: 'status', status: 500 });
    const out = await finishGitHubReports(red(), { ...opts, deployment: started });
    expect(out.warnings).toEqual([
      expect.stringMatching(/could not post the final status of Deployment \d+: the GitHub API answered 500 Server Error 3 times/),
    ]);
    expect(commentsOn(pr.number)).toHaveLength(1);
  });
});

describe('the reports started beside the wait', () => {
  it('with nothing to report (the defaults), hold no timer between the outcome and the exit and say nothing', async () => {
    const said: string[] = [];
    const log = { info: (m: string) => said.push(m), warning: (m: string) => said.push(m), setSecret: () => {} };
    const settings = {
      prComment: 'off',
      githubToken: WRITE_TOKEN,
      deploymentEnvironment: '',
      deploymentUrl: '',
      reportMatrix: '',
      reportJobId: '',
      waitFor: WAIT_FOR,
    } as const;
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();

    const finishing = startGitHubReports(settings, log).finish(result([ready('web')]));
    expect(timers()).toBe(before);
    await finishing;

    expect(said).toEqual([]);
    // A comment to make: the grace's timer bounds it.
    const reporting = startGitHubReports({ ...settings, prComment: 'always' }, log).finish(result([ready('web')]));
    expect(timers()).toBe(before + 1);
    await reporting;
  });
});
