/**
 * Paused rollouts (status/paused.ts) as their controllers write them: an Argo Rollout at a canary pause step
 * (argo-rollouts sets status.pauseConditions, currentStepIndex and phase Paused), a blue-green preview
 * awaiting promotion, a manual spec.paused; a Deployment after `kubectl rollout pause` and a new image
 * (kube-controller-manager creates no new ReplicaSet and writes Progressing Unknown DeploymentPaused). Judged
 * through the judge with the built-in rules, as the engine judges them.
 */
import { describe, expect, it } from '@jest/globals';
import type { PausedPolicy, WaitFor } from '../../src/settings.js';
import { resolveRules } from '../../src/status/health/resolve.js';
import { Judge, type JudgedType } from '../../src/status/judge.js';

const ROLLOUTS: JudgedType = { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout', namespaced: true };
const DEPLOYMENTS: JudgedType = { group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true };
const now = new Date('2026-11-30T08:00:00Z');

function judge(type: JudgedType, object: Record<string, unknown>, paused: PausedPolicy, waitFor: WaitFor = { kind: 'ready' }) {
  const healthRules = resolveRules({ user: [], builtin: true });
  return new Judge(type, 'shop', { waitFor, jobCompletion: true, statusGraceMs: 0, healthRules, paused }).judge(object, { now, firstSeenMs: now.getTime() })
    .evaluation;
}

const STEPS = [{ setWeight: 20 }, { pause: {} }, { setWeight: 50 }, { pause: { duration: '10m' } }, { setWeight: 100 }];

function rollout(status: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'web', namespace: 'shop', generation: 4 },
    spec: { replicas: 5, strategy: { canary: { steps: STEPS } }, ...spec },
    status: { observedGeneration: '4', replicas: 5, availableReplicas: 5, updatedReplicas: 1, ...status },
  };
}
const pausedAtStep = (index: number, available = 5) =>
  rollout({
    phase: 'Paused',
    message: 'CanaryPauseStep',
    currentStepIndex: index,
    availableReplicas: available,
    pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-30T07:50:00Z' }],
  });

describe('a paused Argo Rollout', () => {
  it('wait (the default): not ready, saying where it paused and what continues it', () => {
    expect(judge(ROLLOUTS, pausedAtStep(1), 'wait')).toMatchObject({
      status: 'InProgress',
      done: false,
      rule: 'builtin:argo-rollouts-rollout',
      message:
        'Rollout paused at canary step 2 of 5 (CanaryPauseStep); kubectl argo rollouts promote web -n shop continues it. Waiting (paused: wait; paused: ready would count it ready): phase Paused: CanaryPauseStep',
    });
  });

  it('a timed pause step says it ends by itself', () => {
    expect(judge(ROLLOUTS, pausedAtStep(3), 'wait').message).toMatch(
      /^Rollout paused at canary step 4 of 5 \(CanaryPauseStep\); its pause of 10m ends by itself, or kubectl argo rollouts promote web -n shop continues it\./,
    );
  });

  it('ready: ready where it paused, once its pods are available', () => {
    expect(judge(ROLLOUTS, pausedAtStep(1), 'ready')).toMatchObject({
      status: 'Current',
      done: true,
      message: 'Rollout paused at canary step 2 of 5 (CanaryPauseStep), counted ready (paused: ready); kubectl argo rollouts promote web -n shop continues it',
    });
    expect(judge(ROLLOUTS, pausedAtStep(1, 3), 'ready')).toMatchObject({
      status: 'InProgress',
      done: false,
      message: expect.stringContaining('Waiting for its pods (paused: ready)'),
    });
  });

  it('a blue-green preview awaiting promotion and a manual pause are paused too', () => {
    const blueGreen = rollout(
      { phase: 'Paused', message: 'BlueGreenPause', pauseConditions: [{ reason: 'BlueGreenPause', startTime: '2026-11-30T07:50:00Z' }] },
      { strategy: { blueGreen: { activeService: 'web', previewService: 'web-preview', autoPromotionEnabled: false } } },
    );
    expect(judge(ROLLOUTS, blueGreen, 'wait').message).toMatch(/^Rollout paused \(BlueGreenPause\); kubectl argo rollouts promote web -n shop continues it\./);
    expect(judge(ROLLOUTS, blueGreen, 'ready').done).toBe(true);
    const manual = rollout({ phase: 'Paused', message: 'manually paused' }, { paused: true });
    expect(judge(ROLLOUTS, manual, 'wait').message).toMatch(/^Rollout paused \(spec\.paused\);/);
  });

  it('never over a failure, nor before the controller observed the spec, nor for another goal', () => {
    const degraded = rollout(
      { phase: 'Degraded', message: 'RolloutAborted: aborted', pauseConditions: [{ reason: 'InconclusiveAnalysis' }] },
      { paused: true },
    );
    expect(judge(ROLLOUTS, degraded, 'ready')).toMatchObject({ status: 'Failed', done: false });
    const unobserved = { ...pausedAtStep(1), status: { ...pausedAtStep(1).status, observedGeneration: '3' } };
    expect(judge(ROLLOUTS, unobserved, 'ready').done).toBe(false);
    const condition = judge(ROLLOUTS, pausedAtStep(1), 'ready', { kind: 'condition', type: 'Healthy', value: 'True' });
    expect(condition.done).toBe(false);
    expect(condition.message).not.toContain('paused');
  });

  it('a Rollout that is not paused is judged as before', () => {
    const healthy = rollout({ phase: 'Healthy', updatedReplicas: 5 });
    for (const policy of ['wait', 'ready'] as const)
      expect(judge(ROLLOUTS, healthy, policy)).toMatchObject({ status: 'Current', done: true, rule: 'builtin:argo-rollouts-rollout' });
  });
});

describe('a paused Deployment', () => {
  /** `kubectl rollout pause`, then a new image: no new ReplicaSet, the old pods serve. */
  const paused = (available: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'shop', generation: 3 },
    spec: { replicas: 2, paused: true, selector: { matchLabels: { app: 'api' } } },
    status: {
      observedGeneration: 3,
      replicas: 2,
      readyReplicas: available,
      availableReplicas: available,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' },
      ],
    },
  });

  it('wait: kstatus`s verdict (Updated: 0/2), saying it is paused and how to resume it', () => {
    expect(judge(DEPLOYMENTS, paused(2), 'wait')).toMatchObject({
      status: 'InProgress',
      done: false,
      message:
        'Deployment paused (spec.paused); kubectl rollout resume deployment/api -n shop continues it. Waiting (paused: wait; paused: ready would count it ready): Updated: 0/2',
    });
  });

  it('ready: ready once its replicas are available', () => {
    expect(judge(DEPLOYMENTS, paused(2), 'ready')).toMatchObject({ status: 'Current', done: true });
    expect(judge(DEPLOYMENTS, paused(1), 'ready')).toMatchObject({ status: 'InProgress', done: false });
  });

  it('step:N and analysis, gates of a canary, wait as paused: wait for a Deployment, and say so', () => {
    for (const policy of ['step:2', 'analysis'] as const) {
      expect(judge(DEPLOYMENTS, paused(2), policy)).toMatchObject({
        status: 'InProgress',
        done: false,
        message: `Deployment paused (spec.paused); kubectl rollout resume deployment/api -n shop continues it. Waiting (paused: ${policy} waits as paused: wait here; paused: ready would count it ready): Updated: 0/2`,
      });
    }
  });
});
