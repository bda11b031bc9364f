/** The status the engine waits on for `wait-for: ready`: kstatus, plus the job-completion rule when enabled. */
import { computeStatus, guarded } from './compute.js';
import { checkGeneration, checkTerminating } from './generic.js';
import { completionStatus, runsToCompletion } from './job-completion.js';
import type { StatusResult } from './types.js';

export interface TargetStatusOptions {
  now: Date;
  jobCompletion: boolean;
}

export function targetStatus(obj: unknown, opts: TargetStatusOptions): StatusResult {
  if (!opts.jobCompletion) return computeStatus(obj, opts);
  return guarded(obj, (resource) => {
    if (!runsToCompletion(resource)) return computeStatus(resource, opts);
    // Deletion and an unobserved spec change outrank completion, as they outrank every kstatus rule.
    return checkTerminating(resource) ?? checkGeneration(resource) ?? completionStatus(resource, opts.now);
  });
}
