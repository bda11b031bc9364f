/**
 * `failure-grace`: a Failed verdict from a rule that reads a controller's health (a user's health rule, a
 * built-in rule for a custom resource, a GitOps controller's status) must hold this long before it counts.
 * Such verdicts flap: an Argo CD Application goes Degraded for a moment while a PDB blocks a rolling update
 * (argo-cd#21198, #26173), a Rollout between steps (kargo#6431's `degradedGracePeriod`). kstatus's own
 * Failed (a failed Job, a Deployment past its progress deadline) is terminal and never delayed, nor is a
 * pod that cannot start (the engine's diagnosis, after the rule). Pure: the time and since when the object
 * has been failing are given.
 */
import { KSTATUS_RULE, type Evaluation } from './goal.js';

export interface FailureGraceOptions {
  graceMs: number;
  now: Date;
  /** Since when (epoch ms) this object's rule has said Failed without a break; undefined: not before now. */
  failingSinceMs?: number;
}

export interface FailureGraceDecision {
  evaluation: Evaluation;
  /** The rule says Failed: since when, for the next judgement (undefined once it does not). */
  failingSinceMs?: number;
  /** Judge again then: the grace ends. */
  recheckAtMs?: number;
}

/** A timer may fire a moment before the clock says the time has come: judge again just after it. */
const AFTER_MS = 1;

export function withFailureGrace(evaluation: Evaluation, options: FailureGraceOptions): FailureGraceDecision {
  if (evaluation.status !== 'Failed' || evaluation.rule === KSTATUS_RULE) return { evaluation };
  const failingSinceMs = options.failingSinceMs ?? options.now.getTime();
  if (options.graceMs <= 0) return { evaluation, failingSinceMs };
  const endsAtMs = failingSinceMs + options.graceMs;
  if (options.now.getTime() >= endsAtMs) return { evaluation, failingSinceMs };
  const heldMs = options.now.getTime() - failingSinceMs;
  return {
    evaluation: {
      ...evaluation,
      status: 'InProgress',
      done: false,
      message: `${evaluation.message} (Failed for ${seconds(heldMs)}; failure-grace ${seconds(options.graceMs)})`,
    },
    failingSinceMs,
    recheckAtMs: endsAtMs + AFTER_MS,
  };
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)}s`;
