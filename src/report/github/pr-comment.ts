/**
 * The sticky pull-request comment: find the pull request, find this job's comment by its hidden marker,
 * update it in place or create it. REST only (issue comments list/create/update, a commit's pull requests).
 */
import { httpFailure, type GitHubClient } from './client.js';
import { commentMarker, renderPrComment, type CommentInput } from './comment-body.js';
import type { PrCommentMode } from '../../settings.js';
import { publicResult } from '../outputs.js';
import type { GitHubRunContext } from './run-context.js';

export interface PrCommentOutcome {
  /** What happened, for one log line. */
  notice?: string;
  /** The comment's html_url, when one was written. */
  url?: string;
  action: 'created' | 'updated' | 'skipped';
}

/** The pull request to comment on: the event's, else the open one whose head is the commit. */
async function pullRequestNumber(client: GitHubClient, run: GitHubRunContext): Promise<number | undefined> {
  if (run.pullRequest) return run.pullRequest.number;
  if (!run.sha) return undefined;
  const { data } = await client.rest.repos.listPullRequestsAssociatedWithCommit({ owner: run.owner, repo: run.repo, commit_sha: run.sha, per_page: 100 });
  return data.find((pr) => pr.state === 'open')?.number;
}

/** This job's earlier comment: the first whose body starts with the marker (a quote of it starts with `>`). */
async function findComment(client: GitHubClient, run: GitHubRunContext, issueNumber: number, marker: string): Promise<number | undefined> {
  let found: number | undefined;
  await client.paginate(client.rest.issues.listComments, { owner: run.owner, repo: run.repo, issue_number: issueNumber, per_page: 100 }, (response, done) => {
    const match = response.data.find((c) => (c.body ?? '').startsWith(marker));
    if (match) {
      found = match.id;
      done();
    }
    return [];
  });
  return found;
}

/**
 * Posts or updates the comment. With `on-failure`, a successful wait posts nothing, but an earlier comment
 * of this job (from a failed run) is updated, so the PR never keeps showing a stale failure.
 */
export async function upsertPrComment(client: GitHubClient, mode: PrCommentMode, input: CommentInput): Promise<PrCommentOutcome> {
  const { run, result } = input;
  if (mode === 'off') return { action: 'skipped' };
  const success = publicResult(result) === 'ready';
  const number = await pullRequestNumber(client, run);
  if (number === undefined) {
    return {
      action: 'skipped',
      notice: `kubewait: no open pull request has commit ${run.sha.slice(0, 7) || '(unknown)'} as its head, so there is no pull-request comment.`,
    };
  }
  const marker = commentMarker(run);
  const existing = await findComment(client, run, number, marker);
  if (mode === 'on-failure' && success && existing === undefined) return { action: 'skipped' };
  const body = renderPrComment(input);
  if (existing !== undefined) {
    try {
      const { data } = await client.rest.issues.updateComment({ owner: run.owner, repo: run.repo, comment_id: existing, body });
      return { action: 'updated', url: data.html_url, notice: `kubewait: updated the pull-request comment ${data.html_url}` };
    } catch (error) {
      // Deleted since we listed it: write a new one.
      if (httpFailure(error)?.status !== 404) throw error;
    }
  }
  const { data } = await client.rest.issues.createComment({ owner: run.owner, repo: run.repo, issue_number: number, body });
  return { action: 'created', url: data.html_url, notice: `kubewait: posted the pull-request comment ${data.html_url}` };
}
