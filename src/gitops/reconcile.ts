/**
 * The `reconcile` input: ask the GitOps controllers to act now instead of at their next interval, once, at the
 * start, beside the wait (never before it).
 *
 * - Flux, as `flux reconcile kustomization|helmrelease NAME --with-source` does (fluxcd/flux2
 *   cmd/flux/reconcile.go `requestReconciliation`, reconcile_with_source.go): the annotation
 *   `reconcile.fluxcd.io/requestedAt` (fluxcd/pkg apis/meta `ReconcileRequestAnnotation`) set to the time as
 *   RFC 3339, by a merge patch, on the source first and, once the source has handled it (its
 *   `status.lastHandledReconcileAt` changed, as the CLI's `reconciliationHandled` polls), on the object.
 *   Annotated back to back, kustomize-controller would first run the revision it has (a failed one with its
 *   whole health-check timeout) before it sees the new one. The source of a Kustomization is its
 *   `spec.sourceRef` (a GitRepository, OCIRepository or Bucket; other kinds the CLI refuses too); of a
 *   HelmRelease, its `spec.chartRef` (a HelmChart or an OCIRepository) or else the HelmChart helm-controller
 *   made from `spec.chart` (`<namespace>-<name>`, in the namespace of the chart's source) and, as the CLI
 *   does for a HelmChart, that chart's source. A suspended object is left alone (the CLI refuses it; the
 *   judge already warns); a suspended source is not waited for. It needs `get` on the sources to see them
 *   handle the request (without, the object is asked at once). The controller records the value it handled in `status.lastHandledReconcileAt`;
 *   with `revision` the verdict stays the revision's (a reconcile that applies an older commit is not ready).
 * - Argo CD, as its refresh does (argo-cd pkg/apis/application/v1alpha1 `AnnotationKeyRefresh`): the
 *   annotation `argocd.argoproj.io/refresh: normal` on the Application; the controller removes it when done.
 *
 * It needs `patch` on those objects. Asking is a courtesy, never the verdict: a 403 is one warning for the
 * whole run naming the verb and the resources, any other failure a warning naming the object, and the wait
 * goes on either way (the controller acts at its interval).
 */
import { annotate, ApiError, describeFailure, qualifiedResource, resourcePath, type Cluster } from '../kube/index.js';
import type { KubeObject } from '../status/fields.js';
import { isRecord } from '../status/gitops/fields.js';
import { namespaceNameProblem, objectNameProblem } from '../targets/refs.js';
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
 * `requestedAt` is the time as RFC 3339 (the value Flux records as handled). A reference whose namespace or
 * name is none the API server would hold (`..`, `?watch=1`) is left out, said in `skipped`. Pure.
 */
export function reconcileRequests(kind: ParentKind, obj: KubeObject, requestedAt: string, skipped: string[] = []): ReconcileRequest[] {
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
  const referenceAt = (value: unknown, defaultNamespace: string, field: string) => {
    const ref = readReference(value, defaultNamespace);
    const problem = ref && (namespaceNameProblem(ref.namespace) ?? objectNameProblem(ref.name));
    if (!problem) return ref;
    skipped.push(`the ${field} of ${kind} ${namespace ? `${namespace}/` : ''}${name}: ${problem}`);
    return undefined;
  };
  if (kind === 'Kustomization') {
    const ref = referenceAt(spec.sourceRef, namespace, 'spec.sourceRef');
    if (ref && KUSTOMIZATION_SOURCES.has(ref.kind)) sources.push(source(FLUX_SOURCE_GROUP, ref));
    return [...sources, { group: 'kustomize.toolkit.fluxcd.io', kind, namespace, name, annotations: request }];
  }
  const chartRef = referenceAt(spec.chartRef, namespace, 'spec.chartRef');
  if (chartRef) {
    if (CHART_REF_SOURCES.has(chartRef.kind)) sources.push(source(FLUX_SOURCE_GROUP, chartRef));
  } else {
    // helm-controller's HelmChart for `spec.chart`, in its source's namespace; its source is in that namespace too.
    const chart = isRecord(spec.chart) && isRecord(spec.chart.spec) ? spec.chart.spec : {};
    const chartSource = referenceAt(chart.sourceRef, namespace, 'spec.chart.spec.sourceRef');
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
function readReference(value: unknown, defaultNamespace: string): Reference | undefined {
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
  /** Sleeps on the run's clock between reads of a source that has not handled the request yet; without it the
   *  objects are annotated right after their sources (no waiting). */
  sleep?: (ms: number) => Promise<void>;
}

/** How often a source annotated is read until it has handled the request (the flux CLI polls every 2 s). */
export const SOURCE_POLL_MS = 500;

/**
 * Annotates every object `reconcileRequests` names, each once: the sources first, then, once each source has
 * handled the request (its `status.lastHandledReconcileAt` changed: it has fetched the new revision, or failed
 * to), the objects. Warns as the module header says, never throws.
 */
export async function requestReconciliation(cluster: Cluster, options: ReconcileOptions): Promise<void> {
  const requestedAt = new Date(options.now).toISOString();
  const unique = new Map<string, ReconcileRequest>();
  const skipped: string[] = [];
  for (const { kind, obj } of options.parents)
    for (const request of reconcileRequests(kind, obj, requestedAt, skipped))
      unique.set(JSON.stringify([request.group, request.kind, request.namespace, request.name]), request);
  for (const problem of skipped) options.warn(`Not asked to reconcile now: ${problem}`);
  const requests = [...unique.values()];
  const run: Asking = { cluster, options, forbidden: new Set(), asked: [] };
  const sources = await annotateAll(run, requests.filter(isFluxSource));
  if (options.sleep && sources.length > 0) {
    options.say(`kubewait: asked Flux to fetch the sources now: ${run.asked.join(', ')}; the rest once they have`);
    await Promise.all(sources.map((source) => untilHandled(run, source, options.sleep!)));
  }
  await annotateAll(
    run,
    requests.filter((request) => !isFluxSource(request)),
  );
  if (run.asked.length > 0) options.say(`kubewait: asked the GitOps controllers to reconcile now: ${run.asked.join(', ')}`);
  if (run.forbidden.size > 0)
    options.warn(
      `Not asked to reconcile now: patch is forbidden (403) on ${[...run.forbidden].join(', ')}. ` +
        'Grant the step the patch verb on them (README, "GitOps: Flux and Argo CD"), or set reconcile: false; ' +
        'the wait goes on, and the controller acts at its interval.',
    );
}

const isFluxSource = (request: ReconcileRequest) => request.group === FLUX_SOURCE_GROUP;

interface Asking {
  cluster: Cluster;
  options: ReconcileOptions;
  forbidden: Set<string>;
  asked: string[];
}

/** A source annotated: where to read it, and the request it had handled before (to see it handle this one). */
interface AnnotatedSource {
  path: string;
  handledBefore: string;
}

/** Annotates `requests` in order; the ones annotated, with where to read them and what they had handled. */
async function annotateAll({ cluster, options, forbidden, asked }: Asking, requests: ReconcileRequest[]): Promise<AnnotatedSource[]> {
  const annotated: AnnotatedSource[] = [];
  for (const request of requests) {
    if (options.signal.aborted) return annotated;
    const described = `${request.kind} ${request.namespace ? `${request.namespace}/` : ''}${request.name}`;
    const resolution = cluster.discovery.resolve({ type: `${request.kind}.${request.group}` });
    if (!resolution.ok) {
      options.warn(`Not asked to reconcile now: ${described}: the API server does not serve ${request.kind}.${request.group}.`);
      continue;
    }
    try {
      const patched = await annotate(cluster.client, resolution.type, request.namespace, request.name, request.annotations, options.signal);
      asked.push(described);
      // A suspended source handles nothing: the object is asked without waiting for it.
      if (!isRecord(patched) || (isRecord(patched.spec) && patched.spec.suspend === true)) continue;
      const path = `${resourcePath(resolution.type, request.namespace)}/${encodeURIComponent(request.name)}`;
      annotated.push({ path, handledBefore: lastHandled(patched) });
    } catch (error) {
      if (options.signal.aborted) return annotated;
      const where = request.namespace ? `${qualifiedResource(resolution.type)} in namespace ${request.namespace}` : qualifiedResource(resolution.type);
      if (error instanceof ApiError && error.status === 403) forbidden.add(where);
      else options.warn(`Not asked to reconcile now: ${described}: ${describeFailure(error, cluster.server)}`);
    }
  }
  return annotated;
}

/** Until the source's `lastHandledReconcileAt` changed, the wait is over, or it cannot be read (then the
 *  object is asked anyway: asking is a courtesy). */
async function untilHandled({ cluster, options }: Asking, source: AnnotatedSource, sleep: (ms: number) => Promise<void>): Promise<void> {
  const aborted = new Promise<void>((resolve) => options.signal.addEventListener('abort', () => resolve(), { once: true }));
  while (!options.signal.aborted) {
    await Promise.race([sleep(SOURCE_POLL_MS), aborted]);
    if (options.signal.aborted) return;
    try {
      if (lastHandled(await cluster.client.get(source.path, {}, { signal: options.signal })) !== source.handledBefore) return;
    } catch {
      return;
    }
  }
}

function lastHandled(obj: unknown): string {
  const status = isRecord(obj) && isRecord(obj.status) ? obj.status : {};
  return typeof status.lastHandledReconcileAt === 'string' ? status.lastHandledReconcileAt : '';
}
