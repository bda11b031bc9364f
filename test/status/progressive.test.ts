/**
 * Progressive delivery (status/progressive/) through the judge, as the engine judges: an Argo Rollout under
 * `paused: step:N` and `paused: analysis`, and a Flagger Canary against its first sighting, with the statuses
 * their controllers write (test/status/progressive/statuses.ts).
 */
import { describe, expect, it } from '@jest/globals';
import type { PausedPolicy } from '../../src/settings.js';
import { parseRuleText } from '../../src/status/health/parse.js';
import { resolveRules } from '../../src/status/health/resolve.js';
import { Judge, type JudgedType } from '../../src/status/judge.js';
import { progressText } from '../../src/status/progressive/progress.js';
import {
  blueGreenStatus,
  canary,
  canaryStatus,
  canaryStatuses,
  FAILED_METRIC_MESSAGE,
  INCONCLUSIVE_MESSAGE,
  rollout,
  STEP_RUN,
} from './progressive/statuses.js';

const ROLLOUTS: JudgedType = { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout', namespaced: true };
const CANARIES: JudgedType = { group: 'flagger.app', version: 'v1beta1', kind: 'Canary', namespaced: true };
const now = new Date('2026-12-03T08:00:00Z');
const healthRules = resolveRules({ user: [], builtin: true });

function judgeOf(type: JudgedType, paused: PausedPolicy, rules = healthRules) {
  return new Judge(type, 'shop', { waitFor: { kind: 'ready' }, jobCompletion: true, statusGraceMs: 0, healthRules: rules, paused });
}

const withStatus = <T extends object>(object: T, status: object) => ({ ...object, status }) as T & { status: object };

function judgeRollout(status: object, paused: PausedPolicy, strategy: 'canary' | 'blueGreen' = 'canary') {
  return judgeOf(ROLLOUTS, paused).judge(withStatus(rollout(strategy), status), { now, firstSeenMs: now.getTime() }).evaluation;
}

/** A Canary judged at each status in turn, as one object (one uid) the engine follows: its first sighting kept. */
function followCanary(statuses: Array<object | undefined>, paused: PausedPolicy = 'wait') {
  const judge = judgeOf(CANARIES, paused);
  const objects = statuses.map((status) => (status ? withStatus(canary(), status) : canary()));
  const baseline = judge.baselineOf(objects[0]!);
  return objects.map((object) => judge.judge(object, { now, firstSeenMs: now.getTime(), baseline }).evaluation);
}

describe('an Argo Rollout under paused: step:N', () => {
  it('at step 0 and at its analysis step: not ready, saying where it is and what it waits for', () => {
    expect(judgeRollout(canaryStatus.weight20(), 'step:2')).toMatchObject({
      status: 'InProgress',
      done: false,
      message: expect.stringMatching(/^canary step 0\/5: waiting for it to pause at step 2 or later \(paused: step:2\): phase Progressing/),
      progress: { step: '0/5', weight: 20 },
    });
    expect(judgeRollout(canaryStatus.analysisRunning(), 'step:2')).toMatchObject({ done: false, progress: { step: '1/5', weight: 20, analysis: 'Running' } });
  });

  it('paused at step 2 of 5 with its pods available: ready there, saying what continues it', () => {
    const evaluation = judgeRollout(canaryStatus.pausedAtStep2(), 'step:2');
    expect(evaluation).toMatchObject({
      status: 'Current',
      done: true,
      rule: 'builtin:argo-rollouts-rollout',
      message:
        'Rollout paused at canary step 3 of 5 (CanaryPauseStep), canary step 2/5, counted ready (paused: step:2); kubectl argo rollouts promote web -n shop continues it',
      progress: { step: '2/5', weight: 20 },
    });
    expect(progressText(evaluation.progress!)).toBe('canary step 2/5, weight 20 %');
    // An earlier gate is met there too; a later one is not.
    expect(judgeRollout(canaryStatus.pausedAtStep2(), 'step:1').done).toBe(true);
    expect(judgeRollout(canaryStatus.pausedAtStep2(), 'step:4')).toMatchObject({
      done: false,
      message: expect.stringContaining('waiting for it to pause at step 4 or later'),
    });
  });

  it('paused there but its pods not all available yet: waits for them', () => {
    expect(judgeRollout({ ...canaryStatus.pausedAtStep2(), availableReplicas: 3 }, 'step:2')).toMatchObject({
      done: false,
      message: expect.stringMatching(/^Rollout paused at canary step 3 of 5 \(CanaryPauseStep\); waiting for its pods \(paused: step:2\)/),
    });
  });

  it('a step past its last one is met only by completing', () => {
    expect(judgeRollout(canaryStatus.pausedAtStep2(), 'step:9').message).toContain('it has 5 steps, so only completing gets it there');
    const healthy = { ...canaryStatus.pausedAtStep2(), phase: 'Healthy', message: '', currentStepIndex: 5, pauseConditions: null, controllerPause: false };
    expect(judgeRollout(healthy, 'step:9')).toMatchObject({ status: 'Current', done: true, progress: { step: '5/5', weight: 100 } });
  });

  it('the weight: the traffic router’s verified weight when there is one; 100 for a canary without steps', () => {
    const routed = { ...canaryStatus.pausedAtStep2(), canary: { weights: { canary: { weight: 15 }, stable: { weight: 85 }, verified: true } } };
    expect(judgeRollout(routed, 'wait').progress).toEqual({ step: '2/5', weight: 15 });
    const noSteps = {
      ...rollout(),
      spec: { ...rollout().spec, strategy: { canary: {} } },
      status: { ...canaryStatus.weight20(), currentStepIndex: undefined },
    };
    expect(judgeOf(ROLLOUTS, 'wait').judge(noSteps, { now, firstSeenMs: now.getTime() }).evaluation.progress).toEqual({ weight: 100 });
  });

  it('a status from before the spec changed is the previous revision’s: it waits for the controller', () => {
    expect(judgeRollout({ ...canaryStatus.pausedAtStep2(), observedGeneration: '1' }, 'step:2')).toMatchObject({ status: 'InProgress', done: false });
  });

  it('a blue-green Rollout has no steps: ready at its preview pause', () => {
    expect(judgeRollout(blueGreenStatus.previewPaused(), 'step:2', 'blueGreen')).toMatchObject({ status: 'Current', done: true });
    expect(judgeRollout(blueGreenStatus.previewScaling(), 'step:2', 'blueGreen').done).toBe(false);
  });
});

describe('an Argo Rollout under paused: analysis', () => {
  it('its analysis running: not ready, naming the run', () => {
    expect(judgeRollout(canaryStatus.analysisRunning(), 'analysis')).toMatchObject({
      status: 'InProgress',
      done: false,
      message: expect.stringMatching(new RegExp(`^analysis ${STEP_RUN} Running at canary step 1/5 \\(paused: analysis\\)`)),
    });
    expect(judgeRollout(canaryStatus.weight20(), 'analysis').message).toMatch(/^canary step 0\/5: waiting for its analysis at step 1 \(paused: analysis\)/);
  });

  it('past its analysis step (the run passed, the controller moved on): ready', () => {
    expect(judgeRollout(canaryStatus.pausedAtStep2(), 'analysis')).toMatchObject({
      status: 'Current',
      done: true,
      message: 'past its analysis step, at canary step 2/5, counted ready (paused: analysis); kubectl argo rollouts promote web -n shop continues it',
    });
  });

  it('a run Successful at the current step (the write before the controller moves on): ready', () => {
    const successful = { ...canaryStatus.analysisRunning(), canary: { currentStepAnalysisRunStatus: { name: STEP_RUN, status: 'Successful' } } };
    expect(judgeRollout(successful, 'analysis')).toMatchObject({
      done: true,
      message: `analysis ${STEP_RUN} Successful at canary step 1/5, counted ready (paused: analysis)`,
      progress: { analysis: 'Successful' },
    });
  });

  it('Failed: fails with the run’s message, which names the metric (and under step:N too)', () => {
    for (const policy of ['analysis', 'step:2'] as const) {
      expect(judgeRollout(canaryStatus.analysisFailed(), policy)).toMatchObject({
        status: 'Failed',
        done: false,
        message: `analysis ${STEP_RUN} Failed: ${FAILED_METRIC_MESSAGE}`,
        progress: { step: '0/5', weight: 0, analysis: 'Failed' },
      });
    }
    // Under paused: wait the rule's verdict stands: Degraded, with the abort message that wraps the run's.
    expect(judgeRollout(canaryStatus.analysisFailed(), 'wait')).toMatchObject({ status: 'Failed', message: expect.stringContaining(FAILED_METRIC_MESSAGE) });
  });

  it('Error: fails the same way', () => {
    const errored = {
      ...canaryStatus.analysisFailed(),
      canary: { currentStepAnalysisRunStatus: { name: STEP_RUN, status: 'Error', message: 'consecutiveErrors (5) > consecutiveErrorLimit (4)' } },
    };
    expect(judgeRollout(errored, 'analysis')).toMatchObject({
      status: 'Failed',
      message: `analysis ${STEP_RUN} Error: consecutiveErrors (5) > consecutiveErrorLimit (4)`,
    });
  });

  it('Inconclusive: fails, as it needs a human decision (promote or abort)', () => {
    expect(judgeRollout(canaryStatus.analysisInconclusive(), 'analysis')).toMatchObject({
      status: 'Failed',
      message: `analysis ${STEP_RUN} Inconclusive (${INCONCLUSIVE_MESSAGE}): needs a human decision: kubectl argo rollouts promote web -n shop continues it, kubectl argo rollouts abort web -n shop rolls it back`,
    });
  });

  it('blue-green: ready once the preview’s pre-promotion analysis is Successful', () => {
    expect(judgeRollout(blueGreenStatus.previewPaused(), 'analysis', 'blueGreen')).toMatchObject({
      done: true,
      message: 'analysis web-6d8f7b9c5-2-pre Successful, counted ready (paused: analysis); kubectl argo rollouts promote web -n shop continues it',
      progress: { analysis: 'Successful' },
    });
    expect(judgeRollout(blueGreenStatus.previewScaling(), 'analysis', 'blueGreen')).toMatchObject({
      done: false,
      message: expect.stringMatching(/^no analysis has run yet \(paused: analysis\)/),
    });
  });

  it('blue-green under paused: ready: ready at BlueGreenPause, as before', () => {
    expect(judgeRollout(blueGreenStatus.previewPaused(), 'ready', 'blueGreen')).toMatchObject({
      status: 'Current',
      done: true,
      message: expect.stringMatching(/^Rollout paused \(BlueGreenPause\), counted ready/),
    });
  });
});

describe('a Flagger Canary, judged against its first sighting', () => {
  it('Succeeded from the previous deploy: not picked up yet, until Flagger analyses and promotes the new revision', () => {
    const verdicts = followCanary([
      canaryStatuses.succeededOld(),
      canaryStatuses.progressing(10),
      canaryStatuses.progressing(30, 2),
      canaryStatuses.promoting(),
      canaryStatuses.finalising(),
      canaryStatuses.succeededNew(),
    ]);
    expect(verdicts.map((v) => [v.status, v.done])).toEqual([
      ['InProgress', false],
      ['InProgress', false],
      ['InProgress', false],
      ['InProgress', false],
      ['InProgress', false],
      ['Current', true],
    ]);
    expect(verdicts[0]).toMatchObject({
      rule: 'builtin:flagger-canary',
      message:
        'Flagger has not picked up this revision yet (Succeeded: Canary analysis completed successfully, promotion finished., as when this wait started; Flagger checks the target at its next analysis interval)',
    });
    expect(verdicts[2]).toMatchObject({
      message: 'Progressing: New revision detected, progressing canary analysis. (canary weight 30 %, failed checks 2)',
      progress: { step: '3/5', weight: 30, analysis: 'Running (2 failed checks)' },
    });
    expect(verdicts[5]).toMatchObject({
      message: 'Succeeded: Canary analysis completed successfully, promotion finished.',
      progress: { weight: 0, analysis: 'Successful' },
    });
  });

  it('a stale Failed (the previous deploy’s) waits; a Failed of this revision fails with its message', () => {
    expect(followCanary([canaryStatuses.failedOld()])[0]).toMatchObject({
      status: 'InProgress',
      message: expect.stringMatching(/^Flagger has not picked up this revision yet/),
    });
    const [, , failed] = followCanary([canaryStatuses.succeededOld(), canaryStatuses.progressing(30, 5), canaryStatuses.failed(100)]);
    expect(failed).toMatchObject({ status: 'Failed', message: 'Failed: Canary analysis failed, Deployment scaled to zero. (canary weight 100 %)' });
  });

  it('a first install: ready at Initialized (nothing to analyse)', () => {
    const verdicts = followCanary([undefined, canaryStatuses.initializing(), canaryStatuses.initialized()]);
    expect(verdicts.map((v) => [v.status, v.message])).toEqual([
      ['InProgress', 'waiting for Flagger to initialize it (no status yet)'],
      ['InProgress', 'Initializing: New Deployment detected, starting initialization.'],
      ['Current', 'Initialized: Deployment initialization completed.'],
    ]);
  });

  it('Initialized with a promoted spec when first seen is not this deploy’s first install', () => {
    expect(followCanary([canaryStatuses.initialized()])[0]).toMatchObject({
      status: 'InProgress',
      message: expect.stringMatching(/^Flagger has not picked up this revision yet/),
    });
  });

  it('already analysing when first seen: that analysis is this deploy’s', () => {
    expect(followCanary([canaryStatuses.progressing(10), canaryStatuses.succeededNew()])[1]).toMatchObject({ status: 'Current', done: true });
  });

  it('WaitingPromotion follows paused: wait waits, ready and analysis count it ready', () => {
    const sequence = [canaryStatuses.succeededOld(), canaryStatuses.progressing(50), canaryStatuses.waitingPromotion()];
    expect(followCanary(sequence, 'wait')[2]).toMatchObject({
      status: 'InProgress',
      done: false,
      message: expect.stringMatching(
        /^Canary analysis passed, waiting for approval to promote \(WaitingPromotion\); its confirm-promotion webhook approving continues it\. Waiting \(paused: wait;/,
      ),
    });
    expect(followCanary(sequence, 'ready')[2]).toMatchObject({
      status: 'Current',
      done: true,
      message: expect.stringContaining('counted ready (paused: ready)'),
    });
    expect(followCanary(sequence, 'analysis')[2]).toMatchObject({
      status: 'Current',
      done: true,
      message: expect.stringContaining('counted ready (paused: analysis)'),
    });
  });

  it('a rule of the user’s for the kind wins over the built-in one', () => {
    const { rules } = parseRuleText(`- apiVersion: flagger.app/v1beta1\n  kind: Canary\n  current: status.phase == 'Succeeded'\n`, { firstIndex: 0 });
    const user = resolveRules({ user: rules, builtin: true });
    const judge = judgeOf(CANARIES, 'wait', user);
    const object = withStatus(canary(), canaryStatuses.succeededOld());
    expect(judge.judge(object, { now, firstSeenMs: now.getTime(), baseline: judge.baselineOf(object) }).evaluation).toMatchObject({
      status: 'Current',
      rule: 'health-checks[0]',
    });
  });
});
