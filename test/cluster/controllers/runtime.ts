/** What every simulated controller needs: scaled timers, a de-duplicating work queue, status writes that
 *  skip no-ops, owned-object creation, and core/v1 Events with counts. */
import { createHash, randomBytes } from 'node:crypto';
import type { Api } from '../api.js';
import type { ResourceType } from '../registry.js';
import { randomSuffix, timestamp, type KubeObject, type OwnerReference } from '../store.js';

export const ANNOTATION = {
  readyAfterMs: 'kubewait.test/ready-after-ms',
  podFailure: 'kubewait.test/pod-failure',
  exitReason: 'kubewait.test/exit-reason',
  exitCode: 'kubewait.test/exit-code',
  jobOutcome: 'kubewait.test/job-outcome',
  podOutcome: 'kubewait.test/pod-outcome',
  pvc: 'kubewait.test/pvc',
  conditionsAfterMs: 'kubewait.test/conditions-after-ms',
  crOutcome: 'kubewait.test/cr-outcome',
  statusScript: 'kubewait.test/status-script',
} as const;

export const DEFAULT_STEP_MS = 200;

export type Reconcile = (obj: KubeObject) => void;

export class Runtime {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly byOwner = new Map<string, Set<NodeJS.Timeout>>();
  private readonly queue = new Map<string, { type: ResourceType; namespace?: string; name: string }>();
  private flushScheduled = false;
  private readonly reconcilers = new Map<string, Reconcile>(); // kind -> reconcile
  private readonly eventNames = new Map<string, string>(); // involved uid|reason|message -> event name
  private stopped = false;
  private ipCounter = 0;

  constructor(
    readonly api: Api,
    readonly speed: number,
  ) {}

  get store() {
    return this.api.store;
  }

  type(apiVersion: string, kind: string): ResourceType {
    return this.api.typeFor(apiVersion, kind);
  }

  register(kind: string, reconcile: Reconcile): void {
    this.reconcilers.set(kind, reconcile);
  }

  /** Runs `fn` after `ms` scaled by speed; `owner` (a uid) lets deletion cancel an object's timers. */
  after(ms: number, fn: () => void, owner?: string): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (owner) this.byOwner.get(owner)?.delete(timer);
        if (!this.stopped) fn();
      },
      Math.max(0, ms * this.speed),
    );
    this.timers.add(timer);
    if (owner) {
      let set = this.byOwner.get(owner);
      if (!set) this.byOwner.set(owner, (set = new Set()));
      set.add(timer);
    }
  }

  cancel(owner: string): void {
    for (const timer of this.byOwner.get(owner) ?? []) {
      clearTimeout(timer);
      this.timers.delete(timer);
    }
    this.byOwner.delete(owner);
  }

  enqueue(type: ResourceType, namespace: string | undefined, name: string): void {
    if (!this.reconcilers.has(type.kind)) return;
    this.queue.set(`${type.group}/${type.plural}/${namespace ?? ''}/${name}`, { type, namespace, name });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Enqueues the controller (owner with controller: true) of an object. */
  enqueueOwner(obj: KubeObject): void {
    const ref = controllerOf(obj);
    if (!ref) return;
    const owner = this.store.byUID(ref.uid);
    if (owner) this.enqueue(owner.type, owner.object.metadata.namespace, owner.object.metadata.name);
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.stopped) return;
    const items = [...this.queue.values()];
    this.queue.clear();
    for (const item of items) {
      const obj = this.store.get(item.type, item.namespace, item.name);
      if (!obj) continue;
      try {
        this.reconcilers.get(item.type.kind)?.(obj);
      } catch (err) {
        console.error(`test cluster: reconciling ${item.type.kind} ${item.namespace}/${item.name} failed:`, err);
      }
    }
  }

  /** Writes status through the status subresource unless nothing changed. */
  writeStatus(obj: KubeObject, status: object): KubeObject {
    const t = this.type(obj.apiVersion, obj.kind);
    const current = this.store.get(t, obj.metadata.namespace, obj.metadata.name);
    if (!current || JSON.stringify(current.status) === JSON.stringify(status)) return current ?? obj;
    return this.store.update(t, { ...current, status }, { subresource: 'status' });
  }

  /** A server-side change to spec or metadata (binding a pod, a PVC's volumeName) that is not a user edit. */
  writeObject(obj: KubeObject, change: (o: KubeObject) => KubeObject): KubeObject {
    const t = this.type(obj.apiVersion, obj.kind);
    const current = this.store.get(t, obj.metadata.namespace, obj.metadata.name);
    if (!current) return obj;
    const next = change(structuredClone(current));
    const { resourceVersion: _rv, ...metadata } = next.metadata;
    return this.store.update(t, { ...next, metadata } as unknown as KubeObject, { bumpGeneration: false });
  }

  createOwned(owner: KubeObject, obj: KubeObject): KubeObject {
    const ref: OwnerReference = {
      apiVersion: owner.apiVersion,
      kind: owner.kind,
      name: owner.metadata.name,
      uid: owner.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    obj.metadata.ownerReferences = [ref];
    return this.api.create(this.type(obj.apiVersion, obj.kind), obj);
  }

  deleteObject(obj: KubeObject): void {
    const t = this.type(obj.apiVersion, obj.kind);
    if (this.store.get(t, obj.metadata.namespace, obj.metadata.name)?.metadata.uid === obj.metadata.uid) {
      this.store.delete(t, obj.metadata.namespace, obj.metadata.name);
    }
  }

  /** Records an Event about an object, counting repeats as a real event recorder does. */
  event(
    involved: KubeObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source: { component: string; host?: string; fieldPath?: string },
  ): void {
    const eventType = this.type('v1', 'Event');
    const namespace = involved.metadata.namespace ?? 'default';
    const key = `${involved.metadata.uid}|${reason}|${message}`;
    const now = timestamp();
    const existingName = this.eventNames.get(key);
    const existing = existingName ? this.store.get(eventType, namespace, existingName) : undefined;
    if (existing) {
      const { resourceVersion: _rv, ...metadata } = existing.metadata;
      this.store.update(eventType, { ...existing, metadata, count: Number(existing.count ?? 1) + 1, lastTimestamp: now } as unknown as KubeObject);
      return;
    }
    const name = `${involved.metadata.name}.${randomBytes(8).toString('hex')}`;
    this.eventNames.set(key, name);
    this.api.create(eventType, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
        ...(source.fieldPath ? { fieldPath: source.fieldPath } : {}),
      },
      reason,
      message,
      type,
      count: 1,
      source: { component: source.component, ...(source.host ? { host: source.host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      eventTime: null,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    } as unknown as KubeObject);
  }

  podIP(): string {
    const n = this.ipCounter++;
    return `10.244.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.byOwner.clear();
  }
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller);
}

/** A short stable hash of a pod template, in the alphabet pod-template-hash labels use. */
export function templateHash(template: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(template ?? {}))
    .digest();
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 10; i++) out += alphabet[digest[i]! % alphabet.length];
  return out;
}

export function annotation(obj: KubeObject | undefined, key: string): string | undefined {
  return obj?.metadata.annotations?.[key];
}

export function stepMs(...sources: Array<KubeObject | undefined>): number {
  for (const s of sources) {
    const v = Number(annotation(s, ANNOTATION.readyAfterMs));
    if (annotation(s, ANNOTATION.readyAfterMs) !== undefined && Number.isFinite(v) && v >= 0) return v;
  }
  return DEFAULT_STEP_MS;
}

/** A condition, keeping lastTransitionTime while the status stays (and lastUpdateTime, for the workload
 *  kinds that have it, while reason and message stay). */
export function condition(
  previous: Array<Record<string, string>> | undefined,
  type: string,
  status: string,
  reason: string,
  message: string,
  withUpdateTime = false,
): Record<string, string> {
  const old = previous?.find((c) => c.type === type);
  const now = timestamp();
  const transition = old && old.status === status ? (old.lastTransitionTime ?? now) : now;
  const sameText = old && old.status === status && old.reason === reason && old.message === message;
  return {
    type,
    status,
    ...(withUpdateTime ? { lastUpdateTime: sameText && old.lastUpdateTime ? old.lastUpdateTime : now } : {}),
    lastTransitionTime: transition,
    reason,
    message,
  };
}

/** Drops zero/empty counters, as the real API's omitempty JSON does. */
export function omitZero<T extends Record<string, unknown>>(obj: T, keep: string[] = []): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (v === 0 && !keep.includes(k)) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

export function podName(prefix: string): string {
  return `${prefix}-${randomSuffix(5)}`;
}

export function isPodReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

export function isPodTerminal(pod: KubeObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}
