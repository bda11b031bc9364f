/**
 * The report, written once for both shells: outputs, closing log lines, container-log groups, annotations
 * and the job summary, through a `ReportWriter` (writer.ts: `@actions/core` in the action, workflow commands
 * on a stream for the command inside GitHub Actions). Everything it writes is built by the pure modules beside it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunResult } from '../result.js';
import type { InputProblem, Settings, WaitFor } from '../settings.js';
import { annotationsFor, inputProblemAnnotation } from './annotations.js';
import { finalLogLines } from './live-log.js';
import { logBlocks, logGroup } from './logs.js';
import { completeResources, outputsFor } from './outputs.js';
import { rolledBackLogLines } from './rolled-back.js';
import { runnerContext } from './github/runner-context.js';
import { renderSummary, type RunInfo } from './summary.js';
import { shownText } from './shown-text.js';
import { outputsFileText, type ReportWriter } from './writer.js';

export { annotationsFor, failureMessage, inputProblemAnnotation, MAX_ERROR_ANNOTATIONS, type Annotation, type AnnotationOptions } from './annotations.js';
export { bufferedSink, createLiveLog, finalLogLines, heartbeatLines, transitionLine, type LiveLogOptions } from './live-log.js';
export type { AnnotationProperties, LogSink, ReportWriter } from './writer.js';
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
  /** Links to the run and to manifest lines; defaults to the runner's (runner-context.ts). */
  run?: RunInfo;
}

/** Where this run lives, from the runner's environment. */
export function runInfoFromGitHub(): RunInfo {
  const github = runnerContext();
  const info: RunInfo = { serverUrl: github.serverUrl };
  try {
    const { owner, repo } = github.repo;
    info.repository = `${owner}/${repo}`;
  } catch {
    // Outside a workflow run (no GITHUB_REPOSITORY): no links, nothing else changes.
  }
  if (Number.isFinite(github.runId) && github.runId > 0) info.runId = github.runId;
  if (Number.isFinite(github.runAttempt) && github.runAttempt > 0) info.runAttempt = github.runAttempt;
  if (github.sha) info.sha = github.sha;
  return info;
}

/**
 * Reports a finished wait in every outcome: outputs first (so they exist even if something later
 * fails), then the closing log lines, the container-log groups, the error annotations and the job summary.
 * Never throws for a summary that cannot be written; it warns instead. Does not fail the step: the caller
 * does, e.g. with `core.setFailed(failureMessage(result, waitFor))` (one annotation is kept free for that).
 */
export function reportResult(result: RunResult, ctx: ReportContext, writer: ReportWriter): void {
  setOutputs(result, writer);

  const waitFor = result.waitFor ?? ctx.waitFor;
  writer.info(finalLogLines(result, waitFor).join('\n'));
  if (result.rollback) writer.info(rolledBackLogLines(result.rollback).join('\n'));
  writeLogGroups(result, writer);

  for (const { message, ...properties } of annotationsFor(result, waitFor, { failFast: ctx.failFast })) writer.error(message, properties);

  if (!ctx.summary) return;
  const markdown = renderSummary(result, { server: ctx.server, context: ctx.context, waitFor, run: ctx.run ?? runInfoFromGitHub() });
  writeSummary(markdown, writer);
}

/**
 * Builds what `reportResult` writes for `result` (the outputs' file text, the closing lines, the annotations,
 * the job summary) and writes nothing: the rehearsal of src/rehearsal.ts, so that this code is compiled
 * before the decision.
 */
export function rehearseReport(result: RunResult, ctx: ReportContext): void {
  outputsFileText(outputValues(result, completeResources(result), 'resources.json'));
  const waitFor = result.waitFor ?? ctx.waitFor;
  shownText(finalLogLines(result, waitFor).join('\n'));
  annotationsFor(result, waitFor, { failFast: ctx.failFast });
  if (ctx.summary) shownText(renderSummary(result, { server: ctx.server, context: ctx.context, waitFor, run: ctx.run ?? runInfoFromGitHub() }));
}

/**
 * For a failure before any target was resolved (a bad input, an unusable kubeconfig): the error annotation
 * naming the input, the outputs (no targets, `result: error`) and, when `summary` is on, a short job summary
 * saying which input is wrong.
 */
export function reportSetupFailure(
  problem: InputProblem,
  ctx: { summary: boolean; waitFor?: WaitFor; server?: string; context?: string; run?: RunInfo },
  writer: ReportWriter,
): void {
  const { message, ...properties } = inputProblemAnnotation(problem);
  writer.error(message, properties);
  const error = { input: problem.input, message: problem.message };
  const result: RunResult = { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: [], warnings: [], error };
  setOutputs(result, writer);
  if (!ctx.summary) return;
  const markdown = renderSummary(result, {
    server: ctx.server ?? '',
    context: ctx.context ?? '',
    waitFor: ctx.waitFor ?? { kind: 'ready' },
    run: ctx.run ?? runInfoFromGitHub(),
  });
  writeSummary(markdown, writer);
}

/** One collapsed group per failing container's log tail, after the closing lines that name the targets. */
function writeLogGroups(result: RunResult, writer: ReportWriter): void {
  for (const { target, view, samePods } of logBlocks(result.targets)) {
    // A fresh token per group: a log line cannot guess it to end `::stop-commands::` early.
    const { title, lines } = logGroup(view, randomUUID(), { lines: Number.MAX_SAFE_INTEGER, samePods });
    writer.startGroup(target.cluster ? `[${target.cluster}] ${title}` : title);
    for (const line of lines) writer.info(line);
    writer.endGroup();
  }
}

/**
 * Sets every output (`overrides` replace some, as `result: error` for a failure outside the wait). The
 * complete `resources` JSON is written to a file under RUNNER_TEMP first, named by `resources-file`, so
 * the outputs may be cut to GitHub's 1 MB limit without losing anything.
 */
export function setOutputs(result: RunResult, writer: ReportWriter, overrides: Partial<Record<string, string>> = {}): void {
  const complete = completeResources(result);
  const file = writeResourcesFile(complete, writer);
  writer.setOutputs(outputValues(result, complete, file, overrides));
}

/** Every output's value, with `complete` (completeResources) written to `file` (none: it could not be). */
function outputValues(result: RunResult, complete: string, file: string | undefined, overrides: Partial<Record<string, string>> = {}): Record<string, string> {
  const outputs = {
    ...outputsFor(result, { ...(file ? {} : { where: 'the job summary' }), completeResources: complete }),
    'resources-file': file ?? '',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, value ?? '']));
}

function writeResourcesFile(complete: string, writer: ReportWriter): string | undefined {
  try {
    const dir = mkdtempSync(path.join(process.env.RUNNER_TEMP || tmpdir(), 'kubewait-'));
    const file = path.join(dir, 'resources.json');
    writeFileSync(file, complete);
    return file;
  } catch (error) {
    writer.warning(`kubewait: could not write the resources file: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Appends to the job summary, or says in one warning why it could not. */
export function writeSummary(markdown: string, writer: ReportWriter): void {
  try {
    writer.appendSummary(markdown);
  } catch (error) {
    writer.warning(`kubewait: could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
}
