/**
 * The only module that does I/O against Kubernetes: connecting (kubeconfig), discovery, LIST and WATCH, and
 * two narrow writes: setting annotations on one object (`annotate`, a GitOps controller's reconcile request),
 * and restoring a workload's recorded revision (`patchForRollback`, the `rollback` input).
 */
import { KubeClient } from './client.js';
import type { Query, RequestOptions, WatchEnd, WatchHandle } from './client.js';
import { Discovery } from './discovery.js';
import { ApiError } from './errors.js';
import { ExecPlugin } from './exec-plugin.js';
import { MAX_STRING_CHARS } from './json-scanner.js';
import { defaultSources, loadKubeConfig } from './kubeconfig.js';
import type { KubeconfigSources, Secrets } from './kubeconfig.js';
import type { ResourceType } from './restmapper.js';
import { realTime, type Time } from '../time.js';

export { ApiError, describeFailure, isFatal, isUnreachable, statusError } from './errors.js';
export { qualifiedResource, groupVersion } from './restmapper.js';
export type { ResourceType, Resolution } from './restmapper.js';
export type { WatchEnd, WatchHandle } from './client.js';
export type { Secrets, KubeconfigSources } from './kubeconfig.js';
export { Discovery } from './discovery.js';

export interface Cluster {
  /** The kubeconfig context in use. */
  readonly contextName: string;
  readonly server: string;
  /** The context's namespace, if it sets one. */
  readonly namespace?: string;
  readonly client: KubeClient;
  readonly discovery: Discovery;
  /** The wait is over: an exec credential plugin still running is killed and not run again (exec-plugin.ts),
   *  so what is read for the report afterwards does not wait for it. */
  endOfWait(): void;
  /** Releases connections and kills any credential plugin still running. */
  close(): Promise<void>;
}

/**
 * Loads the kubeconfig (input content, $KUBECONFIG, ~/.kube/config, in-cluster) and selects the context.
 * Masks every secret it reads. Does no network I/O: an unreachable server is the engine's to survive.
 * Throws an InputError naming `kubeconfig` or `context` when the kubeconfig cannot be used.
 */
export async function connect(
  settings: { kubeconfig: string; context: string },
  secrets: Secrets,
  sources: KubeconfigSources = defaultSources(),
  /** The run's clock and timers (src/time.ts): discovery's rate limit reads it. */
  time: Time = realTime,
): Promise<Cluster> {
  const loaded = loadKubeConfig(settings, secrets, sources);
  const execPlugin = loaded.exec && new ExecPlugin(loaded.exec.config, loaded.exec.user, secrets);
  const client = new KubeClient(loaded.kubeConfig, loaded.server, secrets, { execPlugin });
  return {
    contextName: loaded.contextName,
    server: loaded.server,
    namespace: loaded.namespace,
    client,
    discovery: new Discovery(client, undefined, time),
    endOfWait: () => execPlugin?.stopAtEndOfWait(),
    close: () => client.close(),
  };
}

/** The collection path of pods (or events) in a namespace, for pod diagnosis and logs. */
export function corePath(resource: 'pods' | 'events', namespace: string): string {
  return resourcePath({ group: '', version: 'v1', resource, namespaced: true }, namespace);
}

/** The CustomResourceDefinition that would serve this type (`<resource>.<group>`), for reading its subresources. */
export function crdPath(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(`${type.resource}.${type.group}`)}`;
}

/** A real API server leaves kind and apiVersion out of LIST items; status rules need them. */
export function withKind(item: unknown, apiVersion: string, kind: string): unknown {
  const object = item as { apiVersion?: string; kind?: string };
  if (object && typeof object === 'object' && !object.kind) {
    object.kind = kind;
    object.apiVersion = apiVersion;
  }
  return item;
}

/** The collection URL path of a resource type, in a namespace for namespaced types. */
export function resourcePath(type: Pick<ResourceType, 'group' | 'version' | 'resource' | 'namespaced'>, namespace?: string): string {
  const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const ns = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${type.resource}`;
}

export interface ListOptions extends RequestOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size (continue tokens); default 500 like client-go's reflector. */
  pageSize?: number;
}

/** `listItems`: the objects kubewait follows and diagnoses have their outsized strings cut as they arrive. */
export interface ItemListOptions extends ListOptions {
  /** Keep every string whole (default: cut at `MAX_STRING_CHARS`): `listPages`, whose callers read records
   *  (a Helm release's Secret holds the whole release in one string). */
  wholeStrings?: boolean;
}

/**
 * LIST a collection page by page, handing each page's items to `onItems` so a large list never has to be
 * held whole. Returns the list's resourceVersion (where a watch starts). An expired continue token
 * (410) restarts the list once from the beginning; `onRestart` lets the caller drop what it collected.
 */
export async function listPages(
  client: KubeClient,
  path: string,
  onItems: (items: unknown[]) => void,
  options: ListOptions = {},
  onRestart?: () => void,
): Promise<string> {
  let page: unknown[] = [];
  const restart = () => {
    page = [];
    onRestart?.();
  };
  return listItems(
    client,
    path,
    (item) => page.push(item),
    { ...options, wholeStrings: true },
    restart,
    () => {
      onItems(page);
      page = [];
    },
  );
}

/**
 * LIST a collection handing each item to `onItem` as soon as it has arrived and been parsed: not even a
 * page is held (client.ts `getItems`), and strings over `MAX_STRING_CHARS` are cut on the way (nothing
 * judged reads one: src/status/judged-fields.ts). For the objects kubewait follows and diagnoses, which may
 * be many and large. Returns the list's resourceVersion; a 410 on a continue token restarts once, as `listPages`.
 */
export async function listItems(
  client: KubeClient,
  path: string,
  onItem: (item: unknown) => void,
  options: ItemListOptions = {},
  onRestart?: () => void,
  onPage?: () => void,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    let token: string | undefined;
    try {
      do {
        const query: Query = {
          labelSelector: options.labelSelector || undefined,
          fieldSelector: options.fieldSelector || undefined,
          limit: options.pageSize ?? 500,
          continue: token,
        };
        const { wholeStrings, ...request } = options;
        const maxStringChars = wholeStrings ? Number.POSITIVE_INFINITY : MAX_STRING_CHARS;
        const page = (await client.getItems(path, query, onItem, { ...request, maxStringChars })) as {
          metadata?: { resourceVersion?: string; continue?: string };
        };
        onPage?.();
        token = page.metadata?.continue || undefined;
        if (!token) return page.metadata?.resourceVersion ?? '';
      } while (token);
    } catch (error) {
      if (token && attempt === 0 && error instanceof ApiError && error.status === 410) {
        onRestart?.();
        continue;
      }
      throw error;
    }
  }
}

/**
 * Every Secret or ConfigMap in `namespace` whose labels match `labelSelector`, all pages, for a reader of
 * records kept in them (src/release/). The items are returned as read and never logged here: a Secret's
 * data is in them. API failures (a 403 too) are thrown as ApiError.
 */
export async function listCoreByLabel(
  client: KubeClient,
  resource: 'secrets' | 'configmaps',
  namespace: string,
  labelSelector: string,
  signal?: AbortSignal,
): Promise<unknown[]> {
  const items: unknown[] = [];
  const path = resourcePath({ group: '', version: 'v1', resource, namespaced: true }, namespace);
  await listPages(
    client,
    path,
    (page) => items.push(...page),
    { labelSelector, ...(signal && { signal }) },
    () => (items.length = 0),
  );
  return items;
}

/**
 * Sets `annotations` on one object by a JSON merge patch, the way `flux reconcile` and Argo CD's refresh ask
 * their controller to act now: nothing else of the object is sent, so no resourceVersion and no conflict.
 * The only write kubewait makes. Resolves to the object as patched (as the server answered). Throws ApiError
 * (a 403 when `patch` is not granted).
 */
export async function annotate(
  client: KubeClient,
  type: Pick<ResourceType, 'group' | 'version' | 'resource' | 'namespaced'>,
  namespace: string,
  name: string,
  annotations: Record<string, string>,
  signal?: AbortSignal,
): Promise<unknown> {
  const path = `${resourcePath(type, namespace)}/${encodeURIComponent(name)}`;
  return client.mergePatch(path, { metadata: { annotations } }, signal && { signal });
}

/**
 * How `rollback` restores one workload (src/rollback/), as kubectl sends it: `json`, the JSON patch of
 * `kubectl rollout undo` for a Deployment (replace `spec.template` and the annotations; a `test` of the
 * generation first); `strategic-merge`, a StatefulSet's or DaemonSet's ControllerRevision data as it is;
 * `merge` on the `status` subresource, `kubectl argo rollouts abort`.
 */
export type RollbackPatch =
  { type: 'json'; operations: object[] } | { type: 'strategic-merge'; body: object } | { type: 'merge'; body: object; subresource?: 'status' };

const PATCH_CONTENT_TYPES = {
  json: 'application/json-patch+json',
  'strategic-merge': 'application/strategic-merge-patch+json',
  merge: 'application/merge-patch+json',
} as const;

/**
 * The rollback's one write: `patch` on one workload (or its status subresource). Only the `rollback` input
 * calls it, after the failure report's evidence was read. Throws ApiError (a 403 when `patch` is not granted,
 * a 422 when the generation `test` fails, a 404 when there is no status subresource).
 */
export async function patchForRollback(
  client: KubeClient,
  type: Pick<ResourceType, 'group' | 'version' | 'resource' | 'namespaced'>,
  namespace: string,
  name: string,
  patch: RollbackPatch,
  signal?: AbortSignal,
): Promise<unknown> {
  const subresource = patch.type === 'merge' && patch.subresource ? `/${patch.subresource}` : '';
  const path = `${resourcePath(type, namespace)}/${encodeURIComponent(name)}${subresource}`;
  const body = patch.type === 'json' ? patch.operations : patch.body;
  return client.patch(path, body, PATCH_CONTENT_TYPES[patch.type], signal && { signal });
}

/** WATCH a collection from a resourceVersion, with bookmarks. */
export function watchCollection(
  client: KubeClient,
  path: string,
  options: { resourceVersion: string; labelSelector?: string; fieldSelector?: string },
  onEvent: (type: string, object: unknown) => void,
  onEnd: (end: WatchEnd) => void,
): WatchHandle {
  const query: Query = {
    resourceVersion: options.resourceVersion || undefined,
    allowWatchBookmarks: true,
    labelSelector: options.labelSelector || undefined,
    fieldSelector: options.fieldSelector || undefined,
  };
  return client.watch(path, query, onEvent, onEnd);
}
export { findCrd, type CrdLookup } from './crds.js';
