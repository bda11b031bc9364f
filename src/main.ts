/**
 * The action's shell: inputs -> targets -> cluster -> wait -> report. Everything it calls does the work;
 * this file only decides the order, wires cancellation, and turns errors into one clear message.
 */
import * as core from '@actions/core';
import { waitForTargets } from './engine/index.js';
import type { EngineResult } from './engine/types.js';
import { parseSettings } from './inputs.js';
import { connect } from './kube/index.js';
import {
  bufferedSink,
  createLiveLog,
  failureMessage,
  inputProblemAnnotation,
  publicResult,
  reportResult,
  reportSetupFailure,
  setOutputs,
} from './report/index.js';
import { InputError, type Settings } from './settings.js';
import { installSignalHandlers } from './signals.js';
import { targetsFromInputs, type TargetSpec } from './targets/index.js';

/** A step that is done must end even if some library left a socket open. */
const EXIT_GRACE_MS = 10_000;

export async function run(): Promise<void> {
  try {
    const settings = parseSettings((name) => core.getInput(name));
    const targets = await targetsFromInputs(settings, { cwd: process.cwd() });
    const result = await waitOnCluster(settings, targets);
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

async function waitOnCluster(settings: Settings, targets: TargetSpec[]): Promise<EngineResult> {
  const cluster = await connect(settings, { mask: (secret) => core.setSecret(secret) });
  const log = bufferedSink(core);
  try {
    const result = await waitForTargets(cluster, {
      ...settings,
      targets,
      defaultNamespace: settings.namespace || cluster.namespace || 'default',
      signal: installSignalHandlers(),
      observer: createLiveLog(log, settings),
    });
    log.flush();
    await reportResult(result, { ...settings, server: cluster.server, context: cluster.contextName });
    return result;
  } finally {
    log.flush();
    await cluster.close();
  }
}

/**
 * Bad input: one error annotation naming the input, and a job summary saying so. Anything else: one clean
 * line, the stack only in debug.
 */
async function failStep(error: unknown): Promise<void> {
  if (error instanceof InputError) {
    const { message, ...properties } = inputProblemAnnotation(error);
    core.error(message, properties);
    // Settings may not have parsed, so the summary input is read as is: only an explicit `false` turns it off.
    await reportSetupFailure(error, { summary: core.getInput('summary').trim() !== 'false' });
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
  const none: EngineResult = { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: [], warnings: [] };
  // It could not judge the targets: `error`, like a bad input.
  setOutputs(none, { result: 'error' });
}
