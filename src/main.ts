/**
 * The action's shell: inputs -> settings -> the shared pipeline (targets -> cluster -> wait -> report, in
 * src/pipeline.ts) with the action's sink. This file only reads the inputs, decides what fails the step,
 * and turns errors into one clear message.
 */
import * as core from '@actions/core';
import type { RunResult } from './result.js';
import { parseGitHubReportInputs, parseSettings } from './inputs.js';
import { waitEverywhere } from './fleet/index.js';
import type { PipelineSink } from './pipeline.js';
import { coreWriter } from './report/core-writer.js';
import { reportSetupFailureToGitHub, startGitHubReports, type GitHubReports } from './report/github/index.js';
import { failureMessage, publicResult, rehearseReport, reportResult, reportSetupFailure, setOutputs } from './report/index.js';
import { InputError, type Settings } from './settings.js';
import { installSignalHandlers } from './signals.js';

/** A step that is done must end even if some library left a socket open. */
const EXIT_GRACE_MS = 10_000;

export async function run(): Promise<void> {
  try {
    const settings = parseSettings((name) => core.getInput(name));
    const result = await waitEverywhere(settings, actionSink(settings), { cwd: process.cwd() });
    if (result.error) {
      process.exitCode = 1; // the report already annotated the input at fault; one annotation is enough
    } else if (publicResult(result) !== 'ready') {
      core.setFailed(failureMessage(result, settings.waitFor) ?? `kubewait: ${result.outcome}`);
    }
  } catch (error) {
    await failStep(error);
  } finally {
    // Everything is written: leave now. Waiting for the event loop to drain, then for Node to free a
    // large heap, costs 5-25 ms after the outcome is known (bench/). stdout can be asynchronous (pipes
    // on macOS): exit once it is flushed, and in any case within the grace period.
    process.stdout.write('', () => process.exit());
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  }
}

/** The action's parts of a run: the log, masks, outputs, annotations, the job summary, and the pull-request
 *  comment and Deployment status (started beside the wait, finished after the outputs and the summary). */
function actionSink(settings: Settings): PipelineSink {
  let github: GitHubReports | undefined;
  return {
    log: coreWriter,
    mask: (secret) => coreWriter.setSecret(secret),
    begin() {
      github = startGitHubReports(settings, coreWriter, installSignalHandlers());
    },
    async report(result, cluster) {
      reportResult(result, { ...settings, server: cluster.server, context: cluster.context }, coreWriter);
      await github?.finish(result);
    },
    rehearse: (sample) => rehearseReport(sample, { ...settings, server: '', context: '' }),
  };
}

/**
 * Bad input: one error annotation naming the input, and a job summary saying so. Anything else: one clean
 * line, the stack only in debug.
 */
async function failStep(error: unknown): Promise<void> {
  if (error instanceof InputError) {
    // Settings may not have parsed, so the summary input is read as is: only an explicit `false` turns it off.
    reportSetupFailure(error, { summary: core.getInput('summary').trim() !== 'false' }, coreWriter);
    await reportSetupFailureToGitHub(error, () => parseGitHubReportInputs((name) => core.getInput(name)), coreWriter);
    process.exitCode = 1;
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.stack) core.debug(error.stack);
  core.setFailed(`kubewait: ${message.split('\n')[0]}`);
  // Nothing in the wait throws (it reports instead), so this is a failure before any target was reported.
  setOutputsForNoTargets();
}

/** Outputs exist in every outcome, also when the wait never started. */
function setOutputsForNoTargets(): void {
  const none: RunResult = { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: [], warnings: [] };
  // It could not judge the targets: `error`, like a bad input.
  setOutputs(none, coreWriter, { result: 'error' });
}
