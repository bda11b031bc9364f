/**
 * What judging reads of a live object: the one place that knows it. The engine keeps (and judges) only this
 * view of each object it follows, made when the object arrives, never the object as the API server sent
 * it: `metadata.managedFields` alone is often larger than everything judging reads, and a
 * `kubectl.kubernetes.io/last-applied-configuration` annotation is the whole manifest again.
 *
 * Who reads what (keep this list in step with them):
 * - kstatus (`compute.ts`, `kinds/`) and the CI rules: `status`, `metadata.generation`, `deletionTimestamp`,
 *   `creationTimestamp`, a few `spec` scalars per kind (`replicas`, `paused`, `progressDeadlineSeconds`,
 *   `updateStrategy`, `parallelism`, `completions`, `type`, `clusterIP`, ...), never a pod template;
 * - the engine's indexing and the pod diagnosis: `metadata.name`, `uid`, `resourceVersion`, `labels`,
 *   `ownerReferences`, `spec.selector` (workloads.ts);
 * - the opt-out: the `kubewait.io/wait` annotation (opt-out.ts); the suspend and pause warnings: `spec.suspend`,
 *   `spec.paused`;
 * - a CEL health rule (custom resources, health/), a `wait-for: jsonpath=`, the GitOps rules (Flux, Argo CD) and
 *   the progressive-delivery ones (an Argo Rollout's gates and progress, a Flagger Canary's rule, progressive/)
 *   may read any field: for them the whole object is kept, `managedFields` aside.
 * Strings are capped at arrival already (src/kube/json-scanner.ts), so what is kept per object is bounded by
 * the fields kept, whatever the object carries.
 */
import type { KubeObject } from './fields.js';
import { isPlainObject } from './go-format.js';

/** Written by `kubectl apply` (client-side): the whole manifest again, which nothing judged reads. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** An annotation value longer than this is dropped unless the whole object is kept: the annotations judging
 *  reads (`kubewait.io/wait`, `deployment.kubernetes.io/revision`) are a few characters. */
export const MAX_KEPT_ANNOTATION_CHARS = 1024;

/** The pod template (and a CronJob's Job template): the bulk of a workload, read by no rule. */
const TEMPLATE_FIELDS: Readonly<Record<string, string>> = {
  Deployment: 'template',
  ReplicaSet: 'template',
  ReplicationController: 'template',
  StatefulSet: 'template',
  DaemonSet: 'template',
  Job: 'template',
  CronJob: 'jobTemplate',
};

export interface JudgedViewOptions {
  /** The object's kind as discovery names it. */
  kind: string;
  /** A rule that may read any field judges it (CEL, a jsonpath, a GitOps rule): keep everything but `managedFields`. */
  anyField: boolean;
}

/**
 * The view of `object` that judging reads (see above): a shallow copy, the object itself is not changed.
 * Anything that is not an object with `metadata` is returned as it is.
 */
export function judgedView(object: unknown, options: JudgedViewOptions): unknown {
  if (!isPlainObject(object) || !isPlainObject(object.metadata)) return object;
  const view: KubeObject = { ...object, metadata: keptMetadata(object.metadata, options.anyField) };
  const template = options.anyField ? undefined : TEMPLATE_FIELDS[options.kind];
  if (template && isPlainObject(object.spec) && template in object.spec) {
    const { [template]: _template, ...spec } = object.spec;
    view.spec = spec;
  }
  return view;
}

function keptMetadata(metadata: KubeObject, anyField: boolean): KubeObject {
  const { managedFields: _managedFields, ...kept } = metadata;
  if (anyField || !isPlainObject(kept.annotations)) return kept;
  const annotations = Object.entries(kept.annotations).filter(
    ([key, value]) => key !== LAST_APPLIED_ANNOTATION && !(typeof value === 'string' && value.length > MAX_KEPT_ANNOTATION_CHARS),
  );
  return { ...kept, annotations: Object.fromEntries(annotations) };
}
