/** StatefulSet controller: ordinal pods created one at a time (OrderedReady) or together (Parallel),
 *  rolling updates from the highest ordinal down to the partition, revisions as real status reports them. */
import type { KubeObject } from '../store.js';
import { isPodReady, omitZero, templateHash, type Runtime } from './runtime.js';

const REVISION_LABEL = 'controller-revision-hash';

export class StatefulSetController {
  /** Templates by revision name, per StatefulSet uid (what ControllerRevisions hold in a real cluster). */
  private readonly revisions = new Map<string, Map<string, object>>();

  constructor(private readonly rt: Runtime) {}

  forget(uid: string): void {
    this.revisions.delete(uid);
  }

  reconcile(sts: KubeObject): void {
    if (sts.metadata.deletionTimestamp) return;
    const uid = sts.metadata.uid;
    const updateRevision = `${sts.metadata.name}-${templateHash(sts.spec?.template)}`;
    const known = this.revisions.get(uid) ?? new Map<string, object>();
    this.revisions.set(uid, known);
    known.set(updateRevision, sts.spec?.template ?? {});
    const currentRevision: string = sts.status?.currentRevision ?? updateRevision;

    const replicas = Number(sts.spec?.replicas ?? 1);
    const partition = Number(sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0);
    const parallel = sts.spec?.podManagementPolicy === 'Parallel';
    const pods = new Map<number, KubeObject>();
    for (const p of this.rt.store.ownedBy(uid)) {
      if (p.kind !== 'Pod' || p.metadata.deletionTimestamp) continue;
      pods.set(Number(p.metadata.name.slice(sts.metadata.name.length + 1)), p);
    }

    this.step(sts, pods, replicas, partition, parallel, currentRevision, updateRevision, known);

    const live = [...pods.values()].filter((p) => this.rt.store.byUID(p.metadata.uid));
    const revisionOf = (p: KubeObject) => p.metadata.labels?.[REVISION_LABEL];
    const updated = live.filter((p) => revisionOf(p) === updateRevision).length;
    const allUpdated = updated === replicas && live.length === replicas;
    const current = allUpdated ? updateRevision : currentRevision;
    const ready = live.filter(isPodReady).length;
    this.rt.writeStatus(sts, {
      observedGeneration: sts.metadata.generation,
      replicas: live.length,
      ...omitZero({
        readyReplicas: ready,
        currentReplicas: live.filter((p) => revisionOf(p) === current).length,
        updatedReplicas: updated,
      }),
      currentRevision: current,
      updateRevision,
      collisionCount: 0,
      availableReplicas: ready,
    });
  }

  /** One move toward the desired state: create a missing pod, remove a surplus one, or replace an outdated one. */
  private step(
    sts: KubeObject,
    pods: Map<number, KubeObject>,
    replicas: number,
    partition: number,
    parallel: boolean,
    currentRevision: string,
    updateRevision: string,
    known: Map<string, object>,
  ): void {
    for (let i = 0; i < replicas; i++) {
      const pod = pods.get(i);
      if (!pod) {
        const revision = i < partition && known.has(currentRevision) ? currentRevision : updateRevision;
        pods.set(i, this.createPod(sts, i, revision, known.get(revision)!));
        if (!parallel) return;
        continue;
      }
      if (!parallel && !isPodReady(pod)) return;
    }
    const surplus = [...pods.keys()].filter((i) => i >= replicas).sort((a, b) => b - a);
    if (surplus.length) {
      for (const i of parallel ? surplus : surplus.slice(0, 1)) {
        this.rt.deleteObject(pods.get(i)!);
        pods.delete(i);
      }
      return;
    }
    if (sts.spec?.updateStrategy?.type === 'OnDelete') return;
    if ([...pods.values()].some((p) => !isPodReady(p))) return;
    for (let i = replicas - 1; i >= partition; i--) {
      const pod = pods.get(i);
      if (pod && pod.metadata.labels?.[REVISION_LABEL] !== updateRevision) {
        this.rt.deleteObject(pod);
        pods.delete(i);
        pods.set(i, this.createPod(sts, i, updateRevision, known.get(updateRevision)!));
        return;
      }
    }
  }

  private createPod(sts: KubeObject, ordinal: number, revision: string, template: any): KubeObject {
    const name = `${sts.metadata.name}-${ordinal}`;
    return this.rt.createOwned(sts, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: sts.metadata.namespace,
        labels: {
          ...template.metadata?.labels,
          [REVISION_LABEL]: revision,
          'statefulset.kubernetes.io/pod-name': name,
          'apps.kubernetes.io/pod-index': String(ordinal),
        },
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      },
      spec: { ...structuredClone(template.spec ?? {}), hostname: name, ...(sts.spec?.serviceName ? { subdomain: sts.spec.serviceName } : {}) },
    } as KubeObject);
  }
}
