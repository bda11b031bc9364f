/**
 * What `rollback` considers and what it refuses, before and after it reads an object. Pure. Each refusal
 * is a reason in words for the report (`refused (why)`), never an error.
 */
import type { RollbackMode, RollbackScope } from '../settings.js';
import type { RunResult, TargetReport } from '../result.js';
import type { ObjectLike } from './revisions.js';

/** The kinds rolled back: `kubectl rollout undo`'s three, and the Argo Rollout (aborted). */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Rollout';

const WORKLOADS: Record<string, WorkloadKind> = {
  'apps/Deployment': 'Deployment',
  'apps/StatefulSet': 'StatefulSet',
  'apps/DaemonSet': 'DaemonSet',
  'argoproj.io/Rollout': 'Rollout',
};

/** The group of an `apiVersion` (`apps/v1` -> `apps`, `v1` -> ''). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export function workloadKindOf(target: Pick<TargetReport, 'apiVersion' | 'kind'>): WorkloadKind | undefined {
  return WORKLOADS[`${groupOf(target.apiVersion)}/${target.kind}`];
}

/** Whether the `rollback` input asks to act on this result: its outcome, and a wait that really ended so
 *  (not cancelled, not stopped by another cluster, not an input problem). */
export function rollbackWanted(mode: RollbackMode, result: Pick<RunResult, 'outcome' | 'cancelled' | 'error'>, stopped: boolean): boolean {
  if (mode === 'off' || result.cancelled || result.error || stopped) return false;
  if (result.outcome === 'failed') return mode === 'on-failure' || mode === 'on-failure-or-timeout';
  if (result.outcome === 'timeout') return mode === 'on-timeout' || mode === 'on-failure-or-timeout';
  return false;
}

/**
 * The targets `rollback` reports on, in the targets' order: with `failed`, the ones not at the desired
 * status (a workload is rolled back, anything else is said to be left alone); with `all`, those and every
 * workload among the targets.
 */
export function consideredTargets(targets: readonly TargetReport[], scope: RollbackScope): TargetReport[] {
  return targets.filter((target) => !target.optedOut && (!target.done || (scope === 'all' && workloadKindOf(target) !== undefined)));
}

/** Refused without reading the cluster: the target's kind or where it came from. */
export function refusalByTarget(target: TargetReport): string | undefined {
  if (target.source?.kind === 'release') {
    return `it belongs to the Helm release ${target.source.name}: leave it to Helm (helm rollback ${target.source.name}), which records the rollback as a revision`;
  }
  if (target.parent) {
    const parent = `${target.parent.kind} ${target.parent.namespace ? `${target.parent.namespace}/` : ''}${target.parent.name}`;
    return `it is applied by ${parent}, whose controller would put the failed revision back: revert the commit instead`;
  }
  if (target.kind === 'Job' || target.kind === 'CronJob') return 'Jobs are never rolled back: what a Job did (a migration, data) cannot be undone by a patch';
  if (!workloadKindOf(target)) return 'only Deployments, StatefulSets, DaemonSets and Argo Rollouts are rolled back';
  return undefined;
}

/** Flux and Argo CD mark what they apply; either would revert a rollback, or fight it. */
const GITOPS_LABELS: Array<[key: string, manager: string]> = [
  ['kustomize.toolkit.fluxcd.io/name', 'Flux'],
  ['helm.toolkit.fluxcd.io/name', 'Flux'],
  ['argocd.argoproj.io/instance', 'Argo CD'],
];
const GITOPS_ANNOTATIONS: Array<[key: string, manager: string]> = [['argocd.argoproj.io/tracking-id', 'Argo CD']];

/** Refused once the object is read: managed by GitOps, or changed since the step saw it fail. */
export function refusalByObject(target: Pick<TargetReport, 'generation'>, object: ObjectLike): string | undefined {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  for (const [key, manager] of GITOPS_LABELS) {
    if (labels[key] !== undefined)
      return `it is managed by ${manager} (label ${key}=${labels[key]}), which would put the failed revision back: revert the commit instead`;
  }
  for (const [key, manager] of GITOPS_ANNOTATIONS) {
    if (annotations[key] !== undefined)
      return `it is managed by ${manager} (annotation ${key}), which would put the failed revision back: revert the commit instead`;
  }
  const now = object.metadata?.generation;
  if (target.generation !== undefined && now !== undefined && now !== target.generation) {
    return `it changed since the step saw it fail (generation ${target.generation}, now ${now}): a newer deploy started`;
  }
  return undefined;
}
