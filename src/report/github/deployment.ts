/**
 * GitHub Deployment statuses: a Deployment for the commit and `deployment-environment`, `in_progress` when
 * the wait starts, `success` / `failure` / `error` when it ends. A job with `environment:` already has a
 * Deployment that GitHub made and will finish itself; then kubewait makes none (see `findJobDeployment`).
 */
import { shownText } from '../shown-text.js';
import type { Result, RunResult } from '../../result.js';
import type { WaitFor } from '../../settings.js';
import { publicResult } from '../outputs.js';
import { headline } from '../summary.js';
import { formatSeconds, truncate, waitForInput } from '../text.js';
import type { GitHubClient } from './client.js';
import { reportKey, runLink, type GitHubRunContext } from './run-context.js';

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error';

/** GitHub refuses a longer deployment status description. */
export const MAX_DESCRIPTION_CHARS = 140;

export interface DeploymentTarget {
  environment: string;
  /** The environment's URL (`deployment-url`), shown on the Deployments page; '' for none. */
  url: string;
}

export interface DeploymentStarted {
  id?: number;
  /** Set when the job's own `environment:` Deployment was found: kubewait then posts no statuses. */
  jobDeploymentId?: number;
  notice?: string;
}

/**
 * The Deployment GitHub made for this job's `environment:`, if any. The runner does not tell a step its
 * job's environment, so this asks the API: a Deployment for the commit and environment whose status links
 * this job (GitHub's own statuses carry `.../actions/runs/{run_id}/job/{job_id}` as `log_url`). Without the
 * job id, any job of this run counts: another job of the run deploying there would be a duplicate as well.
 */
export async function findJobDeployment(client: GitHubClient, run: GitHubRunContext, environment: string): Promise<number | undefined> {
  if (!run.runId) return undefined;
  const runPath = `/actions/runs/${run.runId}`;
  const jobPath = `${runPath}/job/${run.jobId ?? ''}`;
  const links = (url: string | null | undefined) => {
    if (typeof url !== 'string') return false;
    const path = url.replace(/[?#].*$/, '');
    return run.jobId ? path.endsWith(jobPath) : path.includes(`${runPath}/`) || path.endsWith(runPath);
  };
  const { data: deployments } = await client.rest.repos.listDeployments({ owner: run.owner, repo: run.repo, sha: run.sha, environment, per_page: 10 });
  for (const deployment of deployments.slice(0, 5)) {
    const { data: statuses } = await client.rest.repos.listDeploymentStatuses({ owner: run.owner, repo: run.repo, deployment_id: deployment.id, per_page: 10 });
    if (statuses.some((s) => links(s.log_url) || links(s.target_url))) return deployment.id;
  }
  return undefined;
}

function description(text: string): string {
  return truncate(shownText(text).replace(/\s+/g, ' ').trim(), MAX_DESCRIPTION_CHARS);
}

async function postStatus(
  client: GitHubClient,
  run: GitHubRunContext,
  id: number,
  target: DeploymentTarget,
  state: DeploymentState,
  text: string,
): Promise<void> {
  const logUrl = runLink(run);
  await client.rest.repos.createDeploymentStatus({
    owner: run.owner,
    repo: run.repo,
    deployment_id: id,
    state,
    description: description(text),
    environment: target.environment,
    ...(logUrl && { log_url: logUrl }),
    ...(target.url && { environment_url: target.url }),
  });
}

/** Creates the Deployment and posts `in_progress`, unless the job's own `environment:` made one. */
export async function startDeployment(
  client: GitHubClient,
  run: GitHubRunContext,
  target: DeploymentTarget,
  waitFor: WaitFor | undefined,
): Promise<DeploymentStarted> {
  const jobDeploymentId = await findJobDeployment(client, run, target.environment);
  if (jobDeploymentId !== undefined) {
    return {
      jobDeploymentId,
      notice:
        `kubewait: this job already deploys to environment "${target.environment}" (its \`environment:\` made Deployment ${jobDeploymentId}, ` +
        'whose status GitHub sets when the job ends), so kubewait creates no second Deployment. The job summary and the step result carry the verdict.',
    };
  }
  const created = await client.rest.repos.createDeployment({
    owner: run.owner,
    repo: run.repo,
    ref: run.sha,
    environment: target.environment,
    auto_merge: false,
    required_contexts: [],
    task: 'deploy',
    description: description(`kubewait: ${run.job || 'wait'}`),
    payload: { kubewait: { job: run.job, key: reportKey(run) } },
  });
  // 202 is GitHub's "merged the default branch first" answer, only possible with auto_merge, which is off.
  if (created.status !== 201 || !('id' in created.data))
    throw new Error(`GitHub did not create the Deployment (${created.status}: ${JSON.stringify(created.data).slice(0, 200)})`);
  const id = created.data.id;
  await postStatus(client, run, id, target, 'in_progress', `kubewait: waiting for ${waitFor ? waitForInput(waitFor) : 'the targets'}`);
  return { id, notice: `kubewait: Deployment ${id} to environment "${target.environment}" is in progress` };
}

/** The `result` output as a Deployment state: `error` when kubewait could not judge (bad input, cluster
 *  unreachable) or was cancelled before it knew; GitHub has no state for "cancelled". */
const STATE: Record<Result, Exclude<DeploymentState, 'in_progress'>> = {
  ready: 'success',
  failed: 'failure',
  timeout: 'failure',
  error: 'error',
  cancelled: 'error',
};

export function deploymentState(result: RunResult): Exclude<DeploymentState, 'in_progress'> {
  return STATE[publicResult(result)];
}

/** The headline without its markdown, e.g. `kubewait: 3 of 3 targets ready`. */
export function deploymentDescription(result: RunResult, waitFor: WaitFor): string {
  const text = headline(result, waitFor)
    .replace(/^#+\s*/, '')
    .replace(/^\S+\s+(?=kubewait:)/u, '')
    .replace(/`+/g, '');
  const rollback = result.rollback && result.rollback.result !== 'none' ? `; rollback: ${ROLLBACK_WORDS[result.rollback.result]}` : '';
  return description(`${text} in ${formatSeconds(result.durationSeconds)}${rollback}`);
}

/** The rollback after a failed wait, in the few words a Deployment status has room for. */
const ROLLBACK_WORDS: Record<NonNullable<RunResult['rollback']>['result'], string> = {
  ready: 'rolled back, ready again',
  failed: 'rolled back, not ready',
  timeout: 'rolled back, not ready in time',
  refused: 'refused',
  none: 'nothing to roll back',
};

export async function finishDeployment(
  client: GitHubClient,
  run: GitHubRunContext,
  id: number,
  target: DeploymentTarget,
  result: RunResult,
  waitFor: WaitFor,
): Promise<DeploymentState> {
  const state = deploymentState(result);
  await postStatus(client, run, id, target, state, deploymentDescription(result, waitFor));
  return state;
}
