/**
 * One warning per reporting failure: what could not be done, why (as GitHub said it), the permission the
 * report needs and the fork pattern. Never the token, never a stack; the wait's result is not touched.
 */
import { BudgetExceededError, httpFailure, rateLimitWaitMs, RequestTimeoutError } from './client.js';
import type { GitHubRunContext } from './run-context.js';

export type Permission = 'pull-requests: write' | 'deployments: write';

export const DOCS_PATH = 'docs/github-reporting.md';

function cause(error: unknown, nowMs: number): { text: string; refused: boolean } {
  if (error instanceof RequestTimeoutError) return { text: `the GitHub API gave ${error.message}`, refused: false };
  if (error instanceof BudgetExceededError) return { text: error.message, refused: false };
  const failure = httpFailure(error);
  if (!failure) return { text: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), refused: false };
  const said = (failure.apiMessage ?? failure.message.replace(/ - https:\/\/docs\.github\.com\S*$/, '')).replace(/\.$/, '');
  const wait = rateLimitWaitMs(failure, nowMs);
  if (wait !== undefined) {
    const when = Number.isFinite(wait) ? ` (GitHub asks to wait ${Math.ceil(wait / 1000)}s)` : '';
    return { text: `the GitHub API rate limit was hit${when}: ${failure.status} ${said}`, refused: false };
  }
  if (!failure.answered) return { text: `the GitHub API could not be reached (${said}) after ${failure.attempts} attempts`, refused: false };
  if (failure.status >= 500)
    return { text: `the GitHub API answered ${failure.status} ${said} ${failure.attempts} ${failure.attempts === 1 ? 'time' : 'times'}`, refused: false };
  if (failure.status === 401) return { text: `GitHub rejected the \`github-token\` (401 ${said})`, refused: true };
  return { text: `GitHub answered ${failure.status} ${said}`, refused: failure.status === 403 || failure.status === 404 };
}

function isFork(run: GitHubRunContext): boolean {
  const head = run.pullRequest?.headRepo;
  return head !== undefined && head.toLowerCase() !== `${run.owner}/${run.repo}`.toLowerCase();
}

/**
 * `kubewait: could not post the pull-request comment: GitHub answered 403 Resource not accessible by integration.
 * It needs `pull-requests: write` ...`
 */
export function reportingWarning(what: string, permission: Permission, error: unknown, run: GitHubRunContext, nowMs = Date.now()): string {
  const { text, refused } = cause(error, nowMs);
  const fork = isFork(run) && run.eventName === 'pull_request';
  const forkHint = fork
    ? `This run is a pull_request from the fork ${run.pullRequest?.headRepo ?? ''}, whose GITHUB_TOKEN is read-only whatever \`permissions:\` says: report from a \`pull_request_target\` or \`workflow_run\` workflow instead (see ${DOCS_PATH}).`
    : `A pull_request from a fork only gets a read-only token: there, report from a \`pull_request_target\` or \`workflow_run\` workflow (see ${DOCS_PATH}).`;
  const permissionHint = refused
    ? `The token needs \`${permission}\`: add \`permissions:\` with \`${permission}\` to the job.`
    : `(This report needs \`${permission}\`.)`;
  return `kubewait: could not ${what}: ${text}. ${permissionHint} ${forkHint} The wait's result is not affected.`;
}
