/**
 * Flux's Kustomization and HelmRelease, judged against the revision the step shipped. Pure.
 *
 * kstatus reads Flux objects well for "is it reconciled", but not for "has it applied *my* commit": a
 * Kustomization Ready for the previous commit is Current. And a failed reconciliation leaves `Reconciling=True`
 * (reason ProgressingWithRetry) beside `Ready=False`, so kstatus waits out the timeout instead of failing.
 *
 * As the controllers write it (kustomize-controller internal/controller/kustomization_controller.go,
 * helm-controller internal/reconcile/atomic_release.go and release.go, both through fluxcd/pkg
 * runtime/conditions, which stamps each condition with the generation it was written for):
 * - Kustomization: a reconciliation marks `Ready=Unknown` (Progressing) and `Reconciling=True`, sets
 *   `lastAttemptedRevision`, then either `lastAppliedRevision` and `Ready=True` ("Applied revision: <rev>",
 *   observedGeneration updated, Reconciling removed) or `Ready=False` with the reason of the step that failed;
 * - HelmRelease: `lastAttemptedRevision` is the chart version (with `+<12 hex>` of the commit or digest),
 *   `history` the release snapshots (newest: highest `version`), `Ready` mirrors `Released`/`Remediated`/
 *   `TestSuccess`: `Ready=False` with InstallFailed, UpgradeFailed, TestFailed or a remediation's reason.
 */
import type { WantedRevision } from '../../settings.js';
import { computeStatus } from '../compute.js';
import type { KubeObject } from '../fields.js';
import { current, failed, inProgress } from '../results.js';
import type { StatusResult } from '../types.js';
import { conditionOf, generationOf, isRecord, stringAt, type RawCondition } from './fields.js';
import { revisionMatches } from './revision.js';

/**
 * Ready=False reasons that retrying the same revision will not fix (fluxcd/pkg apis/meta). A source not
 * ready yet (ArtifactFailed), a dependency (DependencyNotReady) or a cancelled health check
 * (HealthCheckCanceled) is waited for.
 */
const KUSTOMIZATION_FAILURES = new Set(['BuildFailed', 'HealthCheckFailed', 'ReconciliationFailed', 'PruneFailed', 'DirCreationFailed']);

/** helm-controller api/v2 condition_types.go: a failed release, test or remediation (Ready mirrors it). */
const HELM_RELEASE_FAILURES = new Set([
  'InstallFailed',
  'UpgradeFailed',
  'TestFailed',
  'RollbackSucceeded',
  'RollbackFailed',
  'UninstallSucceeded',
  'UninstallFailed',
]);

export interface GitOpsJudgeOptions {
  now: Date;
  revision?: WantedRevision;
}

/** kustomize-controller's progress messages: `<step> for revision <R> with a timeout of <T>`. */
const STEP = /^(Fetching manifests|Building manifests|Detecting drift|Running health checks) for revision (\S+) with a timeout of /;

/**
 * The step a Kustomization is at and the revision it is at it for, from its Reconciling condition. After a
 * failure finalizeStatus keeps the condition (reason ProgressingWithRetry): it then names the step that failed.
 */
export function reconcilingStep(obj: KubeObject): { step: string; revision: string } | undefined {
  const reconciling = conditionOf(obj, 'Reconciling');
  const match = reconciling?.status === 'True' ? STEP.exec(reconciling.message) : null;
  return match ? { step: match[1]!, revision: match[2]! } : undefined;
}

/** A Kustomization: with `revision`, Current only once it is applied and ready; a terminal failure fails
 *  (without `revision`, that is all it decides: undefined leaves the rest to kstatus). */
export function kustomizationStatus(obj: KubeObject, { now, revision }: GitOpsJudgeOptions): StatusResult | undefined {
  const kstatus = computeStatus(obj, { now });
  if (kstatus.status === 'Terminating' || kstatus.status === 'Unknown' || kstatus.status === 'Failed') return kstatus;
  const ready = conditionOf(obj, 'Ready');
  const step = reconcilingStep(obj);
  const failure = terminalFailure(obj, ready, KUSTOMIZATION_FAILURES) ?? pathNotFound(obj, ready, step);
  const attempted = stringAt(obj, 'lastAttemptedRevision');
  const applied = stringAt(obj, 'lastAppliedRevision');
  // The revision that failed: the one of the step that failed (a path not found fails before
  // lastAttemptedRevision is written), else the last attempted.
  const failedRevision = step?.revision || attempted;

  // Without a revision kstatus judges it, but for the failures it would wait out.
  if (!revision) return failure ? failed(failure.reason, failureMessage(failure, failedRevision)) : undefined;

  if (failure && revisionMatches(revision, failedRevision)) return failed(failure.reason, failureMessage(failure, failedRevision));
  if (revisionMatches(revision, applied)) {
    if (kstatus.status === 'Current' && ready?.status === 'True' && readyForGeneration(obj, ready))
      return current(ready.message || `Applied revision: ${applied}`);
    return inProgress(ready?.reason || 'Progressing', `Flux applied ${applied}, not ready yet: ${progress(obj, ready, kstatus)}`);
  }
  const lastAttempt =
    failedRevision && failedRevision !== applied
      ? `; ${failure ? `its last attempt, ${failedRevision}, failed: ${failure.message}` : `attempting: ${failedRevision}${step ? ` (${step.step})` : ''}`}`
      : '';
  const why = fluxSays(obj, ready, failure !== undefined && failedRevision !== applied);
  return inProgress('RevisionNotApplied', `Flux has not applied ${revision.text} yet; applied: ${applied || 'nothing yet'}${lastAttempt}${why}`);
}

/**
 * kustomize-controller's ArtifactFailed "kustomization path not found" (spec.path is not in the revision's
 * artifact): a new commit is needed, retrying this one will not find it. Its other ArtifactFailed (the source
 * has no artifact yet, a download failed) are waited for.
 */
function pathNotFound(obj: KubeObject, ready: RawCondition | undefined, step: ReturnType<typeof reconcilingStep>): RawCondition | undefined {
  const found = ready?.status === 'False' && ready.reason === 'ArtifactFailed' && ready.message.startsWith('kustomization path not found');
  return found && step && readyForGeneration(obj, ready) ? ready : undefined;
}

/** Why Flux has not applied the revision, in its own words: suspended, or Ready=False's reason and message (a
 *  dependency not ready, no artifact yet). `failureShown`: the message says it already. */
function fluxSays(obj: KubeObject, ready: RawCondition | undefined, failureShown: boolean): string {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (spec.suspend === true) return '; the Kustomization is suspended (spec.suspend: true): Flux applies nothing until it is resumed';
  return ready?.status === 'False' && !failureShown ? `; Flux says ${ready.reason}: ${ready.message}` : '';
}

/** A HelmRelease: with `revision`, Current only once the chart version is released and ready; without, kstatus. */
export function helmReleaseStatus(obj: KubeObject, { now, revision }: GitOpsJudgeOptions): StatusResult | undefined {
  if (!revision) return undefined;
  const kstatus = computeStatus(obj, { now });
  if (kstatus.status === 'Terminating' || kstatus.status === 'Unknown') return kstatus;
  const ready = conditionOf(obj, 'Ready');
  const attempted = stringAt(obj, 'lastAttemptedRevision');
  const released = latestRelease(obj);
  const attemptedMatches = revisionMatches(revision, attempted);

  const failure = terminalFailure(obj, ready, HELM_RELEASE_FAILURES);
  // Helm's own error (Ready mirrors the failed release) says more than Stalled's "Failed to upgrade after 1 attempt(s)".
  if (attemptedMatches && failure) return failed(failure.reason, `Flux could not release ${attempted}: ${failure.reason}: ${failure.message}`);
  if (attemptedMatches && kstatus.status === 'Failed') return failed('Stalled', `Flux could not release ${attempted}: ${kstatus.message}`);
  if (attemptedMatches) {
    const releasedAttempt = released === undefined || (released.status === 'deployed' && isVersionOf(attempted, released.chartVersion));
    if (releasedAttempt && kstatus.status === 'Current' && ready?.status === 'True' && readyForGeneration(obj, ready))
      return current(ready.message || `Released ${attempted}`);
    return inProgress(ready?.reason || 'Progressing', `Flux is releasing ${attempted}: ${progress(obj, ready, kstatus)}`);
  }
  const shown = released ? `${released.chartName}@${released.chartVersion} (${released.status})` : 'nothing yet';
  const lastAttempt = attempted && !(released && isVersionOf(attempted, released.chartVersion)) ? `; last attempted: ${attempted}` : '';
  return inProgress('RevisionNotApplied', `Flux has not released ${revision.text} yet; released: ${shown}${lastAttempt}`);
}

/** A Ready=False whose reason is one of `reasons`, written for the current generation. */
function terminalFailure(obj: KubeObject, ready: RawCondition | undefined, reasons: ReadonlySet<string>): RawCondition | undefined {
  return ready?.status === 'False' && reasons.has(ready.reason) && readyForGeneration(obj, ready) ? ready : undefined;
}

function failureMessage(failure: RawCondition, attempted: string): string {
  const on = attempted ? ` (revision ${attempted})` : '';
  return `${failure.reason}${on}: ${failure.message}`;
}

/** The condition was written for the object's current spec (fluxcd/pkg stamps every condition it sets). */
function readyForGeneration(obj: KubeObject, ready: RawCondition): boolean {
  const generation = generationOf(obj);
  return ready.observedGeneration === undefined || generation === undefined || ready.observedGeneration === generation;
}

/** What the controller is doing: its Reconciling message, else why kstatus waits, else its Ready condition. */
function progress(obj: KubeObject, ready: RawCondition | undefined, kstatus: StatusResult): string {
  const reconciling = conditionOf(obj, 'Reconciling');
  if (reconciling?.status === 'True' && reconciling.message) return reconciling.message;
  if (kstatus.status !== 'Current') return kstatus.message;
  if (ready?.message) return `${ready.reason ? `${ready.reason}: ` : ''}${ready.message}`;
  return kstatus.message;
}

interface Snapshot {
  version: number;
  status: string;
  chartName: string;
  chartVersion: string;
}

/** The newest snapshot of `status.history` (helm-controller's Snapshots.Latest: the highest version). */
function latestRelease(obj: KubeObject): Snapshot | undefined {
  const history = isRecord(obj.status) && Array.isArray(obj.status.history) ? obj.status.history : [];
  let latest: Snapshot | undefined;
  for (const entry of history) {
    if (!isRecord(entry) || typeof entry.version !== 'number') continue;
    const snapshot = {
      version: entry.version,
      status: typeof entry.status === 'string' ? entry.status : '',
      chartName: typeof entry.chartName === 'string' ? entry.chartName : '',
      chartVersion: typeof entry.chartVersion === 'string' ? entry.chartVersion : '',
    };
    if (!latest || snapshot.version > latest.version) latest = snapshot;
  }
  return latest;
}

/** `1.2.3+0123456789ab` is a build of chart version `1.2.3` (the snapshot may keep either form). */
function isVersionOf(attempted: string, chartVersion: string): boolean {
  return attempted === chartVersion || attempted.startsWith(`${chartVersion}+`) || chartVersion.startsWith(`${attempted}+`);
}
