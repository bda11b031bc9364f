/**
 * Which pods explain a target that is not ready, and for each of its failing containers (init containers
 * included) what to show: the log of which run, or, when a container never started, why. Pure: the target,
 * its pods (and a Deployment's ReplicaSets, a DaemonSet's ControllerRevisions, events) are given.
 *
 * The pods are those of the target's newest revision (a Deployment's newest ReplicaSet by its revision
 * annotation, a StatefulSet's `status.updateRevision`, a DaemonSet's newest ControllerRevision), a Job's by its
 * controller uid, a bare Pod itself; worst first: failed or crash-looping, then other container failures
 * (image pull, configuration), then merely not ready; more restarts first, then the newest.
 */
import { parseTimestamp } from './fields.js';
import { isPlainObject } from './go-format.js';
import { recentWarnings } from './events.js';
import type { WarningEvent } from './types.js';

/** One container worth showing. Its `namespace`/`pod`/`container`/`previous` are what a log read needs. */
export interface ContainerToExplain {
  namespace: string;
  pod: string;
  container: string;
  init: boolean;
  /** What is wrong: the waiting reason (CrashLoopBackOff, ImagePullBackOff, CreateContainerConfigError, ...),
   *  the termination reason of a container that ended (Error, OOMKilled, ...), or `NotReady`. */
  reason: string;
  /** The waiting or termination message, if any (for a crash loop: the last run's termination message). */
  message: string;
  restartCount: number;
  /** The run that ended and explains: the current one when terminated, else the last one. */
  exitCode?: number;
  terminationReason?: string;
  /** Read the run before the current one (`previous=true`): the container restarted and its last run ended. */
  previous: boolean;
  /** Set when no log can exist (the container never started): the waiting reason and message to show instead. */
  noLogs?: string;
}

export interface PodToExplain {
  namespace: string;
  name: string;
  phase: string;
  /** Why the pod itself is stuck or failed: Unschedulable, Evicted, DeadlineExceeded, ... */
  reason?: string;
  message?: string;
  restarts: number;
  containers: ContainerToExplain[];
  /** The pod's most recent Warning events, newest first. */
  events: WarningEvent[];
}

export interface ExplainInput {
  /** A Deployment, StatefulSet, DaemonSet, Job, ReplicaSet or Pod (any other kind: the pods it controls), with
   *  its `kind` (GET and watch objects have it; a LIST item needs it set, as the engine's withKind does). */
  target: unknown;
  /** Pods of the target's namespace (others are ignored). */
  pods: unknown[];
  /** A Deployment's ReplicaSets (without them, every ReplicaSet of the Deployment counts). */
  replicaSets?: unknown[];
  /** A DaemonSet's ControllerRevisions (without them, every revision counts). */
  controllerRevisions?: unknown[];
  events?: unknown[];
  /** At most this many pods (default 3). */
  max?: number;
  /** Warning events per pod (default 5). */
  maxEvents?: number;
}

export const DEFAULT_MAX_PODS = 3;
const DEFAULT_EVENTS_PER_POD = 5;

/** Waiting reasons of a container that has not started yet and is not failing (yet). */
const STARTING = new Set(['ContainerCreating', 'PodInitializing']);

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isPlainObject) : []);
const meta = (o: unknown): Obj => obj(obj(o).metadata);
const labels = (o: unknown): Obj => obj(meta(o).labels);

export function podsToExplain(input: ExplainInput): PodToExplain[] {
  const pods = podsOf(input).filter((pod) => !meta(pod).deletionTimestamp);
  const target = obj(input.target);
  // A bare Pod is shown whatever state it is in: the caller asks because it is not what was wanted.
  const explaining = target.kind === 'Pod' ? pods : pods.filter((pod) => !isDone(pod));
  const ranked = explaining.map((pod) => explainPod(pod, input.events ?? [], input.maxEvents ?? DEFAULT_EVENTS_PER_POD));
  return ranked
    .map((explained, i) => ({ explained, pod: explaining[i]! }))
    .sort(
      (a, b) =>
        rank(a.explained) - rank(b.explained) ||
        b.explained.restarts - a.explained.restarts ||
        startMs(b.pod) - startMs(a.pod) ||
        cmp(a.explained.name, b.explained.name),
    )
    .slice(0, Math.max(0, input.max ?? DEFAULT_MAX_PODS))
    .map((entry) => entry.explained);
}

/** The pods of the target's current revision. */
function podsOf(input: ExplainInput): Obj[] {
  const target = obj(input.target);
  const namespace = str(meta(target).namespace);
  const inNamespace = input.pods
    .filter(isPlainObject)
    .filter((pod) => namespace === '' || str(meta(pod).namespace) === namespace || str(meta(pod).namespace) === '');
  switch (target.kind) {
    case 'Pod':
      return inNamespace.filter((pod) => str(meta(pod).name) === str(meta(target).name)).slice(0, 1);
    case 'Deployment':
      return deploymentPods(target, inNamespace, input.replicaSets);
    case 'StatefulSet': {
      const revision = str(obj(target.status).updateRevision);
      const owned = inNamespace.filter((pod) => controlledBy(pod, target));
      return revision ? owned.filter((pod) => labels(pod)['controller-revision-hash'] === revision) : owned;
    }
    case 'DaemonSet': {
      const owned = inNamespace.filter((pod) => controlledBy(pod, target));
      const newest = newestBy(
        (input.controllerRevisions ?? []).filter((r) => controlledBy(r, target)),
        (r) => int(obj(r).revision) ?? -1,
      );
      const hash = newest ? str(labels(newest)['controller-revision-hash']) : '';
      return hash ? owned.filter((pod) => labels(pod)['controller-revision-hash'] === hash) : owned;
    }
    case 'Job': {
      const uid = str(meta(target).uid);
      const byUid = (pod: Obj) => labels(pod)['batch.kubernetes.io/controller-uid'] === uid || labels(pod)['controller-uid'] === uid;
      return uid ? inNamespace.filter(byUid) : inNamespace.filter((pod) => controlledBy(pod, target));
    }
    default:
      return inNamespace.filter((pod) => controlledBy(pod, target));
  }
}

function deploymentPods(deployment: Obj, pods: Obj[], replicaSets: unknown[] | undefined): Obj[] {
  const name = str(meta(deployment).name);
  const revision = (rs: unknown) => Number.parseInt(str(obj(meta(rs).annotations)['deployment.kubernetes.io/revision']), 10);
  const newest = newestBy(
    (replicaSets ?? []).filter((rs) => controlledBy(rs, deployment)),
    (rs) => (Number.isNaN(revision(rs)) ? -1 : revision(rs)),
  );
  if (newest) return pods.filter((pod) => controlledBy(pod, newest));
  // Without the ReplicaSets: any ReplicaSet of this Deployment (`<deployment>-<pod-template-hash>`).
  return pods.filter((pod) => {
    const owner = controllerRef(pod);
    const hash = str(labels(pod)['pod-template-hash']);
    return owner?.kind === 'ReplicaSet' && hash !== '' && owner.name === `${name}-${hash}`;
  });
}

function controllerRef(o: unknown): { kind: string; name: string; uid: string } | undefined {
  const ref = list(meta(o).ownerReferences).find((r) => r.controller === true);
  return ref ? { kind: str(ref.kind), name: str(ref.name), uid: str(ref.uid) } : undefined;
}

/** Whether `owner` is the controller of `o`: by uid, or by kind and name when either uid is missing. */
function controlledBy(o: unknown, owner: unknown): boolean {
  const ref = controllerRef(o);
  if (!ref) return false;
  const uid = str(meta(owner).uid);
  if (uid && ref.uid) return ref.uid === uid;
  return ref.kind === str(obj(owner).kind) && ref.name === str(meta(owner).name);
}

function newestBy<T>(items: T[], key: (item: T) => number): T | undefined {
  return items.reduce<T | undefined>((best, item) => (best === undefined || key(item) > key(best) ? item : best), undefined);
}

/** A pod that explains nothing: it succeeded, or it is ready. */
function isDone(pod: Obj): boolean {
  const status = obj(pod.status);
  if (status.phase === 'Succeeded') return true;
  return list(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
}

function explainPod(pod: Obj, events: unknown[], maxEvents: number): PodToExplain {
  const name = str(meta(pod).name);
  const namespace = str(meta(pod).namespace);
  const status = obj(pod.status);
  const failing: ContainerToExplain[] = [];
  const starting: ContainerToExplain[] = [];
  let restarts = 0;
  for (const [statuses, init] of [
    [status.initContainerStatuses, true],
    [status.containerStatuses, false],
  ] as const) {
    for (const cs of list(statuses)) {
      restarts += int(cs.restartCount) ?? 0;
      const explained = explainContainer(namespace, name, cs, init);
      if (!explained) continue;
      (STARTING.has(explained.reason) ? starting : failing).push(explained);
    }
  }
  const unschedulable = list(status.conditions).find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const podReason = str(status.reason) || (unschedulable ? str(unschedulable.reason) : '');
  const podMessage = str(status.message) || (unschedulable ? str(unschedulable.message) : '');
  const ownEvents = events.filter((e) => {
    const ref = obj(obj(e).involvedObject ?? obj(e).regarding);
    return ref.kind === 'Pod' && ref.name === name;
  });
  return {
    namespace,
    name,
    phase: str(status.phase),
    ...(podReason ? { reason: podReason } : {}),
    ...(podMessage ? { message: podMessage } : {}),
    restarts,
    // Containers still being created only matter when nothing else is wrong (a stuck volume mount, say).
    containers: failing.length > 0 ? failing : starting,
    events: recentWarnings(ownEvents, [{ name, namespace }], maxEvents),
  };
}

/** What to show for one container status, or undefined for a healthy (or completed) container. */
function explainContainer(namespace: string, pod: string, cs: Obj, init: boolean): ContainerToExplain | undefined {
  const state = obj(cs.state);
  const waiting = isPlainObject(state.waiting) ? state.waiting : undefined;
  const terminated = isPlainObject(state.terminated) ? state.terminated : undefined;
  const last = isPlainObject(obj(cs.lastState).terminated) ? obj(obj(cs.lastState).terminated) : undefined;
  const restartCount = int(cs.restartCount) ?? 0;
  const base = { namespace, pod, container: str(cs.name), init, restartCount };
  const ended = (run: Obj) => ({
    ...(int(run.exitCode) !== undefined ? { exitCode: int(run.exitCode) } : {}),
    ...(str(run.reason) ? { terminationReason: str(run.reason) } : {}),
  });

  if (terminated) {
    if (int(terminated.exitCode) === 0) return undefined; // an init container that completed, a finished sidecar
    return { ...base, reason: str(terminated.reason) || 'Error', message: str(terminated.message).trim(), ...ended(terminated), previous: false };
  }
  if (waiting) {
    const reason = str(waiting.reason) || 'Waiting';
    // A container that ran before (a crash loop, a failed restart) has the log of that run.
    if (last) return { ...base, reason, message: str(last.message).trim(), ...ended(last), previous: true };
    const message = str(waiting.message).trim();
    return { ...base, reason, message, previous: false, noLogs: message ? `${reason}: ${message}` : reason };
  }
  if (state.running !== undefined && cs.ready !== true) {
    // Running but not ready: the crash before this run explains more than the current run, when there was one.
    if (last && restartCount > 0) return { ...base, reason: 'NotReady', message: str(last.message).trim(), ...ended(last), previous: true };
    return { ...base, reason: 'NotReady', message: '', previous: false };
  }
  return undefined;
}

/** Lower is worse: failed or crashing, then a container failing to start, then pod-level trouble, then not ready. */
function rank(pod: PodToExplain): number {
  if (pod.phase === 'Failed') return 0;
  if (pod.containers.some((c) => c.reason === 'CrashLoopBackOff' || (c.exitCode !== undefined && c.exitCode !== 0))) return 0;
  if (pod.containers.some((c) => c.noLogs !== undefined && !STARTING.has(c.reason))) return 1;
  if (pod.reason) return 2;
  return 3;
}

function startMs(pod: Obj): number {
  return parseTimestamp(str(obj(pod.status).startTime)) ?? parseTimestamp(str(meta(pod).creationTimestamp)) ?? 0;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
