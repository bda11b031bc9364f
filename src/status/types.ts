/** Readiness statuses. The string values are part of the public contract (the `resources` output). */
export type Status = 'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'NotFound' | 'Unknown';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus | string;
  reason: string;
  message: string;
  /** Not the object's own: kstatus's Reconciling/Stalled, derived from its status (the report labels it). */
  synthesized?: boolean;
}

/** What `computeStatus` returns: kstatus's Result. */
export interface StatusResult {
  status: Status;
  message: string;
  conditions: Condition[];
}

/** One container (or init container) of a pod that is not healthy, and why. */
export interface ContainerProblem {
  pod: string;
  container: string;
  init: boolean;
  /** ErrImagePull, ImagePullBackOff, InvalidImageName, CreateContainerConfigError, CreateContainerError,
   *  CrashLoopBackOff, OOMKilled, Error, Unschedulable, ... */
  reason: string;
  message: string;
  restartCount?: number;
  /** For crash loops: the reason the last run ended, e.g. OOMKilled. */
  lastTerminationReason?: string;
  /** True when waiting longer will not help (a bad image, a missing secret, a crash loop). */
  unrecoverable: boolean;
  /** A failure still in its grace (an image pull, an autoscaler's refusal): when (epoch ms) it becomes
   *  unrecoverable if it stands (src/status/standing.ts). */
  finalAtMs?: number;
}

/** A recent warning event about a workload or one of its pods. */
export interface WarningEvent {
  object: string; // e.g. `Pod/web-7d9c-abcde`
  reason: string;
  message: string;
  count: number;
  lastSeen?: string; // RFC 3339
}

/** Why a workload's pods are not ready, from pod diagnosis. */
export interface Diagnosis {
  problems: ContainerProblem[];
  events: WarningEvent[];
  /** One line for logs and annotations, e.g. `container web: ImagePullBackOff: Back-off pulling image "web:v2"`. */
  summary: string;
  unrecoverable: boolean;
  /** Pods the workload's controller could not create (a `FailedCreate`), when that is what holds it. */
  creation?: CreationFailure;
  /** The class of what holds it, for the `cause` output field (`QuotaExceeded`, `ImagePull`, `CrashLoop`, …). */
  cause?: string;
  /** The earliest time (epoch ms) a failure here, still in its grace, becomes unrecoverable if it stands:
   *  the diagnoser looks again then, whatever its backoff (src/engine/diagnoser.ts). */
  finalAtMs?: number;
}

/** What keeps a controller from creating pods (src/status/failed-create.ts). `WebhookUnavailable` and
 *  `CreateFailed` are retried by the controller; the others are final after a short grace. */
export type CreationCause = 'QuotaExceeded' | 'AdmissionDenied' | 'InvalidSpec' | 'WebhookUnavailable' | 'CreateFailed';

/** A controller's `FailedCreate`, classified. */
export interface CreationFailure {
  cause: CreationCause;
  /** The controller that reported it, `ReplicaSet/web-7d9c5`. */
  object: string;
  /** From the part that says why: `exceeded quota: team-a, requested: limits.cpu=750m, used: …, limited: …`. */
  message: string;
  /** The webhook or policy that denied (or did not answer): `admission webhook "x.example.com"`. */
  admission?: string;
  unrecoverable: boolean;
  /** When (epoch ms) a final-looking failure, still in its grace, becomes unrecoverable if it stands
   *  (src/status/standing.ts). */
  finalAtMs?: number;
}
