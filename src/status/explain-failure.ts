/**
 * Why a Job or a bare Pod failed, as data: the failure reason of the object itself (a Job's `Failed` condition,
 * a Pod's `status.reason`), the pods that failed with each failing container's exit code and termination reason
 * (Error, OOMKilled, DeadlineExceeded, ...), and the object's own Warning events (BackoffLimitExceeded,
 * DeadlineExceeded). Pure; the report words it, the log reader fetches the tails of `failedPods[].containers`.
 */
import { isPlainObject } from './go-format.js';
import { recentWarnings } from './events.js';
import { podsToExplain, type PodToExplain } from './explain-pods.js';
import type { WarningEvent } from './types.js';

export interface FailureExplanation {
  kind: 'Job' | 'Pod';
  namespace: string;
  name: string;
  /** BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy, MaxFailedIndexesExceeded (Job); Evicted,
   *  DeadlineExceeded, ... (Pod); empty when the object does not say. */
  reason: string;
  message: string;
  /** How many pods failed in all (a Job's `status.failed`; the controller may have deleted some of them). */
  failedCount: number;
  /** The failed pods still there, newest first; each with its failing containers. */
  failedPods: PodToExplain[];
  /** The object's own Warning events, newest first. */
  events: WarningEvent[];
}

export interface FailureOptions {
  /** At most this many pods (default 3). */
  maxPods?: number;
  /** At most this many events (default 5). */
  maxEvents?: number;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A failed Job: its Failed condition, its failed pods, its Warning events. */
export function explainFailedJob(job: unknown, pods: unknown[], events: unknown[], options: FailureOptions = {}): FailureExplanation {
  const status = obj(obj(job).status);
  const failed = (Array.isArray(status.conditions) ? status.conditions : []).map(obj).find((c) => c.type === 'Failed' && c.status === 'True');
  const failedCount = typeof status.failed === 'number' ? status.failed : 0;
  // Every pod of the Job, so that failed ones are found however many running ones there are; then the failed.
  const all = podsToExplain({ target: { ...obj(job), kind: 'Job' }, pods, events, max: Number.MAX_SAFE_INTEGER, maxEvents: options.maxEvents });
  const failedPods = all.filter(hasFailed).slice(0, options.maxPods ?? 3);
  return {
    kind: 'Job',
    ...identity(job),
    reason: str(failed?.reason),
    message: str(failed?.message),
    failedCount: Math.max(failedCount, failedPods.length),
    failedPods,
    events: ownEvents(job, 'Job', events, options.maxEvents),
  };
}

/** A failed bare Pod: its own reason, its failing containers, its Warning events. */
export function explainFailedPod(pod: unknown, events: unknown[], options: FailureOptions = {}): FailureExplanation {
  const status = obj(obj(pod).status);
  // A Pod from a LIST has no kind; this one is a Pod whatever it says.
  const [explained] = podsToExplain({ target: { ...obj(pod), kind: 'Pod' }, pods: [pod], events, maxEvents: options.maxEvents });
  return {
    kind: 'Pod',
    ...identity(pod),
    reason: str(status.reason),
    message: str(status.message),
    failedCount: explained && hasFailed(explained) ? 1 : 0,
    failedPods: explained ? [explained] : [],
    events: ownEvents(pod, 'Pod', events, options.maxEvents),
  };
}

/** A pod that failed: phase Failed, or a container whose run ended with a non-zero exit code. */
function hasFailed(pod: PodToExplain): boolean {
  return pod.phase === 'Failed' || pod.containers.some((c) => c.exitCode !== undefined && c.exitCode !== 0);
}

function identity(o: unknown): { namespace: string; name: string } {
  const metadata = obj(obj(o).metadata);
  return { namespace: str(metadata.namespace), name: str(metadata.name) };
}

function ownEvents(o: unknown, kind: string, events: unknown[], max = 5): WarningEvent[] {
  const { name } = identity(o);
  const about = events.filter((e) => {
    const ref = obj(obj(e).involvedObject ?? obj(e).regarding);
    return ref.kind === kind && ref.name === name;
  });
  // For a Pod these are events about a pod: recentWarnings keeps those only for the pods it is given.
  return recentWarnings(about, kind === 'Pod' ? [identity(o)] : [], max);
}
