/**
 * Whether a Deployment's rollout can free namespace quota by itself, so that its new ReplicaSet's
 * `exceeded quota` is only a matter of time: old replicas still terminating or above their ReplicaSet's
 * desired count, a `Recreate` strategy (the old pods go first), or a RollingUpdate whose maxSurge and
 * maxUnavailable leave room to scale an old ReplicaSet down. kubedog's rule (deploymentCanReleaseQuota in
 * pkg/tracker/deployment/replicaset_failure.go), with the Deployment controller's rounding of percentages
 * (maxSurge up, maxUnavailable down). Pure.
 */
import { isPlainObject } from './go-format.js';

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown, fallback = 0): number => (typeof value === 'number' && Number.isInteger(value) ? value : fallback);

const REVISION = 'deployment.kubernetes.io/revision';

/** The Deployment's newest ReplicaSet (by its revision annotation) among those it controls. */
export function newReplicaSet(deployment: unknown, replicaSets: unknown[]): Obj | undefined {
  const revision = (rs: Obj) => Number.parseInt(str(obj(obj(rs.metadata).annotations)[REVISION]), 10) || -1;
  return ownedBy(deployment, replicaSets).reduce<Obj | undefined>((best, rs) => (!best || revision(rs) > revision(best) ? rs : best), undefined);
}

export function canReleaseQuota(deployment: unknown, replicaSets: unknown[]): boolean {
  const current = newReplicaSet(deployment, replicaSets);
  if (!current) return false;
  const spec = obj(obj(deployment).spec);
  let allDesired = count(obj(current.spec).replicas, 1);
  let oldHaveDesired = false;
  for (const rs of ownedBy(deployment, replicaSets)) {
    if (rs === current) continue;
    const desired = count(obj(rs.spec).replicas, 1);
    const status = obj(rs.status);
    if (count(status.terminatingReplicas) > 0 || count(status.replicas) > desired) return true;
    allDesired += desired;
    oldHaveDesired ||= desired > 0;
  }
  if (!oldHaveDesired) return false;
  const strategy = obj(spec.strategy);
  const type = str(strategy.type) || 'RollingUpdate';
  if (type === 'Recreate') return true;
  if (type !== 'RollingUpdate') return false;
  const rolling = obj(strategy.rollingUpdate);
  const desired = count(spec.replicas, 1);
  const maxSurge = scaled(rolling.maxSurge ?? '25%', desired, true);
  let maxUnavailable = scaled(rolling.maxUnavailable ?? '25%', desired, false);
  if (maxSurge === undefined || maxUnavailable === undefined) return true; // unreadable: kubedog does not fail on it
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  maxUnavailable = Math.min(maxUnavailable, desired);
  const minimumAvailable = desired - maxUnavailable;
  const newUnavailable = count(obj(current.spec).replicas, 1) - count(obj(current.status).availableReplicas);
  return allDesired - minimumAvailable - newUnavailable > 0;
}

/** intstr.GetScaledValueFromIntOrPercent: an integer as is, `N%` of `total` rounded up or down. */
function scaled(value: unknown, total: number, roundUp: boolean): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const percent = /^(\d+)%$/.exec(str(value));
  if (!percent) return undefined;
  const exact = (Number(percent[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** The ReplicaSets whose controller is this Deployment (by uid, or by name when either has none). */
function ownedBy(deployment: unknown, replicaSets: unknown[]): Obj[] {
  const meta = obj(obj(deployment).metadata);
  return replicaSets.map(obj).filter((rs) => {
    const ref = (Array.isArray(obj(rs.metadata).ownerReferences) ? (obj(rs.metadata).ownerReferences as unknown[]) : [])
      .map(obj)
      .find((r) => r.controller === true);
    if (!ref || ref.kind !== 'Deployment') return false;
    return str(meta.uid) && str(ref.uid) ? ref.uid === meta.uid : ref.name === meta.name;
  });
}
