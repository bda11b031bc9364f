/**
 * Reporting back to GitHub: the sticky pull-request comment and the Deployment status. The action's shell
 * makes one call as the wait starts (`startGitHubReports`, which runs beside it) and one after the report
 * (`finish`), or one after a setup
 * failure (`reportSetupFailureToGitHub`). Nothing here throws: every failure comes back as one warning, and
 * the wait's result and exit code are the caller's alone. The shells log through their `ReportWriter`;
 * `startDeploymentReport` and `finishGitHubReports` are the same steps returning their messages instead
 * (the tests call them).
 */
import type { RunResult } from '../../result.js';
import type { InputProblem, Settings, WaitFor } from '../../settings.js';
import type { ReportWriter } from '../writer.js';
import { CLIENT_DEFAULTS, createGitHubClient, type ClientOptions, type GitHubClient } from './client.js';
import { finishDeployment, startDeployment, type DeploymentStarted, type DeploymentTarget } from './deployment.js';
import { upsertPrComment } from './pr-comment.js';
import { gitHubRunContext, reportHelpers, type GitHubRunContext } from './run-context.js';
import { reportingWarning } from './warnings.js';

export { gitHubRunContext, type GitHubRunContext } from './run-context.js';
export { renderPrComment, MAX_COMMENT_CHARS, type LogTail } from './comment-body.js';

/** The part of the run's settings the GitHub reports act on. */
export type GitHubReportSettings = Pick<
  Settings,
  'prComment' | 'githubToken' | 'deploymentEnvironment' | 'deploymentUrl' | 'reportMatrix' | 'reportJobId' | 'waitFor'
>;

/** What the reporters themselves read; where the run lives comes as `run`. */
export type ReporterSettings = Pick<GitHubReportSettings, 'prComment' | 'githubToken' | 'deploymentEnvironment' | 'deploymentUrl'>;

export interface GitHubReportOptions {
  settings: ReporterSettings;
  run: GitHubRunContext;
  /** The writer's `setSecret`: the token is masked before any request. */
  mask?: (secret: string) => void;
  /** Timeouts, retries and budget of the client (defaults: CLIENT_DEFAULTS); tests shorten them. */
  client?: Partial<Omit<ClientOptions, 'token' | 'apiUrl' | 'mask'>>;
}

export interface GitHubReportMessages {
  /** One per failed report, for the log's `warning`. */
  warnings: string[];
  /** What was done or skipped, for the log's `info`. */
  notices: string[];
}

/** What `startDeploymentReport` hands to `finishGitHubReports`. */
export interface DeploymentReport extends GitHubReportMessages {
  /** The Deployment kubewait created, when it did. */
  deploymentId?: number;
  /** True once the start was attempted (also when it failed or was skipped): the finish does not retry it. */
  attempted: boolean;
}

export interface GitHubReportResult extends GitHubReportMessages {
  commentUrl?: string;
  deploymentId?: number;
}

/** Reporting's time once the verdict is known (the outputs and the job summary are written before): a GitHub
 *  API that answers slowly or never must not hold the step's end, and so its result, for long (it held a
 *  Deployment Available from the start for 34 s). After a cancellation it is also what fits between the
 *  runner's SIGINT and its SIGTERM 7.5 s later. A healthy API answers both reports in a second or two. */
const REPORTING_GRACE_MS = 5_000;

function wanted(settings: ReporterSettings): { comment: boolean; deployment: boolean } {
  return { comment: settings.prComment !== 'off', deployment: settings.deploymentEnvironment !== '' };
}

/** Tokens already registered per mask function: one `::add-mask::` per token, however many clients. */
const maskedBy = new WeakMap<(secret: string) => void, Set<string>>();

function maskOnce(mask: ((secret: string) => void) | undefined): ((secret: string) => void) | undefined {
  if (!mask) return undefined;
  return (secret) => {
    const done = maskedBy.get(mask) ?? new Set<string>();
    maskedBy.set(mask, done);
    if (done.has(secret)) return;
    done.add(secret);
    mask(secret);
  };
}

/** The client, or the one warning that says why there is none. */
async function clientFor(options: GitHubReportOptions, what: string): Promise<{ client: GitHubClient } | { warning: string }> {
  const { settings, run } = options;
  if (!run.owner || !run.repo)
    return { warning: `kubewait: could not ${what}: GITHUB_REPOSITORY is not set (not a GitHub Actions run?). The wait's result is not affected.` };
  if (!settings.githubToken) {
    return {
      warning: `kubewait: could not ${what}: input "github-token" is empty; its default is \${{ github.token }}, like github-token: \${{ secrets.GITHUB_TOKEN }}. The wait's result is not affected.`,
    };
  }
  return {
    client: await createGitHubClient({ ...CLIENT_DEFAULTS, ...options.client, token: settings.githubToken, apiUrl: run.apiUrl, mask: maskOnce(options.mask) }),
  };
}

function deploymentTarget(settings: ReporterSettings): DeploymentTarget {
  return { environment: settings.deploymentEnvironment, url: settings.deploymentUrl };
}

/**
 * Call before the wait: creates the Deployment and posts `in_progress` (when `deployment-environment` is
 * set and the job has no `environment:` of its own). Resolves, never rejects.
 */
export async function startDeploymentReport(options: GitHubReportOptions & { waitFor?: WaitFor }): Promise<DeploymentReport> {
  const report: DeploymentReport = { warnings: [], notices: [], attempted: false };
  if (!wanted(options.settings).deployment) return report;
  report.attempted = true;
  const what = `create the Deployment for environment "${options.settings.deploymentEnvironment}"`;
  const made = await clientFor(options, what);
  if ('warning' in made) {
    report.warnings.push(made.warning);
    return report;
  }
  try {
    const started: DeploymentStarted = await startDeployment(made.client, options.run, deploymentTarget(options.settings), options.waitFor);
    if (started.id !== undefined) report.deploymentId = started.id;
    if (started.notice) report.notices.push(started.notice);
  } catch (error) {
    report.warnings.push(reportingWarning(what, 'deployments: write', error, options.run));
  }
  return report;
}

/**
 * Call after the wait (and after the job summary): updates the pull-request comment and posts the final
 * Deployment status. Without a `deployment` from `startDeploymentReport`, it makes the Deployment now.
 * Returns the warnings and notices of this call only; resolves, never rejects.
 */
export async function finishGitHubReports(
  result: RunResult,
  options: GitHubReportOptions & {
    waitFor: WaitFor;
    deployment?: DeploymentReport;
  },
): Promise<GitHubReportResult> {
  const out: GitHubReportResult = { warnings: [], notices: [] };
  const want = wanted(options.settings);
  if (!want.comment && !want.deployment) return out;
  // The verdict is known: report quickly or not at all (and a cancelled job is killed a few seconds after its
  // first signal).
  const budgetMs = Math.min(options.client?.budgetMs ?? CLIENT_DEFAULTS.budgetMs, REPORTING_GRACE_MS);
  options = { ...options, client: { ...options.client, budgetMs } };

  if (want.deployment) {
    let deployment = options.deployment;
    if (!deployment?.attempted) {
      deployment = await startDeploymentReport(options);
      out.warnings.push(...deployment.warnings);
      out.notices.push(...deployment.notices);
    }
    if (deployment.deploymentId !== undefined) {
      const what = `post the final status of Deployment ${deployment.deploymentId}`;
      const made = await clientFor(options, what);
      if ('warning' in made) out.warnings.push(made.warning);
      else {
        try {
          const state = await finishDeployment(made.client, options.run, deployment.deploymentId, deploymentTarget(options.settings), result, options.waitFor);
          out.deploymentId = deployment.deploymentId;
          out.notices.push(`kubewait: Deployment ${deployment.deploymentId} to environment "${options.settings.deploymentEnvironment}" is now ${state}`);
        } catch (error) {
          out.warnings.push(reportingWarning(what, 'deployments: write', error, options.run));
        }
      }
    }
  }

  if (want.comment) {
    const what = 'update the pull-request comment';
    const made = await clientFor(options, what);
    if ('warning' in made) out.warnings.push(made.warning);
    else {
      try {
        const comment = await upsertPrComment(made.client, options.settings.prComment, {
          result,
          waitFor: options.waitFor,
          run: options.run,
        });
        if (comment.url) out.commentUrl = comment.url;
        if (comment.notice) out.notices.push(comment.notice);
      } catch (error) {
        out.warnings.push(reportingWarning(what, 'pull-requests: write', error, options.run));
      }
    }
  }
  return out;
}

/** Where the shell logs: its `ReportWriter`. */
export type GitHubReportLog = Pick<ReportWriter, 'info' | 'warning' | 'setSecret'>;

/** The reports started beside the wait; `finish` after the outputs and the job summary are written. */
export interface GitHubReports {
  finish(result: RunResult): Promise<void>;
}

/** The options of both calls; a `report-job-id` or `report-matrix` the reports cannot use is one warning,
 *  said when there is a report to make. */
function shellOptions(settings: GitHubReportSettings, log: GitHubReportLog): GitHubReportOptions & { waitFor: WaitFor } {
  const helpers = reportHelpers({ matrix: settings.reportMatrix, jobId: settings.reportJobId });
  const want = wanted(settings);
  if (want.comment || want.deployment) for (const warning of helpers.warnings) log.warning(warning);
  return {
    settings,
    waitFor: settings.waitFor,
    run: gitHubRunContext({ matrix: helpers.matrix, jobId: helpers.jobId }),
    mask: (secret) => log.setSecret(secret),
  };
}

/** Notices are info lines; reporting problems are warnings, never the step's result. */
function logMessages(messages: GitHubReportMessages, log: GitHubReportLog): void {
  for (const notice of messages.notices) log.info(notice);
  for (const warning of messages.warnings) log.warning(warning);
}

/**
 * Call when the wait starts: starts the Deployment (when one is configured) beside the wait and returns at
 * once. A GitHub API that answers slowly or never must not delay the wait, nor the verdict: `finish` waits for
 * this start and its own reports for at most REPORTING_GRACE_MS, then abandons them with one warning.
 * `cancelled` (the job's cancellation) only words that warning. Never rejects.
 */
export function startGitHubReports(settings: GitHubReportSettings, log: GitHubReportLog, cancelled?: AbortSignal): GitHubReports {
  const want = wanted(settings);
  // The defaults: nothing to report, so nothing between the outcome and the exit (not even the grace's timer).
  if (!want.comment && !want.deployment) return NOTHING_TO_REPORT;
  const options = shellOptions(settings, log);
  const deployment = startDeploymentReport(options);
  return {
    async finish(result) {
      const reporting = (async () => {
        const started = await deployment;
        // Said now, not while the wait's live log runs.
        logMessages(started, log);
        logMessages(await finishGitHubReports(result, { ...options, deployment: started }), log);
      })();
      if (!(await withinGrace(reporting))) {
        const of = result.cancelled || cancelled?.aborted ? 'the cancellation' : 'the verdict';
        log.warning(
          `kubewait: reporting to GitHub did not finish within ${REPORTING_GRACE_MS / 1000}s of ${of} and was abandoned. The wait's result is not affected.`,
        );
      }
    },
  };
}

const NOTHING_TO_REPORT: GitHubReports = { finish: async () => {} };

/** Resolves true once `work` is done, or false when REPORTING_GRACE_MS passed first. */
async function withinGrace(work: Promise<void>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), REPORTING_GRACE_MS)));
  try {
    return await Promise.race([work.then(() => true as const), graceOver]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * After a setup failure (a bad input, an unusable kubeconfig), when no wait started: the pull-request comment
 * and a Deployment say so too (`error`), as configured. `readSettings` reads the GitHub inputs again; when
 * they are themselves the bad input it throws, and there is nothing to report with.
 */
export async function reportSetupFailureToGitHub(
  problem: InputProblem,
  readSettings: () => Omit<GitHubReportSettings, 'waitFor'>,
  log: GitHubReportLog,
): Promise<void> {
  let settings: GitHubReportSettings;
  try {
    settings = { ...readSettings(), waitFor: { kind: 'ready' } };
  } catch {
    return;
  }
  const error = { input: problem.input, message: problem.message };
  const result: RunResult = { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: [], warnings: [], error };
  logMessages(await finishGitHubReports(result, shellOptions(settings, log)), log);
}
