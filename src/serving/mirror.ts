/**
 * One resource type in one namespace, read once and then followed, for the endpoints check: the objects it
 * judges are not targets, so the engine's followers do not hold them, and reading them again every poll
 * would add a LIST per poll (issue 31: one per new resource type). Like the engine's follower
 * (src/engine/follower.ts), after client-go's reflector: LIST, then WATCH from the list's resourceVersion
 * with bookmarks; a watch that ends, or idles out (client.ts ends one that received no bytes for 30 s as a
 * normal end), is watched again from the last resourceVersion; 410 Gone, which a watch sends as an ERROR
 * event, lists again; other failures back off and watch again, from a new LIST once the server stopped
 * answering. Where watch is forbidden (403), it LISTs every poll interval instead, with one warning.
 * Where list is forbidden or the type not served, it gives up with one warning: the objects are
 * `unreadable`, and the check does not judge what needs them (as the wait could not either).
 */
import { ApiError, isFatal, isUnreachable, listItems, resourcePath, statusError, watchCollection, type Cluster, type WatchEnd } from '../kube/index.js';
import { backoffMs } from '../engine/backoff.js';
import { sleep, type Time } from '../time.js';

type KubeClient = Cluster['client'];

export interface MirroredType {
  group: string;
  version: string;
  resource: string;
}

export interface MirrorOptions {
  client: KubeClient;
  type: MirroredType;
  namespace: string;
  /** Server-side filter (an EndpointSlice's `kubernetes.io/service-name`). */
  labelSelector?: string;
  /** Which objects to keep (the others are not held). */
  keep(object: unknown): boolean;
  time: Time;
  /** The stage's signal: aborting it stops the mirror. */
  signal: AbortSignal;
  pollIntervalMs: number;
  warning(message: string): void;
  /** After anything may have changed: the objects, or `state`. */
  changed(): void;
}

/** `syncing` until the first LIST answered; `unreadable` once it was forbidden or the type is not served;
 *  `fatal` when no retry can heal it (credentials rejected), `fatalError` says why. */
export type MirrorState = 'syncing' | 'synced' | 'unreadable' | 'fatal';

/** Failures the server answered: back off from this, up to the cap (the engine's follower's figures). */
const ERROR_BASE_MS = 200;
const ERROR_CAP_MS = 1500;
/** While the server does not answer at all, try again at most this late. */
const UNREACHABLE_CAP_MS = 5000;

type WatchResult = { kind: 'closed'; resourceVersion: string } | { kind: 'failed'; error: ApiError; resourceVersion: string };

export class Mirror {
  /** The objects kept, by name, as of the last LIST and the watch events since. */
  objects = new Map<string, unknown>();
  state: MirrorState = 'syncing';
  /** The last failure to read, while the state is `syncing` (said at the deadline), or `fatal`. */
  lastError?: unknown;
  private readonly path: string;
  private readonly stopping = new AbortController();
  private polling = false;
  private stopWatch?: () => void;

  constructor(private readonly options: MirrorOptions) {
    this.path = resourcePath({ ...options.type, namespaced: true }, options.namespace);
    options.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** `endpointslices (discovery.k8s.io) in namespace "shop"` */
  get description(): string {
    const { type, namespace } = this.options;
    return `${type.resource}${type.group ? ` (${type.group})` : ''} in namespace "${namespace}"`;
  }

  start(): void {
    this.run().catch((error: unknown) => {
      // A bug here must not crash the step: the check reports it as a failure to read.
      this.state = 'fatal';
      this.lastError = error;
      this.options.changed();
    });
  }

  stop(): void {
    this.stopping.abort();
    this.stopWatch?.();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    let resourceVersion: string | undefined;
    let failures = 0;
    while (!this.stopped) {
      if (resourceVersion === undefined) {
        try {
          resourceVersion = await this.list();
          failures = 0;
        } catch (error) {
          if (this.stopped) return;
          if (this.cannotRead(error)) return;
          this.lastError = error;
          await this.sleep(backoffMs(failures++, ERROR_BASE_MS, isUnreachable(error) ? UNREACHABLE_CAP_MS : ERROR_CAP_MS));
          continue;
        }
        this.options.changed();
      }
      if (this.polling) {
        await this.sleep(this.options.pollIntervalMs);
        resourceVersion = undefined;
        continue;
      }
      const result = await this.watch(resourceVersion);
      if (this.stopped) return;
      if (result.kind === 'closed') {
        resourceVersion = result.resourceVersion;
        failures = 0;
        continue;
      }
      const { error } = result;
      if (isFatal(error)) return this.fatal(error);
      if (error.status === 410) {
        resourceVersion = undefined;
        continue;
      }
      if (error.status === 403) {
        this.polling = true;
        resourceVersion = undefined;
        this.options.warning(
          `cannot watch ${this.description} (forbidden): polling it every ${this.options.pollIntervalMs / 1000}s instead — grant the watch verb on ${this.options.type.resource} for a lighter check`,
        );
        continue;
      }
      // The server stopped answering: what changed meanwhile may be past its watch history, so list again.
      resourceVersion = error.status === 0 ? undefined : result.resourceVersion;
      await this.sleep(backoffMs(failures++, ERROR_BASE_MS, error.status === 0 ? UNREACHABLE_CAP_MS : ERROR_CAP_MS));
    }
  }

  /** One LIST: the objects kept replace the ones held (a relist drops what was deleted meanwhile). */
  private async list(): Promise<string> {
    const { client, labelSelector } = this.options;
    let listed = new Map<string, unknown>();
    const resourceVersion = await listItems(
      client,
      this.path,
      (item) => {
        const name = nameOf(item);
        if (name && this.options.keep(item)) listed.set(name, item);
      },
      { signal: this.stopping.signal, ...(labelSelector ? { labelSelector } : {}) },
      () => (listed = new Map()),
    );
    this.objects = listed;
    this.state = 'synced';
    this.lastError = undefined;
    return resourceVersion;
  }

  /** A LIST that no retry can heal: true when the mirror gave up (said once, here). */
  private cannotRead(error: unknown): boolean {
    if (isFatal(error)) {
      this.fatal(error);
      return true;
    }
    if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) return false;
    this.state = 'unreadable';
    const { type } = this.options;
    this.options.warning(
      `cannot list ${this.description} (${error.status === 403 ? 'forbidden' : 'not served'}): endpoints are not checked there — grant the list and watch verbs on ${type.resource}${type.group ? ` (${type.group})` : ''}`,
    );
    this.options.changed();
    return true;
  }

  private fatal(error: unknown): void {
    this.state = 'fatal';
    this.lastError = error;
    this.options.changed();
  }

  private watch(resourceVersion: string): Promise<WatchResult> {
    return new Promise((resolve) => {
      let lastVersion = resourceVersion;
      let settled = false;
      const holder: { stop?: () => void } = {};
      const finish = (result: WatchResult) => {
        if (settled) return;
        settled = true;
        this.stopWatch = undefined;
        holder.stop?.();
        resolve(result);
      };
      this.stopWatch = () => finish({ kind: 'closed', resourceVersion: lastVersion });
      const handle = watchCollection(
        this.options.client,
        this.path,
        { resourceVersion, ...(this.options.labelSelector ? { labelSelector: this.options.labelSelector } : {}) },
        (type, object) => {
          if (settled) return;
          if (type === 'ERROR') {
            // 410 Gone (the resourceVersion is too old) arrives here, not as an HTTP status.
            const code = (object as { code?: unknown } | undefined)?.code;
            finish({ kind: 'failed', error: statusError(typeof code === 'number' ? code : 500, object), resourceVersion: lastVersion });
            return;
          }
          const version = (object as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
          if (version) lastVersion = version;
          if (this.apply(type, object)) this.options.changed();
        },
        (end: WatchEnd) => finish(end ? { kind: 'failed', error: end, resourceVersion: lastVersion } : { kind: 'closed', resourceVersion: lastVersion }),
      );
      holder.stop = () => handle.stop();
      if (settled) handle.stop();
    });
  }

  /** One watch event on the objects held; true when they changed. */
  private apply(type: string, object: unknown): boolean {
    const name = nameOf(object);
    if (!name) return false;
    const kept = type !== 'DELETED' && this.options.keep(object);
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return false;
    if (kept) this.objects.set(name, object);
    else if (!this.objects.delete(name)) return false;
    return true;
  }

  private sleep(ms: number): Promise<void> {
    return sleep(this.options.time, ms, this.stopping.signal);
  }
}

function nameOf(object: unknown): string | undefined {
  const name = (object as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' && name ? name : undefined;
}
