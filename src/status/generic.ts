/** The checks kstatus applies to every kind (status.go, generic.go). */
import type { BasicCondition } from './conditions.js';
import { ComputeError, kindOf, nestedInt64, nestedString, type KubeObject } from './fields.js';
import { current, failed, inProgress } from './results.js';
import type { StatusResult } from './types.js';

/** Wraps a strict accessor's error the way checkGenericProperties does. */
function lookingUp<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ComputeError) throw new ComputeError(`looking up ${field} from resource: ${error.message}`);
    throw error;
  }
}

export function checkTerminating(obj: KubeObject): StatusResult | undefined {
  const deletionTimestamp = lookingUp('metadata.deletionTimestamp', () => nestedString(obj, 'metadata', 'deletionTimestamp'));
  if (deletionTimestamp) {
    return { status: 'Terminating', message: 'Resource scheduled for deletion', conditions: [] };
  }
  return undefined;
}

const readGeneration = (obj: KubeObject) => lookingUp('metadata.generation', () => nestedInt64(obj, 'metadata', 'generation'));
const readObservedGeneration = (obj: KubeObject) => lookingUp('status.observedGeneration', () => nestedInt64(obj, 'status', 'observedGeneration'));

/** InProgress when the controller has not observed the latest generation; skipped when either field is absent. */
export function checkGeneration(obj: KubeObject): StatusResult | undefined {
  const generation = readGeneration(obj);
  if (generation === undefined) return undefined;
  const observed = readObservedGeneration(obj);
  if (observed === undefined || observed === generation) return undefined;
  const message = `${kindOf(obj)} generation is ${generation}, but latest observed generation is ${observed}`;
  return inProgress('LatestGenerationNotObserved', message);
}

/** DaemonSet's stricter check: both generation fields must be present. */
export function checkGenerationSet(obj: KubeObject): StatusResult | undefined {
  if (readGeneration(obj) === undefined) {
    return inProgress('NoGeneration', `${kindOf(obj)} metadata.generation not found`);
  }
  if (readObservedGeneration(obj) === undefined) {
    return inProgress('NoObservedGeneration', `${kindOf(obj)} status.observedGeneration not found`);
  }
  return undefined;
}

/** The abnormal-true conditions: the first Reconciling=True or Stalled=True decides. */
export function checkStandardConditions(conditions: BasicCondition[]): StatusResult | undefined {
  for (const c of conditions) {
    if (c.type === 'Reconciling' && c.status === 'True') return inProgress(c.reason, c.message);
    if (c.type === 'Stalled' && c.status === 'True') return failed(c.reason, c.message);
  }
  return undefined;
}

/** For kinds without a rule: the first Ready condition with a True, False or Unknown status decides. */
export function checkReadyCondition(conditions: BasicCondition[]): StatusResult | undefined {
  for (const c of conditions) {
    if (c.type !== 'Ready') continue;
    if (c.status === 'True') return current('Resource is Ready');
    if (c.status === 'False' || c.status === 'Unknown') return inProgress(c.reason, c.message);
  }
  return undefined;
}
