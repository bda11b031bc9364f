/**
 * The command inside a GitHub Actions `run:` step (GITHUB_ACTIONS=true): the same error annotations, job
 * summary, pull-request comment and Deployment status the action writes (the last two when their flags
 * ask for them), so a team moving from the action to the command loses nothing. Loaded only
 * there (it brings @actions/github), and written as workflow commands on the log stream, so that `-o json`
 * keeps stdout a single JSON document.
 */
import type { RunResult as EngineResult } from '../result.js';
import { parseGitHubReportInputs } from '../inputs.js';
import type { ClusterInfo } from '../pipeline.js';
import { annotationsFor, renderSummary, runInfoFromGitHub, writeSummary } from '../report/index.js';
import { reportSetupFailureToGitHub as reportSetupFailure, startGitHubReports, type GitHubReportLog, type GitHubReports } from '../report/github/index.js';
import type { InputProblem, Settings } from '../settings.js';
import type { CommandLine } from './flags.js';
import { inCommandTerms } from './messages.js';
import { workflowCommand } from './terminal.js';

export async function reportToGitHub(
  result: EngineResult,
  settings: Pick<Settings, 'waitFor' | 'failFast' | 'summary'>,
  cluster: Partial<ClusterInfo>,
  write: (text: string) => void,
): Promise<void> {
  for (const { message, title, file, startLine } of annotationsFor(result, settings.waitFor, { failFast: settings.failFast })) {
    write(`${workflowCommand('error', { title: inCommandTerms(title), file, line: startLine }, inCommandTerms(message))}\n`);
  }
  if (!settings.summary) return;
  const markdown = renderSummary(result, { server: cluster.server ?? '', context: cluster.context ?? '', waitFor: settings.waitFor, run: runInfoFromGitHub() });
  await writeSummary(markdown);
}

/** The pull-request comment and the Deployment, as the action starts them before the wait. */
export function startGitHub(settings: Settings, log: GitHubReportLog): Promise<GitHubReports> {
  return startGitHubReports(settings, log);
}

/** A bad flag or input before the wait: the comment and the Deployment say so too, as configured. */
export async function reportSetupFailureToGitHub(problem: InputProblem, line: CommandLine, log: GitHubReportLog): Promise<void> {
  await reportSetupFailure(problem, () => parseGitHubReportInputs((name) => line.inputs[name] ?? ''), log);
}
