/**
 * Workloads for the real-cluster suite, beyond test/e2e/objects.ts (which they reuse): StatefulSet,
 * DaemonSet, a Job whose pods fail, RBAC for a restricted user. Pod behaviour comes from the same
 * `kubewait.test/*` annotations as in the stand-in (test/real/kwok-stages.yaml says which apply here).
 */
import { deployment, job } from '../e2e/objects.js';

export { configMap, deployment, job } from '../e2e/objects.js';

export function namespace(name: string) {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

const template = (name: string, annotations: Record<string, string> = {}, restartPolicy?: string) => ({
  metadata: { labels: { app: name }, annotations: { 'kubewait.test/ready-after-ms': '300', ...annotations } },
  spec: { ...(restartPolicy && { restartPolicy }), containers: [{ name, image: `registry.example.com/${name}:1.0` }] },
});

export function statefulSet(name: string, ns: string, replicas = 2) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: ns },
    spec: { replicas, serviceName: name, selector: { matchLabels: { app: name } }, template: template(name) },
  };
}

export function daemonSet(name: string, ns: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: ns },
    spec: { selector: { matchLabels: { app: name } }, template: template(name) },
  };
}

/** A Job whose every pod exits 1 (`kubewait.test/pod-outcome: Failed`), with no retry. */
export function failingJob(name: string, ns: string) {
  const base = job(name, { namespace: ns, readyAfterMs: 300 });
  return {
    ...base,
    spec: {
      ...base.spec,
      backoffLimit: 0,
      template: {
        ...base.spec.template,
        metadata: { ...base.spec.template.metadata, annotations: { ...base.spec.template.metadata.annotations, 'kubewait.test/pod-outcome': 'Failed' } },
      },
    },
  };
}

/** A Deployment whose pods fail as `failure` says: a kwok Stage for the container states, the real
 *  scheduler for Unschedulable (a nodeSelector no node has). */
export function failingDeployment(
  name: string,
  ns: string,
  failure: 'ImagePullBackOff' | 'CrashLoopBackOff' | 'CreateContainerConfigError' | 'Unschedulable',
  image?: string,
) {
  const base = deployment(name, { namespace: ns, replicas: 1, ...(failure !== 'Unschedulable' && { podFailure: failure }), ...(image && { image }) });
  if (failure !== 'Unschedulable') return base;
  return {
    ...base,
    spec: { ...base.spec, template: { ...base.spec.template, spec: { ...base.spec.template.spec, nodeSelector: { 'kubewait.test/no-such-node': 'true' } } } },
  };
}

/** A Role with `verbs` on the workload types kubewait reads, bound to `user` in `ns`. */
export function roleFor(user: string, ns: string, verbs: string[]) {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${user}-role`, namespace: ns },
      rules: [
        { apiGroups: ['apps'], resources: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'], verbs },
        { apiGroups: [''], resources: ['pods', 'events', 'configmaps'], verbs },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${user}-binding`, namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${user}-role` },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    },
  ];
}

export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
