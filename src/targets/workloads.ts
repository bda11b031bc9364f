/**
 * A `selector` on its own selects every workload in the namespace that matches it; the status library
 * says which types those are.
 */
import { LONE_SELECTOR_TYPES } from '../status/workloads.js';
import type { TargetSpec } from './types.js';

export function workloadTargets(selector: string): TargetSpec[] {
  return LONE_SELECTOR_TYPES.map(({ type, ownerless }) => ({ type, selector, ...(ownerless && { ownerless }) }));
}
