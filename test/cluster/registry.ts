/**
 * The resource types the stand-in serves: a table of built-ins plus the types that established CRDs add.
 * Discovery documents are generated from this table, so discovery and the endpoints never disagree.
 */

export interface ResourceType {
  group: string; // '' for core
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Whether a `<plural>/status` subresource exists (status writes through the main endpoint are ignored). */
  statusSubresource: boolean;
  /** Whether a `<plural>/scale` subresource (autoscaling/v1 Scale) exists: what `kubectl scale` uses. */
  scaleSubresource?: boolean;
  /** For custom resources: the CRD's additionalPrinterColumns (used for `kubectl get` tables). */
  printerColumns?: PrinterColumn[];
  custom?: boolean;
}

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  priority?: number;
  format?: string;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const READ_ONLY_EVENTS = ALL_VERBS; // events are writable in a real cluster too

type Row = [group: string, version: string, kind: string, plural: string, namespaced: boolean, shortNames: string[], categories: string[], status: boolean];

/** group, version, kind, plural, namespaced, short names, categories, status subresource. Groups are in the
 *  order kube-apiserver 1.35 lists them in `/apis` (its group priority), which clients keep for lookups. */
const BUILT_INS: Row[] = [
  ['', 'v1', 'Pod', 'pods', true, ['po'], ['all'], true],
  ['', 'v1', 'Service', 'services', true, ['svc'], ['all'], true],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc'], [], true],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', false, ['pv'], [], true],
  ['', 'v1', 'ConfigMap', 'configmaps', true, ['cm'], [], false],
  ['', 'v1', 'Secret', 'secrets', true, [], [], false],
  ['', 'v1', 'Namespace', 'namespaces', false, ['ns'], [], true],
  ['', 'v1', 'Event', 'events', true, ['ev'], [], false],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true, ['sa'], [], false],
  ['', 'v1', 'Endpoints', 'endpoints', true, ['ep'], [], false],
  ['', 'v1', 'LimitRange', 'limitranges', true, ['limits'], [], false],
  ['', 'v1', 'ResourceQuota', 'resourcequotas', true, ['quota'], [], true],
  ['', 'v1', 'Node', 'nodes', false, ['no'], [], true],
  ['apps', 'v1', 'Deployment', 'deployments', true, ['deploy'], ['all'], true],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true, ['rs'], ['all'], true],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true, ['sts'], ['all'], true],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true, ['ds'], ['all'], true],
  ['apps', 'v1', 'ControllerRevision', 'controllerrevisions', true, [], [], false],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, ['hpa'], ['all'], true],
  ['batch', 'v1', 'Job', 'jobs', true, [], ['all'], true],
  ['batch', 'v1', 'CronJob', 'cronjobs', true, ['cj'], ['all'], true],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, ['ing'], [], true],
  ['networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false, [], [], false],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol'], [], false],
  ['policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['pdb'], [], true],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false, [], [], false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false, [], [], false],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true, [], [], false],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true, [], [], false],
  ['storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, ['sc'], [], false],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, ['crd', 'crds'], ['api-extensions'], true],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', true, [], [], false],
  ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true, [], [], false],
];

function builtIn([group, version, kind, plural, namespaced, shortNames, categories, status]: Row): ResourceType {
  return {
    group,
    version,
    kind,
    plural,
    namespaced,
    shortNames,
    categories,
    singular: kind.toLowerCase(),
    verbs: kind === 'Event' ? READ_ONLY_EVENTS : ALL_VERBS,
    statusSubresource: status,
    scaleSubresource: ['Deployment', 'ReplicaSet', 'StatefulSet'].includes(kind),
  };
}

export function apiVersionOf(t: { group: string; version: string }): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

export function typeKey(group: string, plural: string): string {
  return `${group}/${plural}`;
}

/** `deployments.apps`, `pods`: the qualified resource name real API server messages use. */
export function qualifiedResource(t: { group: string; plural: string }): string {
  return t.group ? `${t.plural}.${t.group}` : t.plural;
}

export class Registry {
  private readonly byPath = new Map<string, ResourceType>(); // `${group}/${version}/${plural}`
  private readonly byKind = new Map<string, ResourceType>(); // `${apiVersion}/${kind}`

  constructor() {
    for (const row of BUILT_INS) this.add(builtIn(row));
  }

  add(t: ResourceType): void {
    this.byPath.set(`${t.group}/${t.version}/${t.plural}`, t);
    this.byKind.set(`${apiVersionOf(t)}/${t.kind}`, t);
  }

  remove(group: string, plural: string): ResourceType[] {
    const removed = this.all().filter((t) => t.group === group && t.plural === plural);
    for (const t of removed) {
      this.byPath.delete(`${t.group}/${t.version}/${t.plural}`);
      this.byKind.delete(`${apiVersionOf(t)}/${t.kind}`);
    }
    return removed;
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  findKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.byKind.get(`${apiVersion}/${kind}`);
  }

  all(): ResourceType[] {
    return [...this.byPath.values()];
  }

  /** Groups in a stable order: built-in groups first (as a real server lists them), then CRD groups. */
  groups(): Array<{ name: string; versions: string[] }> {
    const groups = new Map<string, string[]>();
    for (const t of this.all()) {
      if (!t.group) continue;
      const versions = groups.get(t.group) ?? [];
      if (!versions.includes(t.version)) versions.push(t.version);
      groups.set(t.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions }));
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.all().filter((t) => t.group === group && t.version === version);
  }
}

/** The `resources` entries of an APIResourceList for one group/version. */
export function apiResources(types: ResourceType[]): object[] {
  const out: object[] = [];
  for (const t of types) {
    out.push({
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
      ...(t.categories.length ? { categories: t.categories } : {}),
      storageVersionHash: storageVersionHash(t),
    });
    if (t.statusSubresource) {
      out.push({ name: `${t.plural}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
    }
    if (t.scaleSubresource) {
      out.push({
        name: `${t.plural}/scale`,
        singularName: '',
        namespaced: t.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  return out;
}

function storageVersionHash(t: ResourceType): string {
  return Buffer.from(`${t.group}/${t.version}/${t.kind}`).toString('base64').slice(0, 11);
}
