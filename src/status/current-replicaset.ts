/**
 * Which of a Deployment's ReplicaSets is its current one, so that only that ReplicaSet's `FailedCreate`
 * judges the rollout: an old revision's quota denial or rejected pod spec (events live an hour) says nothing
 * about the revision being rolled out. The current ReplicaSet is the newest by revision, once the controller
 * has seen the Deployment's latest generation (before that, the newest may still be the previous revision's,
 * and no ReplicaSet is current yet). Pure.
 *
 * A StatefulSet's, DaemonSet's or Job's FailedCreate is about the workload itself, so there is no old
 * object to tell apart; none is filtered by revision, and need not be: these controllers create the new
 * revision's pods at once (a Job's template cannot change), and a pod created after a FailedCreate clears it
 * (failed-create.ts). A Deployment's new ReplicaSet, though, can stand without a pod while its old one's event
 * is the newest (Recreate, maxSurge 0, old pods terminating).
 */
import { isPlainObject } from './go-format.js';
import { newReplicaSet } from './quota-release.js';

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (isPlainObject(value) ? value : {});
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/** The current ReplicaSet's name; undefined while the controller has not caught up with the latest spec. */
export function currentReplicaSetName(deployment: unknown, replicaSets: unknown[]): string | undefined {
  const generation = int(obj(obj(deployment).metadata).generation);
  const observed = int(obj(obj(deployment).status).observedGeneration);
  if (generation !== undefined && (observed === undefined || observed < generation)) return undefined;
  const name = obj(newReplicaSet(deployment, replicaSets)?.metadata).name;
  return typeof name === 'string' ? name : undefined;
}

/** A `FailedCreate` about a ReplicaSet, with that ReplicaSet's name. */
export function replicaSetFailedCreate(event: unknown): string | undefined {
  const e = obj(event);
  const about = obj(e.involvedObject);
  return e.reason === 'FailedCreate' && about.kind === 'ReplicaSet' && typeof about.name === 'string' ? about.name : undefined;
}
