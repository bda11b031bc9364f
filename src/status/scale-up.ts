/**
 * An unschedulable pod waits for an autoscaler to add a node, unless the autoscaler said it will not: the
 * cluster-autoscaler's `NotTriggerScaleUp` (`pod didn't trigger scale-up: …`) or Karpenter's
 * `FailedScheduling` (`Failed to schedule pod, incompatible with nodepool …`). Such a refusal that has stood
 * for the grace makes the pod's Unschedulable final. Pure.
 */
import { parseTimestamp } from './fields.js';
import { isPlainObject } from './go-format.js';
import { standing } from './standing.js';

export interface ScaleUpRefusal {
  /** `cluster-autoscaler: pod didn't trigger scale-up: 1 max node group size reached`. */
  message: string;
  final: boolean;
  /** Still in its grace: when (epoch ms) it becomes final if it stands (src/status/standing.ts). */
  finalAtMs?: number;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Who refused, from the event's reason and words; undefined for any other event (the scheduler's own). */
function refusedBy(event: Obj): string | undefined {
  const message = str(event.message) || str(event.note);
  if (event.reason === 'NotTriggerScaleUp') return 'cluster-autoscaler';
  if (event.reason === 'FailedScheduling' && /^Failed to schedule pod, /.test(message)) return 'karpenter';
  return undefined;
}

/** By pod name: the newest refusal to scale up for it. */
export function scaleUpRefusals(events: unknown[], now: Date, graceMs: number): Map<string, ScaleUpRefusal> {
  const refusals = new Map<string, ScaleUpRefusal & { seenMs: number }>();
  for (const event of events.map(obj)) {
    const ref = isPlainObject(event.involvedObject) ? event.involvedObject : obj(event.regarding);
    const by = event.type === 'Warning' || event.type === 'Normal' ? refusedBy(event) : undefined;
    if (!by || ref.kind !== 'Pod' || str(ref.name) === '') continue;
    const time = (...values: unknown[]) => values.map((v) => parseTimestamp(str(v))).find((ms) => ms !== undefined);
    const firstMs = time(event.firstTimestamp, event.eventTime, obj(event.metadata).creationTimestamp) ?? now.getTime();
    const lastMs = time(obj(event.series).lastObservedTime, event.lastTimestamp, event.eventTime) ?? firstMs;
    const known = refusals.get(str(ref.name));
    if (known && known.seenMs >= lastMs) continue;
    const text = (str(event.message) || str(event.note)).trim();
    refusals.set(str(ref.name), { message: `${by}: ${text}`, ...standing(firstMs, graceMs, now.getTime()), seenMs: lastMs });
  }
  return new Map([...refusals].map(([pod, { seenMs: _seen, ...refusal }]) => [pod, refusal]));
}

/** Whether a pod waits for a node (`PodScheduled=False`, `Unschedulable`). */
export function hasUnschedulablePod(pods: unknown[]): boolean {
  return pods.some((pod) => {
    const conditions = obj(obj(pod).status).conditions;
    return (Array.isArray(conditions) ? conditions : [])
      .map(obj)
      .some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  });
}
