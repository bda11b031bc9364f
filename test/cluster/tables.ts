/** Server-side printing (`Accept: ...;as=Table;g=meta.k8s.io;v=v1`), which `kubectl get` asks for:
 *  the columns a real API server prints for each kind. */
import { JSONPath } from 'jsonpath-plus';
import type { PrinterColumn, ResourceType } from './registry.js';
import type { KubeObject } from './store.js';

export type IncludeObject = 'None' | 'Object' | 'PartialObjectMetadata';

interface Column {
  name: string;
  type?: string;
  format?: string;
  priority?: number;
  cell: (o: KubeObject, now: number) => string | number;
}

export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  return `${Math.floor(hours / 24 / 365)}y`;
}

const since = (ts: string | undefined, now: number) => (ts ? humanDuration(now - Date.parse(ts)) : '<unknown>');
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

const NAME: Column = { name: 'Name', format: 'name', cell: (o) => o.metadata.name };
const AGE: Column = { name: 'Age', cell: (o, now) => since(o.metadata.creationTimestamp, now) };

function podStatusReason(pod: KubeObject): string {
  let reason: string = pod.status?.reason || pod.status?.phase || 'Unknown';
  let hasRunning = false;
  const statuses: any[] = pod.status?.containerStatuses ?? [];
  for (const c of [...statuses].reverse()) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
    else if (c.state?.terminated) reason = `ExitCode:${c.state.terminated.exitCode}`;
    else if (c.ready && c.state?.running) hasRunning = true;
  }
  if (reason === 'Completed' && hasRunning) reason = 'Running';
  if (pod.metadata.deletionTimestamp) reason = 'Terminating';
  return reason;
}

function podRestarts(pod: KubeObject, now: number): string {
  let restarts = 0;
  let last = 0;
  for (const c of pod.status?.containerStatuses ?? []) {
    restarts += num(c.restartCount);
    const finished = Date.parse(c.lastState?.terminated?.finishedAt ?? '');
    if (finished > last) last = finished;
  }
  return last && restarts ? `${restarts} (${humanDuration(now - last)} ago)` : String(restarts);
}

const selectorText = (sel: { matchLabels?: Record<string, string> } | undefined) =>
  Object.entries(sel?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',') || '<none>';

const count = (...maps: unknown[]) => maps.reduce<number>((n, m) => n + Object.keys(m ?? {}).length, 0);
const CREATED_AT: Column = { name: 'Created At', type: 'date', cell: (o) => o.metadata.creationTimestamp ?? '' };
const roleRef = (o: KubeObject) => {
  const r = o.roleRef as { kind?: string; name?: string } | undefined;
  return `${r?.kind ?? ''}/${r?.name ?? ''}`;
};
const intOrPercent = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v));

/** HPA targets as kubectl prints them: `cpu: <unknown>/80%` per metric (current values need a metrics server). */
function hpaTargets(o: KubeObject): string {
  const metrics: Array<{ type?: string; resource?: { name?: string; target?: { type?: string; averageUtilization?: number; averageValue?: string } } }> =
    o.spec?.metrics ?? [];
  const parts = metrics.map((m) => {
    const target = m.resource?.target;
    const wanted = target?.type === 'Utilization' ? `${target.averageUtilization ?? 0}%` : (target?.averageValue ?? '');
    return m.type === 'Resource' ? `${m.resource?.name ?? ''}: <unknown>/${wanted}` : `<unknown>/${wanted}`;
  });
  return parts.join(', ') || '<none>';
}

const COLUMNS: Record<string, Column[]> = {
  Pod: [
    NAME,
    {
      name: 'Ready',
      cell: (o) => `${(o.status?.containerStatuses ?? []).filter((c: { ready?: boolean }) => c.ready).length}/${(o.spec?.containers ?? []).length}`,
    },
    { name: 'Status', cell: podStatusReason },
    { name: 'Restarts', cell: podRestarts },
    AGE,
    { name: 'IP', priority: 1, cell: (o) => o.status?.podIP ?? '<none>' },
    { name: 'Node', priority: 1, cell: (o) => o.spec?.nodeName ?? '<none>' },
  ],
  Deployment: [
    NAME,
    { name: 'Ready', cell: (o) => `${num(o.status?.readyReplicas)}/${num(o.spec?.replicas)}` },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o.status?.updatedReplicas) },
    { name: 'Available', type: 'integer', cell: (o) => num(o.status?.availableReplicas) },
    AGE,
    { name: 'Selector', priority: 1, cell: (o) => selectorText(o.spec?.selector) },
  ],
  ReplicaSet: [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(o.spec?.replicas) },
    { name: 'Current', type: 'integer', cell: (o) => num(o.status?.replicas) },
    { name: 'Ready', type: 'integer', cell: (o) => num(o.status?.readyReplicas) },
    AGE,
  ],
  StatefulSet: [NAME, { name: 'Ready', cell: (o) => `${num(o.status?.readyReplicas)}/${num(o.spec?.replicas)}` }, AGE],
  DaemonSet: [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(o.status?.desiredNumberScheduled) },
    { name: 'Current', type: 'integer', cell: (o) => num(o.status?.currentNumberScheduled) },
    { name: 'Ready', type: 'integer', cell: (o) => num(o.status?.numberReady) },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o.status?.updatedNumberScheduled) },
    { name: 'Available', type: 'integer', cell: (o) => num(o.status?.numberAvailable) },
    {
      name: 'Node Selector',
      cell: (o) =>
        Object.entries(o.spec?.template?.spec?.nodeSelector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(',') || '<none>',
    },
    AGE,
  ],
  Job: [
    NAME,
    { name: 'Status', cell: jobStatus },
    { name: 'Completions', cell: (o) => `${num(o.status?.succeeded)}/${o.spec?.completions ?? 1}` },
    {
      name: 'Duration',
      cell: (o, now) =>
        o.status?.startTime ? humanDuration((o.status?.completionTime ? Date.parse(o.status.completionTime) : now) - Date.parse(o.status.startTime)) : '',
    },
    AGE,
  ],
  Service: [
    NAME,
    { name: 'Type', cell: (o) => o.spec?.type ?? 'ClusterIP' },
    { name: 'Cluster-IP', cell: (o) => o.spec?.clusterIP ?? '<none>' },
    {
      name: 'External-IP',
      cell: (o) =>
        (o.status?.loadBalancer?.ingress ?? []).map((i: { ip?: string; hostname?: string }) => i.ip ?? i.hostname).join(',') ||
        (o.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>'),
    },
    {
      name: 'Port(s)',
      cell: (o) => (o.spec?.ports ?? []).map((p: { port: number; protocol?: string }) => `${p.port}/${p.protocol ?? 'TCP'}`).join(',') || '<none>',
    },
    AGE,
  ],
  PersistentVolumeClaim: [
    NAME,
    { name: 'Status', cell: (o) => o.status?.phase ?? '' },
    { name: 'Volume', cell: (o) => o.spec?.volumeName ?? '' },
    { name: 'Capacity', cell: (o) => o.status?.capacity?.storage ?? '' },
    {
      name: 'Access Modes',
      cell: (o) =>
        (o.status?.accessModes ?? [])
          .map(
            (m: string) => (({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' }) as Record<string, string>)[m] ?? m,
          )
          .join(','),
    },
    { name: 'StorageClass', cell: (o) => o.spec?.storageClassName ?? '<unset>' },
    AGE,
  ],
  Namespace: [NAME, { name: 'Status', cell: (o) => o.status?.phase ?? '' }, AGE],
  Node: [NAME, { name: 'Status', cell: () => 'Ready' }, { name: 'Roles', cell: () => '<none>' }, AGE, { name: 'Version', cell: () => 'v1.35.2' }],
  CustomResourceDefinition: [NAME, { name: 'Created At', type: 'date', cell: (o) => o.metadata.creationTimestamp }],
  Event: [
    { name: 'Last Seen', cell: (o, now) => since((o.lastTimestamp as string | undefined) ?? o.metadata.creationTimestamp, now) },
    { name: 'Type', cell: (o) => String(o.type ?? '') },
    { name: 'Reason', cell: (o) => String(o.reason ?? '') },
    {
      name: 'Object',
      cell: (o) => {
        const io = o.involvedObject as { kind?: string; name?: string } | undefined;
        return `${(io?.kind ?? '').toLowerCase()}/${io?.name ?? ''}`;
      },
    },
    { name: 'Message', cell: (o) => String(o.message ?? '') },
  ],
  // Kinds of the chart groups (pkg/printers/internalversion in kube-apiserver).
  ConfigMap: [NAME, { name: 'Data', type: 'integer', cell: (o) => count(o.data, o.binaryData) }, AGE],
  Secret: [NAME, { name: 'Type', cell: (o) => String(o.type ?? 'Opaque') }, { name: 'Data', type: 'integer', cell: (o) => count(o.data) }, AGE],
  ServiceAccount: [NAME, { name: 'Secrets', type: 'integer', cell: (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0) }, AGE],
  Ingress: [
    NAME,
    { name: 'Class', cell: (o) => o.spec?.ingressClassName ?? '<none>' },
    { name: 'Hosts', cell: (o) => (o.spec?.rules ?? []).map((r: { host?: string }) => r.host || '*').join(',') || '*' },
    { name: 'Address', cell: (o) => (o.status?.loadBalancer?.ingress ?? []).map((i: { ip?: string; hostname?: string }) => i.ip ?? i.hostname).join(',') },
    { name: 'Ports', cell: (o) => ((o.spec?.tls ?? []).length ? '80, 443' : '80') },
    AGE,
  ],
  HorizontalPodAutoscaler: [
    NAME,
    { name: 'Reference', cell: (o) => `${o.spec?.scaleTargetRef?.kind ?? ''}/${o.spec?.scaleTargetRef?.name ?? ''}` },
    { name: 'Targets', cell: hpaTargets },
    { name: 'MinPods', cell: (o) => String(o.spec?.minReplicas ?? 1) },
    { name: 'MaxPods', type: 'integer', cell: (o) => num(o.spec?.maxReplicas) },
    { name: 'Replicas', type: 'integer', cell: (o) => num(o.status?.currentReplicas) },
    AGE,
  ],
  PodDisruptionBudget: [
    NAME,
    { name: 'Min Available', cell: (o) => intOrPercent(o.spec?.minAvailable) },
    { name: 'Max Unavailable', cell: (o) => intOrPercent(o.spec?.maxUnavailable) },
    { name: 'Allowed Disruptions', type: 'integer', cell: (o) => num(o.status?.disruptionsAllowed) },
    AGE,
  ],
  Role: [NAME, CREATED_AT],
  ClusterRole: [NAME, CREATED_AT],
  RoleBinding: [NAME, { name: 'Role', cell: roleRef }, AGE],
  ClusterRoleBinding: [NAME, { name: 'Role', cell: roleRef }, AGE],
  StorageClass: [
    {
      ...NAME,
      cell: (o: KubeObject) => `${o.metadata.name}${o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ? ' (default)' : ''}`,
    },
    { name: 'Provisioner', cell: (o) => String(o.provisioner ?? '') },
    { name: 'ReclaimPolicy', cell: (o) => String(o.reclaimPolicy ?? 'Delete') },
    { name: 'VolumeBindingMode', cell: (o) => String(o.volumeBindingMode ?? 'Immediate') },
    { name: 'AllowVolumeExpansion', cell: (o) => String(o.allowVolumeExpansion === true) },
    AGE,
  ],
  NetworkPolicy: [NAME, { name: 'Pod-Selector', cell: (o) => selectorText(o.spec?.podSelector).replace('<none>', '') }, AGE],
  IngressClass: [NAME, { name: 'Controller', cell: (o) => o.spec?.controller ?? '' }, { name: 'Parameters', cell: () => '<none>' }, AGE],
  Lease: [NAME, { name: 'Holder', cell: (o) => o.spec?.holderIdentity ?? '' }, AGE],
};

function jobStatus(o: KubeObject): string {
  const conds: Array<{ type: string; status: string }> = o.status?.conditions ?? [];
  const has = (type: string) => conds.some((c) => c.type === type && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (o.spec?.suspend) return 'Suspended';
  return 'Running';
}

/** A CRD printer column's JSONPath (`.status.conditions[?(@.type=="Ready")].status`), first match. */
function pathValue(o: KubeObject, jsonPath: string): string {
  let found: unknown;
  try {
    found = JSONPath<unknown[]>({ path: `$${jsonPath.startsWith('.') || jsonPath.startsWith('[') ? '' : '.'}${jsonPath}`, json: o, wrap: true })[0];
  } catch {
    return '';
  }
  return found === undefined || found === null ? '' : typeof found === 'object' ? JSON.stringify(found) : String(found);
}

function customColumns(columns: PrinterColumn[]): Column[] {
  return [
    NAME,
    ...columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format,
      priority: c.priority,
      cell: (o: KubeObject, now: number) => (c.type === 'date' ? since(pathValue(o, c.jsonPath) || undefined, now) : pathValue(o, c.jsonPath)),
    })),
    ...(columns.some((c) => c.name === 'Age') ? [] : [AGE]),
  ];
}

function columnsFor(t: ResourceType): Column[] {
  if (t.custom) return t.printerColumns?.length ? customColumns(t.printerColumns) : [NAME, AGE];
  return COLUMNS[t.kind] ?? [NAME, AGE];
}

export function tableFor(t: ResourceType, objects: KubeObject[], includeObject: IncludeObject, listMeta: object): object {
  const columns = columnsFor(t);
  const now = Date.now();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type ?? 'string', format: c.format ?? '', description: c.name, priority: c.priority ?? 0 })),
    rows: objects.map((o) => ({
      cells: columns.map((c) => c.cell(o, now)),
      object:
        includeObject === 'None'
          ? undefined
          : includeObject === 'Object'
            ? o
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
