/**
 * Which revision `kubectl rollout undo` restores, and the patch it sends, read from kubectl's
 * pkg/polymorphichelpers/rollback.go (kubernetes/kubectl @dee3483). Pure: the objects come in as read.
 *
 * - Deployment (`DeploymentRollbacker`): its ReplicaSets (those it controls) by the annotation
 *   `deployment.kubernetes.io/revision`; the second highest is the previous revision. Skipped when that
 *   ReplicaSet's template equals the Deployment's, the `pod-template-hash` label aside (`equalIgnoreHash`);
 *   refused when the Deployment is paused. The patch is a JSON patch replacing `spec.template` (the hash
 *   label removed) and `metadata.annotations` (the Deployment's own revision annotations kept, the rest
 *   from the ReplicaSet: `annotationsToSkip`). kubewait adds a `test` of `metadata.generation` first, so a
 *   deploy that started since the object was read makes the patch fail rather than be undone.
 * - StatefulSet and DaemonSet (`StatefulSetRollbacker`, `DaemonSetRollbacker`): their ControllerRevisions
 *   (those they control) by `.revision`; the second highest is the previous one. Its `data` is the strategic
 *   merge patch `{"spec":{"template":{..., "$patch":"replace"}}}`, sent as it is; skipped when it equals the
 *   current template (`statefulsetMatch`, `daemonSetMatch`). kubewait adds `metadata.resourceVersion`, so a
 *   change since the read is a 409 rather than undone.
 */
import { isDeepStrictEqual } from 'node:util';

export const DEPLOYMENT_REVISION = 'deployment.kubernetes.io/revision';
const POD_TEMPLATE_HASH = 'pod-template-hash';

/** kubectl's `annotationsToSkip`: kept from the Deployment, never copied from the ReplicaSet. */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  DEPLOYMENT_REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/** The parts of an object this file reads. */
export interface ObjectLike {
  metadata?: {
    name?: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ uid?: string; controller?: boolean }>;
  };
  spec?: { template?: unknown; paused?: boolean; selector?: unknown };
}

export interface ControllerRevisionLike extends ObjectLike {
  revision?: number;
  data?: unknown;
}

/** What to do with one workload: restore `to` from `from` with `patch`, or nothing, with the reason. */
export type RevisionPlan<Patch> =
  { kind: 'restore'; from: number; to: number; patch: Patch } | { kind: 'unchanged' | 'refused'; reason: string; from?: number; to?: number };

/** `metav1.IsControlledBy`: its controller ownerReference is `owner`. */
export function isControlledBy(object: ObjectLike, owner: ObjectLike): boolean {
  const uid = owner.metadata?.uid;
  return uid !== undefined && (object.metadata?.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === uid);
}

function revisionOf(replicaSet: ObjectLike): number | undefined {
  const text = replicaSet.metadata?.annotations?.[DEPLOYMENT_REVISION];
  if (text === undefined) return 0; // kubectl's deploymentutil.Revision: no annotation is revision 0
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** `DeploymentRollbacker.Rollback` with toRevision 0 on `deployment` and every ReplicaSet listed by its selector. */
export function deploymentRollback(deployment: ObjectLike, replicaSets: ObjectLike[]): RevisionPlan<object[]> {
  const owned = replicaSets
    .filter((rs) => isControlledBy(rs, deployment))
    .map((rs) => ({ rs, revision: revisionOf(rs) }))
    .filter((entry): entry is { rs: ObjectLike; revision: number } => entry.revision !== undefined)
    .sort((a, b) => b.revision - a.revision);
  const [latest, previous] = owned;
  if (!latest || !previous) return { kind: 'unchanged', reason: 'no previous revision to roll back to' };
  const from = latest.revision;
  const to = previous.revision;
  if (deployment.spec?.paused) return { kind: 'refused', reason: 'it is paused: resume it first (kubectl rollout resume)', from, to };
  const template = withoutHashLabel(previous.rs.spec?.template);
  if (isDeepStrictEqual(template, withoutHashLabel(deployment.spec?.template))) {
    return { kind: 'unchanged', reason: `the current template already matches revision ${to}`, from, to };
  }
  const annotations: Record<string, string> = {};
  for (const [key, value] of Object.entries(deployment.metadata?.annotations ?? {})) if (ANNOTATIONS_TO_SKIP.has(key)) annotations[key] = value;
  for (const [key, value] of Object.entries(previous.rs.metadata?.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.has(key)) annotations[key] = value;
  const patch = [
    ...(deployment.metadata?.generation !== undefined ? [{ op: 'test', path: '/metadata/generation', value: deployment.metadata.generation }] : []),
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  return { kind: 'restore', from, to, patch };
}

/** A pod template without the `pod-template-hash` label (a copy). */
function withoutHashLabel(template: unknown): unknown {
  if (!isRecord(template)) return template;
  const metadata = isRecord(template.metadata) ? template.metadata : undefined;
  if (!metadata || !isRecord(metadata.labels) || !(POD_TEMPLATE_HASH in metadata.labels)) return template;
  const { [POD_TEMPLATE_HASH]: _hash, ...labels } = metadata.labels;
  return { ...template, metadata: { ...metadata, labels } };
}

/** `StatefulSetRollbacker`/`DaemonSetRollbacker.Rollback` with toRevision 0 on `workload` and every ControllerRevision listed by its selector. */
export function controllerRevisionRollback(workload: ObjectLike, history: ControllerRevisionLike[]): RevisionPlan<object> {
  const owned = history
    .filter((revision) => isControlledBy(revision, workload) && typeof revision.revision === 'number')
    .sort((a, b) => b.revision! - a.revision!);
  const [latest, previous] = owned;
  if (!latest || !previous) return { kind: 'unchanged', reason: 'no previous revision to roll back to' };
  const from = latest.revision!;
  const to = previous.revision!;
  const data = previous.data;
  if (!isRecord(data) || !isRecord(data.spec) || !isRecord(data.spec.template)) {
    return { kind: 'refused', reason: `revision ${to} records no pod template`, from, to };
  }
  const current = { spec: { template: { ...(isRecord(workload.spec?.template) ? workload.spec.template : {}), $patch: 'replace' } } };
  if (isDeepStrictEqual(data, current)) return { kind: 'unchanged', reason: `the current template already matches revision ${to}`, from, to };
  const resourceVersion = workload.metadata?.resourceVersion;
  return { kind: 'restore', from, to, patch: { ...data, ...(resourceVersion && { metadata: { resourceVersion } }) } };
}

/**
 * A `spec.selector` (matchLabels, matchExpressions) as kubectl's selector text, for the LIST of the
 * ReplicaSets or ControllerRevisions (`metav1.LabelSelectorAsSelector`). Undefined for one it cannot say.
 */
export function selectorText(selector: unknown): string | undefined {
  if (!isRecord(selector)) return undefined;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(isRecord(selector.matchLabels) ? selector.matchLabels : {})) parts.push(`${key}=${String(value)}`);
  for (const expression of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (!isRecord(expression) || typeof expression.key !== 'string') return undefined;
    const values = Array.isArray(expression.values) ? expression.values.map(String).join(',') : '';
    if (expression.operator === 'In') parts.push(`${expression.key} in (${values})`);
    else if (expression.operator === 'NotIn') parts.push(`${expression.key} notin (${values})`);
    else if (expression.operator === 'Exists') parts.push(expression.key);
    else if (expression.operator === 'DoesNotExist') parts.push(`!${expression.key}`);
    else return undefined;
  }
  return parts.join(',');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
