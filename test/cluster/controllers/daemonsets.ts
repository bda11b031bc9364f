/** DaemonSet controller: one pod per node, replaced one at a time (maxUnavailable 1) on template changes. */
import type { KubeObject } from '../store.js';
import { isPodReady, omitZero, podName, templateHash, type Runtime } from './runtime.js';

const REVISION_LABEL = 'controller-revision-hash';

export class DaemonSetController {
  constructor(
    private readonly rt: Runtime,
    private readonly nodes: string[],
  ) {}

  reconcile(ds: KubeObject): void {
    if (ds.metadata.deletionTimestamp) return;
    const revision = templateHash(ds.spec?.template);
    const byNode = new Map<string, KubeObject>();
    for (const p of this.rt.store.ownedBy(ds.metadata.uid)) {
      if (p.kind === 'Pod' && !p.metadata.deletionTimestamp) byNode.set(p.spec?.nodeName, p);
    }
    for (const node of this.nodes) if (!byNode.has(node)) byNode.set(node, this.createPod(ds, node, revision));

    const outdated = [...byNode.entries()].filter(([, p]) => p.metadata.labels?.[REVISION_LABEL] !== revision);
    const unavailable = [...byNode.values()].filter((p) => !isPodReady(p)).length;
    if (outdated[0] && unavailable === 0 && ds.spec?.updateStrategy?.type !== 'OnDelete') {
      const [node, pod] = outdated[0];
      this.rt.deleteObject(pod);
      byNode.set(node, this.createPod(ds, node, revision));
    }

    const pods = [...byNode.values()].filter((p) => this.rt.store.byUID(p.metadata.uid));
    const ready = pods.filter(isPodReady).length;
    this.rt.writeStatus(ds, {
      currentNumberScheduled: pods.length,
      numberMisscheduled: 0,
      desiredNumberScheduled: this.nodes.length,
      numberReady: ready,
      observedGeneration: ds.metadata.generation,
      ...omitZero({
        updatedNumberScheduled: pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length,
        numberAvailable: ready,
        numberUnavailable: this.nodes.length - ready,
      }),
    });
  }

  private createPod(ds: KubeObject, node: string, revision: string): KubeObject {
    const template = ds.spec?.template ?? {};
    return this.rt.createOwned(ds, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName(ds.metadata.name),
        namespace: ds.metadata.namespace,
        labels: { ...template.metadata?.labels, [REVISION_LABEL]: revision, 'pod-template-generation': String(ds.metadata.generation ?? 1) },
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      },
      spec: { ...structuredClone(template.spec ?? {}), nodeName: node },
    } as KubeObject);
  }
}
