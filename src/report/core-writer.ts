/**
 * The action's `ReportWriter`: `@actions/core`, which the runner reads on the action's stdout and in its files.
 * Besides src/main.ts (the action's shell reading its inputs), the only module that imports `@actions/core`.
 */
import * as core from '@actions/core';
import { appendOutputs, appendStepSummary, registeringOnce, type ReportWriter } from './writer.js';

export const coreWriter: ReportWriter = {
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
  error: (message, properties) => core.error(message, properties),
  startGroup: (name) => core.startGroup(name),
  endGroup: () => core.endGroup(),
  setOutputs(outputs) {
    const file = process.env.GITHUB_OUTPUT;
    // A runner without the file (older than 2.297) reads outputs from workflow commands, as core writes them.
    if (file) appendOutputs(file, outputs);
    else for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
  },
  setSecret: registeringOnce((secret) => core.setSecret(secret)),
  appendSummary: (markdown) => appendStepSummary(markdown),
};
