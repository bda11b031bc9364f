/**
 * The objects and the status sequences the progressive-delivery controllers write, shared by the table tests
 * (test/status/progressive.test.ts) and the real control plane (test/real/progressive.test.ts), where each
 * status is written as a merge patch of the status subresource against the controllers' own CRDs.
 *
 * Argo Rollouts (argoproj/argo-rollouts): rollout/sync.go `persistRolloutStatus` writes the status as a
 * two-way merge patch (a field the new status lacks goes as null), with observedGeneration as a string;
 * rollout/canary.go `syncRolloutStatusCanary` advances `currentStepIndex` and clears
 * `canary.currentStepAnalysisRunStatus` in the write that completes an analysis step; rollout/context.go
 * `SetCurrentAnalysisRuns` mirrors the current AnalysisRuns (name, phase, message); rollout/analysis.go aborts for
 * a Failed or Error run (`Step-based analysis phase error/failed: <message>`) and pauses for an Inconclusive one
 * (InconclusiveAnalysis); the AnalysisRun's message names the metric (analysis/analysis.go
 * `assessRunStatus`); utils/conditions/conditions.go the Progressing reasons and messages; the blue-green
 * preview pauses with BlueGreenPause (rollout/bluegreen.go).
 *
 * Flagger (fluxcd/flagger): pkg/canary/status.go `SyncStatus` (phase, lastAppliedSpec, lastPromotedSpec on
 * Initialized), `SetStatusPhase` (Succeeded copies lastAppliedSpec to lastPromotedSpec), `MakeStatusConditions`
 * (one Promoted condition, its message per phase); pkg/controller/scheduler.go the order of the phases.
 */

export const NS_PLACEHOLDER = 'shop';
const AT = '2026-12-03T08:00:00Z';

// ---- Argo Rollouts --------------------------------------------------------------------------------------

/** Five steps: weight 20, an analysis, a pause for a person, weight 60, a timed pause. */
export const STEPS = [
  { setWeight: 20 },
  { analysis: { templates: [{ templateName: 'success-rate' }] } },
  { pause: {} },
  { setWeight: 60 },
  { pause: { duration: '10m' } },
];

export const GENERATION = 2;
const NEW_HASH = '6d8f7b9c5';
const STABLE_HASH = '5c7d8e6f4';
export const STEP_RUN = `web-${NEW_HASH}-2-1`;
export const FAILED_METRIC_MESSAGE = 'Metric "success-rate" assessed Failed due to failed (2) > failureLimit (1)';
export const INCONCLUSIVE_MESSAGE = 'Metric "success-rate" assessed Inconclusive due to inconclusive (1) > inconclusiveLimit (0)';

export function rollout(strategy: 'canary' | 'blueGreen' = 'canary') {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'web', namespace: NS_PLACEHOLDER, generation: GENERATION },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:2' }] } },
      strategy:
        strategy === 'canary'
          ? { canary: { steps: STEPS } }
          : {
              blueGreen: {
                activeService: 'web',
                previewService: 'web-preview',
                autoPromotionEnabled: false,
                prePromotionAnalysis: { templates: [{ templateName: 'smoke' }] },
              },
            },
    },
  };
}

const condition = (type: string, status: string, reason: string, message: string) => ({
  type,
  status,
  reason,
  message,
  lastUpdateTime: AT,
  lastTransitionTime: AT,
});

const base = (extra: Record<string, unknown>) => ({
  observedGeneration: String(GENERATION),
  currentPodHash: NEW_HASH,
  stableRS: STABLE_HASH,
  replicas: 5,
  updatedReplicas: 1,
  readyReplicas: 5,
  availableReplicas: 5,
  HPAReplicas: 5,
  selector: 'app=web',
  ...extra,
});

const progressing = (message: string) => condition('Progressing', 'True', 'ReplicaSetUpdated', message);
const available = condition('Available', 'True', 'AvailableReason', 'Rollout has minimum availability');

/** The statuses of a canary Rollout of revision 2, as the rollout controller writes them in turn. */
export const canaryStatus = {
  /** Step 0 (setWeight 20) under way: the new ReplicaSet scaling up. */
  weight20: () =>
    base({
      phase: 'Progressing',
      message: 'more replicas need to be updated',
      currentStepIndex: 0,
      conditions: [progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
  /** Step 1: the analysis step, its AnalysisRun created and running. */
  analysisRunning: () =>
    base({
      phase: 'Progressing',
      message: 'waiting for analysis to complete',
      currentStepIndex: 1,
      canary: { currentStepAnalysisRunStatus: { name: STEP_RUN, status: 'Running' } },
      conditions: [progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
  /** The run passed: the same write advances to step 2 (a pause for a person) and clears the run's status. */
  pausedAtStep2: () =>
    base({
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentStepIndex: 2,
      controllerPause: true,
      pauseConditions: [{ reason: 'CanaryPauseStep', startTime: AT }],
      canary: { currentStepAnalysisRunStatus: null },
      conditions: [condition('Paused', 'True', 'RolloutPaused', 'Rollout is paused'), progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
  /** The run failed: the rollout aborts back to the stable ReplicaSet (step 0), saying why. */
  analysisFailed: () =>
    base({
      phase: 'Degraded',
      message: `RolloutAborted: Rollout aborted update to revision 2: Step-based analysis phase error/failed: ${FAILED_METRIC_MESSAGE}`,
      currentStepIndex: 0,
      abort: true,
      abortedAt: AT,
      canary: { currentStepAnalysisRunStatus: { name: STEP_RUN, status: 'Failed', message: FAILED_METRIC_MESSAGE } },
      conditions: [
        condition(
          'Progressing',
          'False',
          'RolloutAborted',
          `Rollout aborted update to revision 2: Step-based analysis phase error/failed: ${FAILED_METRIC_MESSAGE}`,
        ),
        available,
      ],
    }),
  /** The run was inconclusive: the rollout pauses until someone decides. */
  analysisInconclusive: () =>
    base({
      phase: 'Paused',
      message: 'InconclusiveAnalysis',
      currentStepIndex: 1,
      controllerPause: true,
      pauseConditions: [{ reason: 'InconclusiveAnalysis', startTime: AT }],
      canary: { currentStepAnalysisRunStatus: { name: STEP_RUN, status: 'Inconclusive', message: INCONCLUSIVE_MESSAGE } },
      conditions: [condition('Paused', 'True', 'RolloutPaused', 'Rollout is paused'), progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
};

/** A blue-green Rollout: the preview up and analysed, awaiting promotion. */
export const blueGreenStatus = {
  previewScaling: () =>
    base({
      phase: 'Progressing',
      message: 'waiting for preview to be ready',
      availableReplicas: 5,
      blueGreen: { activeSelector: STABLE_HASH, previewSelector: NEW_HASH },
      conditions: [progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
  previewPaused: () =>
    base({
      phase: 'Paused',
      message: 'BlueGreenPause',
      availableReplicas: 10,
      controllerPause: true,
      pauseConditions: [{ reason: 'BlueGreenPause', startTime: AT }],
      blueGreen: {
        activeSelector: STABLE_HASH,
        previewSelector: NEW_HASH,
        prePromotionAnalysisRunStatus: { name: `web-${NEW_HASH}-2-pre`, status: 'Successful' },
      },
      conditions: [condition('Paused', 'True', 'RolloutPaused', 'Rollout is paused'), progressing(`ReplicaSet "web-${NEW_HASH}" is progressing.`), available],
    }),
};

/** The step's AnalysisRun (rollout/analysis.go `newAnalysisRunFromRollout`: `<rollout>-<hash>-<revision>-<step>`). */
export function analysisRun() {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisRun',
    metadata: { name: STEP_RUN, namespace: NS_PLACEHOLDER, labels: { 'rollouts-pod-template-hash': NEW_HASH, 'rollout-type': 'Step', 'step-index': '1' } },
    spec: {
      metrics: [
        {
          name: 'success-rate',
          interval: '1m',
          count: 3,
          failureLimit: 1,
          successCondition: 'result[0] >= 0.95',
          provider: {
            prometheus: {
              address: 'http://prometheus.monitoring:9090',
              query: 'sum(rate(http_requests_total{code!~"5.."}[1m])) / sum(rate(http_requests_total[1m]))',
            },
          },
        },
      ],
    },
  };
}

const measurement = (value: string, phase: string) => ({ phase, value, startedAt: AT, finishedAt: AT });

/** The analysis controller's writes (analysis/analysis.go: the run's phase and message from the worst metric). */
export const analysisRunStatus = {
  running: () => ({
    phase: 'Running',
    startedAt: AT,
    metricResults: [{ name: 'success-rate', phase: 'Running', count: 1, successful: 1, measurements: [measurement('[0.99]', 'Successful')] }],
    runSummary: { count: 1, successful: 0, failed: 0, inconclusive: 0, error: 0 },
  }),
  failed: () => ({
    phase: 'Failed',
    message: FAILED_METRIC_MESSAGE,
    startedAt: AT,
    metricResults: [
      {
        name: 'success-rate',
        phase: 'Failed',
        count: 3,
        successful: 1,
        failed: 2,
        message: 'Metric assessed Failed due to failed (2) > failureLimit (1)',
        measurements: [measurement('[0.99]', 'Successful'), measurement('[0.81]', 'Failed'), measurement('[0.78]', 'Failed')],
      },
    ],
    runSummary: { count: 1, successful: 0, failed: 1, inconclusive: 0, error: 0 },
  }),
};

// ---- Flagger --------------------------------------------------------------------------------------------

export const OLD_SPEC = '5f8c9d7b6';
export const NEW_SPEC = '7b6d4c9f8';

export function canary() {
  return {
    apiVersion: 'flagger.app/v1beta1',
    kind: 'Canary',
    metadata: { name: 'web', namespace: NS_PLACEHOLDER, generation: 1 },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      service: { port: 80 },
      analysis: {
        interval: '1m',
        threshold: 5,
        maxWeight: 50,
        stepWeight: 10,
        metrics: [{ name: 'request-success-rate', thresholdRange: { min: 99 }, interval: '1m' }],
      },
    },
  };
}

const promoted = (status: string, reason: string, message: string) => [
  { type: 'Promoted', status, reason, message, lastUpdateTime: AT, lastTransitionTime: AT },
];

const flagger = (phase: string, applied: string, lastPromoted: string, extra: Record<string, unknown> = {}) => ({
  phase,
  failedChecks: 0,
  canaryWeight: 0,
  iterations: 0,
  lastAppliedSpec: applied,
  lastPromotedSpec: lastPromoted,
  lastTransitionTime: AT,
  ...extra,
});

/** Flagger's statuses (MakeStatusConditions' messages for a Deployment target). */
export const canaryStatuses = {
  initializing: (spec = OLD_SPEC) =>
    flagger('Initializing', spec, '', { conditions: promoted('Unknown', 'Initializing', 'New Deployment detected, starting initialization.') }),
  initialized: (spec = OLD_SPEC) => flagger('Initialized', spec, spec, { conditions: promoted('True', 'Initialized', 'Deployment initialization completed.') }),
  /** The previous deploy's, as the wait finds it. */
  succeededOld: () =>
    flagger('Succeeded', OLD_SPEC, OLD_SPEC, { conditions: promoted('True', 'Succeeded', 'Canary analysis completed successfully, promotion finished.') }),
  progressing: (weight: number, failedChecks = 0) =>
    flagger('Progressing', NEW_SPEC, OLD_SPEC, {
      canaryWeight: weight,
      failedChecks,
      conditions: promoted('Unknown', 'Progressing', 'New revision detected, progressing canary analysis.'),
    }),
  waitingPromotion: () =>
    flagger('WaitingPromotion', NEW_SPEC, OLD_SPEC, { canaryWeight: 0, conditions: promoted('Unknown', 'WaitingPromotion', 'Waiting for approval.') }),
  promoting: () =>
    flagger('Promoting', NEW_SPEC, OLD_SPEC, {
      canaryWeight: 50,
      conditions: promoted('Unknown', 'Promoting', 'Canary analysis completed, starting primary rolling update.'),
    }),
  finalising: () =>
    flagger('Finalising', NEW_SPEC, OLD_SPEC, { conditions: promoted('Unknown', 'Finalising', 'Canary analysis completed, routing all traffic to primary.') }),
  succeededNew: () =>
    flagger('Succeeded', NEW_SPEC, NEW_SPEC, { conditions: promoted('True', 'Succeeded', 'Canary analysis completed successfully, promotion finished.') }),
  /** Both write it through SyncStatus, whose failedChecks is the struct's zero: `rollback` with weight 0,
   *  `handleFailedPromotion` (the primary not ready) with all the traffic on the canary. */
  failed: (weight = 0) =>
    flagger('Failed', NEW_SPEC, OLD_SPEC, {
      canaryWeight: weight,
      conditions: promoted('False', 'Failed', 'Canary analysis failed, Deployment scaled to zero.'),
    }),
  failedOld: () => flagger('Failed', OLD_SPEC, '5a5a5a5a5', { conditions: promoted('False', 'Failed', 'Canary analysis failed, Deployment scaled to zero.') }),
};
