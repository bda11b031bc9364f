/**
 * Kubernetes objects for the end-to-end tests and the demo, as a user would apply them. Their behaviour
 * in the API server stand-in is scripted by its `kubewait.test/*` annotations (see test/cluster).
 */

export interface WorkloadOptions {
  namespace?: string;
  replicas?: number;
  image?: string;
  labels?: Record<string, string>;
  /** `kubewait.test/ready-after-ms`: how long each rollout step takes. */
  readyAfterMs?: number;
  /** `kubewait.test/pod-failure` on the pod template: ImagePullBackOff, CrashLoopBackOff, ... */
  podFailure?: string;
}

function scripted(options: WorkloadOptions): Record<string, string> {
  return options.readyAfterMs !== undefined ? { 'kubewait.test/ready-after-ms': String(options.readyAfterMs) } : {};
}

function podTemplate(name: string, options: WorkloadOptions, restartPolicy?: string) {
  const labels = { app: name, ...options.labels };
  return {
    metadata: {
      labels,
      annotations: { ...scripted(options), ...(options.podFailure && { 'kubewait.test/pod-failure': options.podFailure }) },
    },
    spec: {
      ...(restartPolicy && { restartPolicy }),
      containers: [{ name, image: options.image ?? `registry.example.com/${name}:1.0` }],
    },
  };
}

export function deployment(name: string, options: WorkloadOptions = {}) {
  const labels = { app: name, ...options.labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: options.namespace ?? 'default', labels, annotations: scripted(options) },
    spec: {
      replicas: options.replicas ?? 2,
      selector: { matchLabels: { app: name } },
      template: podTemplate(name, options),
    },
  };
}

export function job(name: string, options: WorkloadOptions = {}) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: options.namespace ?? 'default', labels: { app: name, ...options.labels }, annotations: scripted(options) },
    spec: { backoffLimit: 1, template: podTemplate(name, options, 'Never') },
  };
}

export function configMap(name: string, options: { namespace?: string; finalizers?: string[] } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: options.namespace ?? 'default', ...(options.finalizers && { finalizers: options.finalizers }) },
    data: { key: 'value' },
  };
}

export function pendingClaim(name: string, options: { namespace?: string } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: options.namespace ?? 'default', annotations: { 'kubewait.test/pvc': 'Pending' } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}
