/** Deployment and ReplicaSet controllers: template hash -> ReplicaSet -> Pods, status counts and the
 *  Progressing/Available conditions (with ProgressDeadlineExceeded) as kube-controller-manager writes them. */
import type { KubeObject } from '../store.js';
import { condition, isPodReady, omitZero, podName, templateHash, type Runtime } from './runtime.js';

const KUBEWAIT_PREFIX = 'kubewait.test/';

function intOrPercent(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value ?? ''));
  if (!m) return Number(value) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export class ReplicaSetController {
  constructor(private readonly rt: Runtime) {}

  reconcile(rs: KubeObject): void {
    if (rs.metadata.deletionTimestamp) return;
    const pods = this.rt.store.ownedBy(rs.metadata.uid).filter((p) => p.kind === 'Pod' && !p.metadata.deletionTimestamp);
    const desired = Number(rs.spec?.replicas ?? 1);
    for (let i = pods.length; i < desired; i++) {
      const template = rs.spec?.template ?? {};
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: podName(rs.metadata.name),
          namespace: rs.metadata.namespace,
          labels: { ...template.metadata?.labels },
          ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
        },
        spec: structuredClone(template.spec ?? {}),
      } as KubeObject;
      pods.push(this.rt.createOwned(rs, pod));
    }
    if (pods.length > desired) {
      const surplus = [...pods].sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b))).slice(0, pods.length - desired);
      for (const p of surplus) this.rt.deleteObject(p);
    }
    const live = pods.slice(0, Math.max(desired, 0)).filter((p) => this.rt.store.byUID(p.metadata.uid));
    const ready = live.filter(isPodReady).length;
    this.rt.writeStatus(
      rs,
      omitZero(
        {
          replicas: live.length,
          fullyLabeledReplicas: live.length,
          readyReplicas: ready,
          availableReplicas: ready,
          observedGeneration: rs.metadata.generation,
        },
        ['replicas'],
      ),
    );
  }
}

export class DeploymentController {
  /** When each deployment last made progress (uid -> ms), for progressDeadlineSeconds. */
  private readonly progressAt = new Map<string, { at: number; signature: string }>();
  /** Deployments with a deadline re-check pending (one timer each, however often they reconcile). */
  private readonly deadlineTimers = new Set<string>();

  constructor(private readonly rt: Runtime) {}

  forget(uid: string): void {
    this.progressAt.delete(uid);
    this.deadlineTimers.delete(uid);
  }

  reconcile(d: KubeObject): void {
    if (d.metadata.deletionTimestamp) return;
    const hash = templateHash(d.spec?.template);
    const owned = this.rt.store.ownedBy(d.metadata.uid).filter((o) => o.kind === 'ReplicaSet');
    let newRs = owned.find((rs) => rs.metadata.labels?.['pod-template-hash'] === hash);
    const oldRs = owned.filter((rs) => rs !== newRs);
    const desired = Number(d.spec?.replicas ?? 1);
    let created = false;
    // Paused (kubectl rollout pause): a changed template gets no new ReplicaSet until it is resumed
    // (kube-controller-manager's sync of a paused Deployment does not create one).
    if (!newRs && d.spec?.paused === true && oldRs.length > 0) return this.writeStatus(d, undefined, oldRs, false);
    if (!newRs) {
      newRs = this.createReplicaSet(d, hash, owned);
      created = true;
    } else if (Number(newRs.spec?.replicas) !== desired) {
      newRs = this.rt.writeObject(newRs, (rs) => ({ ...rs, spec: { ...rs.spec, replicas: desired } }));
    }
    const newAvailable = Number(newRs.status?.availableReplicas ?? 0);
    if (newAvailable >= desired) {
      for (const rs of oldRs) if (Number(rs.spec?.replicas) !== 0) this.rt.writeObject(rs, (o) => ({ ...o, spec: { ...o.spec, replicas: 0 } }));
    }
    this.writeStatus(d, newRs, oldRs, created);
  }

  private createReplicaSet(d: KubeObject, hash: string, owned: KubeObject[]): KubeObject {
    const revision = String(1 + Math.max(0, ...owned.map((rs) => Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0))));
    const template = structuredClone(d.spec?.template ?? {});
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, 'pod-template-hash': hash } };
    const copied = Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([k]) => k.startsWith(KUBEWAIT_PREFIX)));
    const rs = this.rt.createOwned(d, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...template.metadata.labels },
        annotations: {
          ...copied,
          'deployment.kubernetes.io/desired-replicas': String(d.spec?.replicas ?? 1),
          'deployment.kubernetes.io/max-replicas': String(Number(d.spec?.replicas ?? 1) + 1),
          'deployment.kubernetes.io/revision': revision,
        },
      },
      spec: { replicas: Number(d.spec?.replicas ?? 1), selector: { matchLabels: { ...d.spec?.selector?.matchLabels, 'pod-template-hash': hash } }, template },
    } as unknown as KubeObject);
    this.rt.writeObject(d, (o) => ({
      ...o,
      metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'deployment.kubernetes.io/revision': revision } },
    }));
    return rs;
  }

  private writeStatus(d: KubeObject, newRs: KubeObject | undefined, oldRs: KubeObject[], created: boolean): void {
    const all = newRs ? [newRs, ...oldRs] : oldRs;
    const sum = (f: (rs: KubeObject) => unknown) => all.reduce((n, rs) => n + Number(f(rs) ?? 0), 0);
    const desired = Number(d.spec?.replicas ?? 1);
    const replicas = sum((rs) => rs.status?.replicas);
    const updated = Number(newRs?.status?.replicas ?? 0);
    const ready = sum((rs) => rs.status?.readyReplicas);
    const available = sum((rs) => rs.status?.availableReplicas);
    const maxUnavailable = intOrPercent(d.spec?.strategy?.rollingUpdate?.maxUnavailable ?? '25%', desired, false);
    const complete = updated === desired && replicas === desired && available === desired && Number(newRs?.status?.availableReplicas ?? 0) === desired;
    const paused = d.spec?.paused === true;

    const signature = `${newRs?.metadata.name ?? ''}|${updated}|${ready}|${available}|${replicas}`;
    const progress = this.progressAt.get(d.metadata.uid);
    const now = Date.now();
    if (!progress || progress.signature !== signature) this.progressAt.set(d.metadata.uid, { at: now, signature });
    const deadlineMs = Number(d.spec?.progressDeadlineSeconds ?? 600) * 1000 * this.rt.speed;
    const sinceProgress = now - (this.progressAt.get(d.metadata.uid)?.at ?? now);
    const previous = d.status?.conditions;
    const rsName = newRs?.metadata.name ?? '';

    let progressing: Record<string, string>;
    // A paused Deployment makes no progress and never times out: Progressing Unknown, DeploymentPaused.
    if (paused) progressing = condition(previous, 'Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', true);
    else if (complete)
      progressing = condition(previous, 'Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rsName}" has successfully progressed.`, true);
    else if (sinceProgress >= deadlineMs)
      progressing = condition(previous, 'Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${rsName}" has timed out progressing.`, true);
    else if (created) progressing = condition(previous, 'Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${rsName}"`, true);
    else {
      const prev = previous?.find((c: { type: string }) => c.type === 'Progressing');
      progressing =
        prev?.reason === 'NewReplicaSetCreated' && progress?.signature === signature
          ? prev
          : condition(previous, 'Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`, true);
    }
    if (!paused && !complete && sinceProgress < deadlineMs && !this.deadlineTimers.has(d.metadata.uid)) {
      // Re-check when the deadline would pass without progress; the check re-arms itself if progress moved it.
      this.deadlineTimers.add(d.metadata.uid);
      this.rt.after(
        (deadlineMs - sinceProgress) / this.rt.speed + 1,
        () => {
          this.deadlineTimers.delete(d.metadata.uid);
          this.rt.enqueue(this.rt.type('apps/v1', 'Deployment'), d.metadata.namespace, d.metadata.name);
        },
        d.metadata.uid,
      );
    }
    const availableCond =
      available >= desired - maxUnavailable
        ? condition(previous, 'Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', true)
        : condition(previous, 'Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', true);

    this.rt.writeStatus(
      d,
      omitZero({
        observedGeneration: d.metadata.generation,
        replicas,
        updatedReplicas: updated,
        readyReplicas: ready,
        availableReplicas: available,
        unavailableReplicas: Math.max(0, desired - available),
        conditions: [availableCond, progressing],
      }),
    );
  }
}
