/**
 * The `rollback` input (issue 32): after a failed or timed-out wait, and after the evidence of the failure
 * (statuses, pods, log tails) was read, undo the rollout of the workloads that did not get there, then
 * wait for them again with the same engine and report them under "Rolled back". The step's verdict stays
 * `failed` or `timeout`: a rollback is a recovery, not a success.
 *
 * How to use it: `rollback: on-failure` (or `on-timeout`, `on-failure-or-timeout`; `--rollback` for the
 * command), `rollback-timeout: 5m` for the wait after it (outside `timeout`), `rollback-scope: all` to also
 * roll back the workloads among the targets that did get there. The pipeline calls `rollBack` once per
 * cluster, when `rollbackWanted` says so; with `clusters`, only a cluster whose own wait failed rolls back.
 *
 * Per workload, as `kubectl rollout undo` does (revisions.ts): a Deployment gets its previous ReplicaSet's
 * template, a StatefulSet or DaemonSet its previous ControllerRevision; an Argo Rollout is aborted as
 * `kubectl argo rollouts abort` does (`status.abort: true` through the status subresource, the main
 * resource when there is none), and its stable ReplicaSet takes over. The guards (guards.ts) refuse, each
 * with its reason: objects managed by Flux or Argo CD (revert the commit), an object whose generation
 * changed since the step saw it fail, Jobs, and a Helm `release`'s objects (helm rollback); "nothing to do"
 * when there is no previous revision or the template already equals it. A refused patch (403) is one
 * warning naming the verb and the resource; any failure is that workload's row, never a crash.
 *
 * RBAC beyond the wait's: `patch` on the workloads, `list` on ReplicaSets and ControllerRevisions (and
 * `patch` on `rollouts/status` for Argo Rollouts): README, "Roll back on failure".
 */
import { ApiError, describeFailure, listPages, patchForRollback, resourcePath, type Cluster, type RollbackPatch } from '../kube/index.js';
import { waitForTargets, type HealthRules } from '../engine/index.js';
import type { EngineObserver, RollbackReport, RolledBackWorkload, RunResult, TargetReport } from '../result.js';
import type { Settings } from '../settings.js';
import type { TargetSpec } from '../targets/types.js';
import type { Time } from '../time.js';
import { consideredTargets, refusalByObject, refusalByTarget, workloadKindOf, type WorkloadKind } from './guards.js';
import { controllerRevisionRollback, deploymentRollback, isRecord, selectorText, type ObjectLike, type RevisionPlan } from './revisions.js';

export { rollbackWanted } from './guards.js';

/** The part of the run's settings `rollback` acts on. */
export type RollbackSettings = Pick<Settings, 'rollbackScope' | 'rollbackTimeoutMs' | 'pollIntervalMs' | 'mode' | 'jobCompletion' | 'statusGraceMs'>;

export interface RollbackContext {
  /** The job's cancellation: no patch starts after it, and the wait after the patches ends with it. */
  signal: AbortSignal;
  time: Time;
  /** The live log: what was patched, in words. */
  say(line: string): void;
  warn(message: string): void;
  /** The live log's observer for the wait after the patches. */
  observer?: EngineObserver;
  healthRules?: HealthRules;
  defaultNamespace: string;
}

/** The resource of each kind rolled back (all in `apps/v1` but the Rollout). */
const RESOURCES: Record<WorkloadKind, { group: string; version: string; resource: string }> = {
  Deployment: { group: 'apps', version: 'v1', resource: 'deployments' },
  StatefulSet: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  DaemonSet: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  Rollout: { group: 'argoproj.io', version: 'v1alpha1', resource: 'rollouts' },
};
const REPLICA_SETS = { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true };
const CONTROLLER_REVISIONS = { group: 'apps', version: 'v1', resource: 'controllerrevisions', namespaced: true };

/** Rolls back what `result` says did not get there (or, with scope `all`, every workload target); never throws. */
export async function rollBack(cluster: Cluster, result: RunResult, settings: RollbackSettings, ctx: RollbackContext): Promise<RollbackReport> {
  const startedAt = ctx.time.now();
  const forbidden = new Set<string>();
  const workloads: RolledBackWorkload[] = [];
  for (const target of consideredTargets(result.targets, settings.rollbackScope)) {
    const row = await rollBackOne(cluster, target, ctx, forbidden);
    workloads.push(row);
    if (row.action === 'rolled-back') ctx.say(`kubewait: rolled back ${rowName(row)}${revisions(row)}`);
  }
  if (forbidden.size > 0) {
    ctx.warn(
      `kubewait: rollback: ${[...forbidden].join('; ')} is forbidden (403). Grant the step those verbs ` +
        '(README, "Roll back on failure"); the verdict is unchanged.',
    );
  }
  await waitForRolledBack(cluster, workloads, settings, ctx);
  return { result: overall(workloads), workloads, durationSeconds: (ctx.time.now() - startedAt) / 1000 };
}

async function rollBackOne(cluster: Cluster, target: TargetReport, ctx: RollbackContext, forbidden: Set<string>): Promise<RolledBackWorkload> {
  const row: RolledBackWorkload = {
    ...(target.cluster !== undefined && { cluster: target.cluster }),
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
    action: 'refused',
  };
  const byTarget = refusalByTarget(target);
  const kind = workloadKindOf(target);
  if (byTarget || !kind) return { ...row, reason: byTarget };
  if (ctx.signal.aborted) return { ...row, reason: 'the job was cancelled first' };
  const type = { ...RESOURCES[kind], namespaced: true };
  const resource = `${type.resource}.${type.group}`;
  let verb = 'get';
  let revisionsOf: Pick<RolledBackWorkload, 'fromRevision' | 'toRevision'> = {};
  try {
    const object = (await cluster.client.get(
      `${resourcePath(type, target.namespace)}/${encodeURIComponent(target.name)}`,
      {},
      { signal: ctx.signal },
    )) as ObjectLike;
    const byObject = refusalByObject(target, object);
    if (byObject) return { ...row, reason: byObject };
    if (kind === 'Rollout') {
      verb = 'patch';
      return await abortRollout(cluster, type, target, object, row, ctx.signal);
    }
    verb = 'list';
    const plan = await planFor(cluster, kind, target.namespace, object, ctx.signal);
    revisionsOf = { ...(plan.from !== undefined && { fromRevision: plan.from }), ...(plan.to !== undefined && { toRevision: plan.to }) };
    if (plan.kind !== 'restore') return { ...row, ...revisionsOf, action: plan.kind, reason: plan.reason };
    verb = 'patch';
    const patch: RollbackPatch = kind === 'Deployment' ? { type: 'json', operations: plan.patch as object[] } : { type: 'strategic-merge', body: plan.patch };
    await patchForRollback(cluster.client, type, target.namespace, target.name, patch, ctx.signal);
    return { ...row, ...revisionsOf, action: 'rolled-back' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      const denied = verb === 'list' ? `list on ${kind === 'Deployment' ? 'replicasets' : 'controllerrevisions'}.apps` : `${verb} on ${resource}`;
      forbidden.add(`${denied} in namespace ${target.namespace}`);
      return { ...row, ...revisionsOf, action: 'error', reason: `${denied} is forbidden (403)` };
    }
    // The patch carries the generation (a JSON patch `test`) or the resourceVersion it was planned on.
    if (error instanceof ApiError && error.status === 409 && verb === 'patch') {
      return { ...row, ...revisionsOf, reason: 'it changed while it was being rolled back: a newer deploy started' };
    }
    if (error instanceof ApiError && error.status === 422 && verb === 'patch') {
      return {
        ...row,
        ...revisionsOf,
        reason: `the server refused the patch (it changed since it was read, or the revision is not valid now): ${error.message}`,
      };
    }
    if (error instanceof ApiError && error.status === 404 && verb === 'get') return { ...row, action: 'unchanged', reason: 'it no longer exists' };
    return { ...row, ...revisionsOf, action: 'error', reason: `${verb} failed: ${describeFailure(error, cluster.server)}` };
  }
}

/** Reads the revisions `kubectl rollout undo` reads, and says what it would restore. */
async function planFor(
  cluster: Cluster,
  kind: Exclude<WorkloadKind, 'Rollout'>,
  namespace: string,
  object: ObjectLike,
  signal: AbortSignal,
): Promise<RevisionPlan<object>> {
  const labelSelector = selectorText(object.spec?.selector);
  if (labelSelector === undefined) return { kind: 'refused', reason: 'its spec.selector cannot be read' };
  const items: unknown[] = [];
  const collection = kind === 'Deployment' ? REPLICA_SETS : CONTROLLER_REVISIONS;
  await listPages(
    cluster.client,
    resourcePath(collection, namespace),
    (page) => items.push(...page),
    { labelSelector, signal },
    () => (items.length = 0),
  );
  return kind === 'Deployment' ? deploymentRollback(object, items as ObjectLike[]) : controllerRevisionRollback(object, items as ObjectLike[]);
}

/** `kubectl argo rollouts abort`: `status.abort` through the status subresource, the main resource without one. */
async function abortRollout(
  cluster: Cluster,
  type: Parameters<typeof patchForRollback>[1],
  target: TargetReport,
  object: ObjectLike,
  row: RolledBackWorkload,
  signal: AbortSignal,
): Promise<RolledBackWorkload> {
  const status = (object as { status?: unknown }).status;
  if (isRecord(status) && status.abort === true) return { ...row, action: 'unchanged', reason: 'it is aborted already' };
  const body = { status: { abort: true } };
  try {
    await patchForRollback(cluster.client, type, target.namespace, target.name, { type: 'merge', body, subresource: 'status' }, signal);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    await patchForRollback(cluster.client, type, target.namespace, target.name, { type: 'merge', body }, signal);
  }
  return { ...row, action: 'rolled-back', reason: 'aborted: its stable ReplicaSet takes over' };
}

/** The same engine on the rolled-back Deployments, StatefulSets and DaemonSets, for `rollback-timeout`; each row gets its target's report. */
async function waitForRolledBack(cluster: Cluster, workloads: RolledBackWorkload[], settings: RollbackSettings, ctx: RollbackContext): Promise<void> {
  const waited = workloads.filter((row) => row.action === 'rolled-back' && row.kind !== 'Rollout');
  if (waited.length === 0 || ctx.signal.aborted) return;
  const targets: TargetSpec[] = waited.map((row) => ({
    type: row.kind,
    apiVersion: row.apiVersion,
    namespace: row.namespace,
    name: row.name,
  }));
  const engine = await waitForTargets(cluster, {
    targets,
    waitFor: { kind: 'ready' },
    timeoutMs: settings.rollbackTimeoutMs,
    pollIntervalMs: settings.pollIntervalMs,
    mode: settings.mode,
    failFast: true,
    jobCompletion: settings.jobCompletion,
    statusGraceMs: settings.statusGraceMs,
    defaultNamespace: ctx.defaultNamespace,
    signal: ctx.signal,
    time: ctx.time,
    ...(ctx.observer && { observer: ctx.observer }),
    ...(ctx.healthRules && { healthRules: ctx.healthRules }),
  });
  for (const row of waited) {
    const report = engine.targets.find((target) => target.kind === row.kind && target.namespace === row.namespace && target.name === row.name);
    if (report) row.target = row.cluster !== undefined ? { ...report, cluster: row.cluster } : report;
  }
}

/** The rollback's own result: how the rolled-back workloads stand, else why nothing was rolled back. */
function overall(workloads: readonly RolledBackWorkload[]): RollbackReport['result'] {
  const rolled = workloads.filter((row) => row.action === 'rolled-back');
  if (workloads.some((row) => row.action === 'error')) return 'failed';
  if (rolled.some((row) => row.target && row.target.status === 'Failed')) return 'failed';
  if (rolled.some((row) => row.target && !row.target.done)) return 'timeout';
  if (rolled.length > 0) return 'ready';
  return workloads.some((row) => row.action === 'refused') ? 'refused' : 'none';
}

function rowName(row: Pick<RolledBackWorkload, 'namespace' | 'kind' | 'name'>): string {
  return `${row.namespace ? `${row.namespace}/` : ''}${row.kind}/${row.name}`;
}

function revisions(row: RolledBackWorkload): string {
  if (row.fromRevision !== undefined && row.toRevision !== undefined) return ` revision ${row.fromRevision} -> ${row.toRevision}`;
  return row.reason ? ` (${row.reason})` : '';
}
