/** The pure parts of the GitHub reports: run context, comment body, Deployment wording (the inputs: test/inputs/). */
import { describe, expect, it } from '@jest/globals';
import { combineClusterRuns } from '../../../src/fleet/combine.js';
import { COMMENT_LIMITS, commentMarker, renderPrComment } from '../../../src/report/github/comment-body.js';
import { deploymentDescription, deploymentState } from '../../../src/report/github/deployment.js';
import { gitHubRunContext, reportHelpers, type ContextSource, type GitHubRunContext } from '../../../src/report/github/run-context.js';
import { renderSummary } from '../../../src/report/summary.js';
import type { ClusterRun, TargetReport } from '../../../src/result.js';
import { failed, imagePullDiagnosis, pending, ready, result, withLog } from '../fixtures.js';

const HEAD = 'a'.repeat(40);
const MERGE = 'm'.repeat(40);

function source(eventName: string, payload: Record<string, unknown>): ContextSource {
  return {
    eventName,
    sha: MERGE,
    workflow: 'deploy',
    job: 'verify',
    runId: 42,
    runAttempt: 1,
    serverUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
    payload,
    repo: { owner: 'octo-org', repo: 'shop' },
  };
}

describe('gitHubRunContext', () => {
  it.each<[string, string, Record<string, unknown>, Partial<GitHubRunContext>]>([
    [
      'a pull_request: its number, head repository and head commit',
      'pull_request',
      { pull_request: { number: 7, head: { sha: HEAD, repo: { full_name: 'someone/shop' } } } },
      { pullRequest: { number: 7, headRepo: 'someone/shop' }, sha: HEAD },
    ],
    [
      'a pull_request_target: the same',
      'pull_request_target',
      { pull_request: { number: 8, head: { sha: HEAD, repo: { full_name: 'octo-org/shop' } } } },
      { pullRequest: { number: 8, headRepo: 'octo-org/shop' }, sha: HEAD },
    ],
    [
      'a workflow_run: the PR of the run it follows and its head commit',
      'workflow_run',
      { workflow_run: { head_sha: HEAD, pull_requests: [{ number: 9, head: { sha: HEAD } }] } },
      { pullRequest: { number: 9 }, sha: HEAD },
    ],
    [
      'a workflow_run for a fork (no PRs listed): its head commit, to look up',
      'workflow_run',
      { workflow_run: { head_sha: HEAD, pull_requests: [] } },
      { sha: HEAD },
    ],
    ['a push: GITHUB_SHA, no PR', 'push', { after: MERGE }, { sha: MERGE }],
  ])('reads %s', (_name, event, payload, expected) => {
    const run = gitHubRunContext({ matrix: '{"cluster":"eu"}' }, source(event, payload));
    expect(run).toMatchObject({ eventName: event, owner: 'octo-org', repo: 'shop', job: 'verify', matrix: '{"cluster":"eu"}', runId: 42, ...expected });
    if (!expected.pullRequest) expect(run.pullRequest).toBeUndefined();
  });
});

describe('reportHelpers', () => {
  it.each<[string, { matrix: string; jobId: string }, { matrix: string; jobId: string }, string[]]>([
    ['the runner expanded both', { matrix: '{"os":"linux"}', jobId: '4711' }, { matrix: '{"os":"linux"}', jobId: '4711' }, []],
    ['no matrix, no job id (older GHES)', { matrix: 'null', jobId: '' }, { matrix: 'null', jobId: '' }, []],
    ['nothing given', { matrix: '', jobId: '' }, { matrix: '', jobId: '' }, []],
    ['spaces around', { matrix: ' {} ', jobId: ' 42 ' }, { matrix: '{}', jobId: '42' }, []],
    [
      'an unexpanded job id',
      { matrix: '', jobId: '${{ job.check_run_id }}' },
      { matrix: '', jobId: '' },
      ['kubewait: input "report-job-id" is "${{ job.check_run_id }}": expected the job\'s numeric check-run id'],
    ],
    ['a job id that is no id', { matrix: '', jobId: '0' }, { matrix: '', jobId: '' }, ['kubewait: input "report-job-id" is "0"']],
    [
      'an unexpanded matrix',
      { matrix: '${{ toJSON(matrix) }}', jobId: '7' },
      { matrix: '', jobId: '7' },
      ['kubewait: input "report-matrix" is "${{ toJSON(matrix) }}": expected the job\'s matrix entry as JSON'],
    ],
  ])('%s', (_name, inputs, expected, warnings) => {
    const helpers = reportHelpers(inputs);
    expect({ matrix: helpers.matrix, jobId: helpers.jobId }).toEqual(expected);
    expect(helpers.warnings).toEqual(
      warnings.map((start) => expect.stringMatching(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*The wait's result is not affected\\.$`))),
    );
  });
});

/** A pull request's run, as the comment bodies below are written for. */
const PR_RUN: GitHubRunContext = {
  eventName: 'pull_request',
  owner: 'o',
  repo: 'r',
  sha: HEAD,
  serverUrl: 'https://github.com',
  apiUrl: '',
  runId: 42,
  workflow: 'deploy',
  job: 'verify',
  matrix: '',
  jobId: 99,
};

describe('the comment body', () => {
  const run = PR_RUN;

  it('starts with a marker that depends on workflow, job and matrix entry only', () => {
    const body = renderPrComment({ result: result([ready('web')]), waitFor: { kind: 'ready' }, run });
    expect(body.startsWith(`${commentMarker(run)}\n`)).toBe(true);
    const otherCommit: GitHubRunContext = { ...run, sha: 'b'.repeat(40) };
    expect(commentMarker(otherCommit)).toBe(commentMarker(run));
    expect(commentMarker({ ...run, matrix: '{"a":1}' })).not.toBe(commentMarker(run));
  });

  it('links the run, the job summary and the commit', () => {
    const body = renderPrComment({ result: result([ready('web')]), waitFor: { kind: 'ready' }, run });
    expect(body).toContain('[Workflow run](https://github.com/o/r/actions/runs/42/job/99)');
    expect(body).toContain('[Job summary](https://github.com/o/r/actions/runs/42#summary-99)');
    expect(body).toContain(`[aaaaaaa](https://github.com/o/r/commit/${HEAD})`);
  });

  it.each([
    ['lists every target when there are few', [ready('a'), failed('b')], ['Deployment/a', 'Deployment/b'], []],
    [
      'lists only the targets not ready when there are many',
      [...Array.from({ length: 11 }, (_, i) => ready(`ok${i}`)), pending('slow')],
      ['Deployment/slow'],
      ['Deployment/ok0'],
    ],
  ])('%s', (_name, targets, listed, notListed) => {
    const body = renderPrComment({ result: result(targets), waitFor: { kind: 'ready' }, run });
    for (const name of listed) expect(body).toContain(`| ${name} |`);
    for (const name of notListed) expect(body).not.toContain(`| ${name} |`);
  });

  it('says the first failure`s cause once: in its table row, not again in its details, nor once per replica', () => {
    const d = imagePullDiagnosis();
    const diagnosis = { ...d, problems: [d.problems[0]!, { ...d.problems[0]!, pod: 'web-7d9c-fghij' }, { ...d.problems[0]!, pod: 'web-7d9c-klmno' }] };
    const message = 'pod web-7d9c-abcde: container web: ImagePullBackOff: Back-off pulling image "web:v2" (and 2 more)';
    const body = renderPrComment({ result: result([failed('web', { message, diagnosis }), ready('db')]), waitFor: { kind: 'ready' }, run });
    expect(body.match(/Back-off pulling image/g)).toHaveLength(1);
    expect(body).toContain('<summary>❌ <b>Deployment shop/web</b> Failed</summary>');
    expect(body).toContain('- container web of pods web-7d9c-fghij, web-7d9c-klmno: the same');
  });

  it('says the message in the details when the table cuts it short', () => {
    const message = `a message longer than a table cell: ${'x'.repeat(300)} the end`;
    const body = renderPrComment({ result: result([failed('web', { message })]), waitFor: { kind: 'ready' }, run });
    expect(body).toContain('x the end');
  });

  it('cannot mention people from cluster text, and a log with backticks cannot close its block', () => {
    const body = renderPrComment({
      result: result([
        failed('web', { message: 'ping @octocat and @org/team', diagnosis: imagePullDiagnosis(), ...withLog('web-1', 'web', '```\npanic: boom\n') }),
      ]),
      waitFor: { kind: 'ready' },
      run,
    });
    expect(body).not.toMatch(/@(octocat|org)/);
    expect(body).toContain('````text\n```\npanic: boom\n````');
  });
});

describe('the comment body`s smoke checks', () => {
  const run = PR_RUN;
  const checks = [
    { name: 'https://staging.example.com/healthz', ok: true, status: 200, attempts: 3, latencyMs: 12, body: '{"status":"ok"}' },
    {
      name: 'service shop/web:http/readyz',
      ok: false,
      status: 200,
      attempts: 9,
      latencyMs: 4,
      body: 'ping @octocat: <b>down</b>',
      reason: 'the body is not JSON, so jsonpath {.status} cannot be read',
    },
  ];

  it('has the job summary`s "Smoke checks" section: each check`s name, result, status, attempts and latency', () => {
    const body = renderPrComment({ result: result([ready('web')], { outcome: 'failed', smoke: checks }), waitFor: { kind: 'ready' }, run });
    const section = body.slice(body.indexOf('### Smoke checks'));
    expect(section.split('\n').slice(0, 6)).toEqual([
      '### Smoke checks',
      '',
      '| Check | Result | Last status | Attempts | Latency | Last body |',
      '| --- | --- | --- | --- | --- | --- |',
      '| service shop/web:http/readyz | **did not pass**: the body is not JSON, so jsonpath {.status} cannot be read | 200 | 9 | 4 ms | ping @\u200boctocat: &lt;b&gt;down&lt;/b&gt; |',
      '| https://staging.example.com/healthz | passed | 200 | 3 | 12 ms |   |',
    ]);
    expect(body).not.toMatch(/@octocat/);
  });

  it('has no section without checks', () => {
    expect(renderPrComment({ result: result([ready('web')]), waitFor: { kind: 'ready' }, run })).not.toContain('Smoke checks');
  });

  it('stays within the limit with many checks, the ones that did not pass first, and says how many are not listed', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ ...checks[1]!, name: `https://example.com/${i}/${'p'.repeat(100)}`, body: 'x'.repeat(1024) }));
    const input = { result: result([ready('web')], { outcome: 'failed' as const, smoke: [checks[0]!, ...many] }), waitFor: { kind: 'ready' as const }, run };
    const body = renderPrComment(input);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMITS.maxChars);
    expect(body).toContain('| https://example.com/0/');
    expect(body).not.toContain('staging.example.com/healthz');
    expect(body).toContain(`_${2_001 - COMMENT_LIMITS.rows} more checks are not listed here: the job summary lists every check._`);

    const limits = { ...COMMENT_LIMITS, maxChars: 12_000 };
    const shortened = renderPrComment(input, limits);
    expect(shortened.length).toBeLessThanOrEqual(limits.maxChars);
    expect(shortened).toContain('### Smoke checks');
    expect(shortened).toContain('(everything, this comment is shortened)');
  });
});

describe('the comment body of several clusters', () => {
  const run = PR_RUN;
  const waitFor = { kind: 'ready' } as const;
  const cluster = (name: string, targets: TargetReport[], error?: { input: string; message: string }): ClusterRun => ({
    name,
    server: `https://${name}.example.com`,
    context: `${name}-ctx`,
    result: result(targets, error ? { outcome: 'failed', error } : {}),
  });
  const rejected = { input: 'kubeconfig', message: 'the API server rejected the credentials (401 Unauthorized)' };
  // In the order of the `clusters` input: the ready one first.
  const fleet = () =>
    combineClusterRuns(
      [
        cluster('eu-west', [ready('api')]),
        cluster('us-east', [failed('api', { message: 'ImagePullBackOff: Back-off pulling image "api:v2"', diagnosis: imagePullDiagnosis('api', 'api:v2') })]),
        cluster('ap-south', [pending('api', { status: 'Unknown', message: 'not checked' })], rejected),
      ],
      'all',
      false,
    );

  it('has the step`s headline and the headline counts of each cluster, in the order of the input', () => {
    const body = renderPrComment({ result: fleet(), waitFor, run });

    expect(body.startsWith(`${commentMarker(run)}\n`)).toBe(true);
    expect(body).toMatch(/^## ❌ kubewait: stopped: a problem with input `kubeconfig` · 1 of 3 clusters ready$/m);
    expect(body).toContain('> [!CAUTION]\n> Input &quot;kubeconfig&quot;: \\[ap-south\\] the API server rejected the credentials');
    const rows = body.split('\n').filter((line) => /^\| `[a-z-]+` \|/.test(line));
    expect(rows).toEqual([
      '| `eu-west` | ✅ ready | 1 of 1 | 0 | `eu-west-ctx` |',
      '| `us-east` | ❌ failed | 0 of 1 | 1 | `us-east-ctx` |',
      '| `ap-south` | ❌ error | 0 of 1 | 0 | `ap-south-ctx` |',
    ]);
  });

  it('has one section per cluster, the failures first, each with its own targets and its own first failure', () => {
    const body = renderPrComment({ result: fleet(), waitFor, run });

    const headings = body.split('\n').filter((line) => /^## \S+ `/.test(line));
    expect(headings).toEqual([
      '## ❌ `ap-south`: stopped: a problem with input `kubeconfig`',
      '## ❌ `us-east`: 1 of 1 target failed',
      '## ✅ `eu-west`: 1 of 1 target ready',
    ]);
    const section = (name: string) => body.split(/^## /m).find((part) => part.includes(`\`${name}\`:`)) ?? '';
    expect(section('us-east')).toContain('| Deployment/api | shop | ❌ Failed | ImagePullBackOff: Back-off pulling image &quot;api:v2&quot; |');
    expect(section('us-east')).toContain('<summary>❌ <b>Deployment shop/api</b> Failed</summary>');
    expect(section('ap-south')).toContain('> [!CAUTION]\n> Input &quot;kubeconfig&quot;: the API server rejected the credentials');
    expect(section('eu-west')).toContain('| Deployment/api | shop | ✅ Current |');
    expect(section('eu-west') + section('ap-south')).not.toContain('Back-off'); // us-east's failure in us-east's section only
  });

  it('groups the clusters as the job summary does', () => {
    const headings = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('## '));

    expect(headings(renderPrComment({ result: fleet(), waitFor, run }))).toEqual(headings(renderSummary(fleet(), { server: '', context: '', waitFor })));
  });

  it('keeps each cluster within its share of the limit, so a long cluster cannot push the others out', () => {
    const many = Array.from({ length: 300 }, (_, i) => failed(`api-${i}`, { message: `a long message ${'x'.repeat(150)}` }));
    const limits = { ...COMMENT_LIMITS, maxChars: 12_000 };
    const result_ = combineClusterRuns([cluster('eu-west', [ready('api')]), cluster('us-east', many)], 'all', false);

    const body = renderPrComment({ result: result_, waitFor, run }, limits);

    expect(body.length).toBeLessThanOrEqual(limits.maxChars);
    expect(body).toContain('## ✅ `eu-west`: 1 of 1 target ready');
    expect(body).toMatch(/more targets that are not ready are not listed here/);
    expect(body).toContain('(everything, this comment is shortened)');
  });
});

describe('Deployment wording', () => {
  it.each([
    ['a ready wait', result([ready('web')]), 'success', 'kubewait: 1 of 1 target ready in 42.4s'],
    ['a failed wait', result([failed('web')]), 'failure', 'kubewait: 1 of 1 target failed in 42.4s'],
    ['a timed-out wait', result([pending('web')], { outcome: 'timeout' }), 'failure', 'kubewait: timed out with 1 of 1 target not ready in 42.4s'],
    ['a cancelled wait', result([pending('web')], { cancelled: true }), 'error', 'kubewait: cancelled with 0 of 1 target ready in 42.4s'],
    [
      'a bad input',
      result([pending('web')], { outcome: 'failed', error: { input: 'resources', message: 'x' } }),
      'error',
      'kubewait: stopped: a problem with input resources in 42.4s',
    ],
  ])('%s', (_name, wait, state, text) => {
    expect(deploymentState(wait)).toBe(state);
    expect(deploymentDescription(wait, { kind: 'ready' })).toBe(text);
  });
  it('says how a rollback after the failure ended, the state still the failure', () => {
    const rollback = { result: 'ready' as const, workloads: [], durationSeconds: 12 };
    const wait = result([failed('web')], { rollback });
    expect(deploymentState(wait)).toBe('failure');
    expect(deploymentDescription(wait, { kind: 'ready' })).toBe('kubewait: 1 of 1 target failed in 42.4s; rollback: rolled back, ready again');
    expect(deploymentDescription(result([failed('web')], { rollback: { ...rollback, result: 'refused' } }), { kind: 'ready' })).toBe(
      'kubewait: 1 of 1 target failed in 42.4s; rollback: refused',
    );
  });
  it('keeps the description within 140 characters', () => {
    const wait = result([pending('web')], { outcome: 'failed', error: { input: 'x'.repeat(300), message: 'x' } });
    expect(deploymentDescription(wait, { kind: 'ready' }).length).toBe(140);
  });
});
