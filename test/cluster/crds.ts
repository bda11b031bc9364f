/** CustomResourceDefinitions: NamesAccepted at once, served and Established after a delay, unserved
 *  (with their objects gone and their watches closed) when deleted. */
import type { Api } from './api.js';
import type { Faults } from './faults.js';
import type { ResourceType } from './registry.js';
import { timestamp, type KubeObject, type StoreEvent } from './store.js';

interface CrdVersion {
  name: string;
  served?: boolean;
  subresources?: { status?: object };
  additionalPrinterColumns?: ResourceType['printerColumns'];
}

function typesOf(crd: KubeObject): ResourceType[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  return ((spec.versions as CrdVersion[]) ?? [])
    .filter((v) => v.served !== false)
    .map((v) => ({
      group: spec.group,
      version: v.name,
      kind: names.kind,
      plural: names.plural,
      singular: names.singular || String(names.kind ?? '').toLowerCase(),
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      statusSubresource: Boolean(v.subresources?.status),
      printerColumns: v.additionalPrinterColumns,
      custom: true,
    }));
}

function condition(type: string, reason: string, message: string): object {
  return { type, status: 'True', lastTransitionTime: timestamp(), reason, message };
}

export function runCrdEstablisher(api: Api, faults: Faults, delayMs: number): () => void {
  const crdType = api.registry.findKind('apiextensions.k8s.io/v1', 'CustomResourceDefinition')!;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const setConditions = (name: string, conditions: object[]) => {
    const crd = api.store.get(crdType, undefined, name);
    if (!crd) return;
    api.store.update(
      crdType,
      {
        ...crd,
        status: {
          conditions,
          acceptedNames: crd.spec?.names ?? {},
          storedVersions: (crd.spec?.versions ?? []).filter((v: { storage?: boolean }) => v.storage).map((v: CrdVersion) => v.name),
        },
      },
      { subresource: 'status' },
    );
  };

  const establish = (crd: KubeObject) => {
    const uid = crd.metadata.uid;
    later(0, () => {
      if (api.store.get(crdType, undefined, crd.metadata.name)?.metadata.uid !== uid) return;
      setConditions(crd.metadata.name, [condition('NamesAccepted', 'NoConflicts', 'no conflicts found')]);
    });
    later(delayMs, () => {
      const current = api.store.get(crdType, undefined, crd.metadata.name);
      if (current?.metadata.uid !== uid) return;
      for (const t of typesOf(current)) api.registry.add(t);
      setConditions(crd.metadata.name, [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ]);
    });
  };

  const unserve = (crd: KubeObject) => {
    const spec = crd.spec ?? {};
    later(0, () => {
      const served = api.registry.all().filter((t) => t.custom && t.group === spec.group && t.plural === spec.names?.plural);
      const t = served[0];
      if (!t) return;
      for (const obj of api.store.list(t)) {
        const { finalizers: _f, ...meta } = obj.metadata;
        if (obj.metadata.finalizers?.length) api.store.update(t, { ...obj, metadata: { ...meta, finalizers: [] } });
        if (api.store.get(t, obj.metadata.namespace, obj.metadata.name)) api.store.delete(t, obj.metadata.namespace, obj.metadata.name);
      }
      api.registry.remove(spec.group, spec.names?.plural);
      faults.closeWatches({ resource: t.plural });
    });
  };

  const unsubscribe = api.store.subscribe(crdType, (e: StoreEvent) => {
    if (e.type === 'ADDED') establish(e.object);
    if (e.type === 'DELETED') unserve(e.object);
  });
  return () => {
    unsubscribe();
    for (const timer of timers) clearTimeout(timer);
  };
}
