/**
 * Flagger's Canary (canaries.flagger.app), judged against what it was when this wait first saw it. Pure.
 *
 * As Flagger writes it (fluxcd/flagger): the phases of pkg/apis/flagger/v1beta1/status.go; pkg/canary/status.go
 * `SyncStatus` writes the phase with `status.lastAppliedSpec`, the hash of the target's spec it now analyses
 * (and, for Initialized, `lastPromotedSpec`), `SetStatusPhase` the later phases (Succeeded copies
 * lastAppliedSpec to lastPromotedSpec), `MakeStatusConditions` one `Promoted` condition with each phase's
 * message; pkg/controller/scheduler.go notices a new revision only at its next analysis interval
 * (`checkCanaryStatus`: Progressing with the new hash, after the confirm-rollout gate's Waiting) and marks a
 * failed analysis Failed (`rollback`, `handleFailedPromotion`). Argo CD's
 * resource_customizations/flagger.app/Canary/health.lua reads the same phases (Succeeded and Initialized
 * healthy, Failed degraded).
 *
 * Flagger has no observedGeneration, so a Canary still `Succeeded` (or `Failed`) when the wait starts speaks of
 * the previous deploy. Its verdict counts only once Flagger picked up a revision since then: its
 * `lastAppliedSpec` differs from the one first seen; or it was mid-analysis when first seen (the deploy's own
 * analysis, already started); or it had no status yet (a new Canary). A first install is ready at Initialized
 * (no promoted spec when first seen); a new revision at Succeeded. Waiting and WaitingPromotion are pauses
 * (paused.ts): the confirm-rollout or confirm-promotion webhook holds them.
 */
import type { KubeObject } from '../fields.js';
import type { Condition, StatusResult } from '../types.js';
import type { Progress } from './progress.js';
import { count, list, record, text } from './read.js';

/** What of a Canary's first sighting its later verdicts are judged against. */
export interface CanaryBaseline {
  phase: string;
  lastAppliedSpec: string;
  lastPromotedSpec: string;
}

export const CANARY_RULE_ID = 'builtin:flagger-canary';

/** The phases of an analysis under way: one seen at the start is this deploy's. */
const UNDER_WAY = new Set(['Initializing', 'Progressing', 'Waiting', 'WaitingPromotion', 'Promoting', 'Finalising']);

export const NOT_PICKED_UP = 'Flagger has not picked up this revision yet';

export function isFlaggerCanary(group: string, kind: string): boolean {
  return group === 'flagger.app' && kind === 'Canary';
}

export function canaryBaseline(object: KubeObject): CanaryBaseline {
  const status = record(object.status);
  return { phase: text(status.phase), lastAppliedSpec: text(status.lastAppliedSpec), lastPromotedSpec: text(status.lastPromotedSpec) };
}

/** The Canary's status, `baseline` being what it was when first seen (undefined: not known, as a new one). */
export function canaryStatus(object: KubeObject, baseline: CanaryBaseline | undefined): StatusResult {
  const status = record(object.status);
  const phase = text(status.phase);
  const conditions = canaryConditions(status);
  const said = conditions.at(-1)?.message ?? '';
  const own = `${phase || 'no phase yet'}${said ? `: ${said}` : ''}`;
  const result = (s: StatusResult['status'], message: string): StatusResult => ({ status: s, message, conditions });
  const pickedUp = !baseline || baseline.lastAppliedSpec === '' || UNDER_WAY.has(baseline.phase) || text(status.lastAppliedSpec) !== baseline.lastAppliedSpec;
  switch (phase) {
    case 'Initialized':
      // A first install has nothing to analyse: Flagger created the primary from it and is done.
      return !baseline || baseline.lastPromotedSpec === '' ? result('Current', own) : result('InProgress', notPickedUp(own));
    case 'Succeeded':
      return pickedUp ? result('Current', own) : result('InProgress', notPickedUp(own));
    case 'Failed':
      return pickedUp ? result('Failed', weighted(own, status)) : result('InProgress', notPickedUp(own));
    case '':
      return result('InProgress', 'waiting for Flagger to initialize it (no status yet)');
    default:
      return result('InProgress', weighted(own, status));
  }
}

/** Where a Canary stands: its weight, its step towards its maximum weight, its analysis. */
export function canaryProgress(object: KubeObject): Progress | undefined {
  const status = record(object.status);
  const phase = text(status.phase);
  if (!phase) return undefined;
  const weight = count(status.canaryWeight, 0);
  const progress: Progress = { weight };
  const step = weightStep(record(record(object.spec).analysis), weight);
  if (step) progress.step = step;
  const analysis = analysisPhase(phase, count(status.failedChecks, 0));
  if (analysis) progress.analysis = analysis;
  return progress;
}

function notPickedUp(own: string): string {
  return `${NOT_PICKED_UP} (${own}, as when this wait started; Flagger checks the target at its next analysis interval)`;
}

/** The phase's message with the canary's weight and failed checks, where they are not 0: Flagger writes a
 *  Failed status through SyncStatus, whose failedChecks is 0 (the count is in the Progressing before it). */
function weighted(own: string, status: Record<string, unknown>): string {
  const weight = count(status.canaryWeight, 0);
  const failed = count(status.failedChecks, 0);
  const facts = [weight > 0 ? `canary weight ${weight} %` : '', failed > 0 ? `failed checks ${failed}` : ''].filter(Boolean);
  return facts.length > 0 ? `${own} (${facts.join(', ')})` : own;
}

/** `2/5` of the steps to `maxWeight` by `stepWeight`, or of the `stepWeights` list; undefined without weights. */
function weightStep(analysis: Record<string, unknown>, weight: number): string | undefined {
  const stepWeights = list(analysis.stepWeights).filter((w): w is number => typeof w === 'number');
  if (stepWeights.length > 0) return `${stepWeights.filter((w) => w <= weight).length}/${stepWeights.length}`;
  const stepWeight = count(analysis.stepWeight, 0);
  if (stepWeight <= 0) return undefined;
  const steps = Math.ceil(count(analysis.maxWeight, 100) / stepWeight);
  return `${Math.min(Math.round(weight / stepWeight), steps)}/${steps}`;
}

function analysisPhase(phase: string, failedChecks: number): string | undefined {
  if (phase === 'Succeeded') return 'Successful';
  if (phase === 'Failed') return 'Failed';
  if (['Progressing', 'Waiting', 'WaitingPromotion', 'Promoting', 'Finalising'].includes(phase)) {
    return failedChecks > 0 ? `Running (${failedChecks} failed checks)` : 'Running';
  }
  return undefined;
}

/** Flagger's `Promoted` condition (its only one), as conditions are reported. */
function canaryConditions(status: Record<string, unknown>): Condition[] {
  return list(status.conditions).map((c) => {
    const condition = record(c);
    return { type: text(condition.type), status: text(condition.status), reason: text(condition.reason), message: text(condition.message) };
  });
}
