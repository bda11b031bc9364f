/** The small controllers: PVC binding, LoadBalancer ingress, scripted custom resources, and garbage
 *  collection (owner references, namespace contents). */
import type { KubeObject } from '../store.js';
import { annotation, ANNOTATION, condition, stepMs, type Runtime } from './runtime.js';

export class PvcBinder {
  constructor(private readonly rt: Runtime) {}

  onAdded(pvc: KubeObject): void {
    const uid = pvc.metadata.uid;
    if (annotation(pvc, ANNOTATION.pvc) === 'Pending') {
      const sc = pvc.spec?.storageClassName ?? 'standard';
      this.rt.after(
        0,
        () => {
          const current = this.rt.store.byUID(uid)?.object;
          if (current)
            this.rt.event(current, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${sc}" not found`, {
              component: 'persistentvolume-controller',
            });
        },
        uid,
      );
      return;
    }
    this.rt.after(
      stepMs(pvc),
      () => {
        let current = this.rt.store.byUID(uid)?.object;
        if (!current || current.status?.phase === 'Bound') return;
        current = this.rt.writeObject(current, (o) => ({
          ...o,
          metadata: {
            ...o.metadata,
            annotations: { ...o.metadata.annotations, 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' },
          },
          spec: { ...o.spec, volumeName: `pvc-${uid}` },
        }));
        this.rt.writeStatus(current, {
          phase: 'Bound',
          accessModes: current.spec?.accessModes ?? ['ReadWriteOnce'],
          capacity: { storage: current.spec?.resources?.requests?.storage ?? '1Gi' },
        });
      },
      uid,
    );
  }
}

export class LoadBalancerController {
  private next = 1;

  constructor(private readonly rt: Runtime) {}

  onAdded(svc: KubeObject): void {
    if (svc.spec?.type !== 'LoadBalancer') return;
    const uid = svc.metadata.uid;
    const ip = `192.0.2.${this.next++ % 250}`;
    this.rt.after(
      stepMs(svc),
      () => {
        const current = this.rt.store.byUID(uid)?.object;
        if (current?.spec?.type === 'LoadBalancer') this.rt.writeStatus(current, { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } });
      },
      uid,
    );
  }
}

/** Custom resources annotated `kubewait.test/conditions-after-ms`: Reconciling at once, then Ready (or
 *  Stalled with `kubewait.test/cr-outcome: Stalled`) after the delay, for each new generation. */
export class CustomResourceController {
  private readonly seen = new Map<string, number>(); // uid -> generation handled

  constructor(private readonly rt: Runtime) {}

  onChange(cr: KubeObject): void {
    const after = annotation(cr, ANNOTATION.conditionsAfterMs);
    if (after === undefined || cr.metadata.deletionTimestamp) return;
    const uid = cr.metadata.uid;
    const generation = Number(cr.metadata.generation ?? 1);
    if (this.seen.get(uid) === generation) return;
    this.seen.set(uid, generation);
    this.rt.after(
      0,
      () => {
        const current = this.rt.store.byUID(uid)?.object;
        if (!current || current.metadata.generation !== generation) return;
        const previous = current.status?.conditions;
        this.rt.writeStatus(current, {
          ...current.status,
          observedGeneration: generation,
          conditions: [
            condition(previous, 'Ready', 'False', 'Progressing', 'Reconciliation in progress'),
            condition(previous, 'Reconciling', 'True', 'Progressing', `Reconciling generation ${generation}`),
          ],
        });
      },
      uid,
    );
    this.rt.after(
      Number(after) || 0,
      () => {
        const current = this.rt.store.byUID(uid)?.object;
        if (!current || current.metadata.generation !== generation) return;
        const previous = current.status?.conditions;
        const stalled = annotation(current, ANNOTATION.crOutcome) === 'Stalled';
        this.rt.writeStatus(current, {
          ...current.status,
          observedGeneration: generation,
          conditions: stalled
            ? [
                condition(previous, 'Ready', 'False', 'ReconcileFailed', 'Reconciliation failed: dependency not available'),
                condition(previous, 'Stalled', 'True', 'ReconcileFailed', 'Reconciliation failed: dependency not available'),
              ]
            : [condition(previous, 'Ready', 'True', 'Succeeded', `Generation ${generation} reconciled`)],
        });
      },
      uid,
    );
  }

  forget(uid: string): void {
    this.seen.delete(uid);
  }
}

/** Removes a Terminating namespace once nothing is left in it. */
function finalizeNamespace(rt: Runtime, name: string): void {
  const t = rt.type('v1', 'Namespace');
  const ns = rt.store.get(t, undefined, name);
  if (ns?.metadata.deletionTimestamp && rt.store.namespaceIsEmpty(name)) rt.store.finalize(t, undefined, name);
}

export class GarbageCollector {
  constructor(private readonly rt: Runtime) {}

  /** Background propagation: dependents go after their owner; a Terminating namespace goes when empty. */
  onDeleted(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    const ns = obj.metadata.namespace;
    this.rt.after(0, () => {
      for (const dependent of this.rt.store.ownedBy(uid)) {
        const stillOwned = (dependent.metadata.ownerReferences ?? []).some((r) => r.uid !== uid && this.rt.store.byUID(r.uid));
        if (!stillOwned) this.rt.deleteObject(dependent);
      }
      if (ns) finalizeNamespace(this.rt, ns);
    });
  }
}

/** Namespace controller: a Terminating namespace has its contents deleted and goes once it is empty
 *  (objects with finalizers keep it Terminating until they are released). */
export class NamespaceController {
  constructor(private readonly rt: Runtime) {}

  onChange(ns: KubeObject): void {
    if (!ns.metadata.deletionTimestamp) return;
    const name = ns.metadata.name;
    this.rt.after(0, () => {
      for (const t of this.rt.api.registry.all()) {
        if (!t.namespaced) continue;
        for (const o of this.rt.store.list(t, name)) {
          if (!o.metadata.deletionTimestamp) this.rt.store.delete(t, name, o.metadata.name);
        }
      }
      finalizeNamespace(this.rt, name);
    });
  }
}
