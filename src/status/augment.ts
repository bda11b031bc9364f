/**
 * kstatus Augment (spec section 5), without mutation: a copy of the object whose status.conditions carry the
 * computed Reconciling/Stalled condition. Errors where kstatus's Augment errors.
 */
import { computeStatus } from './compute.js';
import { nestedSlice, ComputeError, type KubeObject } from './fields.js';
import { isPlainObject } from './go-format.js';

export type AugmentResult = { object: KubeObject; error?: undefined } | { object?: undefined; error: string };

export function augment(obj: unknown, { now }: { now: Date }): AugmentResult {
  const result = computeStatus(obj, { now });
  if (result.status === 'Unknown') return { error: result.message };
  const copy = structuredClone(obj) as KubeObject;
  let conditions: unknown[];
  try {
    conditions = nestedSlice(copy, 'status', 'conditions') ?? [];
  } catch (error) {
    return { error: error instanceof ComputeError ? error.message : String(error) };
  }
  const time = now.toISOString().replace(/\.\d+Z$/, 'Z'); // Go's time.RFC3339: whole seconds
  for (const computed of result.conditions) {
    let present = false;
    for (const existing of conditions) {
      if (!isPlainObject(existing)) return { error: 'condition does not have the expected structure' };
      if (typeof existing.type !== 'string') return { error: 'condition type does not have the expected type' };
      if (existing.type !== computed.type) continue;
      if (typeof existing.status !== 'string') return { error: 'condition status does not have the expected type' };
      if (existing.status !== computed.status) existing.lastTransitionTime = time;
      Object.assign(existing, { status: computed.status, lastUpdateTime: time, reason: computed.reason, message: computed.message });
      present = true;
    }
    if (!present) {
      conditions.push({
        lastTransitionTime: time,
        lastUpdateTime: time,
        message: computed.message,
        reason: computed.reason,
        status: computed.status,
        type: computed.type,
      });
    }
  }
  const status = isPlainObject(copy.status) ? copy.status : {};
  copy.status = { ...status, conditions };
  return { object: copy };
}
