/**
 * The gates of an Argo Rollout's progressive delivery, for `paused: step:N` and `paused: analysis`, read from
 * the Rollout alone, as the rollout controller writes it (argoproj/argo-rollouts):
 * - `status.currentStepIndex`: the canary steps done (rollout/canary.go `syncRolloutStatusCanary`: one more
 *   each time a step completes; `kubectl argo rollouts get rollout` shows it as `Step: 2/5`), reset for a new
 *   revision in the same write that observes it (rollout/sync.go `resetRolloutStatus`);
 * - its AnalysisRuns, mirrored in its status by the reconcile that read them (rollout/context.go
 *   `SetCurrentAnalysisRuns`: `status.canary.currentStepAnalysisRunStatus`, `currentBackgroundAnalysisRunStatus`,
 *   `status.blueGreen.prePromotionAnalysisRunStatus`, `postPromotionAnalysisRunStatus`: the run's name, phase and
 *   message, whose failure names the metric: `Metric "success-rate" assessed Failed due to failed (2) >
 *   failureLimit (1)`, analysis/analysis.go). A step's run that passes advances the step in the same write and
 *   leaves the status (canary.go), so "passed" is read as "past its analysis step". A failed run aborts the
 *   Rollout (rollout/analysis.go `reconcileStepBasedAnalysisRun`); an inconclusive one pauses it with
 *   `InconclusiveAnalysis` until someone promotes or aborts it.
 * Reading the Rollout alone needs no watch of AnalysisRuns, no `list` on them, and sees exactly what the
 * controller acted on. Pure.
 */
import { gateStep, type PausedPolicy } from '../../settings.js';
import type { KubeObject } from '../fields.js';
import type { Evaluation } from '../goal.js';
import type { Pause } from '../paused.js';
import type { Progress } from './progress.js';
import { count, list, names, namespaceFlag, record, text } from './read.js';

/** An AnalysisRun as the Rollout's status mirrors it. */
interface RunStatus {
  name: string;
  /** AnalysisPhase: Pending, Running, Successful, Failed, Error, Inconclusive ('' before its first measurement). */
  phase: string;
  message: string;
}

/** The gate policies of this module (the others are paused.ts's). */
export function isRolloutGate(policy: PausedPolicy): boolean {
  return policy === 'analysis' || gateStep(policy) !== undefined;
}

/** What `resources` and the summary say of where a Rollout stands; undefined for a Rollout with nothing to say. */
export function rolloutProgress(object: KubeObject): Progress | undefined {
  const status = record(object.status);
  const canary = canaryOf(object);
  const progress: Progress = {};
  const index = count(status.currentStepIndex, -1);
  if (canary && canary.steps.length > 0 && index >= 0) progress.step = `${index}/${canary.steps.length}`;
  if (canary) progress.weight = canaryWeight(object, canary.steps, index);
  const run = currentRun(object);
  if (run) progress.analysis = run.phase || 'Pending';
  return Object.keys(progress).length > 0 ? progress : undefined;
}

/**
 * The evaluation under `paused: step:N` or `paused: analysis`. A Healthy verdict stands (a completed rollout
 * has passed every step and analysis), and so does one whose spec is not observed yet (its status is the
 * previous revision's). A failed or errored analysis fails with the run's message (it names the metric); any
 * other Failed verdict stands; an inconclusive analysis fails, as only a person can decide it.
 */
export function rolloutGate(object: KubeObject, policy: PausedPolicy, evaluation: Evaluation, pause: Pause | undefined): Evaluation {
  if (evaluation.done || !observed(object)) return evaluation;
  // The run's own words name the metric; the Rollout's abort message wraps them.
  const failed = failedRun(object);
  if (failed) return { ...evaluation, status: 'Failed', message: `analysis ${failed.name} ${failed.phase}: ${failed.message || 'no message'}` };
  if (evaluation.status === 'Failed') return evaluation;
  const undecided = inconclusive(object);
  if (undecided) return undecided(evaluation);
  const step = gateStep(policy);
  return step === undefined ? analysisGate(object, evaluation, pause) : stepGate(object, step, evaluation, pause);
}

/** `step:N`: ready once paused at step N or later (its pods available, as `paused: ready` asks), or complete. */
function stepGate(object: KubeObject, step: number, evaluation: Evaluation, pause: Pause | undefined): Evaluation {
  const canary = canaryOf(object);
  const gate = `paused: step:${step}`;
  // A blue-green Rollout has no steps: its one stop is the preview awaiting promotion, as under `paused: ready`.
  if (!canary || canary.steps.length === 0) return pausedHere(evaluation, pause, gate, 'it has no canary steps: ready where it pauses');
  const index = count(record(object.status).currentStepIndex, 0);
  const at = `canary step ${index}/${canary.steps.length}`;
  if (index >= step && pause) return pausedHere(evaluation, pause, gate, at);
  const beyond = step > canary.steps.length ? `; it has ${canary.steps.length} steps, so only completing gets it there` : '';
  return { ...evaluation, message: `${at}: waiting for it to pause at step ${step} or later (${gate})${beyond}: ${evaluation.message}` };
}

/** `analysis`: ready once the analysis in its way has passed: a canary past a step with an analysis, or a
 *  blue-green preview whose pre-promotion analysis is Successful. */
function analysisGate(object: KubeObject, evaluation: Evaluation, pause: Pause | undefined): Evaluation {
  const gate = 'paused: analysis';
  const canary = canaryOf(object);
  const status = record(object.status);
  if (!canary) {
    const blueGreen = record(status.blueGreen);
    const run = runStatus(blueGreen.postPromotionAnalysisRunStatus) ?? runStatus(blueGreen.prePromotionAnalysisRunStatus);
    if (run?.phase === 'Successful') return passed(evaluation, pause, gate, `analysis ${run.name} Successful`);
    const waiting = run ? `analysis ${run.name} ${run.phase || 'Pending'}` : 'no analysis has run yet';
    return { ...evaluation, message: `${waiting} (${gate}): ${evaluation.message}` };
  }
  const index = count(status.currentStepIndex, 0);
  const of = canary.steps.length;
  const stepRun = runStatus(record(status.canary).currentStepAnalysisRunStatus);
  if (hasAnalysis(canary.steps[index]) && stepRun?.phase === 'Successful') {
    return passed(evaluation, pause, gate, `analysis ${stepRun.name} Successful at canary step ${index}/${of}`);
  }
  if (canary.steps.slice(0, index).some(hasAnalysis)) return passed(evaluation, pause, gate, `past its analysis step, at canary step ${index}/${of}`);
  const next = canary.steps.findIndex((s, i) => i >= index && hasAnalysis(s));
  const waiting =
    next < 0
      ? 'it has no analysis step: waiting for it to complete'
      : next === index
        ? `analysis ${stepRun?.name ?? '(not created yet)'} ${stepRun ? stepRun.phase || 'Pending' : ''}`.trimEnd() + ` at canary step ${index}/${of}`
        : `canary step ${index}/${of}: waiting for its analysis at step ${next}`;
  return { ...evaluation, message: `${waiting} (${gate}): ${evaluation.message}` };
}

function passed(evaluation: Evaluation, pause: Pause | undefined, gate: string, what: string): Evaluation {
  const resume = pause ? `; ${pause.resume}` : '';
  return { ...evaluation, status: 'Current', done: true, message: `${what}, counted ready (${gate})${resume}` };
}

/** Ready where it paused once its pods are available (as `paused: ready`), else waiting for that. */
function pausedHere(evaluation: Evaluation, pause: Pause | undefined, gate: string, at: string): Evaluation {
  if (pause?.available) return { ...evaluation, status: 'Current', done: true, message: `${pause.where}, ${at}, counted ready (${gate}); ${pause.resume}` };
  const waiting = pause ? `${pause.where}; waiting for its pods (${gate})` : `${at}: waiting for it to pause (${gate})`;
  return { ...evaluation, message: `${waiting}: ${evaluation.message}` };
}

/** An inconclusive analysis holds the Rollout paused until someone decides: waiting will not end it. */
function inconclusive(object: KubeObject): ((evaluation: Evaluation) => Evaluation) | undefined {
  const status = record(object.status);
  const run = analysisRuns(object).find((r) => r.phase === 'Inconclusive');
  const paused = list(status.pauseConditions).some((c) => record(c).reason === 'InconclusiveAnalysis');
  if (!run && !paused) return undefined;
  const { name, namespace } = names(object);
  const where = namespaceFlag(namespace);
  const what = run ? `analysis ${run.name} Inconclusive${run.message ? ` (${run.message})` : ''}` : 'analysis Inconclusive';
  return (evaluation) => ({
    ...evaluation,
    status: 'Failed',
    message: `${what}: needs a human decision: kubectl argo rollouts promote ${name}${where} continues it, kubectl argo rollouts abort ${name}${where} rolls it back`,
  });
}

/** A current run that Failed or Errored (the controller aborts the Rollout for it). */
function failedRun(object: KubeObject): RunStatus | undefined {
  return analysisRuns(object).find((r) => r.phase === 'Failed' || r.phase === 'Error');
}

/** Every run the Rollout's status mirrors. */
function analysisRuns(object: KubeObject): RunStatus[] {
  const status = record(object.status);
  const canary = record(status.canary);
  const blueGreen = record(status.blueGreen);
  return [
    canary.currentStepAnalysisRunStatus,
    canary.currentBackgroundAnalysisRunStatus,
    blueGreen.prePromotionAnalysisRunStatus,
    blueGreen.postPromotionAnalysisRunStatus,
  ].flatMap((value) => runStatus(value) ?? []);
}

/** The run that stands for "its analysis" now: a canary's step run, else its background run; a blue-green's
 *  post-promotion run, else its pre-promotion run. */
function currentRun(object: KubeObject): RunStatus | undefined {
  const status = record(object.status);
  const canary = record(status.canary);
  const blueGreen = record(status.blueGreen);
  return (
    runStatus(canary.currentStepAnalysisRunStatus) ??
    runStatus(canary.currentBackgroundAnalysisRunStatus) ??
    runStatus(blueGreen.postPromotionAnalysisRunStatus) ??
    runStatus(blueGreen.prePromotionAnalysisRunStatus)
  );
}

function runStatus(value: unknown): RunStatus | undefined {
  const run = record(value);
  const name = text(run.name);
  return name ? { name, phase: text(run.status), message: text(run.message) } : undefined;
}

function canaryOf(object: KubeObject): { steps: unknown[] } | undefined {
  const strategy = record(record(object.spec).strategy);
  if (!('canary' in strategy)) return undefined;
  return { steps: list(record(strategy.canary).steps) };
}

const hasAnalysis = (step: unknown): boolean => Object.keys(record(record(step).analysis)).length > 0;

/** The controller has written a status for the current spec (a string observedGeneration, rollout/sync.go). */
function observed(object: KubeObject): boolean {
  return text(record(object.status).observedGeneration) === String(count(record(object.metadata).generation, 0));
}

/**
 * The canary's traffic weight: what the traffic router verified (`status.canary.weights.canary.weight`), else
 * what its steps set so far, as `GetCurrentSetWeight` (utils/replicaset/canary.go) reads it: 0 once aborted,
 * 100 when every step is done (or there are none), the last `setWeight` up to the current step (an index
 * not written yet is step 0, as `GetCurrentCanaryStep` reads it).
 */
function canaryWeight(object: KubeObject, steps: unknown[], index: number): number {
  const status = record(object.status);
  const routed = record(record(record(status.canary).weights).canary).weight;
  if (typeof routed === 'number') return routed;
  if (status.abort === true) return 0;
  if (steps.length === 0 || index >= steps.length) return 100;
  for (let i = Math.max(index, 0); i >= 0; i--) {
    const weight = record(steps[i]).setWeight;
    if (typeof weight === 'number') return weight;
  }
  return 0;
}
