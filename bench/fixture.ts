/**
 * A benchmark scenario on the API server stand-in: N Deployments spread over some namespaces, created
 * not ready with the simulated controllers off, so they become ready exactly when `flipReady()` writes
 * every status in-process (each write is a real status update: new resourceVersion, watch events).
 *
 * The stand-in's request records carry no time. The bench stamps each one as it is recorded (on arrival)
 * by wrapping `Counters.prototype.record` in this process — a bench-only hook, nothing in test/cluster
 * changes. A record that already has a numeric `at` (should the stand-in add one) is left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { Counters, type RequestRecord } from '../test/cluster/faults.js';

export interface Scenario {
  deployments: number;
  namespaces: number;
  /** Each Deployment carries the `kubectl.kubernetes.io/last-applied-configuration` annotation that
   *  `kubectl apply` writes (its manifest again, ~1 KB), as on a real cluster (bench/memory.ts). */
  lastApplied?: boolean;
}

export interface StampedRequest extends RequestRecord {
  /** Epoch milliseconds (sub-ms precision) when the request arrived. */
  at: number;
}

export const now = (): number => performance.timeOrigin + performance.now();

let stamping = false;
function stampRequests(): void {
  if (stamping) return;
  stamping = true;
  // Wrapped, then called with the counters as `this`: not unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const record = Counters.prototype.record;
  Counters.prototype.record = function (this: Counters, r: RequestRecord) {
    const stamped = r as RequestRecord & { at?: number };
    if (typeof stamped.at !== 'number') stamped.at = now();
    return record.call(this, stamped);
  };
}

export function namespaceName(i: number): string {
  return `bench-${String(i).padStart(2, '0')}`;
}

function deploymentName(i: number): string {
  return `app-${String(i).padStart(4, '0')}`;
}

export interface DeploymentRef {
  namespace: string;
  name: string;
}

/** Deployment i goes to namespace i mod namespaces: an even spread. */
export function layout(s: Scenario): DeploymentRef[] {
  return Array.from({ length: s.deployments }, (_, i) => ({ namespace: namespaceName(i % s.namespaces), name: deploymentName(i) }));
}

const REPLICAS = 2;

/** A Deployment as `kubectl apply` leaves it: labels, annotations, a container with ports, env, probes
 *  (and, with `lastApplied`, the manifest again in an annotation). */
function deploymentObject(ref: DeploymentRef, lastApplied = false): object {
  const labels = { app: ref.name, 'app.kubernetes.io/part-of': 'bench', tier: 'backend' };
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: ref.name, namespace: ref.namespace, labels },
    spec: deploymentSpec(ref, labels),
  };
  const annotations = {
    'deployment.kubernetes.io/revision': '1',
    ...(lastApplied && { 'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(manifest)}\n` }),
  };
  return { ...manifest, metadata: { ...manifest.metadata, annotations }, status: withoutNulls(notReadyStatus()) };
}

function deploymentSpec(ref: DeploymentRef, labels: Record<string, string>): object {
  return {
    replicas: REPLICAS,
    selector: { matchLabels: { app: ref.name } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    template: {
      metadata: { labels },
      spec: {
        containers: [
          {
            name: 'app',
            image: `registry.example.com/bench/${ref.name}:1.0.0`,
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            env: [{ name: 'LOG_LEVEL', value: 'info' }],
            resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } },
            readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
          },
        ],
      },
    },
  };
}

function condition(type: string, status: string, reason: string, message: string) {
  const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return { type, status, reason, message, lastUpdateTime: time, lastTransitionTime: time };
}

/** Mid-rollout: pods created, none available (kstatus InProgress; kubectl's Available=False).
 *  As a merge patch it also removes the ready counts (null deletes a field). */
function notReadyStatus(): object {
  return {
    observedGeneration: 1,
    replicas: REPLICAS,
    updatedReplicas: REPLICAS,
    readyReplicas: null,
    availableReplicas: null,
    unavailableReplicas: REPLICAS,
    conditions: [
      condition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
      condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "x" is progressing.'),
    ],
  };
}

/** Rolled out: every replica updated, ready and available (kstatus Current; Available=True). */
function readyStatus(): object {
  return {
    observedGeneration: 1,
    replicas: REPLICAS,
    updatedReplicas: REPLICAS,
    readyReplicas: REPLICAS,
    availableReplicas: REPLICAS,
    unavailableReplicas: null,
    conditions: [
      condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
      condition('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "x" has successfully progressed.'),
    ],
  };
}

function withoutNulls(status: object): object {
  return Object.fromEntries(Object.entries(status).filter(([, v]) => v !== null));
}

export class Fixture {
  readonly refs: DeploymentRef[];
  readonly namespaces: string[];
  readonly kubeconfigPath: string;
  private readonly scratch: string;

  private constructor(
    readonly scenario: Scenario,
    readonly cluster: TestCluster,
  ) {
    this.refs = layout(scenario);
    this.namespaces = Array.from({ length: scenario.namespaces }, (_, i) => namespaceName(i));
    this.scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-'));
    this.kubeconfigPath = path.join(this.scratch, 'kubeconfig');
    cluster.writeKubeconfig(this.kubeconfigPath, { namespace: this.namespaces[0] });
  }

  static async start(scenario: Scenario): Promise<Fixture> {
    stampRequests();
    const cluster = await startCluster({ controllers: false });
    const fixture = new Fixture(scenario, cluster);
    for (const namespace of fixture.namespaces) cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    for (const ref of fixture.refs) cluster.create(deploymentObject(ref, scenario.lastApplied));
    return fixture;
  }

  kubeconfig(): string {
    return this.cluster.kubeconfig({ namespace: this.namespaces[0] });
  }

  /** Every Deployment back to mid-rollout, and the counters zeroed: the state before each run. */
  reset(): void {
    for (const ref of this.refs) {
      const current = this.cluster.get('apps/v1', 'Deployment', ref.namespace, ref.name) as { status?: { availableReplicas?: number } };
      if (current?.status?.availableReplicas) this.cluster.patchStatus('apps/v1', 'Deployment', ref.namespace, ref.name, notReadyStatus());
    }
    this.cluster.counters.reset();
  }

  /** Writes every ready status; returns the instant the last one was written (epoch ms). */
  flipReady(): { startedAt: number; lastWrittenAt: number } {
    const status = readyStatus();
    const startedAt = now();
    for (const ref of this.refs) this.cluster.patchStatus('apps/v1', 'Deployment', ref.namespace, ref.name, status);
    return { startedAt, lastWrittenAt: now() };
  }

  requests(): StampedRequest[] {
    return this.cluster.counters.requests() as StampedRequest[];
  }

  /** Bytes of one Deployment as a LIST item: what a watcher holds per object. */
  objectBytes(): number {
    const ref = this.refs[0];
    if (!ref) throw new Error('the fixture has no Deployments');
    return Buffer.byteLength(JSON.stringify(this.cluster.get('apps/v1', 'Deployment', ref.namespace, ref.name)));
  }

  async close(): Promise<void> {
    await this.cluster.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
