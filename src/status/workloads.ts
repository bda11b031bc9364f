/**
 * What the status rules know about kinds beyond their status: which kinds run pods (so their pods explain
 * why they are not ready), which pods are theirs, when time alone can change a status, and what a lone
 * `selector` selects. Pure. The engine and the target layer ask here instead of keeping lists of their own.
 */
import { SCHEDULE_WINDOW_MS } from './kinds/pod.js';

/** `group/Kind` of the kinds whose readiness is their pods' readiness (the core group is ''). */
const POD_WORKLOADS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', 'batch/Job', '/Pod']);

/** Whether pod diagnosis explains this kind. */
export function runsPods(type: { group: string; kind: string }): boolean {
  return POD_WORKLOADS.has(`${type.group}/${type.kind}`);
}

/** Which pods belong to a workload: a Pod is its own; the others select theirs with `spec.selector`. */
export type PodOwnership = { podName: string } | { selector: unknown };

export function podOwnership(kind: string, object: { metadata?: { name?: string }; spec?: { selector?: unknown } }): PodOwnership | undefined {
  if (kind === 'Pod') return object.metadata?.name ? { podName: object.metadata.name } : undefined;
  return object.spec?.selector === undefined ? undefined : { selector: object.spec.selector };
}

interface TimedObject {
  metadata?: { creationTimestamp?: string };
  status?: { conditions?: Array<{ type?: string; status?: string; reason?: string }> };
}

/**
 * When this object's status may change by time alone, so it must be judged again then (epoch ms), or
 * undefined. kstatus turns an unschedulable Pod Failed `SCHEDULE_WINDOW_MS` after its creation.
 */
export function recheckAt(kind: string, object: TimedObject, now: Date): number | undefined {
  if (kind !== 'Pod') return undefined;
  const scheduled = object.status?.conditions?.find((c) => c?.type === 'PodScheduled');
  if (scheduled?.status !== 'False' || scheduled.reason !== 'Unschedulable') return undefined;
  const created = Date.parse(object.metadata?.creationTimestamp ?? '');
  const at = (Number.isNaN(created) ? now.getTime() : created) + SCHEDULE_WINDOW_MS + 100;
  return at > now.getTime() ? at : undefined;
}

/**
 * The types a lone `selector` selects (no `resources`, no `manifests`): the workloads users deploy and
 * what they wait on beside them. Pods count only without a controller: a Deployment's pods are already
 * judged through the Deployment.
 */
export const LONE_SELECTOR_TYPES: ReadonlyArray<{ type: string; ownerless?: true }> = [
  { type: 'deployments.apps' },
  { type: 'statefulsets.apps' },
  { type: 'daemonsets.apps' },
  { type: 'jobs.batch' },
  { type: 'pods', ownerless: true },
  { type: 'persistentvolumeclaims' },
  { type: 'services' },
];
