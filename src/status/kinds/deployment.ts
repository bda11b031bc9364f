/** kstatus deploymentConditions. */
import { getIntField } from '../fields.js';
import { inProgress, stalled } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

/** progressDeadlineSeconds == MaxInt32 means the controller never sets Progressing. */
const MAX_INT32 = 2147483647;

export function deploymentStatus({ obj, conditions }: RuleInput): StatusResult {
  let progressing = getIntField(obj, '.spec.progressDeadlineSeconds', MAX_INT32) === MAX_INT32;
  let available = false;
  for (const c of conditions) {
    if (c.type === 'Progressing') {
      if (c.reason === 'ProgressDeadlineExceeded') {
        return { status: 'Failed', message: 'Progress deadline exceeded', conditions: [stalled(c.reason, c.message)] };
      }
      if (c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true;
    } else if (c.type === 'Available' && c.status === 'True') {
      available = true;
    }
  }

  const spec = getIntField(obj, '.spec.replicas', 1);
  const replicas = getIntField(obj, '.status.replicas', 0);
  const updated = getIntField(obj, '.status.updatedReplicas', 0);
  const ready = getIntField(obj, '.status.readyReplicas', 0);
  const availableReplicas = getIntField(obj, '.status.availableReplicas', 0);

  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > updated) return inProgress('LessUpdated', `Updated: ${updated}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  if (updated > availableReplicas) return inProgress('LessAvailable', `Available: ${availableReplicas}/${updated}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (!progressing) return inProgress('ReplicaSetNotAvailable', 'ReplicaSet not Available');
  if (!available) return inProgress('DeploymentNotAvailable', 'Deployment not Available');
  return { status: 'Current', message: `Deployment is available. Replicas: ${replicas}`, conditions: [] };
}
