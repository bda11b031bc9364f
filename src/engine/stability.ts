/**
 * `stable-for`: once every target is at the desired status, success waits until they have all stayed
 * there for the window, and no pod of a watched workload (Deployments, StatefulSets, DaemonSets,
 * ReplicaSets, Pods; not Jobs) restarted or left Ready meanwhile. A target leaving the desired status or
 * such a pod is a flap: it is logged as a warning and the window starts again when all are back.
 *
 * Pods are read with one LIST per namespace per poll interval while the window runs, compared with what
 * the first LIST of the window saw (restart counts, Ready).
 */
import { ApiError, corePath, listPages, withKind } from '../kube/index.js';
import type { Cluster } from '../kube/index.js';
import { ownerOf } from './diagnoser.js';
import type { DiagnosisSubject, PodLike } from './group.js';
import type { Scheduler } from './scheduler.js';
import { formatWindow } from '../time.js';

export type StableWorkload = Pick<DiagnosisSubject, 'kind' | 'name' | 'ownsPod'>;

export interface StabilityOptions {
  cluster: Cluster;
  timers: Scheduler;
  windowMs: number;
  pollIntervalMs: number;
  signal: AbortSignal;
  /** The watched workloads at the desired status, by namespace. */
  workloads(): Map<string, StableWorkload[]>;
  warn(message: string): void;
  /** Something changed (the window passed, or a pod flapped): decide again. */
  changed(): void;
}

interface PodSeen {
  restarts: number;
  ready: boolean;
}

interface Pod extends PodLike {
  metadata?: PodLike['metadata'] & { ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }> };
  status?: { conditions?: Array<{ type?: string; status?: string }>; containerStatuses?: Array<{ restartCount?: number }> };
}

export class StabilityWindow {
  /** Epoch ms since every target has been at the desired status, while the window runs. */
  private since?: number;
  /** Bumped when the window starts again, so a round of the previous window is ignored. */
  private round = 0;
  private baseline = new Map<string, PodSeen>();
  private forbidden = new Set<string>();

  constructor(private readonly options: StabilityOptions) {}

  /** Every target is at the desired status: true once the window has passed (start it if it is not running). */
  allReady(): boolean {
    const now = this.options.timers.now();
    if (this.since === undefined) {
      this.since = now;
      const round = ++this.round;
      this.baseline = new Map();
      this.decideAt(now + this.options.windowMs, round);
      void this.watchPods(round);
      return false;
    }
    const endsAt = this.since + this.options.windowMs;
    if (now >= endsAt) return true;
    // A timer can fire a little before the clock says the window has passed (Node's timers run on the
    // event loop's cached time): ask again then, or nothing would ever decide.
    this.decideAt(endsAt + 1, this.round);
    return false;
  }

  /** The decision scheduled last, and for which window (one timer per window, however many events). */
  private deciding?: { atMs: number; round: number };

  private decideAt(atMs: number, round: number): void {
    // Only a decision for this same window makes another one unneeded: a window that starts again within
    // the millisecond its predecessor started in ends at the same time, and still needs its own.
    if (this.deciding && this.deciding.round === round && this.deciding.atMs >= atMs) return;
    this.deciding = { atMs, round };
    this.options.timers.at(atMs, () => {
      if (round === this.round) this.options.changed();
    });
  }

  /** Whether every target is at the desired status and the window is running (for the timeout message). */
  get running(): boolean {
    return this.since !== undefined;
  }

  /** A target left the desired status (or a pod flapped): the window starts again when all are back. */
  flap(reason: string): void {
    if (this.since === undefined) return;
    const seconds = Math.round((this.options.timers.now() - this.since) / 100) / 10;
    this.since = undefined;
    this.round++;
    this.options.warn(
      `stable-for: ${reason} ${seconds}s into the ${formatWindow(this.options.windowMs)} window; the window starts again once every target is back`,
    );
  }

  private async watchPods(round: number): Promise<void> {
    const { timers, pollIntervalMs } = this.options;
    let first = true;
    while (round === this.round && !timers.isClosed) {
      const flapped = await this.readPods(first);
      if (round !== this.round) return;
      if (flapped) {
        this.flap(flapped);
        this.options.changed();
        return;
      }
      first = false;
      await timers.sleep(pollIntervalMs);
    }
  }

  /** One LIST per namespace; the first round records the baseline, later rounds compare. Returns a flap. */
  private async readPods(first: boolean): Promise<string | undefined> {
    for (const [namespace, workloads] of this.options.workloads()) {
      if (workloads.length === 0 || this.forbidden.has(namespace)) continue;
      const byOwner = new Map<string, DiagnosisSubject>();
      for (const w of workloads) byOwner.set(`${w.kind}/${w.name}`, { ...w, pendingSince: 0, apply: () => undefined });
      const pods: Array<{ pod: Pod; owner: DiagnosisSubject }> = [];
      try {
        await listPages(
          this.options.cluster.client,
          corePath('pods', namespace),
          (items) => {
            for (const pod of items as Pod[]) {
              withKind(pod, 'v1', 'Pod');
              const owner = ownerOf(pod, byOwner);
              if (owner) pods.push({ pod, owner });
            }
          },
          { signal: this.options.signal },
          () => (pods.length = 0),
        );
      } catch (error) {
        if (this.options.signal.aborted) return undefined;
        if (error instanceof ApiError && error.status === 403) {
          this.forbidden.add(namespace);
          this.options.warn(`stable-for: cannot list pods in namespace "${namespace}": only the targets' own status is watched for the window there`);
        }
        continue;
      }
      for (const { pod, owner } of pods) {
        const key = `${namespace}/${pod.metadata?.name ?? ''}`;
        const seen = { restarts: restartsOf(pod), ready: readyOf(pod) };
        const before = this.baseline.get(key);
        if (first || !before) {
          this.baseline.set(key, seen);
          continue;
        }
        const who = `pod ${key} of ${owner.kind} ${owner.name}`;
        if (seen.restarts > before.restarts) return `${who} restarted (restart count ${before.restarts} -> ${seen.restarts})`;
        if (before.ready && !seen.ready) return `${who} left Ready`;
      }
    }
    return undefined;
  }
}

function restartsOf(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((sum, c) => sum + (typeof c?.restartCount === 'number' ? c.restartCount : 0), 0);
}

function readyOf(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c?.type === 'Ready' && c.status === 'True');
}
