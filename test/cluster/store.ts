/**
 * The object store: one global resourceVersion counter, per-type bounded event history for watch replay,
 * generation/finalizer/deletion semantics, and an owner index so controllers never scan.
 *
 * Stored objects are never mutated: every write stores a fresh object, so watch events and list results
 * can share them without copying.
 */
import { randomUUID } from 'node:crypto';
import { errors } from './errors.js';
import { apiVersionOf, typeKey, type ResourceType } from './registry.js';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [k: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: any;
  status?: any;
  [k: string]: unknown;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  rv: number;
  resource: ResourceType;
  object: KubeObject;
  /** The object before this change (MODIFIED, DELETED): lets selector watches turn edits into ADDED/DELETED. */
  previous?: KubeObject;
}

export type Listener = (event: StoreEvent) => void;

interface History {
  events: StoreEvent[];
  /** Highest resourceVersion whose event was dropped: watches from an older version get 410 Expired. */
  compactedRv: number;
}

export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
export function randomSuffix(length = 5): string {
  let s = '';
  for (let i = 0; i < length; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Types whose spec changes bump metadata.generation (everything with a status, as in a real cluster). */
function tracksGeneration(t: ResourceType): boolean {
  return t.statusSubresource || Boolean(t.custom);
}

function specPart(obj: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return JSON.stringify(rest);
}

export interface WriteOptions {
  /** Write through the status subresource: only `status` changes. */
  subresource?: 'status';
  /** Keep the status the caller supplied on create (in-process fixtures); HTTP creates reset it. */
  keepStatus?: boolean;
  /** Internal writes by simulated controllers/the API server itself (e.g. binding a pod to a node). */
  bumpGeneration?: boolean;
  /** The status a create starts with when the caller's is dropped (a Pod starts `Pending`). */
  initialStatus?: object;
}

export class Store {
  private rv = 1000;
  private readonly tables = new Map<string, Map<string, Map<string, KubeObject>>>(); // type -> ns -> name
  private readonly histories = new Map<string, History>();
  private readonly typeListeners = new Map<string, Set<Listener>>();
  private readonly globalListeners = new Set<Listener>();
  private readonly owned = new Map<string, Set<string>>(); // owner uid -> refs
  private readonly byUid = new Map<string, string>(); // uid -> ref
  private readonly types = new Map<string, ResourceType>(); // typeKey -> type (for refs)

  constructor(private readonly historyLimit: number) {}

  resourceVersion(): number {
    return this.rv;
  }

  // ---- reads ----

  get(t: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.tables
      .get(typeKey(t.group, t.plural))
      ?.get(t.namespaced ? (namespace ?? '') : '')
      ?.get(name);
  }

  /** Objects of a type, sorted by namespace then name (the etcd key order real lists have). */
  list(t: ResourceType, namespace?: string): KubeObject[] {
    const table = this.tables.get(typeKey(t.group, t.plural));
    if (!table) return [];
    const out: KubeObject[] = [];
    if (t.namespaced && namespace !== undefined) {
      for (const obj of table.get(namespace)?.values() ?? []) out.push(obj);
    } else {
      for (const ns of table.values()) for (const obj of ns.values()) out.push(obj);
    }
    return out.sort(compareKeys);
  }

  count(t: ResourceType): number {
    let n = 0;
    for (const ns of this.tables.get(typeKey(t.group, t.plural))?.values() ?? []) n += ns.size;
    return n;
  }

  namespaceIsEmpty(namespace: string): boolean {
    for (const [, table] of this.tables) if ((table.get(namespace)?.size ?? 0) > 0) return false;
    return true;
  }

  /** Objects whose ownerReferences name this uid. */
  ownedBy(uid: string): KubeObject[] {
    const refs = this.owned.get(uid);
    if (!refs) return [];
    const out: KubeObject[] = [];
    for (const ref of refs) {
      const obj = this.resolve(ref);
      if (obj) out.push(obj);
    }
    return out;
  }

  byUID(uid: string): { type: ResourceType; object: KubeObject } | undefined {
    const ref = this.byUid.get(uid);
    if (!ref) return undefined;
    const object = this.resolve(ref);
    const type = this.types.get(ref.split('\u0000')[0] ?? '');
    return object && type ? { type, object } : undefined;
  }

  // ---- watch plumbing ----

  subscribe(t: ResourceType, listener: Listener): () => void {
    const key = typeKey(t.group, t.plural);
    const set = this.typeListeners.get(key) ?? new Set();
    set.add(listener);
    this.typeListeners.set(key, set);
    return () => set.delete(listener);
  }

  subscribeAll(listener: Listener): () => void {
    this.globalListeners.add(listener);
    return () => this.globalListeners.delete(listener);
  }

  /** Events after `sinceRv` for a type, or an Expired error when that history has been dropped. */
  eventsSince(t: ResourceType, sinceRv: number): StoreEvent[] {
    const h = this.histories.get(typeKey(t.group, t.plural));
    if (!h) return [];
    if (sinceRv < h.compactedRv) throw errors.expired(sinceRv, h.events[0]?.rv ?? this.rv);
    let i = h.events.length;
    while (i > 0 && h.events[i - 1]!.rv > sinceRv) i--;
    return h.events.slice(i);
  }

  /** Drops all history of a type (a test helper to force 410s; also used when a CRD goes away). */
  compact(t: ResourceType): void {
    const key = typeKey(t.group, t.plural);
    this.histories.set(key, { events: [], compactedRv: this.rv });
  }

  // ---- writes ----

  create(t: ResourceType, input: KubeObject, opts: WriteOptions = {}): KubeObject {
    const meta = input.metadata ?? ({} as ObjectMeta);
    const name = meta.name || (meta.generateName ? meta.generateName + randomSuffix() : '');
    validateName(t, name);
    const namespace = t.namespaced ? meta.namespace || 'default' : undefined;
    if (this.get(t, namespace, name)) throw errors.alreadyExists(t, name);
    const rv = ++this.rv;
    const metadata: ObjectMeta = {
      ...stripServerFields(meta),
      name,
      ...(namespace !== undefined ? { namespace } : {}),
      uid: randomUUID(),
      resourceVersion: String(rv),
      ...(tracksGeneration(t) ? { generation: 1 } : {}),
      creationTimestamp: timestamp(),
    };
    if (!t.namespaced) delete metadata.namespace;
    const obj: KubeObject = { ...structuredClone(input), apiVersion: apiVersionOf(t), kind: t.kind, metadata: structuredClone(metadata) };
    if (t.statusSubresource && !opts.keepStatus) {
      if (opts.initialStatus) obj.status = structuredClone(opts.initialStatus);
      else delete obj.status;
    }
    this.put(t, obj);
    this.emit({ type: 'ADDED', rv, resource: t, object: obj });
    return obj;
  }

  /** Replaces an object (main resource or status subresource), with optimistic concurrency when the
   *  caller sends metadata.resourceVersion. */
  update(t: ResourceType, input: KubeObject, opts: WriteOptions = {}): KubeObject {
    const name = input.metadata?.name;
    const namespace = t.namespaced ? input.metadata?.namespace || 'default' : undefined;
    const current = name ? this.get(t, namespace, name) : undefined;
    if (!name || !current) throw errors.notFound(t, name ?? '');
    const sentRv = input.metadata?.resourceVersion;
    if (sentRv && sentRv !== current.metadata.resourceVersion) throw errors.conflict(t, name);

    let next: KubeObject;
    if (opts.subresource === 'status') {
      next = { ...current, status: structuredClone(input.status) };
    } else {
      next = { ...structuredClone(input), apiVersion: current.apiVersion, kind: current.kind };
      next.metadata = {
        ...stripServerFields(next.metadata),
        name,
        ...(namespace !== undefined ? { namespace } : {}),
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        resourceVersion: current.metadata.resourceVersion,
        ...(current.metadata.generation !== undefined ? { generation: current.metadata.generation } : {}),
        ...(current.metadata.deletionTimestamp ? { deletionTimestamp: current.metadata.deletionTimestamp, deletionGracePeriodSeconds: 0 } : {}),
      };
      if (t.statusSubresource) {
        if (current.status === undefined) delete next.status;
        else next.status = current.status;
      }
      const specChanged = specPart(next) !== specPart(current);
      if (specChanged && next.metadata.generation !== undefined && opts.bumpGeneration !== false) next.metadata.generation++;
    }
    if (JSON.stringify(next) === JSON.stringify(current)) return current; // no-op writes keep the resourceVersion
    const rv = ++this.rv;
    next.metadata = { ...next.metadata, resourceVersion: String(rv) };
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
      return this.remove(t, next, current, rv);
    }
    this.put(t, next, current);
    this.emit({ type: 'MODIFIED', rv, resource: t, object: next, previous: current });
    return next;
  }

  /** Deletes: objects with finalizers only get a deletionTimestamp; the rest go at once. */
  delete(t: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const ns = t.namespaced ? (namespace ?? 'default') : undefined;
    const current = this.get(t, ns, name);
    if (!current) throw errors.notFound(t, name);
    if (current.metadata.deletionTimestamp) return current;
    const rv = ++this.rv;
    if (current.metadata.finalizers?.length) {
      const next = {
        ...current,
        metadata: { ...current.metadata, deletionTimestamp: timestamp(), deletionGracePeriodSeconds: 0, resourceVersion: String(rv) },
      };
      this.put(t, next, current);
      this.emit({ type: 'MODIFIED', rv, resource: t, object: next, previous: current });
      return next;
    }
    return this.remove(t, { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } }, current, rv);
  }

  /** Namespace deletion: Terminating (deletionTimestamp, status.phase) until the namespace controller
   *  has emptied it and calls `finalize`. */
  terminate(t: ResourceType, name: string): KubeObject {
    const current = this.get(t, undefined, name);
    if (!current) throw errors.notFound(t, name);
    if (current.metadata.deletionTimestamp) return current;
    const rv = ++this.rv;
    const next = {
      ...current,
      metadata: { ...current.metadata, deletionTimestamp: timestamp(), resourceVersion: String(rv) },
      status: { ...current.status, phase: 'Terminating' },
    };
    this.put(t, next, current);
    this.emit({ type: 'MODIFIED', rv, resource: t, object: next, previous: current });
    return next;
  }

  /** Removes a terminating object whatever its finalizers say (the namespace controller's last step). */
  finalize(t: ResourceType, namespace: string | undefined, name: string): void {
    const current = this.get(t, namespace, name);
    if (!current?.metadata.deletionTimestamp) return;
    const rv = ++this.rv;
    this.remove(t, { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } }, current, rv);
  }

  private remove(t: ResourceType, final: KubeObject, previous: KubeObject, rv: number): KubeObject {
    const key = typeKey(t.group, t.plural);
    const ns = final.metadata.namespace ?? '';
    const table = this.tables.get(key)?.get(ns);
    table?.delete(final.metadata.name);
    if (table && table.size === 0) this.tables.get(key)?.delete(ns);
    this.unindex(previous);
    this.byUid.delete(previous.metadata.uid);
    this.emit({ type: 'DELETED', rv, resource: t, object: final, previous });
    return final;
  }

  private put(t: ResourceType, obj: KubeObject, previous?: KubeObject): void {
    const key = typeKey(t.group, t.plural);
    this.types.set(key, t);
    let table = this.tables.get(key);
    if (!table) this.tables.set(key, (table = new Map()));
    const ns = obj.metadata.namespace ?? '';
    let names = table.get(ns);
    if (!names) table.set(ns, (names = new Map()));
    names.set(obj.metadata.name, obj);
    if (previous) this.unindex(previous);
    const ref = refOf(key, obj);
    this.byUid.set(obj.metadata.uid, ref);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      let set = this.owned.get(owner.uid);
      if (!set) this.owned.set(owner.uid, (set = new Set()));
      set.add(ref);
    }
  }

  private unindex(obj: KubeObject): void {
    const ref = refOf(this.keyOfKind(obj), obj);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      const set = this.owned.get(owner.uid);
      set?.delete(ref);
      if (set && set.size === 0) this.owned.delete(owner.uid);
    }
  }

  private keyOfKind(obj: KubeObject): string {
    const ref = this.byUid.get(obj.metadata.uid);
    return ref ? (ref.split('\u0000')[0] ?? '') : '';
  }

  private resolve(ref: string): KubeObject | undefined {
    const [key, ns, name] = ref.split('\u0000');
    if (key === undefined || ns === undefined || name === undefined) return undefined;
    return this.tables.get(key)?.get(ns)?.get(name);
  }

  private emit(event: StoreEvent): void {
    const key = typeKey(event.resource.group, event.resource.plural);
    let h = this.histories.get(key);
    if (!h) this.histories.set(key, (h = { events: [], compactedRv: 0 }));
    h.events.push(event);
    if (h.events.length > this.historyLimit) {
      const dropped = h.events.splice(0, h.events.length - this.historyLimit);
      h.compactedRv = dropped[dropped.length - 1]!.rv;
    }
    for (const listener of this.typeListeners.get(key) ?? []) safely(listener, event);
    for (const listener of this.globalListeners) safely(listener, event);
  }
}

function safely(listener: Listener, event: StoreEvent): void {
  try {
    listener(event);
  } catch (err) {
    console.error('test cluster listener failed:', err);
  }
}

function refOf(key: string, obj: KubeObject): string {
  return `${key}\u0000${obj.metadata.namespace ?? ''}\u0000${obj.metadata.name}`;
}

function compareKeys(a: KubeObject, b: KubeObject): number {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Fields clients may not set: the server owns them. */
function stripServerFields(meta: Partial<ObjectMeta> | undefined): Partial<ObjectMeta> {
  const {
    uid: _u,
    resourceVersion: _r,
    generation: _g,
    creationTimestamp: _c,
    deletionTimestamp: _d,
    deletionGracePeriodSeconds: _p,
    managedFields: _m,
    selfLink: _s,
    ...rest
  } = meta ?? {};
  return structuredClone(rest);
}

function validateName(t: ResourceType, name: string): void {
  if (!name) {
    throw errors.invalid(t.kind, t.group, '', [
      { field: 'metadata.name', message: 'Required value: name or generateName is required', reason: 'FieldValueRequired' },
    ]);
  }
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    throw errors.invalid(t.kind, t.group, name, [
      {
        field: 'metadata.name',
        message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      },
    ]);
  }
}
