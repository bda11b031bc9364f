/**
 * The `reconcile` input: ask the GitOps controllers to act now instead of at their next interval, once, at the
 * start, beside the wait (never before it).
 *
 * - Flux, as `flux reconcile kustomization|helmrelease NAME --with-source` does (fluxcd/flux2
 *   cmd/flux/reconcile.go `requestReconciliation`, reconcile_with_source.go): the annotation
 *   `reconcile.fluxcd.io/requestedAt` (fluxcd/pkg apis/meta `ReconcileRequestAnnotation`) set to the time as
 *   RFC 3339, by a merge patch, on the source first and then on the object. The source of a Kustomization is
 *   its `spec.sourceRef` (a GitRepository, OCIRepository or Bucket; other kinds the CLI refuses too); of a
 *   HelmRelease, its `spec.chartRef` (a HelmChart or an OCIRepository) or else the HelmChart helm-controller
 *   made from `spec.chart` (`<namespace>-<name>`, in the namespace of the chart's source) and, as the CLI
 *   does for a HelmChart, that chart's source. A suspended object is left alone (the CLI refuses it; the
 *   judge already warns). The controller records the value it handled in `status.lastHandledReconcileAt`;
 *   with `revision` the verdict stays the revision's (a reconcile that applies an older commit is not ready).
 * - Argo CD, as its refresh does (argo-cd pkg/apis/application/v1alpha1 `AnnotationKeyRefresh`): the
 *   annotation `argocd.argoproj.io/refresh: normal` on the Application; the controller removes it when done.
 *
 * It needs `patch` on those objects. Asking is a courtesy, never the verdict: a 403 is one warning for the
 * whole run naming the verb and the resources, any other failure a warning naming the object, and the wait
 * goes on either way (the controller acts at its interval).
 */
import { annotate, ApiError, describeFailure, qualifiedResource, type Cluster } from '../kube/index.js';
import type { KubeObject } from '../status/fields.js';
import { isRecord } from '../status/gitops/fields.js';
import type { ParentKind } from './inventory.js';

/** fluxcd/pkg apis/meta ReconcileRequestAnnotation. */
export const FLUX_RECONCILE_REQUEST = 'reconcile.fluxcd.io/requestedAt';
/** argo-cd v1alpha1 AnnotationKeyRefresh, and its RefreshTypeNormal. */
export const ARGO_REFRESH = 'argocd.argoproj.io/refresh';

const FLUX_SOURCE_GROUP = 'source.toolkit.fluxcd.io';
/** The sources `flux reconcile ... --with-source` reconciles, by what refers to them. */
const KUSTOMIZATION_SOURCES = new Set(['GitRepository', 'OCIRepository', 'Bucket']);
const CHART_REF_SOURCES = new Set(['HelmChart', 'OCIRepository']);
const HELM_CHART_SOURCES = new Set(['HelmRepository', 'GitRepository', 'Bucket']);

/** One object to annotate: its kind and group (resolved through discovery), where it is, and what to set. */
export interface ReconcileRequest {
  group: string;
  kind: string;
  namespace: string;
  name: string;
  annotations: Record<string, string>;
}

/**
 * What to annotate to have `obj` (a GitOps parent of `kind`) reconciled now, sources first, as the CLIs do.
 * `requestedAt` is the time as RFC 3339 (the value Flux records as handled). Pure.
 */
export function reconcileRequests(kind: ParentKind, obj: KubeObject, requestedAt: string): ReconcileRequest[] {
  const metadata = isRecord(obj.metadata) ? obj.metadata : {};
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  if (!name) return [];
  if (kind === 'Application') return [{ group: 'argoproj.io', kind, namespace, name, annotations: { [ARGO_REFRESH]: 'normal' } }];
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (spec.suspend === true) return [];
  const request = { [FLUX_RECONCILE_REQUEST]: requestedAt };
  const source = (group: string, ref: Reference) => ({ group, kind: ref.kind, namespace: ref.namespace, name: ref.name, annotations: request });
  const sources: ReconcileRequest[] = [];
  if (kind === 'Kustomization') {
    const ref = referenceAt(spec.sourceRef, namespace);
    if (ref && KUSTOMIZATION_SOURCES.has(ref.kind)) sources.push(source(FLUX_SOURCE_GROUP, ref));
    return [...sources, { group: 'kustomize.toolkit.fluxcd.io', kind, namespace, name, annotations: request }];
  }
  const chartRef = referenceAt(spec.chartRef, namespace);
  if (chartRef) {
    if (CHART_REF_SOURCES.has(chartRef.kind)) sources.push(source(FLUX_SOURCE_GROUP, chartRef));
  } else {
    // helm-controller's HelmChart for `spec.chart`, in its source's namespace; its source is in that namespace too.
    const chart = isRecord(spec.chart) && isRecord(spec.chart.spec) ? spec.chart.spec : {};
    const chartSource = referenceAt(chart.sourceRef, namespace);
    if (chartSource) {
      if (HELM_CHART_SOURCES.has(chartSource.kind)) sources.push(source(FLUX_SOURCE_GROUP, chartSource));
      sources.push(source(FLUX_SOURCE_GROUP, { kind: 'HelmChart', namespace: chartSource.namespace, name: `${namespace}-${name}` }));
    }
  }
  return [...sources, { group: 'helm.toolkit.fluxcd.io', kind, namespace, name, annotations: request }];
}

interface Reference {
  kind: string;
  name: string;
  namespace: string;
}

/** A Flux cross-namespace reference (`kind`, `name`, optional `namespace`: the referrer's by default). */
function referenceAt(value: unknown, defaultNamespace: string): Reference | undefined {
  if (!isRecord(value) || typeof value.kind !== 'string' || typeof value.name !== 'string' || !value.name) return undefined;
  return { kind: value.kind, name: value.name, namespace: typeof value.namespace === 'string' && value.namespace ? value.namespace : defaultNamespace };
}

export interface ReconcileOptions {
  /** The objects found as targets, each with its GitOps kind. */
  parents: Array<{ kind: ParentKind; obj: KubeObject }>;
  /** The time of the request, epoch milliseconds (the run's clock). */
  now: number;
  /** Aborted when the wait is over: a request still on its way no longer matters. */
  signal: AbortSignal;
  warn: (message: string) => void;
  say: (line: string) => void;
}

/** Annotates every object `reconcileRequests` names, each once; warns as the module header says, never throws. */
export async function requestReconciliation(cluster: Cluster, options: ReconcileOptions): Promise<void> {
  const requestedAt = new Date(options.now).toISOString();
  const unique = new Map<string, ReconcileRequest>();
  for (const { kind, obj } of options.parents)
    for (const request of reconcileRequests(kind, obj, requestedAt))
      unique.set(JSON.stringify([request.group, request.kind, request.namespace, request.name]), request);
  const forbidden = new Set<string>();
  const asked: string[] = [];
  // In order, sources first: the controller of the object then finds the source's new artifact.
  for (const request of unique.values()) {
    if (options.signal.aborted) return;
    const described = `${request.kind} ${request.namespace ? `${request.namespace}/` : ''}${request.name}`;
    const resolution = cluster.discovery.resolve({ type: `${request.kind}.${request.group}` });
    if (!resolution.ok) {
      options.warn(`Not asked to reconcile now: ${described}: the API server does not serve ${request.kind}.${request.group}.`);
      continue;
    }
    try {
      await annotate(cluster.client, resolution.type, request.namespace, request.name, request.annotations, options.signal);
      asked.push(described);
    } catch (error) {
      if (options.signal.aborted) return;
      const where = request.namespace ? `${qualifiedResource(resolution.type)} in namespace ${request.namespace}` : qualifiedResource(resolution.type);
      if (error instanceof ApiError && error.status === 403) forbidden.add(where);
      else options.warn(`Not asked to reconcile now: ${described}: ${describeFailure(error, cluster.server)}`);
    }
  }
  if (asked.length > 0) options.say(`kubewait: asked the GitOps controllers to reconcile now: ${asked.join(', ')}`);
  if (forbidden.size > 0)
    options.warn(
      `Not asked to reconcile now: patch is forbidden (403) on ${[...forbidden].join(', ')}. ` +
        'Grant the step the patch verb on them (README, "GitOps: Flux and Argo CD"), or set reconcile: false; ' +
        'the wait goes on, and the controller acts at its interval.',
    );
}
