/** API-server defaulting on create, for the fields readiness logic and kubectl read. */
import type { KubeObject } from './store.js';

type Defaulter = (obj: KubeObject, alloc: Allocator, current?: KubeObject) => { initialStatus?: object };

export interface Allocator {
  clusterIP(): string;
}

export function allocator(): Allocator {
  let next = 10;
  return {
    clusterIP: () => {
      const n = next++;
      return `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`;
    },
  };
}

function podSpecDefaults(spec: any): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  for (const c of spec.containers ?? []) {
    c.imagePullPolicy ??= /:latest$|^[^:]*$/.test(c.image ?? '') ? 'Always' : 'IfNotPresent';
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
  }
}

const DEFAULTERS: Record<string, Defaulter> = {
  Pod: (obj) => {
    obj.spec ??= {};
    podSpecDefaults(obj.spec);
    return { initialStatus: { phase: 'Pending', qosClass: 'BestEffort' } };
  },
  Deployment: (obj) => {
    obj.spec ??= {};
    obj.spec.replicas ??= 1;
    obj.spec.progressDeadlineSeconds ??= 600;
    obj.spec.revisionHistoryLimit ??= 10;
    obj.spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
    podSpecDefaults(obj.spec.template?.spec);
    return {};
  },
  ReplicaSet: (obj) => {
    obj.spec ??= {};
    obj.spec.replicas ??= 1;
    podSpecDefaults(obj.spec.template?.spec);
    return {};
  },
  StatefulSet: (obj) => {
    obj.spec ??= {};
    obj.spec.replicas ??= 1;
    obj.spec.podManagementPolicy ??= 'OrderedReady';
    obj.spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    if (obj.spec.updateStrategy.type === 'RollingUpdate' && obj.spec.updateStrategy.rollingUpdate) obj.spec.updateStrategy.rollingUpdate.partition ??= 0;
    obj.spec.revisionHistoryLimit ??= 10;
    podSpecDefaults(obj.spec.template?.spec);
    return {};
  },
  DaemonSet: (obj) => {
    obj.spec ??= {};
    obj.spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    obj.spec.revisionHistoryLimit ??= 10;
    podSpecDefaults(obj.spec.template?.spec);
    return {};
  },
  Job: (obj) => {
    obj.spec ??= {};
    obj.spec.backoffLimit ??= 6;
    obj.spec.completions ??= 1;
    obj.spec.parallelism ??= 1;
    obj.spec.completionMode ??= 'NonIndexed';
    obj.spec.suspend ??= false;
    podSpecDefaults(obj.spec.template?.spec);
    if (obj.spec.template?.spec && obj.spec.template.spec.restartPolicy === 'Always') obj.spec.template.spec.restartPolicy = 'Never';
    return {};
  },
  Service: (obj, alloc, current) => {
    obj.spec ??= {};
    obj.spec.type ??= 'ClusterIP';
    if (current?.spec?.clusterIP && obj.spec.clusterIP === undefined) {
      obj.spec.clusterIP = current.spec.clusterIP; // allocated once, kept across updates
      obj.spec.clusterIPs ??= current.spec.clusterIPs;
    }
    if (obj.spec.clusterIP !== 'None' && obj.spec.type !== 'ExternalName') {
      obj.spec.clusterIP ??= alloc.clusterIP();
      obj.spec.clusterIPs ??= [obj.spec.clusterIP];
    }
    obj.spec.sessionAffinity ??= 'None';
    for (const p of obj.spec.ports ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
    return { initialStatus: { loadBalancer: {} } };
  },
  PersistentVolumeClaim: (obj) => {
    obj.spec ??= {};
    obj.spec.volumeMode ??= 'Filesystem';
    return { initialStatus: { phase: 'Pending' } };
  },
  // A real server folds the write-only stringData into data (base64) and never stores stringData (charts use it).
  Secret: (obj) => {
    const stringData = obj.stringData as Record<string, string> | undefined;
    if (stringData) {
      obj.data = {
        ...(obj.data ?? {}),
        ...Object.fromEntries(Object.entries(stringData).map(([k, v]) => [k, Buffer.from(String(v), 'utf8').toString('base64')])),
      };
      delete obj.stringData;
    }
    obj.type ??= 'Opaque';
    return {};
  },
  Namespace: (obj) => {
    obj.spec ??= { finalizers: ['kubernetes'] };
    obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
    return { initialStatus: { phase: 'Active' } };
  },
};

/** Mutates `obj` with defaults (on create and on every update, as a real API server decodes every write);
 *  returns the status a new object starts with. */
export function applyDefaults(obj: KubeObject, alloc: Allocator, current?: KubeObject): { initialStatus?: object } {
  return DEFAULTERS[obj.kind]?.(obj, alloc, current) ?? {};
}
