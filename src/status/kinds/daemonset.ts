/** kstatus daemonsetConditions. */
import { getIntField } from '../fields.js';
import { checkGenerationSet } from '../generic.js';
import { current, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

export function daemonSetStatus({ obj }: RuleInput): StatusResult {
  // The DaemonSet controller always sets both generation fields once it has acted, so their absence means "not yet".
  const notObserved = checkGenerationSet(obj);
  if (notObserved) return notObserved;

  const desired = getIntField(obj, '.status.desiredNumberScheduled', -1);
  const scheduled = getIntField(obj, '.status.currentNumberScheduled', 0);
  const updated = getIntField(obj, '.status.updatedNumberScheduled', 0);
  const available = getIntField(obj, '.status.numberAvailable', 0);
  const ready = getIntField(obj, '.status.numberReady', 0);

  if (desired === -1) return inProgress('NoDesiredNumber', 'Missing .status.desiredNumberScheduled');
  if (desired > scheduled) return inProgress('LessCurrent', `Current: ${scheduled}/${desired}`);
  if (desired > updated) return inProgress('LessUpdated', `Updated: ${updated}/${desired}`);
  if (desired > available) return inProgress('LessAvailable', `Available: ${available}/${desired}`);
  if (desired > ready) return inProgress('LessReady', `Ready: ${ready}/${desired}`);
  return current(`All replicas scheduled as expected. Replicas: ${desired}`);
}
