/**
 * Paused rollouts, and the `paused` input. An Argo Rollout paused at a canary step or awaiting a blue-green
 * promotion (argo-rollouts: `status.pauseConditions`, `spec.paused`, phase `Paused`) and a Deployment with
 * `spec.paused` do not move on by themselves (a timed canary pause aside): a wait for `ready` can only end at
 * its deadline.
 *
 * - `paused: wait` (the default) keeps waiting, as `kubectl rollout status` does for a paused Deployment (its
 *   DeploymentStatusViewer has no pause case: it waits for the replica counts until its timeout) and
 *   `kubectl argo rollouts status` for a paused Rollout (it returns on Healthy or Degraded only). The verdict
 *   is the rule's; the message says where the rollout is paused and what resumes it, so a timeout explains
 *   itself.
 * - `paused: ready` counts a paused rollout as ready where it paused, once the pods it runs are available: for
 *   a pipeline that deploys a canary here and promotes it in a later job.
 *
 * A Failed verdict stands either way, and only the `ready` goal is concerned (`condition=`, `jsonpath=` and
 * `deleted` say exactly what to wait for). A Flagger Canary waiting for its confirm-rollout or
 * confirm-promotion webhook is paused too. `paused: step:N` and `analysis` are an Argo Rollout's gates
 * (progressive/rollout.ts); for a Canary `analysis` counts WaitingPromotion ready (progressive/index.ts);
 * anything else they concern waits as under `wait`. Pure.
 */
import type { PausedPolicy } from '../settings.js';
import type { KubeObject } from './fields.js';
import type { Evaluation } from './goal.js';
import { isFlaggerCanary } from './progressive/flagger.js';
import { count, names, record, text } from './progressive/read.js';

export type { PausedPolicy } from '../settings.js';

/** A paused rollout, in words. */
export interface Pause {
  /** `paused at canary step 2 of 5 (CanaryPauseStep)` */
  where: string;
  /** What continues it: `kubectl argo rollouts promote web -n shop`; or that it resumes by itself. */
  resume: string;
  /** The pods it runs while paused are available (and its spec is observed): `paused: ready` counts it ready. */
  available: boolean;
}

/** The pause of an Argo Rollout, a Flagger Canary or a Deployment; undefined when it is not paused (or is
 *  another kind). */
export function pauseOf(group: string, kind: string, object: KubeObject): Pause | undefined {
  if (group === 'argoproj.io' && kind === 'Rollout') return rolloutPause(object);
  if (isFlaggerCanary(group, kind)) return canaryPause(object);
  if ((group === 'apps' || group === 'extensions') && kind === 'Deployment') return deploymentPause(object);
  return undefined;
}

/** The evaluation with the `paused` policy applied to a paused object. */
export function withPausePolicy(evaluation: Evaluation, pause: Pause | undefined, policy: PausedPolicy): Evaluation {
  if (!pause || evaluation.done || evaluation.status === 'Failed') return evaluation;
  if (policy === 'ready' && pause.available) {
    return { ...evaluation, status: 'Current', done: true, message: `${pause.where}, counted ready (paused: ready); ${pause.resume}` };
  }
  const waiting =
    policy === 'ready'
      ? 'Waiting for its pods (paused: ready)'
      : policy === 'wait'
        ? 'Waiting (paused: wait; paused: ready would count it ready)'
        : `Waiting (paused: ${policy} waits as paused: wait here; paused: ready would count it ready)`;
  return { ...evaluation, message: `${pause.where}; ${pause.resume}. ${waiting}: ${evaluation.message}` };
}

/** argo-rollouts: a pause condition (a canary pause step, a blue-green preview, an inconclusive analysis), a
 *  manual `spec.paused`, or the controller's own pause; its phase `Paused` once the controller said so. */
function rolloutPause(object: KubeObject): Pause | undefined {
  const spec = record(object.spec);
  const status = record(object.status);
  const conditions = Array.isArray(status.pauseConditions) ? status.pauseConditions.map(record) : [];
  const manual = spec.paused === true;
  if (!manual && conditions.length === 0 && status.controllerPause !== true && status.phase !== 'Paused') return undefined;
  const { name, namespace } = names(object);
  const steps = Array.isArray(record(record(spec.strategy).canary).steps) ? (record(record(spec.strategy).canary).steps as unknown[]) : [];
  const index = count(status.currentStepIndex, -1);
  const reasons = conditions.map((c) => text(c.reason)).filter(Boolean);
  const step = index >= 0 && index < steps.length ? ` at canary step ${index + 1} of ${steps.length}` : '';
  const why = manual ? 'spec.paused' : reasons.join(', ') || text(status.message) || 'Paused';
  const rawDuration = index >= 0 ? record(record(steps[index]).pause).duration : undefined;
  // argo-rollouts takes a number of seconds or a duration string (`10m`).
  const duration = typeof rawDuration === 'number' ? `${rawDuration}s` : text(rawDuration);
  const timed = !manual && reasons.every((r) => r === 'CanaryPauseStep') && duration !== '';
  const promote = `kubectl argo rollouts promote ${name}${namespace ? ` -n ${namespace}` : ''}`;
  const generation = count(record(object.metadata).generation, 0);
  const observed = text(status.observedGeneration) === String(generation);
  return {
    where: `Rollout paused${step} (${why})`,
    resume: timed ? `its pause of ${duration} ends by itself, or ${promote} continues it` : `${promote} continues it`,
    available: status.phase === 'Paused' && observed && count(status.availableReplicas, 0) >= count(spec.replicas, 1),
  };
}

/**
 * Flagger: a Canary in `Waiting` (its confirm-rollout webhook has not approved the new revision) or
 * `WaitingPromotion` (the analysis passed; its confirm-promotion webhook has not approved the promotion), as
 * pkg/controller/scheduler.go sets them. The webhook's approval continues it (`kubectl flagger` has no
 * promote); its pods are the canary's, up already in `WaitingPromotion`.
 */
function canaryPause(object: KubeObject): Pause | undefined {
  const phase = record(object.status).phase;
  if (phase !== 'Waiting' && phase !== 'WaitingPromotion') return undefined;
  const gate = phase === 'Waiting' ? 'confirm-rollout' : 'confirm-promotion';
  return {
    where:
      phase === 'Waiting'
        ? 'Canary waiting for approval to start its analysis (Waiting)'
        : 'Canary analysis passed, waiting for approval to promote (WaitingPromotion)',
    resume: `its ${gate} webhook approving continues it`,
    available: true,
  };
}

/** A Deployment with `spec.paused`: the controller keeps its ReplicaSets as they are and rolls nothing out. */
function deploymentPause(object: KubeObject): Pause | undefined {
  const spec = record(object.spec);
  if (spec.paused !== true) return undefined;
  const status = record(object.status);
  const { name, namespace } = names(object);
  const observed = count(status.observedGeneration, 0) >= count(record(object.metadata).generation, 0);
  return {
    where: 'Deployment paused (spec.paused)',
    resume: `kubectl rollout resume deployment/${name}${namespace ? ` -n ${namespace}` : ''} continues it`,
    available: observed && count(status.availableReplicas, 0) >= count(spec.replicas, 1),
  };
}
