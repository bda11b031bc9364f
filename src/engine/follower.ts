/**
 * Follows one group on the API server, like client-go's reflector: LIST, then WATCH from the list's
 * resourceVersion with bookmarks; re-watch from the last resourceVersion when a watch ends or idles out;
 * relist on 410 Gone; back off with jitter on errors and honour Retry-After. In `auto` mode a forbidden
 * or repeatedly failing watch falls back to LIST every poll interval, with one warning.
 */
import {
  ApiError,
  describeFailure,
  groupVersion,
  isFatal,
  isUnreachable,
  listItems,
  qualifiedResource,
  resourcePath,
  statusError,
  watchCollection,
  withKind,
} from '../kube/index.js';
import type { Cluster, WatchEnd, WatchHandle } from '../kube/index.js';
import { backoffMs } from './backoff.js';
import type { GroupState } from './group.js';
import type { Time } from '../time.js';
import { Scheduler } from './scheduler.js';
import type { Mode } from './types.js';
import type { InputProblem } from '../settings.js';

/** Watch failures in a row (with HTTP answers, so the server is reachable) before `auto` polls instead. */
const WATCH_FAILURES_BEFORE_POLLING = 5;
/** After falling back because watches kept failing (not because they are forbidden), try again this late. */
const WATCH_RETRY_AFTER_MS = 60_000;
/** A Retry-After longer than this (or the poll interval, if longer) is not honoured whole: one 429 with
 *  `Retry-After: 3600` must not leave a group blind until the deadline (nor a third of the time left: see
 *  `honouredRetryAfterMs`). */
const MAX_RETRY_AFTER_MS = 30_000;
/**
 * Backoff after an error the server answered (5xx, a watch that ends at once): capped low, like
 * client-go's reflector it is jittered and starts over after every success. The server is up and says
 * so; if it is overloaded it sends 429 with Retry-After, which is honoured (capped above). A cap of
 * 10 s made a burst of twenty 500s outlast a 30 s deadline.
 */
const SERVER_ERROR_BASE_MS = 200;
const SERVER_ERROR_CAP_MS = 1500;
/** While the server does not answer at all, look again this often even if the shared probe is slow. */
const UNREACHABLE_RETRY_MS = 5000;
/** Failed connection attempts in a row before the user is told the server is out of reach. */
const LOST_CONTACT_AFTER = 2;

export interface FollowerOptions {
  cluster: Cluster;
  group: GroupState;
  mode: Mode;
  pollIntervalMs: number;
  /** The run's clock and timers (default: real time). */
  time?: Time;
  warn(message: string): void;
  /** Called after anything may have changed a target. */
  changed(): void;
  /** An error no retry can heal (credentials rejected, untrusted certificate): the wait ends with it. */
  fatal(error: unknown): void;
  /** A problem with an input that ends the wait (a permission `mode: watch` cannot do without). */
  problem(problem: InputProblem): void;
  /** Resolves when the API server answers again after it stopped answering at all (reachability.ts). */
  answering(): Promise<void>;
  /** Milliseconds until the wait's deadline: a Retry-After is honoured for a part of it only. */
  timeLeft(): number;
}

type WatchResult =
  { kind: 'closed'; resourceVersion: string; events: number } | { kind: 'interrupted' } | { kind: 'failed'; error: ApiError; resourceVersion: string };

export class Follower {
  private stopped = false;
  private polling: boolean;
  /** Ends the running watch early (targets changed, or stopping). */
  private interruptWatch?: () => void;
  private readonly timers: Scheduler;
  private readonly abort = new AbortController();
  private readonly path: string;
  private readonly apiVersion: string;
  private filter: { labelSelector?: string; fieldSelector?: string } = {};
  private filterRevision = -1;
  /** When polling because watches kept failing: when to try watching again. */
  private retryWatchAt?: number;

  constructor(private readonly options: FollowerOptions) {
    this.polling = options.mode === 'poll';
    this.timers = new Scheduler(options.time);
    this.path = resourcePath(options.group.type, options.group.namespace);
    this.apiVersion = groupVersion(options.group.type.group, options.group.type.version);
  }

  start(): void {
    this.run().catch((error: unknown) => {
      // A bug here must not crash the step: the group's targets say what happened.
      this.options.group.unavailable(
        `internal error while following ${this.options.group.description}: ${error instanceof Error ? error.message : String(error)}`,
        false,
      );
      this.options.changed();
    });
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.interruptWatch?.();
    this.timers.close();
  }

  /** Targets were added: the server-side filter may be stale, so list again now. */
  targetsChanged(): void {
    if (this.options.group.revision === this.filterRevision) return;
    this.interruptWatch?.();
    this.timers.wakeAll();
  }

  private async run(): Promise<void> {
    const { group } = this.options;
    let resourceVersion: string | undefined;
    let listFailures = 0;
    let watchFailures = 0;
    let unreachable = 0;
    while (!this.stopped) {
      if (resourceVersion === undefined || group.revision !== this.filterRevision) {
        try {
          resourceVersion = await this.list();
          listFailures = 0;
          unreachable = 0;
        } catch (error) {
          if (this.stopped) return;
          resourceVersion = undefined;
          const delay = this.listFailed(error, listFailures++);
          // No answer at all: wait for the shared probe, then list at once, not after a backoff's cap.
          if (isUnreachable(error)) await Promise.race([this.options.answering(), this.sleep(UNREACHABLE_RETRY_MS)]);
          else await this.sleep(delay);
          continue;
        }
        this.options.changed();
        if (group.revision !== this.filterRevision) continue; // targets added during the list
      }
      if (this.polling && this.retryWatchAt !== undefined && this.timers.now() >= this.retryWatchAt) {
        this.polling = false;
        this.retryWatchAt = undefined;
        watchFailures = 0;
      }
      if (this.polling) {
        await this.sleep(this.options.pollIntervalMs);
        resourceVersion = undefined;
        continue;
      }

      const startedAt = this.timers.now();
      const result = await this.watch(resourceVersion);
      if (this.stopped) return;
      switch (result.kind) {
        case 'interrupted':
          break;
        case 'closed':
          resourceVersion = result.resourceVersion;
          unreachable = 0;
          // A watch that ends at once with nothing in it is a struggling server: do not spin.
          if (result.events === 0 && this.timers.now() - startedAt < 1000)
            await this.sleep(backoffMs(watchFailures++, SERVER_ERROR_BASE_MS, SERVER_ERROR_CAP_MS));
          else watchFailures = 0;
          break;
        case 'failed':
          resourceVersion = result.resourceVersion;
          if (isFatal(result.error)) {
            this.options.fatal(result.error);
            return;
          }
          if (result.error.status === 410) {
            resourceVersion = undefined;
            break;
          }
          if (result.error.status === 0) {
            this.lostContact(result.error, ++unreachable);
            if (isUnreachable(result.error) && unreachable > 1) {
              // Re-list once the server answers again: what happened meanwhile may be past its watch history.
              await Promise.race([this.options.answering(), this.sleep(UNREACHABLE_RETRY_MS)]);
              resourceVersion = undefined;
            } else {
              await this.sleep(backoffMs(unreachable - 1, SERVER_ERROR_BASE_MS, SERVER_ERROR_CAP_MS));
            }
            break;
          }
          watchFailures++;
          if (this.watchFailed(result.error, watchFailures)) break;
          await this.sleep(
            result.error.retryAfterMs !== undefined
              ? this.cappedRetryAfter(result.error.retryAfterMs)
              : backoffMs(watchFailures - 1, SERVER_ERROR_BASE_MS, SERVER_ERROR_CAP_MS),
          );
          break;
      }
    }
  }

  private async list(): Promise<string> {
    const { group, cluster } = this.options;
    this.filter = group.serverFilter();
    this.filterRevision = group.revision;
    group.beginList();
    try {
      const resourceVersion = await listItems(
        cluster.client,
        this.path,
        (item) => {
          if (!this.stopped) group.upsert(withKind(item, this.apiVersion, group.type.kind));
        },
        { ...this.filter, signal: this.abort.signal },
        () => group.beginList(),
      );
      group.endList();
      if (group.waitsForAbsent) await this.checkNamespace();
      return resourceVersion;
    } catch (error) {
      group.abandonList();
      throw error;
    }
  }

  /** A target missing from the list because its namespace is missing is named as such ("namespace nope
   *  does not exist"), not left at "not found". Best effort: a forbidden GET says nothing. */
  private async checkNamespace(): Promise<void> {
    const { group, cluster } = this.options;
    try {
      await cluster.client.get(`/api/v1/namespaces/${encodeURIComponent(group.namespace)}`, {}, { signal: this.abort.signal });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && !this.stopped) group.namespaceMissing();
    }
  }

  /** Marks the group's targets when a LIST fails; returns how long to wait before the next try. */
  private listFailed(error: unknown, attempt: number): number {
    const { group, cluster } = this.options;
    const status = error instanceof ApiError ? error.status : 0;
    const retryAfter = error instanceof ApiError ? error.retryAfterMs : undefined;
    if (status === 403) {
      const grant = `grant the list and watch verbs on ${qualifiedResource(group.type)} to this kubeconfig's identity`;
      group.unavailable(`${this.permission('list')}: forbidden — ${grant}`, true);
      // Selector targets may be satisfied by other types; this one must not go unmentioned.
      if (group.selects) this.options.warn(`${this.permission('list')}: forbidden, so matching objects of this type are not waited for — ${grant}`);
    } else if (isFatal(error)) {
      group.unavailable(describeFailure(error, cluster.server), true);
      this.options.fatal(error);
    } else if (status === 404) {
      group.typeGone(`resource type ${qualifiedResource(group.type)} is no longer served by the cluster`);
    } else if (!group.synced) {
      group.unavailable(`cannot list ${group.description}: ${describeFailure(error, cluster.server)}`, false);
    } else if (status === 0) {
      this.lostContact(error, attempt + 1);
    }
    this.options.changed();
    const blocked = status === 403 || status === 401;
    if (retryAfter !== undefined) return this.cappedRetryAfter(retryAfter);
    return blocked ? backoffMs(attempt, 2000, 30_000) : backoffMs(attempt, SERVER_ERROR_BASE_MS, SERVER_ERROR_CAP_MS);
  }

  /** The server stopped answering after the first list: say so once, as the statuses may go stale. */
  private lostContact(error: unknown, failures: number): void {
    if (failures !== LOST_CONTACT_AFTER) return;
    this.options.warn(`${describeFailure(error, this.options.cluster.server)}; retrying until the deadline (statuses may be stale meanwhile)`);
  }

  /** Handles a failed watch; true when the follower changed course (fallback or stop). */
  private watchFailed(error: ApiError, failures: number): boolean {
    const { group, mode, pollIntervalMs } = this.options;
    const interval = formatInterval(pollIntervalMs);
    if (error.status === 403) {
      if (mode === 'watch') {
        const message = `${this.permission('watch')}: forbidden — grant the watch verb on ${qualifiedResource(group.type)} to this kubeconfig's identity, or use mode: auto to poll instead (mode: watch never falls back to polling)`;
        group.unavailable(message, true);
        // The missing permission, attributed to the input that made it fatal, not to the kubeconfig.
        this.options.problem({ input: 'mode', message });
        this.options.changed();
        this.stopped = true;
        return true;
      }
      this.polling = true;
      this.options.warn(
        `${this.permission('watch')}; polling every ${interval} instead — grant the watch verb on ${qualifiedResource(group.type)} to this kubeconfig's identity for faster, lighter waits`,
      );
      return true;
    }
    if (mode === 'auto' && error.status !== 0 && failures >= WATCH_FAILURES_BEFORE_POLLING) {
      this.polling = true;
      this.retryWatchAt = this.timers.now() + WATCH_RETRY_AFTER_MS;
      this.options.warn(`watching ${group.description} keeps failing (${error.message}); polling every ${interval} instead`);
      return true;
    }
    return false;
  }

  /** `cannot watch deployments.apps in namespace "shop"` */
  private permission(verb: string): string {
    const { group } = this.options;
    const where = group.type.namespaced ? ` in namespace "${group.namespace}"` : ' at cluster scope';
    return `cannot ${verb} ${qualifiedResource(group.type)}${where}`;
  }

  private watch(resourceVersion: string): Promise<WatchResult> {
    const { group, cluster } = this.options;
    return new Promise((resolve) => {
      let lastVersion = resourceVersion;
      let events = 0;
      let settled = false;
      // Assigned once; `finish` may run before that (a watch that ends at once), hence the holder.
      const started: { handle?: WatchHandle } = {};
      const finish = (result: WatchResult) => {
        if (settled) return;
        settled = true;
        started.handle?.stop();
        this.interruptWatch = undefined;
        resolve(result);
      };
      this.interruptWatch = () => finish({ kind: 'interrupted' });
      const handle = watchCollection(
        cluster.client,
        this.path,
        { resourceVersion, ...this.filter },
        (type, object) => {
          if (settled) return;
          events++;
          const version = (object as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion;
          switch (type) {
            case 'ADDED':
            case 'MODIFIED':
              group.upsert(object);
              break;
            case 'DELETED': {
              const name = (object as { metadata?: { name?: string } })?.metadata?.name;
              if (name) group.remove(name);
              break;
            }
            case 'BOOKMARK':
              break;
            case 'ERROR': {
              // 410 Gone (resourceVersion too old) arrives here, not as an HTTP status: `failed` relists.
              const code = (object as { code?: unknown })?.code;
              finish({ kind: 'failed', error: statusError(typeof code === 'number' ? code : 500, object), resourceVersion: lastVersion });
              return;
            }
            default:
              return;
          }
          if (version) lastVersion = version;
          if (type !== 'BOOKMARK') this.options.changed();
        },
        (end: WatchEnd) => {
          if (end) finish({ kind: 'failed', error: end, resourceVersion: lastVersion });
          else finish({ kind: 'closed', resourceVersion: lastVersion, events });
        },
      );
      started.handle = handle;
      if (settled) handle.stop();
    });
  }

  private cappedRetryAfter(ms: number): number {
    return honouredRetryAfterMs(ms, this.options.pollIntervalMs, this.options.timeLeft());
  }

  private sleep(ms: number): Promise<void> {
    return this.timers.sleep(ms);
  }
}

/**
 * How long to wait for a server's Retry-After: what it asks, but at most max(30 s, poll interval), and at
 * most a third of the time left, so a group asked to wait an hour looks again well before the deadline
 * (the other groups go on meanwhile); never past the deadline, and, unless the server asked for less, not
 * under the server-error backoff's base (no burst of retries as the deadline nears).
 */
export function honouredRetryAfterMs(retryAfterMs: number, pollIntervalMs: number, timeLeftMs: number): number {
  const ceiling = Math.max(MAX_RETRY_AFTER_MS, pollIntervalMs);
  const share = Math.max(timeLeftMs / 3, SERVER_ERROR_BASE_MS);
  return Math.max(0, Math.min(retryAfterMs, ceiling, share, timeLeftMs));
}

export function formatInterval(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
