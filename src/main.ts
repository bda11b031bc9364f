import * as core from '@actions/core';

/** Entry point of the action. The engine lands in a later issue; until then the step fails honestly. */
export async function run(): Promise<void> {
  core.setFailed('kubewait: not implemented yet (the readiness engine has not landed)');
}
