/**
 * Pod diagnosis: why a workload's pods are not ready, container by container, and whether waiting longer can
 * help. Pure: the pods and events are given, `now` is a parameter.
 */
import { creationTimestampMs } from './fields.js';
import { isPlainObject } from './go-format.js';
import { DEFAULT_MAX_EVENTS, recentWarnings, type PodRef } from './events.js';
import { creationFailure, DEFAULT_CREATION_GRACE_MS, describeCreationFailure, type CreationOptions } from './failed-create.js';
import { scaleUpRefusals, type ScaleUpRefusal } from './scale-up.js';
import { earliestFinalAt, standing, type Standing } from './standing.js';
import type { ContainerProblem, Diagnosis } from './types.js';

export interface DiagnoseOptions {
  now: Date;
  /** Image pulls can fail briefly (a registry hiccup, an image pushed a moment late): how long to allow. */
  imagePullGraceMs?: number;
  /** How many warning events to keep. */
  maxEvents?: number;
  /** How long a final-looking `FailedCreate` or an autoscaler's refusal must stand (failed-create.ts). */
  creationGraceMs?: number;
  /** A Deployment's quota facts (failed-create.ts `CreationOptions`). */
  canReleaseQuota?: boolean;
  quotaReleasableAtMs?: number;
}

export const DEFAULT_IMAGE_PULL_GRACE_MS = 15_000;

/** Waiting reasons that mean a container is failing, worst first (the order ranks the summary). */
const WAITING_REASONS = [
  'CrashLoopBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'CreateContainerError',
  'RunContainerError',
] as const;
const ALWAYS_UNRECOVERABLE = new Set(['CrashLoopBackOff', 'InvalidImageName', 'CreateContainerConfigError']);
const IMAGE_PULL = new Set(['ErrImagePull', 'ImagePullBackOff']);

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

export function diagnosePods(pods: unknown[], events: unknown[], opts: DiagnoseOptions): Diagnosis {
  const graceMs = opts.imagePullGraceMs ?? DEFAULT_IMAGE_PULL_GRACE_MS;
  const podObjects = pods.filter(isPlainObject).filter((pod) => str(obj(pod.metadata).name) !== '');
  const refs: PodRef[] = podObjects.map((pod) => ({ name: str(obj(pod.metadata).name), namespace: str(obj(pod.metadata).namespace) }));
  const creationOptions: CreationOptions = {
    now: opts.now,
    graceMs: opts.creationGraceMs,
    canReleaseQuota: opts.canReleaseQuota,
    quotaReleasableAtMs: opts.quotaReleasableAtMs,
  };
  const refusals = scaleUpRefusals(events, opts.now, opts.creationGraceMs ?? DEFAULT_CREATION_GRACE_MS);
  const problems = sortPods(podObjects)
    .filter((pod) => !obj(pod.metadata).deletionTimestamp) // a pod on its way out is not the workload's problem
    .flatMap((pod) => podProblems(pod, opts.now, graceMs, refusals));
  const creation = creationFailure(events, podObjects, creationOptions);
  const warnings = recentWarnings(events, refs, opts.maxEvents ?? DEFAULT_MAX_EVENTS);
  const worst = worstProblem(problems);
  // A final creation failure names the cause first; a pod that cannot recover comes before a retried one.
  const creationFirst = creation && (creation.unrecoverable || !worst?.unrecoverable);
  const cause = creationFirst ? creation.cause : worst ? problemCause(worst) : undefined;
  return {
    problems,
    events: warnings,
    summary: creationFirst ? describeCreationFailure(creation) : summarize(problems, warnings),
    unrecoverable: problems.some((p) => p.unrecoverable) || creation?.unrecoverable === true,
    ...(creation ? { creation } : {}),
    ...(cause ? { cause } : {}),
    ...finalAt([creation, ...problems]),
  };
}

/** When the diagnosis must be made again: the earliest end of a grace among its failures, if any. */
function finalAt(failures: Array<{ finalAtMs?: number } | undefined>): { finalAtMs?: number } {
  const finalAtMs = earliestFinalAt(failures.map((failure) => failure?.finalAtMs));
  return finalAtMs === undefined ? {} : { finalAtMs };
}

/** The class of a pod problem, for the `cause` output field: what a workflow branches on. */
const PROBLEM_CAUSES: Record<string, string> = {
  CrashLoopBackOff: 'CrashLoop',
  ErrImagePull: 'ImagePull',
  ImagePullBackOff: 'ImagePull',
  InvalidImageName: 'ImagePull',
  ErrImageNeverPull: 'ImagePull',
  CreateContainerConfigError: 'ContainerConfig',
  CreateContainerError: 'ContainerStart',
  RunContainerError: 'ContainerStart',
  Unschedulable: 'Unschedulable',
  OOMKilled: 'OOMKilled',
};

function problemCause(problem: ContainerProblem): string {
  return PROBLEM_CAUSES[problem.reason] ?? (problem.container ? 'ContainerExit' : 'PodFailed');
}

function sortPods(pods: Obj[]): Obj[] {
  const key = (pod: Obj) => `${str(obj(pod.metadata).namespace)}/${str(obj(pod.metadata).name)}`;
  return [...pods].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function podProblems(pod: Obj, now: Date, graceMs: number, refusals: Map<string, ScaleUpRefusal>): ContainerProblem[] {
  const name = str(obj(pod.metadata).name);
  const status = obj(pod.status);
  // An image pull may fail for a moment (a registry hiccup, an image pushed late): it counts from the pod's creation.
  const pull = standing(creationTimestampMs(pod), graceMs, now.getTime());
  const problems: ContainerProblem[] = [];

  const unschedulable = (Array.isArray(status.conditions) ? status.conditions : [])
    .map(obj)
    .find((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  if (unschedulable) {
    // A cluster autoscaler may still add a node, so this is reported but not final, unless it said it will not.
    const refusal = refusals.get(name);
    const message = [str(unschedulable.message), refusal?.message].filter(Boolean).join('; ');
    problems.push({
      pod: name,
      container: '',
      init: false,
      reason: 'Unschedulable',
      message,
      unrecoverable: refusal?.final === true,
      ...(refusal?.finalAtMs !== undefined && { finalAtMs: refusal.finalAtMs }),
    });
  }
  if (status.phase === 'Failed' && str(status.reason) !== '') {
    problems.push({ pod: name, container: '', init: false, reason: str(status.reason), message: str(status.message), unrecoverable: false });
  }
  for (const [list, init] of [
    [status.initContainerStatuses, true],
    [status.containerStatuses, false],
  ] as const) {
    for (const containerStatus of Array.isArray(list) ? list.map(obj) : []) {
      const problem = containerProblem(name, containerStatus, init, pull);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

function containerProblem(pod: string, status: Obj, init: boolean, pull: Standing): ContainerProblem | undefined {
  const container = str(status.name);
  const state = obj(status.state);
  const restartCount = int(status.restartCount);
  const waiting = isPlainObject(state.waiting) ? state.waiting : undefined;
  const reason = str(waiting?.reason);
  if (waiting && (WAITING_REASONS as readonly string[]).includes(reason)) {
    if (reason === 'CrashLoopBackOff') return crashLoop(pod, container, init, restartCount, obj(obj(status.lastState).terminated));
    const graced = IMAGE_PULL.has(reason); // a failed pull counts once it has stood for the grace
    return {
      pod,
      container,
      init,
      reason,
      message: str(waiting.message),
      ...(restartCount !== undefined ? { restartCount } : {}),
      unrecoverable: ALWAYS_UNRECOVERABLE.has(reason) || (graced && pull.final),
      ...(graced && pull.finalAtMs !== undefined && { finalAtMs: pull.finalAtMs }),
    };
  }
  const terminated = isPlainObject(state.terminated) ? state.terminated : undefined;
  const exitCode = int(terminated?.exitCode);
  if (terminated && exitCode !== undefined && exitCode !== 0) {
    const detail = str(terminated.message).trim();
    return {
      pod,
      container,
      init,
      reason: str(terminated.reason) || 'Error',
      message: `exited with code ${exitCode}${detail ? `: ${detail}` : ''}`,
      ...(restartCount !== undefined ? { restartCount } : {}),
      unrecoverable: false,
    };
  }
  return undefined;
}

function crashLoop(pod: string, container: string, init: boolean, restartCount: number | undefined, last: Obj): ContainerProblem {
  const lastReason = str(last.reason);
  const exitCode = int(last.exitCode);
  const parts = [`restarted ${restartCount ?? 0} times`];
  if (lastReason || exitCode !== undefined) {
    const code = exitCode !== undefined ? `exit code ${exitCode}` : '';
    parts.push(`last exit: ${[lastReason, code && (lastReason ? `(${code})` : code)].filter(Boolean).join(' ')}`);
  }
  const detail = str(last.message).trim();
  return {
    pod,
    container,
    init,
    reason: 'CrashLoopBackOff',
    message: parts.join(', ') + (detail ? `: ${detail}` : ''),
    restartCount: restartCount ?? 0,
    ...(lastReason ? { lastTerminationReason: lastReason } : {}),
    unrecoverable: true,
  };
}

/** How bad a problem is, for picking the one the summary names (lower is worse). */
function severity(problem: ContainerProblem): number {
  const rank = (WAITING_REASONS as readonly string[]).indexOf(problem.reason);
  return (problem.unrecoverable ? 0 : 100) + (rank === -1 ? WAITING_REASONS.length : rank);
}

export function describeProblem(p: ContainerProblem): string {
  const where = p.container ? `pod ${p.pod}: ${p.init ? 'init container' : 'container'} ${p.container}` : `pod ${p.pod}`;
  return `${where}: ${p.reason}${p.message ? `: ${p.message}` : ''}`;
}

function worstProblem(problems: ContainerProblem[]): ContainerProblem | undefined {
  return problems.length === 0 ? undefined : problems.reduce((best, p) => (severity(p) < severity(best) ? p : best));
}

function summarize(problems: ContainerProblem[], warnings: Diagnosis['events']): string {
  if (problems.length === 0) {
    const latest = warnings[0];
    return latest ? `${latest.object}: ${latest.reason}${latest.message ? `: ${latest.message}` : ''}` : '';
  }
  const worst = worstProblem(problems)!;
  const more = problems.length - 1;
  return describeProblem(worst) + (more > 0 ? ` (and ${more} more)` : '');
}
