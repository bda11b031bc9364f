/** kstatus jobConditions (kubernetes-sigs fork: includes the Suspended rule). */
import { getBoolField, getIntField, getStringField } from '../fields.js';
import { current, failed, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

export function jobStatus({ obj, conditions }: RuleInput): StatusResult {
  const parallelism = getIntField(obj, '.spec.parallelism', 1);
  const completions = getIntField(obj, '.spec.completions', parallelism);
  const succeeded = getIntField(obj, '.status.succeeded', 0);
  const active = getIntField(obj, '.status.active', 0);
  const failedPods = getIntField(obj, '.status.failed', 0);
  const startTime = getStringField(obj, '.status.startTime', '');
  const suspend = getBoolField(obj, '.spec.suspend', false);

  for (const c of conditions) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
    if (c.type === 'Failed') return failed('JobFailed', `Job Failed. failed: ${failedPods}/${completions}`);
    if (c.type === 'Suspended' && suspend) return current('Job is suspended');
  }
  if (startTime === '') return inProgress('JobNotStarted', 'Job not started');
  return current(`Job in progress. success:${succeeded}, active: ${active}, failed: ${failedPods}`);
}
