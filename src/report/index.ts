/**
 * The report layer's shell: writes the live log, outputs, annotations and job summary through
 * `@actions/core`. Everything it writes is built by the pure modules beside it.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { context as githubContext } from '@actions/github';
import type { RunResult as EngineResult } from '../result.js';
import type { InputProblem, Settings, WaitFor } from '../settings.js';
import { annotationsFor } from './annotations.js';
import { finalLogLines } from './live-log.js';
import { distinctLogs, logGroup } from './logs.js';
import { byStanding } from './text.js';
import { completeResources, outputsFor } from './outputs.js';
import { renderSummary, type RunInfo } from './summary.js';

export { annotationsFor, failureMessage, inputProblemAnnotation, MAX_ERROR_ANNOTATIONS, type Annotation, type AnnotationOptions } from './annotations.js';
export { bufferedSink, createLiveLog, finalLogLines, heartbeatLines, transitionLine, type LiveLogOptions, type LogSink } from './live-log.js';
export { completeResources, outputsFor, publicResult, resourceOutput, type Outputs, type ResourceOutput } from './outputs.js';
export { renderSummary, DEFAULT_LIMITS, type RunInfo, type SummaryContext, type SummaryLimits } from './summary.js';

/** The part of the run's settings the report acts on. `failFast`: without it, a failed wait ran to its
 *  deadline, so the targets still pending get annotations too. */
export type ReportSettings = Pick<Settings, 'summary' | 'waitFor' | 'failFast'>;

export interface ReportContext extends ReportSettings {
  /** Cluster API server URL (shown without userinfo or query). */
  server: string;
  /** Kubeconfig context name. */
  context: string;
  /** Links to the run and to manifest lines; defaults to `@actions/github`'s `context`. */
  run?: RunInfo;
}

/** Where this run lives, from the runner's environment (via `@actions/github`). */
export function runInfoFromGitHub(): RunInfo {
  const info: RunInfo = { serverUrl: githubContext.serverUrl };
  try {
    const { owner, repo } = githubContext.repo;
    info.repository = `${owner}/${repo}`;
  } catch {
    // Outside a workflow run (no GITHUB_REPOSITORY): no links, nothing else changes.
  }
  if (Number.isFinite(githubContext.runId) && githubContext.runId > 0) info.runId = githubContext.runId;
  if (Number.isFinite(githubContext.runAttempt) && githubContext.runAttempt > 0) info.runAttempt = githubContext.runAttempt;
  if (githubContext.sha) info.sha = githubContext.sha;
  return info;
}

/**
 * Reports a finished wait in every outcome: outputs first (so they exist even if something later
 * fails), then the closing log lines, the error annotations and the job summary. Never throws for
 * a summary that cannot be written; it warns instead. Does not fail the step: the caller does, e.g.
 * with `core.setFailed(failureMessage(result, waitFor))` (one annotation is kept free for that).
 */
export async function reportResult(result: EngineResult, ctx: ReportContext): Promise<void> {
  setOutputs(result);

  const waitFor = result.waitFor ?? ctx.waitFor;
  core.info(finalLogLines(result, waitFor).join('\n'));
  writeLogGroups(result);

  for (const { message, ...properties } of annotationsFor(result, waitFor, { failFast: ctx.failFast })) core.error(message, properties);

  if (!ctx.summary) return;
  const markdown = renderSummary(result, { server: ctx.server, context: ctx.context, waitFor, run: ctx.run ?? runInfoFromGitHub() });
  await writeSummary(markdown);
}

/**
 * For a failure before any target was resolved (a bad input, an unusable kubeconfig): the outputs (no
 * targets, `result: failed`) and, when `summary` is on, a short job summary saying which input is wrong.
 * The caller writes the error annotation itself (`inputProblemAnnotation`).
 */
export async function reportSetupFailure(
  problem: InputProblem,
  ctx: { summary: boolean; waitFor?: WaitFor; server?: string; context?: string; run?: RunInfo },
): Promise<void> {
  const error = { input: problem.input, message: problem.message };
  const result: EngineResult = { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: [], warnings: [], error };
  setOutputs(result);
  if (!ctx.summary) return;
  const markdown = renderSummary(result, {
    server: ctx.server ?? '',
    context: ctx.context ?? '',
    waitFor: ctx.waitFor ?? { kind: 'ready' },
    run: ctx.run ?? runInfoFromGitHub(),
  });
  await writeSummary(markdown);
}

/** One collapsed group per failing container's log tail, after the closing lines that name the targets. */
function writeLogGroups(result: EngineResult): void {
  for (const target of byStanding(result.targets)) {
    for (const { view, samePods } of distinctLogs(target.explanation?.logs ?? [])) {
      // A fresh token per group: a log line cannot guess it to end `::stop-commands::` early.
      const { title, lines } = logGroup(view, randomUUID(), { lines: Number.MAX_SAFE_INTEGER, samePods });
      core.startGroup(title);
      for (const line of lines) core.info(line);
      core.endGroup();
    }
  }
}

/**
 * Sets every output (`overrides` replace some, as `result: error` for a failure outside the wait). The
 * complete `resources` JSON is written to a file under RUNNER_TEMP first, named by `resources-file`, so
 * the outputs may be cut to GitHub's 1 MB limit without losing anything.
 */
export function setOutputs(result: EngineResult, overrides: Partial<Record<string, string>> = {}): void {
  const file = writeResourcesFile(result);
  const outputs = { ...outputsFor(result, file ? {} : { where: 'the job summary' }), 'resources-file': file ?? '', ...overrides };
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value ?? '');
}

function writeResourcesFile(result: EngineResult): string | undefined {
  try {
    const dir = mkdtempSync(path.join(process.env.RUNNER_TEMP || tmpdir(), 'kubewait-'));
    const file = path.join(dir, 'resources.json');
    writeFileSync(file, completeResources(result));
    return file;
  } catch (error) {
    core.warning(`kubewait: could not write the resources file: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

export async function writeSummary(markdown: string): Promise<void> {
  try {
    // Synchronously: core.summary's asynchronous file calls go through libuv's thread pool, which costs
    // 2-50 ms after the outcome is known (bench/), for one small append.
    const file = process.env.GITHUB_STEP_SUMMARY;
    if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set');
    appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  } catch (error) {
    core.warning(`kubewait: could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
}
