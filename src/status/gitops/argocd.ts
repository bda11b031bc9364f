/**
 * Argo CD's Application, judged against the revision the step shipped. Pure.
 *
 * An Application has no Ready condition (its `status.conditions` are only errors and warnings), so kstatus
 * calls every Application Current, even a Degraded one. As the application controller writes it
 * (pkg/apis/application/v1alpha1/types.go, controller/appcontroller.go, gitops-engine sync/common):
 * - `status.sync`: `status` Synced | OutOfSync | Unknown, compared to `revision` (one source: the full commit
 *   sha for Git, the chart version for a Helm repository) or `revisions` (multi-source, one per source);
 * - `status.health.status`: Healthy | Progressing | Degraded | Suspended | Missing | Unknown, the worst of its
 *   resources' health (`status.resources[].health`, whose messages say why);
 * - `status.operationState`: the last sync operation, `phase` Running | Terminating | Failed | Error |
 *   Succeeded, its `message`, and `syncResult.revision(s)` it synced to.
 * `argocd app wait` waits for Synced, Healthy and no running operation; this adds "at this revision".
 */
import { checkTerminating } from '../generic.js';
import type { KubeObject } from '../fields.js';
import { current, failed, inProgress } from '../results.js';
import type { StatusResult } from '../types.js';
import { isRecord, stringAt, stringsAt } from './fields.js';
import type { GitOpsJudgeOptions } from './flux.js';
import { anyRevisionMatches } from './revision.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const RUNNING = new Set(['Running', 'Terminating']);
const FAILED = new Set(['Failed', 'Error']);
/** Health that the synced revision's resources report when waiting will not fix them. */
const BROKEN = new Set(['Degraded', 'Missing']);
/** Resources shown in a message, at most. */
const SHOWN_RESOURCES = 5;

/** An Application: with `revision`, Current once synced to it, Healthy and not syncing; without, undefined
 *  (the built-in rule `argocd-application` judges it, or kstatus). */
export function applicationStatus(obj: KubeObject, { revision }: GitOpsJudgeOptions): StatusResult | undefined {
  if (!revision) return undefined;
  const terminating = checkTerminating(obj);
  if (terminating) return terminating;

  const phase = stringAt(obj, 'operationState', 'phase');
  const operationRevisions = syncedRevisions(obj, 'operationState', 'syncResult');
  const requestedRevisions = operationRevisions.length > 0 ? operationRevisions : syncedRevisions(obj, 'operationState', 'operation', 'sync');
  const operationMessage = stringAt(obj, 'operationState', 'message');
  if (RUNNING.has(phase)) {
    const to = requestedRevisions.length > 0 ? ` to ${requestedRevisions.join(', ')}` : '';
    return inProgress('OperationRunning', `Argo CD is syncing${to}${operationMessage ? `: ${operationMessage}` : ''}`);
  }
  if (FAILED.has(phase) && anyRevisionMatches(revision, requestedRevisions)) {
    const failedResources = resourceLines(obj, 'operationState', (r) => r.status === 'SyncFailed' || r.hookPhase === 'Failed' || r.hookPhase === 'Error');
    return failed('SyncFailed', `Argo CD could not sync ${requestedRevisions.join(', ')}: ${operationMessage || phase}${failedResources}`);
  }

  const sync = stringAt(obj, 'sync', 'status') || 'Unknown';
  const synced = syncedRevisions(obj, 'sync');
  const health = stringAt(obj, 'health', 'status') || 'Unknown';
  if (!anyRevisionMatches(revision, synced)) {
    return inProgress('RevisionNotSynced', `Argo CD has not synced ${revision.text} yet; ${sync} at ${synced.join(', ') || 'no revision yet'}${errors(obj)}`);
  }
  const at = synced.join(', ');
  // Argo CD could not render the revision (YAML that does not parse, a path not in the commit): it writes
  // `Unknown` at the revision it compared, which names the shipped one only when the Application pins it
  // (`targetRevision` a sha or tag). Tracking a branch it writes the branch name, and the error may still be
  // the previous commit's (the repo server resolves a branch from a cache for 3 minutes): that waits.
  const comparison = sync === 'Unknown' ? conditionMessages(obj, 'ComparisonError') : '';
  if (comparison) return failed('ComparisonError', `Argo CD could not compare ${at}: ${comparison}`);
  if (sync === 'Synced' && health === 'Healthy') return current(`Synced to ${at}, Healthy`);
  if (sync === 'Synced' && BROKEN.has(health)) return failed(health, `${health} at ${at}: ${healthReasons(obj)}`);
  if (health === 'Suspended') return inProgress('Suspended', `Suspended at ${at} (${sync}): ${healthReasons(obj)}`);
  return inProgress(health, `${sync} at ${at}, health ${health}${health === 'Healthy' ? '' : `: ${healthReasons(obj)}`}${errors(obj)}`);
}

/** `revisions` (multi-source) or else `revision`, under `status.<path>`. */
function syncedRevisions(obj: KubeObject, ...path: string[]): string[] {
  const revisions = stringsAt(obj, ...path, 'revisions').filter((r) => r !== '');
  if (revisions.length > 0) return revisions;
  const single = stringAt(obj, ...path, 'revision');
  return single ? [single] : [];
}

/** Why the health is what it is: the Application's own message, else its resources' (Argo CD v2.x keeps the
 *  resource health inline in `status.resources`; with `resourceHealthSource: appTree` it is not here). */
function healthReasons(obj: KubeObject): string {
  const own = stringAt(obj, 'health', 'message');
  const health = stringAt(obj, 'health', 'status');
  const resources = resourceLines(obj, 'resources', (r) => isRecord(r.health) && r.health.status === health);
  if (own) return `${own}${resources}`;
  return resources ? resources.replace(/^; /, '') : 'no resource says why';
}

interface ResourceEntry {
  kind?: unknown;
  namespace?: unknown;
  name?: unknown;
  status?: unknown;
  message?: unknown;
  hookPhase?: unknown;
  health?: unknown;
}

/** `; Deployment shop/api: Degraded: <message>` for each matching entry of `status.resources` or of
 *  `status.operationState.syncResult.resources`. */
function resourceLines(obj: KubeObject, where: 'resources' | 'operationState', matches: (r: ResourceEntry) => boolean): string {
  const status = isRecord(obj.status) ? obj.status : {};
  const list =
    where === 'resources'
      ? status.resources
      : isRecord(status.operationState) && isRecord(status.operationState.syncResult)
        ? status.operationState.syncResult.resources
        : [];
  const entries = (Array.isArray(list) ? list : []).filter((r): r is ResourceEntry => isRecord(r) && matches(r as ResourceEntry));
  const lines = entries.slice(0, SHOWN_RESOURCES).map((r) => {
    const name = `${typeof r.kind === 'string' ? r.kind : 'object'} ${typeof r.namespace === 'string' && r.namespace ? `${r.namespace}/` : ''}${typeof r.name === 'string' ? r.name : ''}`;
    const health = isRecord(r.health) ? r.health : {};
    const state = where === 'resources' ? text(health.status) : text(r.status) || text(r.hookPhase);
    const message = where === 'resources' ? health.message : r.message;
    return `${name}: ${state}${typeof message === 'string' && message ? `: ${message}` : ''}`;
  });
  const more = entries.length > SHOWN_RESOURCES ? ` (and ${entries.length - SHOWN_RESOURCES} more)` : '';
  return lines.length > 0 ? `; ${lines.join('; ')}${more}` : '';
}

/** The messages of Argo CD's conditions of `type`, joined; '' when it has none. */
function conditionMessages(obj: KubeObject, type: string): string {
  const conditions = isRecord(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  return conditions
    .filter((c): c is Record<string, unknown> => isRecord(c) && c.type === type && typeof c.message === 'string')
    .map((c) => String(c.message))
    .join('; ');
}

/** Argo CD's error conditions (ComparisonError, InvalidSpecError, SyncError, ...): why it may never sync. */
function errors(obj: KubeObject): string {
  const conditions = isRecord(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  const shown = conditions
    .filter((c): c is Record<string, unknown> => isRecord(c) && typeof c.type === 'string' && c.type.endsWith('Error'))
    .map((c) => `${String(c.type)}: ${typeof c.message === 'string' ? c.message : ''}`);
  return shown.length > 0 ? `; ${shown.join('; ')}` : '';
}
