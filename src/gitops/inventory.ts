/**
 * A GitOps parent's inventory: the objects its controller applied, as targets. Pure.
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
 * it. kustomize-controller sets `lastAttemptedRevision` and the new inventory once it has applied a revision,
 * before its health checks; helm-controller sets `lastAttemptedRevision` when it starts releasing a chart
 * version; Argo CD's `status.resources` follow `status.sync.revision(s)`. Without a
 * `revision`, the inventory is taken once the controller has finished with the object (Flux: Ready True or
 * False; Argo CD: Synced).
 */
import type { WantedRevision } from '../settings.js';
import type { KubeObject } from '../status/fields.js';
import { conditionOf, isRecord, stringAt, stringsAt } from '../status/gitops/fields.js';
import { anyRevisionMatches, revisionMatches } from '../status/gitops/revision.js';
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

/** Whether `obj`'s inventory is that of the revision shipped (or, without one, of a finished reconciliation). */
export function inventoryReady(kind: ParentKind, obj: KubeObject, revision: WantedRevision | undefined): boolean {
  if (kind === 'Kustomization') {
    if (revision) return revisionMatches(revision, stringAt(obj, 'lastAttemptedRevision')) || revisionMatches(revision, stringAt(obj, 'lastAppliedRevision'));
    return finished(obj);
  }
  if (kind === 'HelmRelease') {
    if (!helmReleaseStorage(obj)) return false;
    return revision ? revisionMatches(revision, stringAt(obj, 'lastAttemptedRevision')) : finished(obj);
  }
  if (revision) return anyRevisionMatches(revision, [stringAt(obj, 'sync', 'revision'), ...stringsAt(obj, 'sync', 'revisions')].filter(Boolean));
  return stringAt(obj, 'sync', 'status') === 'Synced';
}

/** Flux is done with the object, for better or worse: its Ready condition is True or False. */
function finished(obj: KubeObject): boolean {
  const ready = conditionOf(obj, 'Ready')?.status;
  return ready === 'True' || ready === 'False';
}

/**
 * The objects `obj` applied, as targets (type = kind, with the exact apiVersion, so resolution needs no
 * guess). A HelmRelease has none here: its objects are its Helm release's (`helmReleaseStorage`).
 */
export function inventoryTargets(kind: ParentKind, obj: KubeObject): TargetSpec[] {
  if (kind === 'HelmRelease') return [];
  return kind === 'Kustomization' ? fluxInventory(obj) : argoResources(obj);
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

function fluxInventory(obj: KubeObject): TargetSpec[] {
  const inventory = isRecord(obj.status) ? obj.status.inventory : undefined;
  const entries = isRecord(inventory) && Array.isArray(inventory.entries) ? inventory.entries : [];
  const targets: TargetSpec[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || typeof entry.v !== 'string' || entry.v === '') continue;
    const id = parseObjMetadata(entry.id);
    if (id) targets.push(target(id.group, entry.v, id.kind, id.namespace, id.name));
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

function argoResources(obj: KubeObject): TargetSpec[] {
  const resources = isRecord(obj.status) && Array.isArray(obj.status.resources) ? obj.status.resources : [];
  const targets: TargetSpec[] = [];
  for (const resource of resources) {
    if (!isRecord(resource) || resource.hook === true || resource.requiresPruning === true) continue;
    const field = (name: string) => (typeof resource[name] === 'string' ? resource[name] : '');
    if (!field('kind') || !field('name') || !field('version')) continue;
    targets.push(target(field('group'), field('version'), field('kind'), field('namespace'), field('name')));
  }
  return targets;
}

function target(group: string, version: string, kind: string, namespace: string, name: string): TargetSpec {
  return { type: kind, apiVersion: group ? `${group}/${version}` : version, ...(namespace && { namespace }), name };
}
