/**
 * After the wait: why the workloads that did not get there are not there, with the tails of their failing
 * containers' logs. For each target not done (a Deployment, StatefulSet, DaemonSet, ReplicaSet, Job or Pod,
 * at most `maxTargets`): one LIST of the object by name, per namespace one LIST of pods and of Warning events (and of
 * ReplicaSets / ControllerRevisions when a target needs them), then one shared, time-boxed round of log reads.
 * Never fatal: what cannot be read becomes a warning and a shorter explanation.
 */
import type { KubeClient } from '../kube/client.js';
import { ApiError, listPages } from '../kube/index.js';
import { readContainerLogs, type LogRead } from '../kube/logs.js';
import { diagnosePods } from '../status/diagnose.js';
import { explainFailedJob, explainFailedPod } from '../status/explain-failure.js';
import { podsToExplain, type ContainerToExplain, type PodToExplain } from '../status/explain-pods.js';
import type { ContainerLogView, TargetExplanation, TargetReport } from '../result.js';
import type { Diagnosis } from '../status/types.js';
import { realTime, timeoutSignal, type Time } from '../time.js';
import { withKind } from '../kube/index.js';

export interface ExplainOptions {
  /** Lines of each failing container's log (the `log-lines` input); 0 reads no logs (`logs: false`). */
  logLines: number;
  /** The registered secret masks, applied to every log text and API message. */
  mask: (text: string) => string;
  /** The run's cancellation. */
  signal?: AbortSignal;
  /** Time for all log reads together (default 5 s); the GETs and LISTs have as long again. */
  budgetMs?: number;
  /** The run's clock and timers (default: real time). The decisions run on it: how long the first LISTs may go
   *  unanswered, the LISTs' budget and the log budget. Each request's own timeout is a real-time transport guard. */
  time?: Time;
  /** At most this many targets are explained (default 10: about what gets an annotation). */
  maxTargets?: number;
  /** Pods per target (default 3). */
  maxPods?: number;
}

export interface ExplainResult {
  /** Aligned with the targets given: undefined for those not explained (done, other kinds, over the cap). */
  explanations: Array<TargetExplanation | undefined>;
  /** Aligned with the targets: the pod diagnosis of a workload explained by its pods (not a failed Job or Pod,
   *  whose failure says it), for a target the engine had not diagnosed yet (one decided at its first look). */
  diagnoses: Array<Diagnosis | undefined>;
  warnings: string[];
}

type Target = Pick<TargetReport, 'kind' | 'namespace' | 'name' | 'status' | 'done'>;

/** Where each explained kind lives; their API versions are stable, so no discovery is needed. */
const PATHS: Record<string, { apiVersion: string; base: string; resource: string }> = {
  Deployment: { apiVersion: 'apps/v1', base: '/apis/apps/v1', resource: 'deployments' },
  StatefulSet: { apiVersion: 'apps/v1', base: '/apis/apps/v1', resource: 'statefulsets' },
  DaemonSet: { apiVersion: 'apps/v1', base: '/apis/apps/v1', resource: 'daemonsets' },
  ReplicaSet: { apiVersion: 'apps/v1', base: '/apis/apps/v1', resource: 'replicasets' },
  Job: { apiVersion: 'batch/v1', base: '/apis/batch/v1', resource: 'jobs' },
  Pod: { apiVersion: 'v1', base: '/api/v1', resource: 'pods' },
};

const DEFAULT_MAX_TARGETS = 10;
const DEFAULT_BUDGET_MS = 5_000;
/** How long the first LISTs after the wait may go unanswered (a healthy server answers in milliseconds; a
 *  server that hung during the wait answers nothing): the step ends within about a second of its deadline. */
const FIRST_ANSWER_MS = 750;

interface Namespace {
  pods: unknown[];
  events: unknown[];
  replicaSets: unknown[];
  controllerRevisions: unknown[];
}

export async function explainTargets(client: KubeClient, targets: readonly Target[], options: ExplainOptions): Promise<ExplainResult> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const chosen = targets
    .map((target, index) => ({ target, index }))
    .filter(({ target }) => !target.done && target.name !== '' && PATHS[target.kind] !== undefined && target.status !== 'NotFound')
    .slice(0, options.maxTargets ?? DEFAULT_MAX_TARGETS);
  if (chosen.length === 0) return { explanations: targets.map(() => undefined), diagnoses: targets.map(() => undefined), warnings: [] };

  // A server that answers none of the first LISTs within FIRST_ANSWER_MS after the wait is hung or gone:
  // the step is not held past its deadline for the whole budget to find that out again.
  // Both bounds are decisions, so they run on the run's clock (a test reaches them on virtual time); the
  // requests' own `timeoutMs` stays a real-time transport guard.
  const time = options.time ?? realTime;
  const unanswered = timeoutSignal(time, FIRST_ANSWER_MS);
  const budget = timeoutSignal(time, budgetMs);
  const signal = AbortSignal.any([...(options.signal ? [options.signal] : []), budget.signal, unanswered.signal]);
  const request = { signal, timeoutMs: budgetMs };
  try {
    return await explainChosen(client, targets, chosen, options, { signal, request, unanswered, budgetMs, time });
  } finally {
    unanswered.clear();
    budget.clear();
  }
}

async function explainChosen(
  client: KubeClient,
  targets: readonly Target[],
  chosen: Array<{ target: Target; index: number }>,
  options: ExplainOptions,
  {
    signal,
    request,
    unanswered,
    budgetMs,
    time,
  }: { signal: AbortSignal; request: { signal: AbortSignal; timeoutMs: number }; unanswered: { clear(): void }; budgetMs: number; time: Time },
): Promise<ExplainResult> {
  const warnings: string[] = [];
  const explanations: Array<TargetExplanation | undefined> = targets.map(() => undefined);
  const diagnoses: Array<Diagnosis | undefined> = targets.map(() => undefined);
  const warn = (message: string) => {
    const masked = options.mask(message);
    if (!warnings.includes(masked)) warnings.push(masked);
  };

  // A LIST filtered by name, not a GET: the wait needed `list` on these types already, and `get` is not asked for.
  const objects = await Promise.all(
    chosen.map(async ({ target }) => {
      const where = PATHS[target.kind]!;
      const items: unknown[] = [];
      try {
        await listPages(
          client,
          `${where.base}/namespaces/${encodeURIComponent(target.namespace)}/${where.resource}`,
          (page) => items.push(...page.map((item) => withKind(item, where.apiVersion, target.kind))),
          { ...request, fieldSelector: `metadata.name=${target.name}` },
          () => (items.length = 0),
        );
      } catch {
        if (!signal.aborted) unanswered.clear(); // an error is an answer too (a 403 says the server is there)
        return undefined; // unreadable: the wait's own report says why
      }
      unanswered.clear();
      return items[0]; // undefined when gone
    }),
  );

  const namespaces = new Map<string, Promise<Namespace>>();
  const namespaceData = (namespace: string) => {
    let data = namespaces.get(namespace);
    if (!data) {
      const kinds = new Set(chosen.filter(({ target }) => target.namespace === namespace).map(({ target }) => target.kind));
      data = listNamespace(client, namespace, kinds, request, warn);
      namespaces.set(namespace, data);
    }
    return data;
  };

  const explained = await Promise.all(
    chosen.map(async ({ target, index }, i) => {
      const object = objects[i];
      if (object === undefined) return undefined;
      const data = await namespaceData(target.namespace);
      const maxPods = options.maxPods;
      if (target.status === 'Failed' && (target.kind === 'Job' || target.kind === 'Pod')) {
        const failure = target.kind === 'Job' ? explainFailedJob(object, data.pods, data.events, { maxPods }) : explainFailedPod(object, data.events);
        return { pods: failure.failedPods, failure };
      }
      const pods = podsToExplain({
        target: object,
        pods: data.pods,
        replicaSets: data.replicaSets,
        controllerRevisions: data.controllerRevisions,
        events: data.events,
        ...(maxPods !== undefined ? { max: maxPods } : {}),
      });
      diagnoses[index] = diagnosisOf(pods, data, new Date(time.now()));
      return { pods };
    }),
  );

  // One round of log reads for every target: one budget, one 403 warning per namespace.
  const wanted = explained.flatMap((e) => (e ? e.pods.flatMap((p) => p.containers) : []));
  const readable = options.logLines > 0 ? wanted.filter((c) => c.noLogs === undefined) : [];
  const { reads, warnings: logWarnings } = await readContainerLogs(client, readable, {
    tailLines: options.logLines,
    budgetMs,
    mask: options.mask,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.time ? { time: options.time } : {}),
  });
  logWarnings.forEach(warn);
  const readOf = new Map<ContainerToExplain, LogRead<ContainerToExplain>>(reads.map((r) => [r.request, r]));

  chosen.forEach(({ index }, i) => {
    const e = explained[i];
    if (!e) return;
    const logs = e.pods.flatMap((pod) =>
      pod.containers
        .filter((c) => options.logLines > 0 || c.noLogs !== undefined)
        .map((c): ContainerLogView => {
          const read = readOf.get(c);
          return { request: c, ...(read ? { outcome: read.outcome } : {}), events: pod.events };
        }),
    );
    explanations[index] = { ...e, logs };
  });
  return { explanations, diagnoses, warnings };
}

/** The explained pods' diagnosis, as the engine's diagnoser words it; undefined when they show no problem. */
function diagnosisOf(pods: readonly PodToExplain[], data: Namespace, now: Date): Diagnosis | undefined {
  const names = new Set(pods.map((pod) => pod.name));
  const explained = data.pods.filter((pod) => names.has((pod as { metadata?: { name?: string } }).metadata?.name ?? ''));
  const diagnosis = diagnosePods(explained, data.events, { now });
  return diagnosis.problems.length > 0 || diagnosis.events.length > 0 ? diagnosis : undefined;
}

async function listNamespace(
  client: KubeClient,
  namespace: string,
  kinds: Set<string>,
  request: { signal: AbortSignal; timeoutMs: number },
  warn: (message: string) => void,
): Promise<Namespace> {
  const ns = encodeURIComponent(namespace);
  const list = async (path: string, apiVersion: string, kind: string, fieldSelector?: string): Promise<unknown[]> => {
    const items: unknown[] = [];
    try {
      await listPages(
        client,
        path,
        (page) => items.push(...page.map((item) => withKind(item, apiVersion, kind))),
        { ...request, ...(fieldSelector ? { fieldSelector } : {}) },
        () => (items.length = 0),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 403)
        warn(
          `cannot list ${kind === 'Event' ? 'events' : `${kind.toLowerCase()}s`} in namespace "${namespace}": the failure report cannot name the pods at fault there — grant list on them`,
        );
      return [];
    }
    return items;
  };
  const [pods, events, replicaSets, controllerRevisions] = await Promise.all([
    list(`/api/v1/namespaces/${ns}/pods`, 'v1', 'Pod'),
    list(`/api/v1/namespaces/${ns}/events`, 'v1', 'Event', 'type=Warning'),
    kinds.has('Deployment') ? list(`/apis/apps/v1/namespaces/${ns}/replicasets`, 'apps/v1', 'ReplicaSet') : Promise.resolve([]),
    kinds.has('DaemonSet') ? list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`, 'apps/v1', 'ControllerRevision') : Promise.resolve([]),
  ]);
  return { pods, events, replicaSets, controllerRevisions };
}
