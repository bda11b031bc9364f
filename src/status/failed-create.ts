/**
 * Pods that were never created: a controller's `FailedCreate` warning (a ReplicaSet's, StatefulSet's,
 * DaemonSet's or Job's) classified by its cause, and whether waiting longer can help. Without this, a
 * Deployment whose pods a ResourceQuota or an admission policy refuses stays InProgress until the timeout:
 * no pod exists, so no pod says why (kubernetes#96634). The rules follow kubedog's
 * (pkg/tracker/deployment/replicaset_failure.go): an invalid pod spec is final; an exceeded quota is final
 * unless the rollout can free the quota itself (`canReleaseQuota`, src/status/quota-release.ts); the rest is
 * retried by the controller. Every final verdict waits a short grace first, so that a failure the controller
 * retries away in a moment never ends a wait. Pure: the events and pods are given, `now` is a parameter.
 */
import { creationTimestampMs, parseTimestamp } from './fields.js';
import { isPlainObject } from './go-format.js';
import { standing } from './standing.js';
import type { CreationCause, CreationFailure } from './types.js';

/** How long a final-looking `FailedCreate` must stand before it fails the workload. */
export const DEFAULT_CREATION_GRACE_MS = 20_000;

export interface CreationOptions {
  now: Date;
  graceMs?: number;
  /** A Deployment's rollout can free the quota itself (old replicas still to go): quota is then retried. */
  canReleaseQuota?: boolean;
  /** When (epoch ms) the rollout last could free quota: a quota failure is final only once it was seen again
   *  after that (the controller keeps its old condition until its next try). */
  quotaReleasableAtMs?: number;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What a `FailedCreate` message says, after the controller's `Error creating: pods "x" is forbidden: ` prefix. */
export interface CreationCauseText {
  cause: CreationCause;
  /** The useful part of the message: from `exceeded quota:`, `admission webhook "…"`, `ValidatingAdmissionPolicy`. */
  detail: string;
  /** The webhook or policy named, for a denial or an unreachable webhook. */
  admission?: string;
}

const QUOTA = /exceeded quota: .*/s;
const WEBHOOK_DENIED = /admission webhook "([^"]+)" denied the request.*/s;
const POLICY_DENIED = /ValidatingAdmissionPolicy '([^']+)'.*denied request.*/s;
const POD_SECURITY = /violates PodSecurity "([^"]+)".*/s;
const INVALID = /\b(?:Pod|pods) "[^"]*" is invalid: .*/s;
// `failed calling webhook "x": failed to call webhook: Post …: context deadline exceeded` (or connection
// refused, no endpoints): the webhook did not answer, which it may do again in a moment.
const WEBHOOK_UNAVAILABLE = /failed calling webhook "([^"]+)".*/s;

export function classifyCreationMessage(message: string): CreationCauseText {
  const quota = QUOTA.exec(message);
  if (quota) return { cause: 'QuotaExceeded', detail: quota[0] };
  const webhook = WEBHOOK_DENIED.exec(message);
  if (webhook) return { cause: 'AdmissionDenied', detail: webhook[0], admission: `admission webhook "${webhook[1]}"` };
  const policy = POLICY_DENIED.exec(message);
  if (policy) return { cause: 'AdmissionDenied', detail: policy[0], admission: `ValidatingAdmissionPolicy '${policy[1]}'` };
  const podSecurity = POD_SECURITY.exec(message);
  if (podSecurity) return { cause: 'AdmissionDenied', detail: podSecurity[0], admission: `PodSecurity "${podSecurity[1]}"` };
  const invalid = INVALID.exec(message);
  if (invalid) return { cause: 'InvalidSpec', detail: invalid[0] };
  const unavailable = WEBHOOK_UNAVAILABLE.exec(message);
  if (unavailable) return { cause: 'WebhookUnavailable', detail: unavailable[0], admission: `admission webhook "${unavailable[1]}"` };
  return { cause: 'CreateFailed', detail: message.replace(/^Error creating: /, '') };
}

/** Causes that waiting cannot mend (after the grace). Quota is final only when the rollout cannot free it. */
const FINAL = new Set<CreationCause>(['AdmissionDenied', 'InvalidSpec']);

interface Sighting {
  object: string;
  message: string;
  firstSeenMs: number;
  lastSeenMs: number;
}

/**
 * The workload's current creation failure: the newest `FailedCreate` about a controller (not a pod), unless
 * a pod of the workload was created after it (the controller got through since). Undefined when there is none.
 */
export function creationFailure(events: unknown[], pods: unknown[], opts: CreationOptions): CreationFailure | undefined {
  const newest = events.map(sighting).reduce<Sighting | undefined>((best, s) => (s && (!best || s.lastSeenMs > best.lastSeenMs) ? s : best), undefined);
  if (!newest) return undefined;
  // Event times have whole seconds: a pod created in the same second as the failure does not clear it.
  const recovered = pods.some((pod) => creationTimestampMs(obj(pod)) >= newest.lastSeenMs + 1000);
  if (recovered) return undefined;
  const { cause, detail, admission } = classifyCreationMessage(newest.message);
  const nowMs = opts.now.getTime();
  const graceMs = opts.graceMs ?? DEFAULT_CREATION_GRACE_MS;
  let standingSinceMs = newest.firstSeenMs;
  let final = FINAL.has(cause);
  if (cause === 'QuotaExceeded') {
    const freedAt = opts.quotaReleasableAtMs;
    // Seen again since the rollout last could free quota: the controller tried with what is left, and failed.
    const seenSinceFreed = freedAt === undefined || newest.lastSeenMs + 1000 > freedAt;
    final = !opts.canReleaseQuota && seenSinceFreed;
    if (freedAt !== undefined) standingSinceMs = Math.max(standingSinceMs, freedAt);
  }
  const stood = final ? standing(standingSinceMs, graceMs, nowMs) : undefined;
  return {
    cause,
    object: newest.object,
    message: detail,
    ...(admission ? { admission } : {}),
    unrecoverable: stood?.final === true,
    ...(stood?.finalAtMs !== undefined && { finalAtMs: stood.finalAtMs }),
  };
}

/** A `FailedCreate` Warning about a controller, with when it was first and last seen. */
function sighting(event: unknown): Sighting | undefined {
  const e = obj(event);
  if (e.type !== 'Warning' || e.reason !== 'FailedCreate') return undefined;
  const ref = isPlainObject(e.involvedObject) ? e.involvedObject : obj(e.regarding);
  const kind = str(ref.kind);
  if (kind === '' || kind === 'Pod' || str(ref.name) === '') return undefined;
  const series = obj(e.series);
  const metadata = obj(e.metadata);
  const time = (...values: unknown[]) => values.map((v) => parseTimestamp(str(v))).find((ms) => ms !== undefined);
  const created = time(metadata.creationTimestamp);
  const firstSeenMs = time(e.firstTimestamp, e.deprecatedFirstTimestamp, e.eventTime) ?? created;
  const lastSeenMs = time(series.lastObservedTime, e.lastTimestamp, e.deprecatedLastTimestamp, e.eventTime) ?? created;
  if (firstSeenMs === undefined || lastSeenMs === undefined) return undefined;
  return { object: `${kind}/${str(ref.name)}`, message: (str(e.message) || str(e.note)).trim(), firstSeenMs, lastSeenMs };
}

/** `ReplicaSet/web-7d9c: FailedCreate: exceeded quota: team-a, requested: …, used: …, limited: …`. */
export function describeCreationFailure(failure: CreationFailure): string {
  return `${failure.object}: FailedCreate: ${failure.message}`;
}
