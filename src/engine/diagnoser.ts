/**
 * Pod diagnosis for the pending workloads of one namespace: at most one LIST of pods and one LIST of
 * Warning events per poll interval, shared by every workload there (never per watch event, never per
 * workload). A slow namespace (many pods) stretches its own interval so diagnosis never dominates.
 */
import { diagnosePods, type Diagnosis } from '../status/index.js';
import { canReleaseQuota } from '../status/quota-release.js';
import { currentReplicaSetName, replicaSetFailedCreate } from '../status/current-replicaset.js';
import { hasUnschedulablePod } from '../status/scale-up.js';
import { earliestFinalAt } from '../status/standing.js';
import { ApiError, corePath, listItems, withKind } from '../kube/index.js';
import type { Cluster } from '../kube/index.js';
import type { DiagnosisSubject, PodLike } from './group.js';
import type { Time } from '../time.js';
import { Scheduler } from './scheduler.js';

export interface DiagnoserOptions {
  cluster: Cluster;
  namespace: string;
  intervalMs: number;
  /** A workload is diagnosed once it has been pending this long (most rollouts finish before). */
  minPendingMs: number;
  imagePullGraceMs?: number;
  /** How long a final-looking `FailedCreate` must stand before it fails a workload (default 20 s). */
  creationGraceMs?: number;
  /** The run's clock and timers (default: real time). */
  time?: Time;
  /** The pending workloads here that have been pending since `pendingSinceAtMost` (epoch ms) or earlier:
   *  what a round diagnoses, read without walking the younger ones. */
  subjects(pendingSinceAtMost: number): DiagnosisSubject[];
  /** Whether any workload here may be pending (false: the diagnoser idles until poked). */
  hasPending(): boolean;
  warn(message: string): void;
  changed(): void;
}

/** A round due when a grace ends runs this much after it, so that the grace has surely ended. */
const AFTER_GRACE_MS = 1;

/** Diagnosis rounds slow down to one per this interval while workloads stay pending. */
const MAX_DIAGNOSIS_INTERVAL_MS = 15_000;

interface Pod extends PodLike {
  metadata?: PodLike['metadata'] & { ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }> };
}

interface KubeEvent {
  involvedObject?: { kind?: string; name?: string };
}

/** A Deployment and the ReplicaSets it controls, as read in one diagnosis round. */
interface Rollout {
  deployment: unknown;
  replicaSets: unknown[];
}

export class NamespaceDiagnoser {
  /** The next round, when one is scheduled. */
  private scheduled = false;
  private readonly timers: Scheduler;
  private running = false;
  private stopped = false;
  private warned = false;
  private readonly abort = new AbortController();
  private delayMs: number;
  /** By `Deployment/name`: when its rollout last could free quota (a quota failure is final only after). */
  private readonly quotaReleasableAt = new Map<string, number>();
  /** Webhooks already warned about as unreachable: one warning each per run. */
  private readonly unreachableWarned = new Set<string>();

  constructor(private readonly options: DiagnoserOptions) {
    this.delayMs = options.intervalMs;
    this.timers = new Scheduler(options.time);
  }

  /** A workload here is pending: make sure a diagnosis is scheduled. */
  poke(): void {
    if (this.scheduled || this.running || this.stopped) return;
    this.schedule(this.options.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.timers.close();
  }

  private schedule(ms: number): void {
    this.scheduled = true;
    this.timers.after(ms, () => void this.tick());
  }

  private async tick(): Promise<void> {
    this.scheduled = false;
    if (this.stopped || !this.options.hasPending()) return; // idle until a workload is pending again
    const started = this.timers.now();
    /** When a failure in its grace (src/status/standing.ts) becomes final: the next round comes no later,
     *  whatever the backoff. */
    let dueAt: number | undefined;
    const subjects = this.options.subjects(started - this.options.minPendingMs);
    this.running = true;
    try {
      if (subjects.length > 0) {
        dueAt = await this.diagnose(subjects);
        this.options.changed();
        // A long wait (a slow Job) needs no fresh diagnosis every interval: space the rounds out.
        this.delayMs = Math.min(this.delayMs * 1.5, Math.max(this.options.intervalMs, MAX_DIAGNOSIS_INTERVAL_MS));
      }
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof ApiError && error.status === 403 && !this.warned) {
        this.warned = true;
        this.options.warn(
          `cannot list pods in namespace "${this.options.namespace}": pod diagnosis (why a workload is not ready) is unavailable there — grant the list verb on pods and events`,
        );
      }
    } finally {
      this.running = false;
    }
    if (this.stopped) return;
    const delay = Math.max(this.delayMs, 3 * (this.timers.now() - started));
    this.schedule(dueAt === undefined ? delay : Math.min(delay, Math.max(0, dueAt - this.timers.now()) + AFTER_GRACE_MS));
  }

  /** One round; returns the earliest time a failure in its grace becomes final, if any. */
  private async diagnose(subjects: DiagnosisSubject[]): Promise<number | undefined> {
    const { cluster, namespace } = this.options;
    const byOwner = new Map<string, DiagnosisSubject>();
    for (const subject of subjects) byOwner.set(`${subject.kind}/${subject.name}`, subject);
    const pods = new Map<DiagnosisSubject, Pod[]>();
    const podOwner = new Map<string, DiagnosisSubject>();
    const signal = this.abort.signal;

    // Item by item: of a namespace's pods only the pending workloads' are kept, never a whole page.
    await listItems(
      cluster.client,
      corePath('pods', namespace),
      (item) => {
        const pod = withKind(item, 'v1', 'Pod') as Pod;
        const subject = ownerOf(pod, byOwner);
        if (!subject) return;
        podOwner.set(pod.metadata!.name!, subject);
        const list = pods.get(subject) ?? [];
        list.push(pod);
        pods.set(subject, list);
      },
      { signal },
      () => pods.clear(),
    );

    // Events only add detail: without them (forbidden, unsupported selector) the pods still tell why.
    const events = new Map<DiagnosisSubject, KubeEvent[]>();
    await listItems(cluster.client, corePath('events', namespace), collectEvent(events, byOwner, podOwner), { signal, fieldSelector: 'type=Warning' }, () =>
      events.clear(),
    ).catch((error: unknown) => {
      if (signal.aborted) throw error;
      events.clear();
    });

    // The autoscaler's refusal to add a node is a Normal event: read only while a pod is unschedulable.
    if ([...pods.values()].some(hasUnschedulablePod)) await this.addScaleUpRefusals(events, byOwner, podOwner);

    // A Deployment's ReplicaSet FailedCreate counts only from its current ReplicaSet; the ReplicaSets are
    // read only then (one GET per such Deployment, one LIST per round), and serve the quota rule too.
    const rollouts = await this.readRollouts(subjects.filter((s) => s.kind === 'Deployment' && (events.get(s) ?? []).some(replicaSetFailedCreate)));
    if (this.stopped) return;
    for (const [subject, rollout] of rollouts) {
      if (rollout) events.set(subject, eventsOfCurrentReplicaSet(events.get(subject) ?? [], rollout));
    }

    const now = new Date(this.timers.now());
    const diagnoseSubject = (subject: DiagnosisSubject, quota: { canReleaseQuota?: boolean; quotaReleasableAtMs?: number } = {}): Diagnosis =>
      diagnosePods(pods.get(subject) ?? [], events.get(subject) ?? [], {
        now,
        imagePullGraceMs: this.options.imagePullGraceMs,
        creationGraceMs: this.options.creationGraceMs,
        ...quota,
      });
    const diagnoses = new Map(subjects.map((subject) => [subject, diagnoseSubject(subject)]));
    // A Deployment's exceeded quota is final only if its rollout cannot free the quota itself.
    const quotaBound = subjects.filter((s) => s.kind === 'Deployment' && diagnoses.get(s)?.creation?.cause === 'QuotaExceeded');
    for (const subject of quotaBound) {
      const key = `${subject.kind}/${subject.name}`;
      const rollout = rollouts.get(subject);
      // Unreadable: yes, so that what cannot be read never fails a wait.
      const releasable = rollout ? canReleaseQuota(rollout.deployment, rollout.replicaSets) : true;
      if (releasable) this.quotaReleasableAt.set(key, now.getTime());
      diagnoses.set(subject, diagnoseSubject(subject, { canReleaseQuota: releasable, quotaReleasableAtMs: this.quotaReleasableAt.get(key) }));
    }
    for (const subject of subjects) {
      const diagnosis = diagnoses.get(subject)!;
      this.warnUnreachableWebhook(diagnosis);
      const empty = diagnosis.problems.length === 0 && diagnosis.events.length === 0;
      subject.apply(empty ? undefined : diagnosis);
    }
    return earliestFinalAt([...diagnoses.values()].map((diagnosis) => diagnosis.finalAtMs));
  }

  /** The Deployments of `subjects` and the ReplicaSets they control: one GET each and one LIST of
   *  ReplicaSets; undefined for one that cannot be read (its events are then judged as they are). */
  private async readRollouts(subjects: DiagnosisSubject[]): Promise<Map<DiagnosisSubject, Rollout | undefined>> {
    const rollouts = new Map<DiagnosisSubject, Rollout | undefined>();
    if (subjects.length === 0) return rollouts;
    const { cluster, namespace } = this.options;
    const signal = this.abort.signal;
    const base = `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}`;
    try {
      const deployments = new Map<string, unknown>();
      for (const subject of subjects) {
        deployments.set(
          subject.name,
          await cluster.client.get(`${base}/deployments/${encodeURIComponent(subject.name)}`, {}, { signal }).catch(() => undefined),
        );
      }
      const replicaSets: unknown[] = [];
      await listItems(
        cluster.client,
        `${base}/replicasets`,
        (item) => {
          const owner = (
            item as { metadata?: { ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }> } }
          ).metadata?.ownerReferences?.find((o) => o?.controller);
          if (owner?.kind === 'Deployment' && owner.name !== undefined && deployments.get(owner.name) !== undefined) replicaSets.push(item);
        },
        { signal },
        () => replicaSets.splice(0),
      );
      for (const subject of subjects) {
        const deployment = deployments.get(subject.name);
        rollouts.set(subject, deployment === undefined ? undefined : { deployment, replicaSets });
      }
    } catch (error) {
      if (signal.aborted) throw error;
      for (const subject of subjects) rollouts.set(subject, undefined);
    }
    return rollouts;
  }

  /** `NotTriggerScaleUp` events (any type) about the pending workloads' pods, beside the warnings. */
  private async addScaleUpRefusals(
    events: Map<DiagnosisSubject, KubeEvent[]>,
    byOwner: Map<string, DiagnosisSubject>,
    podOwner: Map<string, DiagnosisSubject>,
  ): Promise<void> {
    const signal = this.abort.signal;
    await listItems(this.options.cluster.client, corePath('events', this.options.namespace), collectEvent(events, byOwner, podOwner), {
      signal,
      fieldSelector: 'reason=NotTriggerScaleUp',
    }).catch((error: unknown) => {
      if (signal.aborted) throw error;
    });
  }

  /** A webhook that does not answer holds pod creation until it does: said once, the wait goes on. */
  private warnUnreachableWebhook(diagnosis: Diagnosis): void {
    const creation = diagnosis.creation;
    if (creation?.cause !== 'WebhookUnavailable' || !creation.admission || this.unreachableWarned.has(creation.admission)) return;
    this.unreachableWarned.add(creation.admission);
    this.options.warn(`${creation.admission} did not answer, so ${creation.object} cannot create pods until it does (waiting): ${creation.message}`);
  }
}

/** A Deployment's events without the FailedCreate of a ReplicaSet that is not its current one (an old
 *  revision's, or any while the controller has not caught up with the latest spec). */
function eventsOfCurrentReplicaSet(events: KubeEvent[], rollout: Rollout): KubeEvent[] {
  const current = currentReplicaSetName(rollout.deployment, rollout.replicaSets);
  return events.filter((event) => {
    const replicaSet = replicaSetFailedCreate(event);
    return replicaSet === undefined || replicaSet === current;
  });
}

/** The pending workload a pod belongs to: its controller (a Deployment through its ReplicaSet), or itself. */
export function ownerOf(pod: Pod, byOwner: Map<string, DiagnosisSubject>): DiagnosisSubject | undefined {
  const name = pod.metadata?.name;
  if (!name) return undefined;
  const candidates = [`Pod/${name}`];
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o?.controller === true);
  if (owner?.kind && owner.name) {
    candidates.push(`${owner.kind}/${owner.name}`);
    if (owner.kind === 'ReplicaSet') candidates.push(`Deployment/${stripHash(owner.name)}`);
  }
  for (const key of candidates) {
    const subject = byOwner.get(key);
    if (subject?.ownsPod(pod)) return subject;
  }
  return undefined;
}

export function eventSubject(event: KubeEvent, byOwner: Map<string, DiagnosisSubject>, podOwner: Map<string, DiagnosisSubject>): DiagnosisSubject | undefined {
  const kind = event.involvedObject?.kind;
  const name = event.involvedObject?.name;
  if (!kind || !name) return undefined;
  if (kind === 'Pod') return podOwner.get(name) ?? byOwner.get(`Pod/${name}`);
  if (kind === 'ReplicaSet') return byOwner.get(`ReplicaSet/${name}`) ?? byOwner.get(`Deployment/${stripHash(name)}`);
  return byOwner.get(`${kind}/${name}`);
}

/** `web-7d9c5f` -> `web` (a ReplicaSet is named after its Deployment plus the pod-template hash). */
function stripHash(name: string): string {
  const dash = name.lastIndexOf('-');
  return dash > 0 ? name.slice(0, dash) : name;
}

/** An event LIST's item handler: each event joins the events of the subject it is about, if any. */
function collectEvent(
  events: Map<DiagnosisSubject, KubeEvent[]>,
  byOwner: Map<string, DiagnosisSubject>,
  podOwner: Map<string, DiagnosisSubject>,
): (item: unknown) => void {
  return (item) => {
    const event = withKind(item, 'v1', 'Event') as KubeEvent;
    const subject = eventSubject(event, byOwner, podOwner);
    if (!subject) return;
    const list = events.get(subject) ?? [];
    list.push(event);
    events.set(subject, list);
  };
}
