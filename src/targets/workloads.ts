/**
 * A `selector` on its own selects every workload in the namespace that matches it. Pods count only when no
 * controller owns them: a Deployment's pods are already judged through the Deployment.
 */
import type { TargetSpec } from './types.js';

const WORKLOAD_TYPES = [
  'deployments.apps',
  'statefulsets.apps',
  'daemonsets.apps',
  'jobs.batch',
  'pods',
  'persistentvolumeclaims',
  'services',
] as const;

export function workloadTargets(selector: string): TargetSpec[] {
  return WORKLOAD_TYPES.map((type) => ({ type, selector, ...(type === 'pods' && { ownerless: true }) }));
}
