/**
 * Where the GitHub reports go: the run's repository, commit, pull request, job and matrix entry, read once
 * from the runner's environment and event payload (runner-context.ts) into a plain value the reporters
 * take, so that they can be tested with any context.
 */
import { createHash } from 'node:crypto';
import { runUrl, type RunInfo } from '../summary.js';
import { runnerContext, type ContextSource } from './runner-context.js';

export type { ContextSource } from './runner-context.js';

export interface GitHubRunContext {
  eventName: string;
  owner: string;
  repo: string;
  /** The commit the reports are about: a pull request's head, a workflow_run's head, else GITHUB_SHA. */
  sha: string;
  /** The pull request the event names, if any (else the reporter looks the commit's open one up). */
  pullRequest?: { number: number; headRepo?: string };
  serverUrl: string;
  apiUrl: string;
  runId?: number;
  runAttempt?: number;
  workflow: string;
  /** `GITHUB_JOB`: the job's id in the workflow. */
  job: string;
  /** The job's matrix entry as `toJSON(matrix)`; '' or 'null' without a matrix. */
  matrix: string;
  /** The job's numeric id (`job.check_run_id`), when known: links point at the job, and the job's own
   *  `environment:` Deployment is told apart from its sibling jobs'. */
  jobId?: number;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function pullFrom(value: unknown): { number: number; headRepo?: string; headSha?: string } | undefined {
  const pr = record(value);
  if (!pr || typeof pr.number !== 'number') return undefined;
  const head = record(pr.head);
  const headRepo = record(head?.repo)?.full_name;
  const headSha = head?.sha;
  return {
    number: pr.number,
    ...(typeof headRepo === 'string' && { headRepo }),
    ...(typeof headSha === 'string' && { headSha }),
  };
}

/**
 * The run context from the runner's environment. The environment carries neither the matrix entry nor the
 * job's numeric id: `extra.matrix` is the action's `report-matrix` input (default `${{ toJSON(matrix) }}`)
 * and `extra.jobId` its `report-job-id` input (default `${{ job.check_run_id }}`; '' on older GHES).
 */
export function gitHubRunContext(extra: { matrix?: string; jobId?: string | number } = {}, source: ContextSource = runnerContext()): GitHubRunContext {
  let owner = '';
  let repo = '';
  try {
    ({ owner, repo } = source.repo);
  } catch {
    // Outside a workflow run (no GITHUB_REPOSITORY): the reporters then say they have nowhere to report.
  }
  const payload = record(source.payload) ?? {};
  const workflowRun = record(payload.workflow_run);
  // pull_request and pull_request_target carry the PR; workflow_run carries the PRs of the run it follows
  // (empty for a fork's PR: then the head commit is looked up like a push).
  const pull = pullFrom(payload.pull_request) ?? (Array.isArray(workflowRun?.pull_requests) ? pullFrom(workflowRun.pull_requests[0]) : undefined);
  const workflowRunSha = typeof workflowRun?.head_sha === 'string' ? workflowRun.head_sha : undefined;
  const sha = pull?.headSha ?? workflowRunSha ?? source.sha ?? '';
  const context: GitHubRunContext = {
    eventName: source.eventName ?? '',
    owner,
    repo,
    sha,
    serverUrl: source.serverUrl || 'https://github.com',
    apiUrl: source.apiUrl || 'https://api.github.com',
    workflow: source.workflow ?? '',
    job: source.job ?? '',
    matrix: extra.matrix ?? '',
  };
  if (pull) context.pullRequest = { number: pull.number, ...(pull.headRepo !== undefined && { headRepo: pull.headRepo }) };
  if (Number.isFinite(source.runId) && source.runId > 0) context.runId = source.runId;
  if (Number.isFinite(source.runAttempt) && source.runAttempt > 0) context.runAttempt = source.runAttempt;
  const jobId = Number(extra.jobId);
  if (Number.isSafeInteger(jobId) && jobId > 0) context.jobId = jobId;
  return context;
}

/**
 * `report-job-id` and `report-matrix` as the reports can use them. The runner fills them in from their defaults
 * (`${{ job.check_run_id }}`, `${{ toJSON(matrix) }}`); a runner that does not expand those passes the literal
 * text. Such a value is left out, with one warning naming the input: a helper of the reports never changes the
 * wait's result.
 */
export function reportHelpers(inputs: { matrix: string; jobId: string }): { matrix: string; jobId: string; warnings: string[] } {
  const warnings: string[] = [];
  const jobId = inputs.jobId.trim();
  const validJobId = jobId === '' || /^[1-9]\d*$/.test(jobId);
  if (!validJobId) {
    warnings.push(
      `kubewait: input "report-job-id" is "${jobId}": expected the job's numeric check-run id, as its default \${{ job.check_run_id }} gives; reporting without it, so links point at the run instead of the job. The wait's result is not affected.`,
    );
  }
  const matrix = inputs.matrix.trim();
  const validMatrix = isJson(matrix);
  if (!validMatrix) {
    warnings.push(
      `kubewait: input "report-matrix" is "${matrix}": expected the job's matrix entry as JSON, as its default \${{ toJSON(matrix) }} gives; reporting without it, so this job's matrix entries share one pull-request comment. The wait's result is not affected.`,
    );
  }
  return { matrix: validMatrix ? matrix : '', jobId: validJobId ? jobId : '', warnings };
}

/** '' (no matrix) or a JSON text. */
function isJson(text: string): boolean {
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The matrix entry in a canonical form (keys sorted), '' for none, so formatting never splits one comment in two. */
export function canonicalMatrix(matrix: string): string {
  const text = matrix.trim();
  if (text === '' || text === 'null' || text === '{}') return '';
  try {
    const value: unknown = JSON.parse(text);
    if (value === null) return '';
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : record(v)
          ? Object.fromEntries(
              Object.keys(v as object)
                .sort()
                .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
            )
          : v;
    const canonical = JSON.stringify(sorted(value));
    return canonical === '{}' ? '' : canonical;
  } catch {
    return text;
  }
}

/** `os=linux, k8s=1.35` for a matrix entry, as shown to people. */
export function matrixLabel(matrix: string): string {
  const canonical = canonicalMatrix(matrix);
  if (!canonical) return '';
  try {
    const value = record(JSON.parse(canonical));
    if (value)
      return Object.entries(value)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', ');
  } catch {
    // not JSON: shown as given
  }
  return canonical;
}

/** Tells this job's (and matrix entry's) reports apart from every other job's in the same repository. */
export function reportKey(run: Pick<GitHubRunContext, 'workflow' | 'job' | 'matrix'>): string {
  return createHash('sha256')
    .update(`${run.workflow}\n${run.job}\n${canonicalMatrix(run.matrix)}`)
    .digest('hex')
    .slice(0, 16);
}

/** The summary's RunInfo for this run: links are built in one place (`runUrl`). */
function runInfo(run: GitHubRunContext): RunInfo {
  const info: RunInfo = { serverUrl: run.serverUrl, repository: `${run.owner}/${run.repo}`, sha: run.sha };
  if (run.runId !== undefined) info.runId = run.runId;
  if (run.runAttempt !== undefined) info.runAttempt = run.runAttempt;
  return info;
}

/** Where the run (and, when its id is known, the job) lives on GitHub; undefined outside a run. */
export function runLink(run: GitHubRunContext): string | undefined {
  if (!run.owner) return undefined;
  const url = runUrl(runInfo(run));
  if (!url || !run.jobId || !run.runId) return url;
  return `${run.serverUrl}/${run.owner}/${run.repo}/actions/runs/${run.runId}/job/${run.jobId}`;
}

/** The job summaries are shown on the run's page; with the job id, at the job's own summary. */
export function summaryLink(run: GitHubRunContext): string | undefined {
  if (!run.owner) return undefined;
  const url = runUrl(runInfo(run));
  return url && run.jobId ? `${url}#summary-${run.jobId}` : url;
}
