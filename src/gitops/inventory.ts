/**
 * A GitOps parent's inventory: the objects its controller applied, as targets. No I/O.
 *
 * - Flux Kustomization: `status.inventory.entries[]`, each `{ id, v }` with `id` as cli-utils' ObjMetadata
 *   writes it, `<namespace>_<name>_<group>_<kind>` (an empty namespace for cluster-scoped objects, an empty
 *   group for the core API, a `:` of the name as `__`), and `v` the version it was applied at
 *   (kustomize-controller api/v1 inventory_types.go, fluxcd/cli-utils pkg/object/objmetadata.go).
 * - Flux HelmRelease: the objects of its Helm release (read by the release wing, src/release/, where
 *   `helmReleaseStorage` says it is stored), as `release` reads them.
 * - Argo CD Application: `status.resources[]` (ResourceStatus: group, version, kind, namespace, name), less
 *   the hooks (`hook: true`, run once per sync and then deleted) and the objects Argo CD only keeps to prune
 *   (`requiresPruning: true`, no longer in Git).
 *
 * When it is taken (`inventoryReady`): only the inventory of the revision the step shipped says anything about
 * it. kustomize-controller v1.9.6 (internal/controller/kustomization_controller.go `reconcile`) writes
 * `lastAttemptedRevision` at "Building manifests", *before* it builds and applies; the inventory it applied
 * is written later, and every status patch is two writes, the conditions first (fluxcd/pkg runtime/patch).
 * So a Kustomization's inventory is the revision R's once
 * - `lastAppliedRevision` is R (the final write, with the inventory), or
 * - the newest `status.history` snapshot is R's (`metadata.revision`) with any outcome but
 *   ReconciliationFailed (an apply that failed leaves the previous inventory; a failed health check or prune
 *   keeps the new one), written with the inventory, or
 * - the Reconciling step is "Running health checks for revision R" and the inventory write after those
 *   conditions has landed: `InventorySightings` tells, from what the run saw before (a different inventory
 *   at an earlier step of R, or the same one at that step `SETTLE_MS` ago); the status alone cannot.
 * On a first deploy there is no inventory before that write: none is taken. helm-controller sets
 * `lastAttemptedRevision` when it starts releasing a chart version; Argo CD's `status.resources` follow
 * `status.sync.revision(s)`. Without a `revision`, the inventory is taken once the controller has finished with
 * the object (Flux: Ready True with its final write, or False; Argo CD: Synced).
 *
 * Every id is checked as the step's own names are (targets/refs.ts): a namespace or name Flux or Argo CD would
 * never write (`..`, `?watch=1`, 10,000 characters) is left out, and `inventoryTargets` says which, for one
 * warning that names the parent.
 */
import type { WantedRevision } from '../settings.js';
import type { KubeObject } from '../status/fields.js';
import { conditionOf, isRecord, stringAt, stringsAt } from '../status/gitops/fields.js';
import { reconcilingStep } from '../status/gitops/flux.js';
import { anyRevisionMatches, revisionMatches } from '../status/gitops/revision.js';
import { namespaceNameProblem, objectNameProblem } from '../targets/refs.js';
import type { TargetSpec } from '../targets/index.js';

/** The GitOps kinds that have an inventory, by `group/kind`. */
export type ParentKind = 'Kustomization' | 'HelmRelease' | 'Application';

const PARENTS: ReadonlyMap<string, ParentKind> = new Map([
  ['kustomize.toolkit.fluxcd.io/Kustomization', 'Kustomization'],
  ['helm.toolkit.fluxcd.io/HelmRelease', 'HelmRelease'],
  ['argoproj.io/Application', 'Application'],
]);

/** Which inventory a type has, or undefined for a type that is no GitOps parent. */
export function parentKindOf(group: string, kind: string): ParentKind | undefined {
  return PARENTS.get(`${group}/${kind}`);
}

/** How long the same inventory must be seen at "Running health checks for revision R" to be R's: the
 *  controller writes it right after those conditions (about 40 ms apart on the real controller). */
export const SETTLE_MS = 2_000;

/**
 * What a run saw of its Kustomizations' inventories while Flux worked on the shipped revision: the one thing
 * the status alone cannot tell is whether the inventory write after "Running health checks for revision R"
 * has landed (module header). `now` is the run's clock.
 */
export class InventorySightings {
  private readonly seen = new Map<string, Array<{ inventory: string; atHealthChecks: boolean; at: number }>>();

  constructor(private readonly now: () => number) {}

  /** Whether `obj`, at R's health checks, holds the inventory Flux applied for R; records this sighting. */
  landed(obj: KubeObject, inventory: string, atHealthChecks: boolean): boolean {
    const key = objectKeyOf(obj);
    const sightings = this.seen.get(key) ?? [];
    const now = this.now();
    const landed = atHealthChecks && sightings.some((earlier) => earlier.inventory !== inventory || (earlier.atHealthChecks && now - earlier.at >= SETTLE_MS));
    if (!sightings.some((earlier) => earlier.inventory === inventory && earlier.atHealthChecks === atHealthChecks)) {
      sightings.push({ inventory, atHealthChecks, at: now });
      this.seen.set(key, sightings);
    }
    return landed;
  }

  /** Whether a Kustomization is at the health checks with an inventory not known to be landed: read it again soon. */
  get pending(): boolean {
    return [...this.seen.values()].some((sightings) => sightings.some((s) => s.atHealthChecks));
  }

  /** Forgets a parent whose step moved on from R (what it holds then is told by its status alone). */
  forget(obj: KubeObject): void {
    this.seen.delete(objectKeyOf(obj));
  }
}

/**
 * Whether `obj`'s inventory is that of the revision shipped (or, without one, of a finished reconciliation).
 * `sightings`, kept for the run, lets a Kustomization's inventory be taken during the health checks of the
 * revision (module header); without them it is taken once the revision is applied or its health checks ended.
 */
export function inventoryReady(kind: ParentKind, obj: KubeObject, revision: WantedRevision | undefined, sightings?: InventorySightings): boolean {
  if (kind === 'Kustomization') return revision ? kustomizationInventoryIs(obj, revision, sightings) : kustomizationFinished(obj);
  if (kind === 'HelmRelease') {
    if (!helmReleaseStorage(obj)) return false;
    return revision ? revisionMatches(revision, stringAt(obj, 'lastAttemptedRevision')) : finished(obj);
  }
  if (revision) return anyRevisionMatches(revision, [stringAt(obj, 'sync', 'revision'), ...stringsAt(obj, 'sync', 'revisions')].filter(Boolean));
  return stringAt(obj, 'sync', 'status') === 'Synced';
}

function kustomizationInventoryIs(obj: KubeObject, revision: WantedRevision, sightings: InventorySightings | undefined): boolean {
  const inventory = inventoryText(obj); // undefined on a first deploy until the write that holds it
  if (inventory !== undefined && revisionMatches(revision, stringAt(obj, 'lastAppliedRevision'))) return true;
  const newest = newestHistory(obj);
  if (inventory !== undefined && newest && newest.status !== 'ReconciliationFailed' && revisionMatches(revision, newest.revision)) return true;
  if (!sightings) return false;
  const step = reconcilingStep(obj);
  if (!step || !revisionMatches(revision, step.revision)) {
    sightings.forget(obj);
    return false;
  }
  return sightings.landed(obj, inventory ?? '', step.step === 'Running health checks') && inventory !== undefined;
}

/** Flux finished without a revision to match: Ready False, or Ready True with its final write (the one that
 *  holds the inventory and `lastAppliedRevision`; the conditions come a write earlier). */
function kustomizationFinished(obj: KubeObject): boolean {
  const ready = conditionOf(obj, 'Ready');
  if (ready?.status === 'False') return true;
  if (ready?.status !== 'True' || inventoryText(obj) === undefined) return false;
  const applied = /^Applied revision: (\S+)$/.exec(ready.message)?.[1];
  return applied === undefined || applied === stringAt(obj, 'lastAppliedRevision');
}

/** Flux is done with the object, for better or worse: its Ready condition is True or False. */
function finished(obj: KubeObject): boolean {
  const ready = conditionOf(obj, 'Ready');
  return ready?.status === 'True' || ready?.status === 'False';
}

/** `status.inventory` as text to compare sightings by, undefined when there is none (a first deploy). */
function inventoryText(obj: KubeObject): string | undefined {
  const inventory = isRecord(obj.status) ? obj.status.inventory : undefined;
  return isRecord(inventory) ? JSON.stringify(inventory.entries ?? []) : undefined;
}

/** The newest `status.history` snapshot (fluxcd/pkg apis/meta History.Upsert puts it first): its revision and outcome. */
function newestHistory(obj: KubeObject): { revision: string; status: string } | undefined {
  const history = isRecord(obj.status) && Array.isArray(obj.status.history) ? obj.status.history : [];
  const newest: unknown = history[0];
  if (!isRecord(newest) || !isRecord(newest.metadata) || typeof newest.metadata.revision !== 'string') return undefined;
  return { revision: newest.metadata.revision, status: typeof newest.lastReconciledStatus === 'string' ? newest.lastReconciledStatus : '' };
}

function objectKeyOf(obj: KubeObject): string {
  const metadata = isRecord(obj.metadata) ? obj.metadata : {};
  return JSON.stringify([metadata.namespace ?? '', metadata.name ?? '', metadata.uid ?? '']);
}

/**
 * The objects `obj` applied, as targets (type = kind, with the exact apiVersion, so resolution needs no
 * guess). A HelmRelease has none here: its objects are its Helm release's (`helmReleaseStorage`). Entries
 * whose namespace, name or type is none a controller would write are left out; `warn` gets one warning for
 * them that names the parent.
 */
export function inventoryTargets(kind: ParentKind, obj: KubeObject, warn?: (message: string) => void): TargetSpec[] {
  if (kind === 'HelmRelease') return [];
  const skipped: string[] = [];
  const targets = kind === 'Kustomization' ? fluxInventory(obj, skipped) : argoResources(obj, skipped);
  if (skipped.length > 0) warn?.(skippedWarning(kind, obj, skipped));
  return targets;
}

/** At most this many of the ids left out are quoted in the warning, each cut to this many characters. */
const QUOTED_IDS = 3;
const QUOTED_LENGTH = 80;

function skippedWarning(kind: ParentKind, obj: KubeObject, skipped: string[]): string {
  const metadata = isRecord(obj.metadata) ? obj.metadata : {};
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const quoted = skipped.slice(0, QUOTED_IDS).map((id) => JSON.stringify(id.length > QUOTED_LENGTH ? `${id.slice(0, QUOTED_LENGTH)}...` : id));
  const more = skipped.length > QUOTED_IDS ? ` and ${skipped.length - QUOTED_IDS} more` : '';
  const field = kind === 'Kustomization' ? 'status.inventory' : 'status.resources';
  return (
    `Not judged: ${skipped.length} ${skipped.length === 1 ? 'entry' : 'entries'} of ${field} of ${kind} ${namespace ? `${namespace}/` : ''}${name}: ` +
    `${quoted.join(', ')}${more}: not a valid namespace, name or type (no controller writes such an id).`
  );
}

/**
 * Where a HelmRelease's Helm release is stored: `status.storageNamespace` and the release name of its
 * newest `status.history` snapshot (helm-controller api/v2: Snapshot.Name, the release name it computed
 * from `spec.releaseName` or `[<targetNamespace>-]<name>`). Undefined before the controller wrote them.
 */
export function helmReleaseStorage(obj: KubeObject): { namespace: string; name: string } | undefined {
  const namespace = stringAt(obj, 'storageNamespace');
  const history = isRecord(obj.status) && Array.isArray(obj.status.history) ? obj.status.history : [];
  let newest: { version: number; name: string } | undefined;
  for (const snapshot of history) {
    if (!isRecord(snapshot) || typeof snapshot.version !== 'number' || typeof snapshot.name !== 'string') continue;
    if (!newest || snapshot.version > newest.version) newest = { version: snapshot.version, name: snapshot.name };
  }
  return namespace && newest?.name ? { namespace, name: newest.name } : undefined;
}

function fluxInventory(obj: KubeObject, skipped: string[]): TargetSpec[] {
  const inventory = isRecord(obj.status) ? obj.status.inventory : undefined;
  const entries = isRecord(inventory) && Array.isArray(inventory.entries) ? inventory.entries : [];
  const targets: TargetSpec[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || typeof entry.v !== 'string' || entry.v === '') continue;
    const id = parseObjMetadata(entry.id);
    const valid = id && validTarget(id.group, entry.v, id.kind, id.namespace, id.name);
    if (valid) targets.push(valid);
    else skipped.push(entry.id);
  }
  return targets;
}

/** cli-utils' ParseObjMetadata: the namespace up to the first `_`, kind and group from the end, the name between. */
export function parseObjMetadata(id: string): { namespace: string; name: string; group: string; kind: string } | undefined {
  const first = id.indexOf('_');
  if (first < 0) return undefined;
  const namespace = id.slice(0, first);
  let rest = id.slice(first + 1);
  const lastKind = rest.lastIndexOf('_');
  if (lastKind < 0) return undefined;
  const kind = rest.slice(lastKind + 1);
  rest = rest.slice(0, lastKind);
  const lastGroup = rest.lastIndexOf('_');
  if (lastGroup < 0) return undefined;
  const group = rest.slice(lastGroup + 1);
  const name = rest.slice(0, lastGroup).replaceAll('__', ':');
  return kind && name ? { namespace, name, group, kind } : undefined;
}

function argoResources(obj: KubeObject, skipped: string[]): TargetSpec[] {
  const resources = isRecord(obj.status) && Array.isArray(obj.status.resources) ? obj.status.resources : [];
  const targets: TargetSpec[] = [];
  for (const resource of resources) {
    if (!isRecord(resource) || resource.hook === true || resource.requiresPruning === true) continue;
    const field = (name: string) => (typeof resource[name] === 'string' ? resource[name] : '');
    if (!field('kind') || !field('name') || !field('version')) continue;
    const valid = validTarget(field('group'), field('version'), field('kind'), field('namespace'), field('name'));
    if (valid) targets.push(valid);
    else skipped.push([field('namespace'), field('name'), field('group'), field('kind')].join('_'));
  }
  return targets;
}

/** What the API would accept in a path: a group a DNS subdomain, a version and kind plain words. */
const GROUP = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$/;
const WORD = /^[A-Za-z][A-Za-z0-9]{0,62}$/;

/** A target, or undefined when a part is none the API server would hold (checked as the step's own names are). */
function validTarget(group: string, version: string, kind: string, namespace: string, name: string): TargetSpec | undefined {
  if (group.length > 253 || !GROUP.test(group) || !WORD.test(version) || !WORD.test(kind)) return undefined;
  if ((namespace && namespaceNameProblem(namespace)) || objectNameProblem(name)) return undefined;
  return { type: kind, apiVersion: group ? `${group}/${version}` : version, ...(namespace && { namespace }), name };
}
