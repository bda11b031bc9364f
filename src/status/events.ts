/**
 * Recent Warning events, from core/v1 Event objects and events.k8s.io/v1 ones alike: newest first, repeats
 * merged, bounded.
 */
import { parseTimestamp } from './fields.js';
import { isPlainObject } from './go-format.js';
import type { WarningEvent } from './types.js';

export const DEFAULT_MAX_EVENTS = 5;

interface Subject {
  kind: string;
  name: string;
  namespace: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const positiveInt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/** The object an event is about: `involvedObject` (core/v1) or `regarding` (events.k8s.io/v1). */
function subjectOf(event: Record<string, unknown>): Subject | undefined {
  const ref = isPlainObject(event.involvedObject) ? event.involvedObject : isPlainObject(event.regarding) ? event.regarding : undefined;
  if (!ref || str(ref.name) === '') return undefined;
  return { kind: str(ref.kind), name: str(ref.name), namespace: str(ref.namespace) };
}

function toWarning(event: unknown): { warning: WarningEvent; subject: Subject; seenMs: number } | undefined {
  if (!isPlainObject(event) || event.type !== 'Warning') return undefined;
  const subject = subjectOf(event);
  if (!subject) return undefined;
  const series = isPlainObject(event.series) ? event.series : {};
  const metadata = isPlainObject(event.metadata) ? event.metadata : {};
  const lastSeen = [series.lastObservedTime, event.lastTimestamp, event.deprecatedLastTimestamp, event.eventTime, metadata.creationTimestamp]
    .map(str)
    .find((time) => parseTimestamp(time) !== undefined);
  const warning: WarningEvent = {
    object: `${subject.kind}/${subject.name}`,
    reason: str(event.reason),
    message: (str(event.message) || str(event.note)).trim(),
    count: positiveInt(series.count) ?? positiveInt(event.count) ?? positiveInt(event.deprecatedCount) ?? 1,
    ...(lastSeen !== undefined ? { lastSeen } : {}),
  };
  return { warning, subject, seenMs: lastSeen !== undefined ? parseTimestamp(lastSeen)! : -Infinity };
}

export interface PodRef {
  name: string;
  namespace: string;
}

/**
 * Warning events about the given pods, plus those about objects other than pods (the caller passes the
 * workload's own events when it has them, e.g. a ReplicaSet's FailedCreate). Events about other pods are dropped.
 */
export function recentWarnings(events: unknown[], pods: PodRef[], max = DEFAULT_MAX_EVENTS): WarningEvent[] {
  const isOurPod = (s: Subject) => pods.some((pod) => pod.name === s.name && (s.namespace === '' || pod.namespace === '' || pod.namespace === s.namespace));
  const merged = new Map<string, { warning: WarningEvent; seenMs: number }>();
  for (const raw of events) {
    const parsed = toWarning(raw);
    if (!parsed || (parsed.subject.kind === 'Pod' && !isOurPod(parsed.subject))) continue;
    const key = JSON.stringify([parsed.warning.object, parsed.warning.reason, parsed.warning.message]);
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { warning: parsed.warning, seenMs: parsed.seenMs });
      continue;
    }
    // The same warning reported by several Event objects (e.g. different source components): add them up.
    const newer = parsed.seenMs > seen.seenMs ? parsed : seen;
    merged.set(key, {
      warning: { ...newer.warning, count: seen.warning.count + parsed.warning.count },
      seenMs: newer.seenMs,
    });
  }
  return [...merged.values()]
    .sort((a, b) => b.seenMs - a.seenMs || compareText(a.warning, b.warning))
    .slice(0, Math.max(0, max))
    .map((entry) => entry.warning);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareText(a: WarningEvent, b: WarningEvent): number {
  return cmp(a.object, b.object) || cmp(a.reason, b.reason) || cmp(a.message, b.message);
}
