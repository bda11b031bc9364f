/**
 * Progressive delivery, as the judge asks it per type: an Argo Rollout's gates (`paused: step:N`, `analysis`,
 * rollout.ts) and a Flagger Canary's rule, judged against its first sighting (flagger.ts); for both, where
 * they stand (step, weight, analysis) for the report. Pure.
 */
import type { PausedPolicy } from '../../settings.js';
import type { KubeObject } from '../fields.js';
import type { Evaluation, FunctionRule } from '../goal.js';
import type { Pause } from '../paused.js';
import { CANARY_RULE_ID, canaryBaseline, canaryProgress, canaryStatus, isFlaggerCanary, type CanaryBaseline } from './flagger.js';
import type { Progress } from './progress.js';
import { record } from './read.js';
import { isRolloutGate, rolloutGate, rolloutProgress } from './rollout.js';

export { progressText, sameProgress, type Progress } from './progress.js';

/** The built-in rules written as functions (CEL cannot express them), beside rules/builtin.yaml's. */
export const BUILTIN_FUNCTION_RULES: readonly string[] = [CANARY_RULE_ID];

/** What a progressive kind adds to the judging of its objects. */
export interface ProgressiveKind {
  /** Its own rule, for when no health rule judges the type; `baseline` is what `baseline` kept of the
   *  object's first sighting. */
  rule?(baseline: unknown): FunctionRule;
  /** What of an object's first sighting its later verdicts need (kept by the engine per uid). */
  baseline?(object: KubeObject): unknown;
  progress(object: KubeObject): Progress | undefined;
  /** The `ready` evaluation under the `paused` policy, where the kind has a gate for it; undefined: the
   *  pause policy of paused.ts applies. */
  gate(object: KubeObject, policy: PausedPolicy, evaluation: Evaluation, pause: Pause | undefined): Evaluation | undefined;
}

const ROLLOUT: ProgressiveKind = {
  progress: rolloutProgress,
  gate: (object, policy, evaluation, pause) => (isRolloutGate(policy) ? rolloutGate(object, policy, evaluation, pause) : undefined),
};

const CANARY: ProgressiveKind = {
  rule: (baseline) => ({ id: CANARY_RULE_ID, status: (object) => canaryStatus(object, baseline as CanaryBaseline | undefined) }),
  baseline: canaryBaseline,
  progress: canaryProgress,
  // Flagger's WaitingPromotion comes after the analysis passed: `paused: analysis` is met there.
  gate: (object, policy, evaluation, pause) =>
    policy === 'analysis' && pause && record(object.status).phase === 'WaitingPromotion' && evaluation.status !== 'Failed'
      ? { ...evaluation, status: 'Current', done: true, message: `${pause.where}, counted ready (paused: analysis); ${pause.resume}` }
      : undefined,
};

export function progressiveKind(group: string, kind: string): ProgressiveKind | undefined {
  if (group === 'argoproj.io' && kind === 'Rollout') return ROLLOUT;
  if (isFlaggerCanary(group, kind)) return CANARY;
  return undefined;
}
