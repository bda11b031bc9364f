/**
 * The built-in kinds every API server serves, by the names kubectl accepts for them: what a target is called
 * before (or without) discovery. When discovery fails, `deploy shop/redis-master` is still reported as
 * `shop/Deployment/redis-master`, and a cluster-scoped kind never gets the default namespace. Discovery stays
 * the authority once it answers; this table only names.
 */
import type { TargetSpec } from './types.js';

interface BuiltinKind {
  kind: string;
  group: string;
  namespaced: boolean;
  names: string[];
}

const KINDS: BuiltinKind[] = [
  { kind: 'Deployment', group: 'apps', namespaced: true, names: ['deployments', 'deployment', 'deploy'] },
  { kind: 'StatefulSet', group: 'apps', namespaced: true, names: ['statefulsets', 'statefulset', 'sts'] },
  { kind: 'DaemonSet', group: 'apps', namespaced: true, names: ['daemonsets', 'daemonset', 'ds'] },
  { kind: 'ReplicaSet', group: 'apps', namespaced: true, names: ['replicasets', 'replicaset', 'rs'] },
  { kind: 'Job', group: 'batch', namespaced: true, names: ['jobs', 'job'] },
  { kind: 'CronJob', group: 'batch', namespaced: true, names: ['cronjobs', 'cronjob', 'cj'] },
  { kind: 'Pod', group: '', namespaced: true, names: ['pods', 'pod', 'po'] },
  { kind: 'Service', group: '', namespaced: true, names: ['services', 'service', 'svc'] },
  { kind: 'ConfigMap', group: '', namespaced: true, names: ['configmaps', 'configmap', 'cm'] },
  { kind: 'Secret', group: '', namespaced: true, names: ['secrets', 'secret'] },
  { kind: 'PersistentVolumeClaim', group: '', namespaced: true, names: ['persistentvolumeclaims', 'persistentvolumeclaim', 'pvc'] },
  { kind: 'ServiceAccount', group: '', namespaced: true, names: ['serviceaccounts', 'serviceaccount', 'sa'] },
  { kind: 'Ingress', group: 'networking.k8s.io', namespaced: true, names: ['ingresses', 'ingress', 'ing'] },
  { kind: 'Namespace', group: '', namespaced: false, names: ['namespaces', 'namespace', 'ns'] },
  { kind: 'Node', group: '', namespaced: false, names: ['nodes', 'node', 'no'] },
  { kind: 'PersistentVolume', group: '', namespaced: false, names: ['persistentvolumes', 'persistentvolume', 'pv'] },
  { kind: 'StorageClass', group: 'storage.k8s.io', namespaced: false, names: ['storageclasses', 'storageclass', 'sc'] },
  { kind: 'ClusterRole', group: 'rbac.authorization.k8s.io', namespaced: false, names: ['clusterroles', 'clusterrole'] },
  { kind: 'ClusterRoleBinding', group: 'rbac.authorization.k8s.io', namespaced: false, names: ['clusterrolebindings', 'clusterrolebinding'] },
  {
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    namespaced: false,
    names: ['customresourcedefinitions', 'customresourcedefinition', 'crd', 'crds'],
  },
];

/** The built-in kind a type as written names (`deploy`, `deployments.apps`, `Deployment`), if any. */
export function builtinKind(type: string): Pick<BuiltinKind, 'kind' | 'group' | 'namespaced'> | undefined {
  const lower = type.toLowerCase();
  const dot = lower.indexOf('.');
  const [name, group] = dot < 0 ? [lower, undefined] : [lower.slice(0, dot), lower.slice(dot + 1)];
  return KINDS.find((k) => (group === undefined || group === k.group) && (k.names.includes(name) || k.kind.toLowerCase() === name));
}

/**
 * How a target is named until discovery resolves its type (and for good, if it never does, or the cluster
 * cannot be used): a built-in kind by its Kind, apiVersion (every one of them is served at `v1`) and scope;
 * another type as written, with the namespace only when one was given, since its scope is not known (a
 * cluster-scoped type must not show the default namespace).
 */
export function writtenIdentity(spec: TargetSpec, defaultNamespace: string) {
  const builtin = builtinKind(spec.type);
  const namespaced = builtin ? builtin.namespaced : spec.namespace !== undefined && spec.namespace !== '';
  const builtinVersion = builtin && (builtin.group ? `${builtin.group}/v1` : 'v1');
  return {
    apiVersion: spec.apiVersion ?? builtinVersion ?? '',
    kind: builtin?.kind ?? spec.type,
    namespace: namespaced ? spec.namespace || defaultNamespace : '',
    name: spec.name ?? '',
    ...(spec.name ? {} : { selector: spec.selector ?? '' }),
    ...(spec.source ? { source: spec.source } : {}),
  };
}
