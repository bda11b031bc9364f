/**
 * The command inside a GitHub Actions `run:` step (GITHUB_ACTIONS=true): the same report the action writes
 * (outputs, container-log groups, error annotations, job summary: report/index.ts), the pull-request comment
 * and Deployment status (when their flags ask for them), so a team moving from the action to the command
 * loses nothing. Loaded only there (it brings @actions/github). It writes through the command's
 * `ReportWriter` (report/stream-writer.ts: workflow commands on the log stream, so that `-o json` keeps
 * stdout a single JSON document).
 */
import type { RunResult } from '../result.js';
import { parseGitHubReportInputs } from '../inputs.js';
import type { ClusterInfo } from '../pipeline.js';
import { rehearseReport, reportResult, reportSetupFailure, type ReportWriter } from '../report/index.js';
import { reportSetupFailureToGitHub as reportSetupFailureToPullRequest, startGitHubReports, type GitHubReports } from '../report/github/index.js';
import type { InputProblem, Settings } from '../settings.js';
import { installSignalHandlers } from '../signals.js';
import type { CommandLine } from './flags.js';

export function reportToGitHub(
  result: RunResult,
  settings: Pick<Settings, 'waitFor' | 'failFast' | 'summary'>,
  cluster: ClusterInfo,
  writer: ReportWriter,
): void {
  reportResult(result, { ...settings, server: cluster.server, context: cluster.context }, writer);
}

/** What `reportToGitHub` will write, rendered and written nowhere (src/rehearsal.ts). */
export function rehearseReportToGitHub(sample: RunResult, settings: Pick<Settings, 'waitFor' | 'failFast' | 'summary'>): void {
  rehearseReport(sample, { ...settings, server: '', context: '' });
}

/** The pull-request comment and the Deployment, started beside the wait as the action starts them. */
export function startGitHub(settings: Settings, writer: ReportWriter): GitHubReports {
  return startGitHubReports(settings, writer, installSignalHandlers());
}

/** A bad flag or input before the wait: an annotation, the outputs and the job summary, and the comment and
 *  the Deployment say so too, as configured. */
export async function reportSetupFailureToGitHub(problem: InputProblem, line: CommandLine, writer: ReportWriter): Promise<void> {
  reportSetupFailure(problem, { summary: line.inputs.summary !== 'false' }, writer);
  await reportSetupFailureToPullRequest(problem, () => parseGitHubReportInputs((name) => line.inputs[name] ?? ''), writer);
}
