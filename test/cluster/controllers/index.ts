/** Simulated kube-controller-manager, scheduler and kubelet, scripted by annotations (see README.md).
 *  Everything is event-driven from the store: no controller ever scans all objects. */
import type { Api } from '../api.js';
import type { StoreEvent } from '../store.js';
import { DaemonSetController } from './daemonsets.js';
import { DeploymentController, ReplicaSetController } from './deployments.js';
import { JobController } from './jobs.js';
import { CustomResourceController, GarbageCollector, LoadBalancerController, NamespaceController, PvcBinder } from './misc.js';
import { Kubelet } from './pods.js';
import { Runtime } from './runtime.js';
import { ScriptedStatusController } from './scripted.js';
import { StatefulSetController } from './statefulsets.js';

export interface ControllerOptions {
  speed: number;
  nodes: number;
}

/** Kinds reconciled through the work queue, and which of their changes matter. */
const QUEUED_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'];

export function runControllers(api: Api, opts: ControllerOptions): () => void {
  const rt = new Runtime(api, Math.max(opts.speed, 0.001));
  const nodes = Array.from({ length: Math.max(opts.nodes, 1) }, (_, i) => `node-${i + 1}`);
  const deployments = new DeploymentController(rt);
  const replicaSets = new ReplicaSetController(rt);
  const statefulSets = new StatefulSetController(rt);
  const daemonSets = new DaemonSetController(rt, nodes);
  const jobs = new JobController(rt);
  const kubelet = new Kubelet(rt, nodes);
  const pvcs = new PvcBinder(rt);
  const loadBalancers = new LoadBalancerController(rt);
  const customResources = new CustomResourceController(rt);
  const scripted = new ScriptedStatusController(rt);
  const gc = new GarbageCollector(rt);
  const namespaces = new NamespaceController(rt);

  rt.register('Deployment', (o) => deployments.reconcile(o));
  rt.register('ReplicaSet', (o) => replicaSets.reconcile(o));
  rt.register('StatefulSet', (o) => statefulSets.reconcile(o));
  rt.register('DaemonSet', (o) => daemonSets.reconcile(o));
  rt.register('Job', (o) => jobs.reconcile(o));

  const onEvent = (e: StoreEvent) => {
    const obj = e.object;
    const kind = obj.kind;
    if (e.type === 'DELETED') {
      rt.cancel(obj.metadata.uid);
      deployments.forget(obj.metadata.uid);
      statefulSets.forget(obj.metadata.uid);
      customResources.forget(obj.metadata.uid);
      scripted.forget(obj.metadata.uid);
      if (kind === 'Pod') kubelet.onDeleted(obj);
      gc.onDeleted(obj);
      if (kind === 'Pod' || kind === 'ReplicaSet') rt.enqueueOwner(obj);
      return;
    }
    if (QUEUED_KINDS.includes(kind)) {
      // Own status writes do not need another pass; spec/metadata changes and new objects do.
      const statusOnly =
        e.type === 'MODIFIED' &&
        e.previous &&
        JSON.stringify({ ...e.previous, status: 0, metadata: 0 }) === JSON.stringify({ ...obj, status: 0, metadata: 0 }) &&
        e.previous.metadata.deletionTimestamp === obj.metadata.deletionTimestamp;
      if (!statusOnly) rt.enqueue(e.resource, obj.metadata.namespace, obj.metadata.name);
      if (kind === 'ReplicaSet') rt.enqueueOwner(obj);
      return;
    }
    switch (kind) {
      case 'Pod':
        if (e.type === 'ADDED') kubelet.onAdded(obj);
        rt.enqueueOwner(obj);
        return;
      case 'PersistentVolumeClaim':
        if (e.type === 'ADDED') pvcs.onAdded(obj);
        return;
      case 'Service':
        if (e.type === 'ADDED') loadBalancers.onAdded(obj);
        return;
      case 'Namespace':
        if (!e.resource.group) namespaces.onChange(obj);
        return;
      default:
        if (e.resource.custom) {
          customResources.onChange(obj);
          scripted.onChange(obj);
        }
    }
  };

  const unsubscribe = api.store.subscribeAll(onEvent);
  return () => {
    unsubscribe();
    rt.stop();
  };
}
