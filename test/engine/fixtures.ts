/** Object builders for engine tests: workloads in a chosen state, without the simulated controllers. */

export function deploymentStatus(state: 'ready' | 'progressing' | 'deadline', replicas = 1, generation = 1): object {
  const ready = state === 'ready';
  return {
    observedGeneration: generation,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: ready ? replicas : 0,
    availableReplicas: ready ? replicas : 0,
    conditions: [
      state === 'deadline'
        ? { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-1" has timed out progressing.' }
        : { type: 'Progressing', status: 'True', reason: ready ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated', message: 'progressing' },
      { type: 'Available', status: ready ? 'True' : 'False', reason: ready ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable', message: '' },
    ],
  };
}

export function deployment(
  name: string,
  opts: {
    namespace?: string;
    labels?: Record<string, string>;
    state?: 'ready' | 'progressing' | 'deadline';
    uid?: string;
    owned?: boolean;
    replicas?: number;
  } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      uid: opts.uid ?? `uid-${name}`,
      generation: 1,
      labels: opts.labels ?? { app: name },
      ...(opts.owned ? { ownerReferences: [{ apiVersion: 'x/v1', kind: 'Owner', name: 'o', uid: 'o', controller: true }] } : {}),
    },
    spec: {
      replicas: opts.replicas ?? 1,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
    ...(opts.state ? { status: deploymentStatus(opts.state, opts.replicas ?? 1) } : {}),
  };
}

/** A pod of a Deployment's ReplicaSet, in a chosen container state. */
export function pod(
  name: string,
  opts: {
    namespace?: string;
    app: string;
    owner?: { kind: string; name: string };
    waiting?: { reason: string; message: string };
    unschedulableSince?: string;
    image?: string;
    created?: string;
  },
): Record<string, unknown> {
  const containerStatuses = opts.waiting
    ? [{ name: 'app', ready: false, restartCount: 0, image: opts.image ?? 'nginx:1.27', imageID: '', state: { waiting: opts.waiting } }]
    : [
        {
          name: 'app',
          ready: true,
          restartCount: 0,
          image: opts.image ?? 'nginx:1.27',
          imageID: '',
          state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
        },
      ];
  const conditions = opts.unschedulableSince
    ? [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/3 nodes are available: 3 Insufficient cpu.',
          lastTransitionTime: opts.unschedulableSince,
        },
      ]
    : [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: opts.waiting ? 'False' : 'True', reason: opts.waiting ? 'ContainersNotReady' : '' },
      ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      uid: `uid-${name}`,
      creationTimestamp: opts.created ?? opts.unschedulableSince ?? new Date().toISOString(),
      labels: { app: opts.app },
      ...(opts.owner
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: opts.owner.kind, name: opts.owner.name, uid: `uid-${opts.owner.name}`, controller: true }] }
        : {}),
    },
    spec: { containers: [{ name: 'app', image: opts.image ?? 'nginx:1.27' }], restartPolicy: 'Always' },
    status: opts.unschedulableSince ? { phase: 'Pending', conditions } : { phase: opts.waiting ? 'Pending' : 'Running', conditions, containerStatuses },
  };
}

export function configMap(name: string, labels: Record<string, string> = {}, namespace = 'default', uid = `uid-${name}`): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels, uid }, data: { k: 'v' } };
}
