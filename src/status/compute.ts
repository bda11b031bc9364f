/**
 * kstatus Compute (spec sections 3-6): Terminating, generation, Reconciling/Stalled, the per-kind rule,
 * the Ready condition, then the default. Where kstatus returns an error, the status is Unknown with that
 * error as the message. Never throws.
 */
import { parseConditions } from './conditions.js';
import { ComputeError, groupKindKey, type KubeObject } from './fields.js';
import { checkGeneration, checkReadyCondition, checkStandardConditions, checkTerminating } from './generic.js';
import { goType, isPlainObject } from './go-format.js';
import { ruleFor } from './kinds/index.js';
import { current, unknown } from './results.js';
import type { StatusResult } from './types.js';

export interface ComputeOptions {
  now: Date;
}

export function computeStatus(obj: unknown, opts: ComputeOptions): StatusResult {
  return guarded(obj, (resource) => compute(resource, opts));
}

function compute(obj: KubeObject, { now }: ComputeOptions): StatusResult {
  const generic = checkTerminating(obj) ?? checkGeneration(obj);
  if (generic) return generic;
  const conditions = parseConditions(obj);
  const standard = checkStandardConditions(conditions);
  if (standard) return standard;
  const rule = ruleFor(groupKindKey(obj));
  if (rule) return rule({ obj, conditions, now });
  return checkReadyCondition(conditions) ?? current('Resource is current');
}

/**
 * Runs a status computation on something that should be a Kubernetes object, turning kstatus-style errors
 * (and, defensively, anything else) into Unknown.
 */
export function guarded(obj: unknown, evaluate: (resource: KubeObject) => StatusResult): StatusResult {
  if (!isPlainObject(obj)) return unknown(`resource is not an object: got ${goType(obj)}`);
  try {
    return evaluate(obj);
  } catch (error) {
    if (error instanceof ComputeError) return unknown(error.message);
    return unknown(`cannot compute status: ${error instanceof Error ? error.message : String(error)}`);
  }
}
