/** kstatus stsConditions: the StatefulSet controller sets no conditions, so only counts and revisions count. */
import { getIntField, getStringField } from '../fields.js';
import { current, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

export function statefulSetStatus({ obj }: RuleInput): StatusResult {
  if (getStringField(obj, '.spec.updateStrategy.type', '') === 'OnDelete') {
    return current('StatefulSet is using the ondelete update strategy');
  }
  const spec = getIntField(obj, '.spec.replicas', 1);
  const ready = getIntField(obj, '.status.readyReplicas', 0);
  const currentReplicas = getIntField(obj, '.status.currentReplicas', 0);
  const updated = getIntField(obj, '.status.updatedReplicas', 0);
  const replicas = getIntField(obj, '.status.replicas', 0);
  const partition = getIntField(obj, '.spec.updateStrategy.rollingUpdate.partition', -1);

  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  // A partitioned rollout only updates the pods at or above the partition ordinal.
  if (partition !== -1) {
    if (updated < spec - partition) return inProgress('PartitionRollout', `updated: ${updated}/${spec - partition}`);
    return current(`Partition rollout complete. updated: ${updated}`);
  }
  if (spec > currentReplicas) return inProgress('LessCurrent', `current: ${currentReplicas}/${spec}`);
  const currentRevision = getStringField(obj, '.status.currentRevision', '');
  const updateRevision = getStringField(obj, '.status.updateRevision', '');
  if (currentRevision !== updateRevision) {
    return inProgress('RevisionMismatch', 'Waiting for updated revision to match current');
  }
  return current(`All replicas scheduled as expected. Replicas: ${replicas}`);
}
