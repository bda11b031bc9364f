/**
 * The GitOps wing: through to the workloads (the `inventory` input, issue 20). A Flux Kustomization or
 * HelmRelease or an Argo CD Application among the targets is judged by the revision its controller applied
 * (status/gitops/); this wing makes the objects it applied targets too (inventory.ts; a HelmRelease's are its
 * Helm release's, read by the release wing's reader), judged like any other (pods, container causes, log
 * tails), and reported under their parent (`parent` of TargetReport): "Kustomization flux-system/apps ->
 * Deployment shop/api".
 *
 * The engine waits for a fixed set of targets, and the inventory is only known once the controller has
 * applied the revision (inventory.ts says when). So the wait has two phases, one deadline:
 *
 * | phase | what runs | ends when |
 * |---|---|---|
 * | 1 | the usual wait (the release wing, the engine) for the user's targets, beside a read of the parents whenever the engine sees one change (at the latest every 15 s) | every parent's inventory is the shipped revision's (the wait is stopped), the wait ends by itself, or the deadline |
 * | 2 | the same wait for the user's targets and the inventories, with what is left of the deadline | as any wait |
 *
 * At the deadline (or a cancelled job) in phase 1, phase 1's result is the run's: the parents say what their
 * controller has not done yet. A phase 2 that failed before every applied object was judged (Flux already
 * reports HealthCheckFailed, so fail-fast stops at once) judges the applied objects once more, alone and
 * briefly, as the objects of a failed Helm release are judged: the summary then names the workload that
 * broke, and the outcome stays failed.
 *
 * Reading the inventory needs list (and watch) on its types in their namespaces. A namespace where that is
 * forbidden (or a type no longer served) is left out with one warning: a workload not judged never turns
 * into a false verdict. Only the user's parents are expanded: a Kustomization in an inventory is a target,
 * judged by its revision, but its own inventory is not read.
 */
import { Scheduler } from '../engine/scheduler.js';
import { ApiError, listPages, qualifiedResource, resourcePath, type Cluster, type ResourceType } from '../kube/index.js';
import { readRelease } from '../release/read.js';
import { waitWithRelease, type ReleaseWaitOptions } from '../release/index.js';
import type { RunResult, TargetParent, TargetReport } from '../result.js';
import type { Status } from '../status/types.js';
import { InputError, type Settings } from '../settings.js';
import type { KubeObject } from '../status/fields.js';
import { dedupe, type TargetSpec } from '../targets/index.js';
import { requestReconciliation } from './reconcile.js';
import { helmReleaseStorage, inventoryReady, InventorySightings, inventoryTargets, parentKindOf, SETTLE_MS, type ParentKind } from './inventory.js';

/** How long the inventory of a wait that already failed is judged (as a failed Helm release's objects):
 *  long enough for a failing image pull to count as unrecoverable (the status library's 15 s grace). */
const FAILED_JUDGING_MS = 20_000;

/** The parents are read again when the engine sees one change; at the latest after this long, in case a
 *  change of their inventory came without a change of their status or message. */
const PARENT_REREAD_MS = 15_000;

/** How long finding the parents may wait for discovery before the wait starts without them. */
const DISCOVERY_BUDGET_MS = 10_000;

/** The names a Kustomization's or Application's type may be written with (kind, plural, singular, short
 *  names, before any `.group`): any other target needs no discovery before the wait. */
const PARENT_TYPE_NAMES = new Set(['kustomization', 'kustomizations', 'ks', 'helmrelease', 'helmreleases', 'hr', 'application', 'applications', 'app', 'apps']);

function mayBeParent(spec: TargetSpec): boolean {
  return PARENT_TYPE_NAMES.has(spec.type.split('.')[0]!.toLowerCase());
}

export interface GitOpsWaitOptions extends ReleaseWaitOptions, Partial<Pick<Settings, 'inventory' | 'reconcile'>> {}

/** A GitOps parent among the user's targets, as found: its type, and the spec that named it. */
interface ParentSpec {
  kind: ParentKind;
  type: ResourceType;
  namespace: string;
  spec: TargetSpec;
}

/** One parent object as read, with its inventory when it is the one to wait for. */
interface ReadParent {
  parent: TargetParent;
  targets?: TargetSpec[];
}

/**
 * Waits for the targets and, with `inventory` (the default), for the objects their GitOps parents applied;
 * with `reconcile`, asks their controllers to act now, beside the wait (reconcile.ts).
 */
export async function waitWithGitOps(cluster: Cluster, options: GitOpsWaitOptions): Promise<RunResult> {
  const inventory = options.inventory !== false;
  if ((!inventory && options.reconcile !== true) || !options.targets.some(mayBeParent)) return waitWithRelease(cluster, options);
  const cancelled = options.signal ?? new AbortController().signal;
  // Only the types are needed to know the parents; a discovery that fails is the wait's to report.
  await cluster.discovery.load(AbortSignal.any([cancelled, AbortSignal.timeout(Math.min(options.timeoutMs, DISCOVERY_BUDGET_MS))])).catch(() => undefined);
  const parents = findParents(cluster, options);
  if (parents.length === 0) return waitWithRelease(cluster, options);

  const timers = new Scheduler(options.time);
  const waitOver = new AbortController();
  const warnings: string[] = [];
  // The parents as they stand, read once for both: the reconcile request annotates them, and the first look
  // at their inventories judges them (one LIST per parent, not one each).
  const firstRead: ParentObjects = parents.map(({ type, namespace, spec }) => readObjects(cluster, type, namespace, spec, cancelled).catch(() => []));
  const asked = options.reconcile
    ? askToReconcile(cluster, parents, firstRead, options, timers, AbortSignal.any([cancelled, waitOver.signal]), warnings)
    : undefined;
  try {
    const result = inventory ? await twoPhases(cluster, options, parents, firstRead, timers, cancelled) : await waitWithRelease(cluster, options);
    waitOver.abort(); // a reconcile request still on its way no longer matters
    await asked;
    return warnings.length === 0 ? result : { ...result, warnings: [...new Set([...result.warnings, ...warnings])] };
  } finally {
    waitOver.abort();
    timers.close();
  }
}

/** The objects of each parent spec, in the order of the specs. */
type ParentObjects = Array<Promise<KubeObject[]>>;

/** The `reconcile` input: the parents as they stand, each (and its source) annotated once; warnings to `warnings` and the live log. */
async function askToReconcile(
  cluster: Cluster,
  parents: ParentSpec[],
  objects: ParentObjects,
  options: GitOpsWaitOptions,
  timers: Scheduler,
  signal: AbortSignal,
  warnings: string[],
): Promise<void> {
  const read = await Promise.all(parents.map(async ({ kind }, i) => (await objects[i]!).map((obj) => ({ kind, obj }))));
  const warn = (message: string) => {
    if (warnings.includes(message)) return;
    warnings.push(message);
    options.observer?.warning?.(message);
  };
  // flux branch (issue 30): `sleep` lets the request wait for the sources before it annotates the objects.
  await requestReconciliation(cluster, {
    parents: read.flat(),
    now: timers.now(),
    signal,
    warn,
    say: (line) => options.say(line),
    sleep: (ms) => timers.sleep(ms),
  });
}

async function twoPhases(
  cluster: Cluster,
  options: GitOpsWaitOptions,
  parents: ParentSpec[],
  firstRead: ParentObjects,
  timers: Scheduler,
  cancelled: AbortSignal,
): Promise<RunResult> {
  const started = timers.now();
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    options.observer?.warning?.(message);
  };
  const deadline = AbortSignal.any([cancelled, abortAfter(timers, options.timeoutMs)]);
  const inventoryReadable = new AbortController();
  // flux branch (issue 30): what the run saw of the inventories, to know when Flux's inventory write landed.
  const sightings = new InventorySightings(() => timers.now());
  let read: ReadParent[] = [];
  // The engine watches the parents (they are targets): the parents are read again when one of them changes
  // as the engine sees it, not every poll interval (a LIST beside the watch), with a slow read as a net.
  const poll = (async () => {
    let objects: ParentObjects | undefined = firstRead;
    while (!deadline.aborted && !inventoryReadable.signal.aborted) {
      read = await readParents(cluster, parents, options, deadline, warn, objects, sightings);
      objects = undefined; // read afresh from now on
      if (read.length > 0 && read.every((p) => p.targets)) return inventoryReadable.abort();
      // flux branch: an inventory about to land (Flux's write after its health-check conditions) is read again soon.
      await timers.sleep(sightings.pending ? SETTLE_MS : Math.max(options.pollIntervalMs, PARENT_REREAD_MS));
    }
  })().catch(() => undefined); // a read that fails is retried by the next one, or the wait reports it
  const isParent = (target: TargetReport) => parentKindOf(groupOf(target.apiVersion), target.kind) !== undefined;
  const observer = {
    ...options.observer,
    transition(target: TargetReport, previous: Status | undefined) {
      options.observer?.transition?.(target, previous);
      if (isParent(target)) timers.wakeAll(); // the only sleeper on these timers is the read above
    },
  };

  const first = await waitWithRelease(cluster, { ...options, observer, signal: AbortSignal.any([cancelled, inventoryReadable.signal]) });
  inventoryReadable.abort(); // stops the poll when the wait ended first
  timers.wakeAll();
  await poll;
  const withWarnings = (result: RunResult): RunResult => ({ ...result, warnings: [...new Set([...result.warnings, ...warned])] });
  // The deadline, a cancelled job, or a problem that is the user's to fix (a forbidden target): that is the verdict.
  if (cancelled.aborted || first.error || (!first.cancelled && first.outcome === 'timeout')) return withWarnings(first);
  // The wait ended by itself (ready, or failed) before the poll saw every inventory: read it once more.
  if (!read.every((p) => p.targets)) read = await readParents(cluster, parents, options, deadline, warn, undefined, sightings);
  const withInventory = read.filter((p): p is Required<ReadParent> => p.targets !== undefined && p.targets.length > 0);
  if (withInventory.length === 0)
    return withWarnings(first.cancelled ? await waitWithRelease(cluster, { ...options, timeoutMs: remaining(options, timers, started) }) : first);

  const { targets, parentOf, warnings } = await judgeable(cluster, withInventory, options, deadline);
  for (const { parent, targets: applied } of withInventory)
    options.say(`kubewait: ${parentName(parent)} applied ${applied.length} object${applied.length === 1 ? '' : 's'}: waiting for them too`);
  for (const warning of warnings) warn(warning);

  const phase2 = { ...options, targets: dedupe([...options.targets, ...targets]), timeoutMs: remaining(options, timers, started) };
  const second = await waitWithRelease(cluster, phase2);
  if (cancelled.aborted || second.cancelled || second.outcome !== 'failed' || !someUnjudged(second, parentOf))
    return withParents(second, parentOf, [...warned], (timers.now() - started) / 1000);
  // Failed (a parent Flux or Argo CD already calls failed, so fail-fast stopped at once) before every
  // applied object was judged: judge those objects alone, briefly, so that the summary names the one that broke.
  const judgingMs = Math.min(remaining(options, timers, started), FAILED_JUDGING_MS);
  const judged = await waitWithRelease(cluster, {
    ...options,
    release: '',
    targets,
    timeoutMs: judgingMs,
    signal: AbortSignal.any([cancelled, abortAfter(timers, judgingMs)]),
  });
  const outcome = { ...withJudged(second, judged, parentOf), cancelled: cancelled.aborted };
  return withParents(outcome, parentOf, [...warned], (timers.now() - started) / 1000);
}

/** The user's targets whose type is a GitOps parent, once discovery has resolved them. */
function findParents(cluster: Cluster, options: GitOpsWaitOptions): ParentSpec[] {
  const parents: ParentSpec[] = [];
  for (const spec of options.targets) {
    const resolution = cluster.discovery.resolve(spec);
    if (!resolution.ok) continue;
    const kind = parentKindOf(resolution.type.group, resolution.type.kind);
    if (kind) parents.push({ kind, type: resolution.type, namespace: spec.namespace ?? options.defaultNamespace, spec });
  }
  return parents;
}

/**
 * Every parent as it stands, each with its inventory once it is the revision's. A parent that cannot be
 * read (not there yet, forbidden, a failing server) has none: the wait judges and reports it.
 */
async function readParents(
  cluster: Cluster,
  parents: ParentSpec[],
  options: GitOpsWaitOptions,
  signal: AbortSignal,
  warn: (message: string) => void,
  /** The parents' objects already read (the run's first read), else read now. */
  read?: ParentObjects,
  sightings?: InventorySightings,
): Promise<ReadParent[]> {
  const found = await Promise.all(
    parents.map(async ({ kind, type, namespace, spec }, i) => {
      const objects = await (read?.[i] ?? readObjects(cluster, type, namespace, spec, signal));
      return Promise.all(
        objects.map(async (obj): Promise<ReadParent> => {
          const metadata = (obj.metadata ?? {}) as { name?: string; namespace?: string };
          const parent = { kind: type.kind, namespace: metadata.namespace ?? '', name: metadata.name ?? '' };
          if (!inventoryReady(kind, obj, options.revision, sightings)) return { parent };
          if (kind !== 'HelmRelease') return { parent, targets: inventoryTargets(kind, obj, warn) };
          const targets = await helmReleaseTargets(cluster, obj, parent, signal, warn);
          return targets ? { parent, targets } : { parent };
        }),
      );
    }),
  );
  return found.flat();
}

/**
 * A HelmRelease's objects: its Helm release's latest revision, read as the `release` input reads one
 * (src/release/). Undefined while there is no record yet; [] when it cannot be read (one warning).
 */
async function helmReleaseTargets(
  cluster: Cluster,
  obj: KubeObject,
  parent: TargetParent,
  signal: AbortSignal,
  warn: (message: string) => void,
): Promise<TargetSpec[] | undefined> {
  const storage = helmReleaseStorage(obj);
  if (!storage) return undefined;
  try {
    const release = await readRelease(cluster.client, storage.namespace, storage.name, signal, warn);
    return release === 'not-found' ? undefined : release.targets;
  } catch (error) {
    if (error instanceof InputError) {
      warn(`Not judged: the objects of ${parentName(parent)}: ${error.message}`);
      return [];
    }
    if (error instanceof ApiError) return undefined; // read again at the next poll
    throw error;
  }
}

/** The parent objects `spec` names, by LIST (the verbs the wait needs anyway: list and watch, no get). */
async function readObjects(cluster: Cluster, type: ResourceType, namespace: string, spec: TargetSpec, signal: AbortSignal): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  const selectors = spec.name ? { fieldSelector: `metadata.name=${spec.name}` } : { labelSelector: spec.selector ?? '' };
  try {
    await listPages(cluster.client, resourcePath(type, namespace), (page) => items.push(...(page as KubeObject[])), { ...selectors, signal });
  } catch (error) {
    if (error instanceof ApiError) return [];
    throw error;
  }
  return items;
}

/**
 * The inventories' objects that can be judged, each with its parent. A type that is not served, or a
 * namespace where listing it is forbidden, is left out: one warning says which, and the Role it needs.
 */
async function judgeable(
  cluster: Cluster,
  read: Array<Required<ReadParent>>,
  options: GitOpsWaitOptions,
  signal: AbortSignal,
): Promise<{ targets: TargetSpec[]; parentOf: Map<string, TargetParent>; warnings: string[] }> {
  const forbidden = new Map<string, Promise<boolean>>();
  const unserved = new Set<string>();
  const denied = new Set<string>();
  const candidates = read.flatMap(({ parent, targets }) =>
    targets.map(async (spec) => {
      const resolution = cluster.discovery.resolve(spec);
      if (!resolution.ok) {
        unserved.add(`${spec.type} (${spec.apiVersion ?? ''})`);
        return undefined;
      }
      const { type } = resolution;
      const namespace = type.namespaced ? (spec.namespace ?? options.defaultNamespace) : '';
      const where = `${qualifiedResource(type)} ${namespace}`;
      let probe = forbidden.get(where);
      if (!probe) forbidden.set(where, (probe = listForbidden(cluster, type, namespace, signal)));
      if (await probe) {
        denied.add(namespace ? `${qualifiedResource(type)} in namespace ${namespace}` : qualifiedResource(type));
        return undefined;
      }
      return { spec, parent, key: objectKey(type.group, type.kind, namespace, spec.name ?? '') };
    }),
  );
  // An object the user named too is one target, not two (their spec's type may be written `deploy`, this one's `Deployment`).
  const named = new Set(
    options.targets.flatMap((spec) => {
      const resolution = spec.name ? cluster.discovery.resolve(spec) : undefined;
      if (!resolution?.ok) return [];
      const { type } = resolution;
      return [objectKey(type.group, type.kind, type.namespaced ? (spec.namespace ?? options.defaultNamespace) : '', spec.name!)];
    }),
  );
  const parentOf = new Map<string, TargetParent>();
  const targets: TargetSpec[] = [];
  for (const candidate of await Promise.all(candidates)) {
    if (!candidate) continue;
    if (!named.has(candidate.key)) targets.push(candidate.spec);
    if (!parentOf.has(candidate.key)) parentOf.set(candidate.key, candidate.parent);
  }
  const warnings: string[] = [];
  if (denied.size > 0)
    warnings.push(
      `Not judged: the objects the GitOps targets applied as ${[...denied].join(', ')}: listing them is forbidden (403). ` +
        'Grant the step list and watch on them there (README, "GitOps: Flux and Argo CD"), or set inventory: false.',
    );
  if (unserved.size > 0)
    warnings.push(`Not judged: the objects the GitOps targets applied as ${[...unserved].join(', ')}: the API server does not serve that type.`);
  return { targets, parentOf, warnings };
}

/** Whether listing `type` in `namespace` is forbidden (one LIST of one item; other failures are the wait's). */
async function listForbidden(cluster: Cluster, type: ResourceType, namespace: string, signal: AbortSignal): Promise<boolean> {
  try {
    await cluster.client.get(resourcePath(type, namespace), { limit: 1 }, { signal });
    return false;
  } catch (error) {
    return error instanceof ApiError && error.status === 403;
  }
}

/** Whether an object of an inventory was still unjudged when the wait ended (not done, and not Failed). */
function someUnjudged(result: RunResult, parentOf: Map<string, TargetParent>): boolean {
  return result.targets.some((target) => !target.done && target.status !== 'Failed' && parentOf.has(reportKey(target)));
}

function reportKey(target: TargetReport): string {
  return objectKey(groupOf(target.apiVersion), target.kind, target.namespace, target.name);
}

/** `result` (failed) with its inventory targets as `judged` (a wait that followed it) left them; one time base. */
function withJudged(result: RunResult, judged: RunResult, parentOf: Map<string, TargetParent>): RunResult {
  const after = (seconds: number) => Math.round((seconds + result.durationSeconds) * 100) / 100;
  const byKey = new Map(judged.targets.map((target) => [reportKey(target), target]));
  const targets = result.targets.map((target) => {
    const again = parentOf.has(reportKey(target)) ? byKey.get(reportKey(target)) : undefined;
    if (!again) return target;
    return { ...again, seconds: after(again.seconds), history: again.history.map((entry) => ({ ...entry, atSeconds: after(entry.atSeconds) })) };
  });
  return {
    ...result,
    targets,
    durationSeconds: after(judged.durationSeconds),
    warnings: [...new Set([...result.warnings, ...judged.warnings])],
  };
}

/** Each inventory target's parent, and the warnings; the time of phase 1 counts (every `seconds` is from the start). */
function withParents(result: RunResult, parentOf: Map<string, TargetParent>, warnings: string[], elapsedSeconds: number): RunResult {
  const offset = Math.max(0, elapsedSeconds - result.durationSeconds);
  const shift = (seconds: number) => Math.round((seconds + offset) * 100) / 100;
  const targets = result.targets.map((target): TargetReport => {
    const parent = parentOf.get(reportKey(target));
    return {
      ...target,
      ...(parent && { parent }),
      seconds: shift(target.seconds),
      history: target.history.map((entry) => ({ ...entry, atSeconds: shift(entry.atSeconds) })),
    };
  });
  return { ...result, targets, durationSeconds: shift(result.durationSeconds), warnings: [...new Set([...result.warnings, ...warnings])] };
}

function objectKey(group: string, kind: string, namespace: string, name: string): string {
  return JSON.stringify([group, kind, namespace, name]);
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function parentName(parent: TargetParent): string {
  return parent.namespace ? `${parent.kind} ${parent.namespace}/${parent.name}` : `${parent.kind} ${parent.name}`;
}

function remaining(options: GitOpsWaitOptions, timers: Scheduler, started: number): number {
  return Math.max(0, options.timeoutMs - (timers.now() - started));
}

/** A signal that aborts after `ms` on the run's clock. */
function abortAfter(timers: Scheduler, ms: number): AbortSignal {
  const controller = new AbortController();
  timers.after(ms, () => controller.abort());
  return controller.signal;
}
