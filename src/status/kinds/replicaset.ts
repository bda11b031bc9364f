/** kstatus replicasetConditions. */
import { getIntField } from '../fields.js';
import { current, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

export function replicaSetStatus({ obj, conditions }: RuleInput): StatusResult {
  if (conditions.some((c) => c.type === 'ReplicaFailure' && c.status === 'True')) {
    return inProgress('ReplicaFailure', 'Replica Failure condition. Check Pods');
  }
  const spec = getIntField(obj, '.spec.replicas', 1);
  const replicas = getIntField(obj, '.status.replicas', 0);
  const ready = getIntField(obj, '.status.readyReplicas', 0);
  const available = getIntField(obj, '.status.availableReplicas', 0);
  const labelled = getIntField(obj, '.status.fullyLabeledReplicas', 0);

  if (spec > labelled) return inProgress('LessLabelled', `Labelled: ${labelled}/${spec}`);
  if (spec > available) return inProgress('LessAvailable', `Available: ${available}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  return current(`ReplicaSet is available. Replicas: ${replicas}`);
}
