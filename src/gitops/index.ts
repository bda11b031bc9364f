/**
 * The GitOps feed: through to the workloads (the `inventory` input, issue 20). A Flux Kustomization or
 * HelmRelease or an Argo CD Application among the targets is judged by the revision its controller applied
 * (status/gitops/); this feed adds the objects it applied to the wait (inventory.ts; a HelmRelease's are its
 * Helm release's, read by the release wing's reader), judged like any other (pods, container causes, log
 * tails), and reported under their parent (`parent` of TargetReport): "Kustomization flux-system/apps ->
 * Deployment shop/api".
 *
 * The inventory is only known once the controller has applied the revision (inventory.ts says when). The
 * engine watches the parents (they are targets); the feed reads them again whenever one of them changes as
 * the engine sees it (at the latest every 15 s), and adds a parent's objects once its inventory is the
 * shipped revision's. When every target has reached its goal while a parent's inventory is still not added,
 * the feed reads the parents once more: what is there is added, and if nothing is, the wait is ready. At the
 * deadline, the parents say what their controller has not done yet.
 *
 * Reading the inventory needs list (and watch) on its types in their namespaces. A namespace where that is
 * forbidden (or a type no longer served) is left out with one warning: a workload not judged never turns
 * into a false verdict. Only the user's parents are expanded: a Kustomization in an inventory is a target,
 * judged by its revision, but its own inventory is not read. With `reconcile`, the controllers are asked to
 * act now, beside the wait (reconcile.ts).
 */
import { Scheduler } from '../engine/scheduler.js';
import type { FeedContext, TargetFeed } from '../engine/types.js';
import { ApiError, listPages, qualifiedResource, resourcePath, type Cluster, type ResourceType } from '../kube/index.js';
import { readRelease } from '../release/read.js';
import type { TargetParent, TargetReport } from '../result.js';
import { InputError, type Settings } from '../settings.js';
import type { KubeObject } from '../status/fields.js';
import { MAX_TARGETS, type TargetSpec } from '../targets/types.js';
import { requestReconciliation } from './reconcile.js';
import { helmReleaseStorage, inventoryReady, InventorySightings, inventoryTargets, parentKindOf, SETTLE_MS, type ParentKind } from './inventory.js';

/** The parents are read again when the engine sees one change; at the latest after this long, in case a
 *  change of their inventory came without a change of their status or message. */
const PARENT_REREAD_MS = 15_000;

/** How long finding the parents may wait for discovery before the wait goes on without them. */
const DISCOVERY_BUDGET_MS = 10_000;

/** The names a Kustomization's or Application's type may be written with (kind, plural, singular, short
 *  names, before any `.group`): any other target needs no discovery before the wait. */
const PARENT_TYPE_NAMES = new Set(['kustomization', 'kustomizations', 'ks', 'helmrelease', 'helmreleases', 'hr', 'application', 'applications', 'app', 'apps']);

function mayBeParent(spec: TargetSpec): boolean {
  return PARENT_TYPE_NAMES.has(spec.type.split('.')[0]!.toLowerCase());
}

export type GitOpsFeedSettings = Pick<Settings, 'inventory' | 'reconcile' | 'revision' | 'pollIntervalMs'> & {
  /** The user's targets: the parents among them are expanded. */
  targets: TargetSpec[];
  defaultNamespace: string;
};

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

/** The objects of each parent spec, in the order of the specs. */
type ParentObjects = Array<Promise<KubeObject[]>>;

export class GitOpsFeed implements TargetFeed {
  /** flux branch (issue 30): the inventories the run saw (inventory.ts), made at the first read of the parents. */
  private sightings: InventorySightings | undefined;

  /** `say`: the feed's news, one line each, for the run's live log. */
  constructor(
    private readonly settings: GitOpsFeedSettings,
    private readonly say: (line: string) => void,
  ) {}

  /** Whether the feed has anything to do for these settings (a parent among the targets may need discovery to tell). */
  static wanted(settings: GitOpsFeedSettings): boolean {
    return (settings.inventory !== false || settings.reconcile === true) && settings.targets.some(mayBeParent);
  }

  async run(ctx: FeedContext): Promise<void> {
    const added = new Set<string>();
    // Finding the parents and the first look at their inventories are one piece of work an early verdict
    // waits for (the last look): a parent Flux already calls failed still gets its objects judged.
    const parents = await ctx.busy(this.firstLook(ctx, added));
    if (parents) await this.keepLooking(ctx, parents, added);
  }

  /** The parents, the reconcile request, and the first look at their inventories; the parents when an
   *  inventory is still to be added. */
  private async firstLook(ctx: FeedContext, added: Set<string>): Promise<ParentSpec[] | undefined> {
    const parents = await this.findParents(ctx);
    if (parents.length === 0) return undefined;
    // The parents as they stand, read once for both: the reconcile request annotates them, and the first look
    // at their inventories judges them (one LIST per parent, not one each).
    const firstRead: ParentObjects = parents.map(({ type, namespace, spec }) => readObjects(ctx.cluster, type, namespace, spec, ctx.signal).catch(() => []));
    if (this.settings.reconcile) ctx.beside(this.askToReconcile(ctx, parents, firstRead));
    if (this.settings.inventory === false) return undefined;
    const { allAdded } = await this.look(ctx, parents, added, firstRead);
    return allAdded ? undefined : parents;
  }

  /** The user's targets whose type is a GitOps parent, once discovery has resolved them. */
  private async findParents(ctx: FeedContext): Promise<ParentSpec[]> {
    const budget = ctx.deadline.signal(DISCOVERY_BUDGET_MS);
    try {
      // Only the types are needed to know the parents; a discovery that fails is the wait's to report.
      await ctx.cluster.discovery.load(AbortSignal.any([ctx.signal, budget.signal])).catch(() => undefined);
    } finally {
      budget.clear();
    }
    const parents: ParentSpec[] = [];
    for (const spec of this.settings.targets) {
      const resolution = ctx.cluster.discovery.resolve(spec);
      if (!resolution.ok) continue;
      const kind = parentKindOf(resolution.type.group, resolution.type.kind);
      if (kind) parents.push({ kind, type: resolution.type, namespace: spec.namespace ?? this.settings.defaultNamespace, spec });
    }
    return parents;
  }

  /** The `reconcile` input: the parents as they stand, each (and its source) annotated once. */
  private async askToReconcile(ctx: FeedContext, parents: ParentSpec[], objects: ParentObjects): Promise<void> {
    const read = await Promise.all(parents.map(async ({ kind }, i) => (await objects[i]!).map((obj) => ({ kind, obj }))));
    await requestReconciliation(ctx.cluster, {
      parents: read.flat(),
      now: ctx.time.now(),
      signal: ctx.signal,
      warn: (message) => ctx.warn(message),
      say: (line) => this.say(line),
      // flux branch (issue 30): lets the request wait for the sources before it annotates the objects.
      sleep: (ms) => new Promise<void>((resolve) => ctx.time.setTimer(ms, resolve)),
    });
  }

  /**
   * Reads the parents whenever one changes (at the latest every PARENT_REREAD_MS) and adds each one's objects
   * once its inventory is the revision's; returns once every parent's are added, or once every target has
   * reached its goal and one more look found nothing to add.
   */
  private async keepLooking(ctx: FeedContext, parents: ParentSpec[], added: Set<string>): Promise<void> {
    const timers = new Scheduler(ctx.time);
    const stop = () => timers.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    let idle = false;
    const isParent = (target: TargetReport) => parentKindOf(groupOf(target.apiVersion), target.kind) !== undefined;
    ctx.onChange((target) => {
      if (!target) idle = true;
      if (!target || isParent(target)) timers.wakeAll(); // the only sleeper on these timers is the loop below
    });
    try {
      while (!ctx.signal.aborted) {
        // flux branch: an inventory about to land (Flux's write after its health-check conditions) is read again soon.
        if (!idle) await timers.sleep(this.sightings?.pending ? SETTLE_MS : Math.max(this.settings.pollIntervalMs, PARENT_REREAD_MS));
        if (ctx.signal.aborted) return;
        const lookingIdle = idle;
        idle = false;
        const { allAdded, addedNow } = await ctx.busy(this.look(ctx, parents, added));
        if (allAdded || (lookingIdle && addedNow === 0)) return;
      }
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      timers.close();
    }
  }

  /** One look at the parents: adds the objects of those whose inventory has become the revision's. */
  private async look(ctx: FeedContext, parents: ParentSpec[], added: Set<string>, objects?: ParentObjects): Promise<{ allAdded: boolean; addedNow: number }> {
    const read = await this.readParents(ctx, parents, objects).catch(() => undefined); // a failed read: the next one
    if (!read) return { allAdded: false, addedNow: 0 };
    const fresh = read.filter((p): p is Required<ReadParent> => p.targets !== undefined && !added.has(parentName(p.parent)));
    for (const p of fresh) added.add(parentName(p.parent));
    if (fresh.length > 0) await this.addApplied(ctx, fresh);
    return { allAdded: read.length > 0 && read.every((p) => p.targets), addedNow: fresh.length };
  }

  /** Adds what the parents applied, each under its parent; more than the step can wait for is the `inventory` input's problem. */
  private async addApplied(ctx: FeedContext, read: Array<Required<ReadParent>>): Promise<void> {
    const total = read.reduce((sum, p) => sum + p.targets.length, 0);
    if (total > MAX_TARGETS) {
      const names = read.map((p) => `${parentName(p.parent)} (${p.targets.length})`).join(', ');
      ctx.problem({
        input: 'inventory',
        message:
          `Input "inventory": ${names} applied ${total} objects; kubewait waits for at most ${MAX_TARGETS} targets in one step. ` +
          'Wait for the parent alone with inventory: false, or split the wait over several steps by selector.',
      });
      return;
    }
    const { judged, warnings } = await judgeable(ctx.cluster, read, ctx.signal);
    for (const warning of warnings) ctx.warn(warning);
    for (const { parent, targets } of judged) {
      const count = read.find((p) => p.parent === parent)?.targets.length ?? targets.length;
      this.say(`kubewait: ${parentName(parent)} applied ${count} object${count === 1 ? '' : 's'}: waiting for them too`);
      ctx.add(targets, { parent });
    }
  }

  /**
   * Every parent as it stands, each with its inventory once it is the revision's. A parent that cannot be
   * read (not there yet, forbidden, a failing server) has none: the wait judges and reports it.
   */
  private async readParents(ctx: FeedContext, parents: ParentSpec[], read?: ParentObjects): Promise<ReadParent[]> {
    const warn = (message: string) => ctx.warn(message);
    // flux branch (issue 30): what the run saw of the inventories, to know when Flux's inventory write landed.
    const sightings = (this.sightings ??= new InventorySightings(() => ctx.time.now()));
    const found = await Promise.all(
      parents.map(async ({ kind, type, namespace, spec }, i) => {
        const objects = await (read?.[i] ?? readObjects(ctx.cluster, type, namespace, spec, ctx.signal));
        return Promise.all(
          objects.map(async (obj): Promise<ReadParent> => {
            const metadata = (obj.metadata ?? {}) as { name?: string; namespace?: string };
            const parent = { kind: type.kind, namespace: metadata.namespace ?? '', name: metadata.name ?? '' };
            if (!inventoryReady(kind, obj, this.settings.revision, sightings)) return { parent };
            if (kind !== 'HelmRelease') return { parent, targets: inventoryTargets(kind, obj, warn) };
            const targets = await helmReleaseTargets(ctx.cluster, obj, parent, ctx.signal, warn);
            return targets ? { parent, targets } : { parent };
          }),
        );
      }),
    );
    return found.flat();
  }
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
 * The inventories' objects that can be judged, by parent. A type that is not served, or a namespace where
 * listing it is forbidden, is left out: one warning says which, and the Role it needs.
 */
async function judgeable(
  cluster: Cluster,
  read: Array<Required<ReadParent>>,
  signal: AbortSignal,
): Promise<{ judged: Array<Required<ReadParent>>; warnings: string[] }> {
  const forbidden = new Map<string, Promise<boolean>>();
  const unserved = new Set<string>();
  const denied = new Set<string>();
  const unnamespaced = new Set<string>();
  const mayJudge = async (spec: TargetSpec): Promise<boolean> => {
    const resolution = cluster.discovery.resolve(spec);
    if (!resolution.ok) {
      unserved.add(`${spec.type} (${spec.apiVersion ?? ''})`);
      return false;
    }
    const { type } = resolution;
    // A namespaced object without a namespace is no id a controller writes: never judged in the step's namespace.
    if (type.namespaced && !spec.namespace) {
      unnamespaced.add(`${type.kind}/${spec.name ?? ''}`);
      return false;
    }
    const namespace = type.namespaced ? spec.namespace! : '';
    const where = `${qualifiedResource(type)} ${namespace}`;
    let probe = forbidden.get(where);
    if (!probe) forbidden.set(where, (probe = listForbidden(cluster, type, namespace, signal)));
    if (await probe) {
      denied.add(namespace ? `${qualifiedResource(type)} in namespace ${namespace}` : qualifiedResource(type));
      return false;
    }
    return true;
  };
  const judged = await Promise.all(
    read.map(async ({ parent, targets }) => {
      const may = await Promise.all(targets.map(mayJudge));
      return { parent, targets: targets.filter((_, i) => may[i]) };
    }),
  );
  const warnings: string[] = [];
  if (denied.size > 0)
    warnings.push(
      `Not judged: the objects the GitOps targets applied as ${[...denied].join(', ')}: listing them is forbidden (403). ` +
        'Grant the step list and watch on them there (README, "GitOps: Flux and Argo CD"), or set inventory: false.',
    );
  if (unnamespaced.size > 0)
    warnings.push(`Not judged: ${[...unnamespaced].join(', ')} in the GitOps targets' inventories: a namespaced object listed without its namespace.`);
  if (unserved.size > 0)
    warnings.push(`Not judged: the objects the GitOps targets applied as ${[...unserved].join(', ')}: the API server does not serve that type.`);
  return { judged, warnings };
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

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function parentName(parent: TargetParent): string {
  return parent.namespace ? `${parent.kind} ${parent.namespace}/${parent.name}` : `${parent.kind} ${parent.name}`;
}
