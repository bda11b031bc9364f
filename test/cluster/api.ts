/** The API server's write semantics shared by HTTP requests and in-process test calls. */
import { allocator, applyDefaults, type Allocator } from './defaults.js';
import { errors } from './errors.js';
import { applyPatch, type PatchType } from './patch.js';
import type { Registry, ResourceType } from './registry.js';
import type { KubeObject, Store } from './store.js';

export class Api {
  private readonly alloc: Allocator = allocator();

  constructor(
    readonly registry: Registry,
    readonly store: Store,
  ) {}

  /** The served type for an apiVersion/kind, or a 404 like a real server's "no matches for kind". */
  typeFor(apiVersion: string, kind: string): ResourceType {
    const t = this.registry.findKind(apiVersion, kind);
    if (!t) throw errors.badRequest(`no matches for kind "${kind}" in version "${apiVersion}"`);
    return t;
  }

  create(t: ResourceType, input: KubeObject, opts: { keepStatus?: boolean } = {}): KubeObject {
    if (input.kind && input.kind !== t.kind) {
      throw errors.badRequest(`the API version in the data (${input.apiVersion}) does not match the expected API version`);
    }
    const obj = structuredClone({ ...input, kind: t.kind }) as KubeObject;
    obj.metadata ??= {} as KubeObject['metadata'];
    const { initialStatus } = applyDefaults(obj, this.alloc);
    return this.store.create(t, obj, { keepStatus: opts.keepStatus && input.status !== undefined, initialStatus });
  }

  update(t: ResourceType, input: KubeObject, subresource?: 'status'): KubeObject {
    return this.store.update(t, this.defaulted(t, input, subresource), { subresource });
  }

  private defaulted(t: ResourceType, input: KubeObject, subresource?: 'status'): KubeObject {
    if (subresource) return input;
    const obj = structuredClone({ ...input, kind: t.kind }) as KubeObject;
    obj.metadata ??= {} as KubeObject['metadata'];
    applyDefaults(obj, this.alloc, this.store.get(t, obj.metadata.namespace, obj.metadata.name));
    return obj;
  }

  patch(t: ResourceType, namespace: string | undefined, name: string, type: PatchType, patch: unknown, subresource?: 'status'): KubeObject {
    const current = this.store.get(t, namespace, name);
    if (!current) {
      if (type === 'apply') return this.create(t, { ...(patch as KubeObject), metadata: { ...(patch as KubeObject).metadata, name, namespace } });
      throw errors.notFound(t, name);
    }
    const patched = applyPatch(type, current, patch) as KubeObject;
    // A patch never carries a stale resourceVersion unless the client put one in it on purpose.
    const sentRv = (patch as KubeObject)?.metadata?.resourceVersion;
    patched.metadata = {
      ...patched.metadata,
      name,
      ...(namespace !== undefined && t.namespaced ? { namespace } : {}),
      resourceVersion: sentRv ?? current.metadata.resourceVersion,
    };
    return this.store.update(t, this.defaulted(t, patched, subresource), { subresource });
  }

  delete(t: ResourceType, namespace: string | undefined, name: string): KubeObject {
    if (t.kind === 'Namespace' && !t.group) return this.store.terminate(t, name);
    return this.store.delete(t, namespace, name);
  }
}
