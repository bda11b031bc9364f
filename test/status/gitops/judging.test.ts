/**
 * The GitOps kinds judged through the one judging seam (status/judge.ts), with and without `revision`, on
 * the status sequences their controllers write (statuses.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { parseRevision } from '../../../src/status/gitops/revision.js';
import { resolveRules } from '../../../src/status/health/resolve.js';
import { parseRuleText } from '../../../src/status/health/parse.js';
import { Judge, type JudgedType } from '../../../src/status/judge.js';
import type { WantedRevision } from '../../../src/settings.js';
import {
  application,
  ARGO_UNMARSHAL_ERROR,
  argoV3,
  BUILD_FAILED,
  DEPENDENCY_NOT_READY,
  HEALTH_CHECK_FAILED,
  helmRelease,
  kustomization,
  NEW,
  NEW_SHA,
  OLD,
  OLD_SHA,
  PATH_NOT_FOUND,
  PROGRESS_DEADLINE,
} from './statuses.js';

const KUSTOMIZATION: JudgedType = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', kind: 'Kustomization', namespaced: true };
const HELM_RELEASE: JudgedType = { group: 'helm.toolkit.fluxcd.io', version: 'v2', kind: 'HelmRelease', namespaced: true };
const APPLICATION: JudgedType = { group: 'argoproj.io', version: 'v1alpha1', kind: 'Application', namespaced: true };

function revision(text: string): WantedRevision {
  const parsed = parseRevision(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

function judge(type: JudgedType, object: object, options: { revision?: string; rules?: ReturnType<typeof resolveRules> } = {}) {
  const judge = new Judge(type, 'ns', {
    waitFor: { kind: 'ready' },
    jobCompletion: true,
    statusGraceMs: 30_000,
    healthRules: options.rules ?? resolveRules({ user: [], builtin: true }),
    ...(options.revision ? { revision: revision(options.revision) } : {}),
  });
  const { status, message, rule, done } = judge.judge(object as Record<string, unknown>, {
    now: new Date('2026-12-03T08:01:00Z'),
    firstSeenMs: 0,
    statusSubresource: true,
  }).evaluation;
  return { status, message, rule, done };
}

const SHORT = NEW_SHA.slice(0, 7);

describe('Flux Kustomization with revision: old revision ready -> new revision progressing -> applied', () => {
  const k = kustomization;
  it.each([
    ['ready for the previous commit', k.ready(OLD), 'InProgress', `Flux has not applied ${SHORT} yet; applied: ${OLD}`],
    [
      'fetching the new commit',
      k.fetching(OLD, NEW),
      'InProgress',
      `Flux has not applied ${SHORT} yet; applied: ${OLD}; attempting: ${NEW} (Fetching manifests)`,
    ],
    [
      'health checks of the new commit',
      k.checkingHealth(OLD, NEW),
      'InProgress',
      `Flux has not applied ${SHORT} yet; applied: ${OLD}; attempting: ${NEW} (Running health checks)`,
    ],
    ['applied and ready', k.ready(NEW), 'Current', `Applied revision: ${NEW}`],
    ['no status yet', undefined, 'InProgress', `Flux has not applied ${SHORT} yet; applied: nothing yet`],
  ])('%s: %s', (_state, status, expected, message) => {
    expect(judge(KUSTOMIZATION, k.object(status), { revision: SHORT })).toEqual({
      status: expected,
      message,
      rule: 'gitops:flux-kustomization',
      done: expected === 'Current',
    });
  });

  it('the new commit failed its health checks: Failed with Flux’s message', () => {
    expect(judge(KUSTOMIZATION, k.object(k.failed(OLD, NEW, 'HealthCheckFailed', HEALTH_CHECK_FAILED)), { revision: NEW_SHA })).toMatchObject({
      status: 'Failed',
      message: `HealthCheckFailed (revision ${NEW}): ${HEALTH_CHECK_FAILED}`,
    });
  });

  it('the new commit does not build: Failed with Flux’s message', () => {
    expect(judge(KUSTOMIZATION, k.object(k.failed(OLD, NEW, 'BuildFailed', BUILD_FAILED)), { revision: `main@sha1:${NEW_SHA}` })).toMatchObject({
      status: 'Failed',
      message: `BuildFailed (revision ${NEW}): ${BUILD_FAILED}`,
    });
  });

  it('a failure of an older commit is not this one’s: it waits, and says so', () => {
    expect(judge(KUSTOMIZATION, k.object(k.failed(OLD, 'main@sha1:1111111aaaaaaa', 'BuildFailed', BUILD_FAILED)), { revision: SHORT })).toEqual({
      status: 'InProgress',
      message: `Flux has not applied ${SHORT} yet; applied: ${OLD}; its last attempt, main@sha1:1111111aaaaaaa, failed: ${BUILD_FAILED}`,
      rule: 'gitops:flux-kustomization',
      done: false,
    });
  });

  it('a source not ready yet (ArtifactFailed) waits: the retry may succeed', () => {
    expect(judge(KUSTOMIZATION, k.object(k.failed(OLD, NEW, 'ArtifactFailed', 'Source artifact not found, retrying in 30s')), { revision: SHORT }).status).toBe(
      'InProgress',
    );
  });

  it('every step the real controller writes: InProgress until lastAppliedRevision, though Ready=True comes a write earlier', () => {
    const real = k.real(OLD, NEW);
    const steps = [real.fetching, real.building, real.drift, real.healthConditions, real.healthInventory, real.appliedConditions, real.appliedConditionsNoWait];
    for (const status of steps) expect(judge(KUSTOMIZATION, k.object(status), { revision: SHORT }).status).toBe('InProgress');
    expect(judge(KUSTOMIZATION, k.object(real.appliedConditions), { revision: SHORT }).message).toBe(
      `Flux has not applied ${SHORT} yet; applied: ${OLD}; attempting: ${NEW}`,
    );
    expect(judge(KUSTOMIZATION, k.object(real.applied), { revision: SHORT })).toMatchObject({ status: 'Current', message: `Applied revision: ${NEW}` });
  });

  it('the real BuildFailed and HealthCheckFailed of the new commit fail', () => {
    const real = k.real(OLD, NEW);
    expect(judge(KUSTOMIZATION, k.object(real.buildFailed), { revision: SHORT })).toMatchObject({
      status: 'Failed',
      message: `BuildFailed (revision ${NEW}): ${BUILD_FAILED}`,
    });
    expect(judge(KUSTOMIZATION, k.object(real.healthFailed), { revision: SHORT })).toMatchObject({
      status: 'Failed',
      message: `HealthCheckFailed (revision ${NEW}): ${HEALTH_CHECK_FAILED}`,
    });
  });

  it('spec.path not in the new commit (ArtifactFailed before lastAttemptedRevision): Failed with Flux’s message', () => {
    expect(judge(KUSTOMIZATION, k.object(k.real(OLD, NEW).pathNotFound), { revision: SHORT })).toMatchObject({
      status: 'Failed',
      message: `ArtifactFailed (revision ${NEW}): ${PATH_NOT_FOUND}`,
    });
    // The same for an older commit is not this one's: it waits, and says why.
    expect(judge(KUSTOMIZATION, k.object(k.real(OLD, 'main@sha1:1111111aaaaaaa').pathNotFound), { revision: SHORT })).toMatchObject({
      status: 'InProgress',
      message: `Flux has not applied ${SHORT} yet; applied: ${OLD}; its last attempt, main@sha1:1111111aaaaaaa, failed: ${PATH_NOT_FOUND}`,
    });
  });

  it('a dependency not ready: waits, with Flux’s reason and message naming the dependency', () => {
    expect(judge(KUSTOMIZATION, k.object(k.dependencyNotReady(OLD)), { revision: SHORT })).toEqual({
      status: 'InProgress',
      message: `Flux has not applied ${SHORT} yet; applied: ${OLD}; Flux says DependencyNotReady: ${DEPENDENCY_NOT_READY}`,
      rule: 'gitops:flux-kustomization',
      done: false,
    });
  });

  it('suspended: waits, and says Flux applies nothing until it is resumed', () => {
    const suspended = { ...k.object(k.ready(OLD)), spec: { ...k.object().spec, suspend: true } };
    expect(judge(KUSTOMIZATION, suspended, { revision: SHORT })).toMatchObject({
      status: 'InProgress',
      message: `Flux has not applied ${SHORT} yet; applied: ${OLD}; the Kustomization is suspended (spec.suspend: true): Flux applies nothing until it is resumed`,
    });
  });

  it('applied, but the spec changed since (a new generation) : not ready until observed', () => {
    expect(judge(KUSTOMIZATION, k.object(k.ready(NEW), 2), { revision: SHORT })).toMatchObject({
      status: 'InProgress',
      message: `Flux applied ${NEW}, not ready yet: Kustomization generation is 2, but latest observed generation is 1`,
    });
  });

  it('by tag: v1.2.3 matches v1.2.3@sha1:<sha>', () => {
    expect(judge(KUSTOMIZATION, k.object(k.ready(`v1.2.3@sha1:${NEW_SHA}`)), { revision: 'v1.2.3' }).status).toBe('Current');
    expect(judge(KUSTOMIZATION, k.object(k.ready(`v1.2.2@sha1:${OLD_SHA}`)), { revision: 'v1.2.3' }).status).toBe('InProgress');
  });

  it('a revision outranks a user’s health rule for the kind, which cannot know it', () => {
    const user = parseRuleText("- apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  current: 'true'\n", { firstIndex: 0 });
    expect(user.problems).toEqual([]);
    const rules = resolveRules({ user: user.rules, builtin: true });
    expect(judge(KUSTOMIZATION, k.object(k.ready(OLD)), { revision: SHORT, rules })).toMatchObject({ status: 'InProgress', rule: 'gitops:flux-kustomization' });
    expect(judge(KUSTOMIZATION, k.object(k.ready(OLD)), { rules })).toMatchObject({ status: 'Current', rule: 'health-checks[0]' });
  });

  // `reconcile: true` asks for a reconciliation; the controller records the request it handled. That it
  // handled it says nothing of the commit: a source without the new commit yet applies the previous one.
  it('a handled reconcile request (status.lastHandledReconcileAt) at the previous commit: still InProgress; at the new one: Current', () => {
    const handled = { lastHandledReconcileAt: '2026-12-03T08:00:30.123Z' };
    expect(judge(KUSTOMIZATION, k.object({ ...k.ready(OLD), ...handled }), { revision: SHORT })).toMatchObject({
      status: 'InProgress',
      message: `Flux has not applied ${SHORT} yet; applied: ${OLD}`,
    });
    expect(judge(KUSTOMIZATION, k.object({ ...k.ready(NEW), ...handled }), { revision: SHORT })).toMatchObject({ status: 'Current' });
  });
});

describe('Flux Kustomization without revision: kstatus, but a terminal failure fails', () => {
  const k = kustomization;
  it.each([
    ['ready', k.ready(OLD), 'Current'],
    ['progressing', k.checkingHealth(OLD, NEW), 'InProgress'],
    [
      'health check failed (kstatus: InProgress, Reconciling=True ProgressingWithRetry)',
      k.failed(OLD, NEW, 'HealthCheckFailed', HEALTH_CHECK_FAILED),
      'Failed',
    ],
    ['build failed', k.failed(OLD, NEW, 'BuildFailed', BUILD_FAILED), 'Failed'],
    ['dependency not ready', k.failed(OLD, NEW, 'DependencyNotReady', "dependency 'flux-system/infra' is not ready"), 'InProgress'],
  ])('%s: %s', (_state, status, expected) => {
    // The rule is named only where it decided; elsewhere kstatus judges, as before.
    expect(judge(KUSTOMIZATION, k.object(status))).toMatchObject({ status: expected, rule: expected === 'Failed' ? 'gitops:flux-kustomization' : 'kstatus' });
  });

  it('a failure written for an older generation is stale: it waits for the controller', () => {
    expect(judge(KUSTOMIZATION, k.object(k.failed(OLD, NEW, 'BuildFailed', BUILD_FAILED), 2)).status).toBe('InProgress');
  });
});

describe('Flux HelmRelease with revision: the chart version, with the commit as build metadata', () => {
  const h = helmRelease;
  const OLD_CHART = `0.1.0+${OLD_SHA.slice(0, 12)}`;
  const NEW_CHART = `0.1.0+${NEW_SHA.slice(0, 12)}`;
  it.each([
    ['released at the previous commit', h.ready(OLD_CHART), 'InProgress', `Flux has not released ${NEW_SHA} yet; released: shop@${OLD_CHART} (deployed)`],
    ['upgrading', h.upgrading(OLD_CHART, NEW_CHART), 'InProgress', `Flux is releasing ${NEW_CHART}: Running 'upgrade' action with timeout of 5m0s`],
    ['upgraded', h.ready(NEW_CHART, 2), 'Current', `Helm upgrade succeeded for release shop/shop.v2 with chart shop@${NEW_CHART}`],
    [
      'upgrade failed, retries exhausted (Stalled)',
      h.upgradeFailed(OLD_CHART, NEW_CHART),
      'Failed',
      `Flux could not release ${NEW_CHART}: UpgradeFailed: Helm upgrade failed for release shop/shop with chart shop@${NEW_CHART}: context deadline exceeded`,
    ],
  ])('%s: %s', (_state, status, expected, message) => {
    expect(judge(HELM_RELEASE, h.object(status), { revision: NEW_SHA })).toEqual({
      status: expected,
      message,
      rule: 'gitops:flux-helmrelease',
      done: expected === 'Current',
    });
  });

  it('retries exhausted on another reason (Stalled, Ready not a release failure): Stalled’s message', () => {
    const stalled = h.upgradeFailed(OLD_CHART, NEW_CHART);
    stalled.conditions = stalled.conditions.map((c) => (c.type === 'Ready' ? { ...c, reason: 'ReconcileError', message: 'x' } : c));
    expect(judge(HELM_RELEASE, h.object(stalled), { revision: NEW_SHA })).toMatchObject({
      status: 'Failed',
      message: `Flux could not release ${NEW_CHART}: Failed to upgrade after 1 attempt(s)`,
    });
  });

  it('an upgrade that failed and will be retried fails with Flux’s message', () => {
    const failed = h.upgradeFailed(OLD_CHART, NEW_CHART);
    failed.conditions = failed.conditions.filter((c) => c.type !== 'Stalled');
    expect(judge(HELM_RELEASE, h.object(failed), { revision: NEW_SHA })).toMatchObject({
      status: 'Failed',
      message: `Flux could not release ${NEW_CHART}: UpgradeFailed: Helm upgrade failed for release shop/shop with chart shop@${NEW_CHART}: context deadline exceeded`,
    });
  });

  it('by chart version: 1.2.3', () => {
    expect(judge(HELM_RELEASE, h.object(h.ready('1.2.3')), { revision: '1.2.3' }).status).toBe('Current');
  });

  it('without revision: kstatus, as before', () => {
    expect(judge(HELM_RELEASE, h.object(h.upgrading(OLD_CHART, NEW_CHART)))).toMatchObject({ status: 'InProgress', rule: 'kstatus' });
    expect(judge(HELM_RELEASE, h.object(h.ready(OLD_CHART)))).toMatchObject({ status: 'Current', rule: 'kstatus' });
  });
});

describe('Argo CD Application with revision', () => {
  const a = application;
  const at = (sync: string, rev: string, health: string, extra: Partial<Parameters<typeof a.status>[0]> = {}) =>
    a.object(a.status({ sync, revision: rev, health, ...extra }));
  it.each([
    ['Synced and Healthy at the previous commit', at('Synced', OLD_SHA, 'Healthy'), 'InProgress', `Argo CD has not synced ${SHORT} yet; Synced at ${OLD_SHA}`],
    ['OutOfSync: Argo CD compared the new commit', at('OutOfSync', NEW_SHA, 'Healthy'), 'InProgress', `OutOfSync at ${NEW_SHA}, health Healthy`],
    [
      'syncing',
      at('OutOfSync', NEW_SHA, 'Healthy', { operation: a.operation('Running', NEW_SHA, 'waiting for healthy state of apps/Deployment/api') }),
      'InProgress',
      `Argo CD is syncing to ${NEW_SHA}: waiting for healthy state of apps/Deployment/api`,
    ],
    [
      'Synced, Progressing',
      at('Synced', NEW_SHA, 'Progressing', {
        resourceHealth: { status: 'Progressing', message: 'Waiting for rollout to finish: 1 old replicas are pending termination...' },
      }),
      'InProgress',
      `Synced at ${NEW_SHA}, health Progressing: Deployment shop/api: Progressing: Waiting for rollout to finish: 1 old replicas are pending termination...`,
    ],
    [
      'Synced and Healthy',
      at('Synced', NEW_SHA, 'Healthy', { operation: a.operation('Succeeded', NEW_SHA, 'successfully synced (all tasks run)') }),
      'Current',
      `Synced to ${NEW_SHA}, Healthy`,
    ],
    [
      'Degraded',
      at('Synced', NEW_SHA, 'Degraded', { resourceHealth: { status: 'Degraded', message: PROGRESS_DEADLINE } }),
      'Failed',
      `Degraded at ${NEW_SHA}: Deployment shop/api: Degraded: ${PROGRESS_DEADLINE}`,
    ],
    ['Missing once synced', at('Synced', NEW_SHA, 'Missing'), 'Failed', `Missing at ${NEW_SHA}: Deployment shop/api: Missing`],
    [
      'Suspended',
      at('Synced', NEW_SHA, 'Suspended', { resourceHealth: { status: 'Suspended', message: 'Deployment is paused' } }),
      'InProgress',
      `Suspended at ${NEW_SHA} (Synced): Deployment shop/api: Suspended: Deployment is paused`,
    ],
    [
      'the sync of this commit failed',
      at('OutOfSync', NEW_SHA, 'Healthy', {
        operation: a.operation('Failed', NEW_SHA, 'one or more objects failed to apply, reason: Deployment.apps "api" is invalid', [
          {
            group: 'apps',
            version: 'v1',
            kind: 'Deployment',
            namespace: 'shop',
            name: 'api',
            status: 'SyncFailed',
            message: 'Deployment.apps "api" is invalid: spec.template.spec.containers[0].image: Required value',
            syncPhase: 'Sync',
          },
        ]),
      }),
      'Failed',
      `Argo CD could not sync ${NEW_SHA}: one or more objects failed to apply, reason: Deployment.apps "api" is invalid; Deployment shop/api: SyncFailed: Deployment.apps "api" is invalid: spec.template.spec.containers[0].image: Required value`,
    ],
    [
      'a failed sync of the previous commit is not this one’s',
      at('Synced', OLD_SHA, 'Healthy', { operation: a.operation('Failed', OLD_SHA, 'one or more objects failed to apply') }),
      'InProgress',
      `Argo CD has not synced ${SHORT} yet; Synced at ${OLD_SHA}`,
    ],
  ])('%s: %s', (_state, object, expected, message) => {
    expect(judge(APPLICATION, object, { revision: SHORT })).toEqual({
      status: expected,
      message,
      rule: 'gitops:argocd-application',
      done: expected === 'Current',
    });
  });

  it('multi-source: one of sync.revisions', () => {
    const status = { ...a.status({ sync: 'Synced', revision: '', health: 'Healthy' }), sync: { status: 'Synced', revisions: ['7.3.0', NEW_SHA] } };
    expect(judge(APPLICATION, a.object(status), { revision: SHORT }).status).toBe('Current');
    const old = { ...status, sync: { status: 'Synced', revisions: ['7.3.0', OLD_SHA] } };
    expect(judge(APPLICATION, a.object(old), { revision: SHORT })).toMatchObject({
      status: 'InProgress',
      message: `Argo CD has not synced ${SHORT} yet; Synced at 7.3.0, ${OLD_SHA}`,
    });
  });

  it('an error condition says why it may never sync', () => {
    const status = {
      ...a.status({ sync: 'Unknown', revision: OLD_SHA, health: 'Healthy' }),
      conditions: [{ type: 'ComparisonError', message: 'Failed to load target state: authentication required', lastTransitionTime: '2026-12-03T08:00:00Z' }],
    };
    expect(judge(APPLICATION, a.object(status), { revision: SHORT }).message).toBe(
      `Argo CD has not synced ${SHORT} yet; Unknown at ${OLD_SHA}; ComparisonError: Failed to load target state: authentication required`,
    );
  });
});

describe('Argo CD Application with revision: the writes of the real controller (v3.6.2)', () => {
  const judged = (status: object) => judge(APPLICATION, application.object(status), { revision: SHORT });
  const v3 = argoV3.status;
  it.each([
    ['the first write, before any comparison', argoV3.first(), 'InProgress', `Argo CD has not synced ${SHORT} yet; Unknown at no revision yet`],
    [
      'an automated sync starting: operationState cleared, still at the previous commit',
      v3({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy', operation: null }),
      'InProgress',
      `Argo CD has not synced ${SHORT} yet; Synced at ${OLD_SHA}`,
    ],
    [
      'Synced at the new commit while the operation still runs',
      v3({ sync: 'Synced', revision: NEW_SHA, health: 'Progressing', operation: { phase: 'Running', revision: NEW_SHA } }),
      'InProgress',
      `Argo CD is syncing to ${NEW_SHA}`,
    ],
    [
      'Progressing after the sync, the resource named by health.message (no health in status.resources)',
      v3({ sync: 'Synced', revision: NEW_SHA, health: 'Progressing', operation: { phase: 'Succeeded', revision: NEW_SHA } }),
      'InProgress',
      `Synced at ${NEW_SHA}, health Progressing: Caused by apps/Deployment:shop/web`,
    ],
    [
      'Healthy',
      v3({ sync: 'Synced', revision: NEW_SHA, health: 'Healthy', operation: { phase: 'Succeeded', revision: NEW_SHA } }),
      'Current',
      `Synced to ${NEW_SHA}, Healthy`,
    ],
    [
      'Degraded: a Deployment past its progress deadline',
      v3({ sync: 'Synced', revision: NEW_SHA, health: 'Degraded', operation: { phase: 'Succeeded', revision: NEW_SHA } }),
      'Failed',
      `Degraded at ${NEW_SHA}: Caused by apps/Deployment:shop/web`,
    ],
    [
      'YAML that does not parse, the Application tracking a branch: Unknown at `main`, which may be the previous commit’s error',
      v3({
        sync: 'Unknown',
        revision: 'main',
        health: 'Degraded',
        operation: { phase: 'Succeeded', revision: OLD_SHA },
        comparisonError: ARGO_UNMARSHAL_ERROR,
      }),
      'InProgress',
      `Argo CD has not synced ${SHORT} yet; Unknown at main; ComparisonError: ${ARGO_UNMARSHAL_ERROR}`,
    ],
    [
      'YAML that does not parse, the Application pinned to the shipped commit: Argo CD’s message',
      v3({
        sync: 'Unknown',
        revision: NEW_SHA,
        health: 'Healthy',
        operation: { phase: 'Succeeded', revision: OLD_SHA },
        comparisonError: ARGO_UNMARSHAL_ERROR,
      }),
      'Failed',
      `Argo CD could not compare ${NEW_SHA}: ${ARGO_UNMARSHAL_ERROR}`,
    ],
  ])('%s', (_state, status, expected, message) => {
    expect(judged(status)).toEqual({ status: expected, message, rule: 'gitops:argocd-application', done: expected === 'Current' });
  });

  it('a ComparisonError of a pinned commit that is not the shipped one: not this revision’s', () => {
    const status = v3({ sync: 'Unknown', revision: OLD_SHA, health: 'Healthy', comparisonError: ARGO_UNMARSHAL_ERROR });
    expect(judged(status)).toMatchObject({
      status: 'InProgress',
      message: expect.stringContaining(`Argo CD has not synced ${SHORT} yet; Unknown at ${OLD_SHA}`),
    });
  });
});

describe('Argo CD Application without revision: the built-in rule (health and sync)', () => {
  const a = application;
  it.each([
    ['Synced and Healthy', a.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' }), 'Current'],
    [
      'Degraded (kstatus alone called it Current)',
      a.status({ sync: 'Synced', revision: NEW_SHA, health: 'Degraded', resourceHealth: { status: 'Degraded', message: PROGRESS_DEADLINE } }),
      'Failed',
    ],
    ['OutOfSync', a.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy' }), 'InProgress'],
    ['Progressing', a.status({ sync: 'Synced', revision: NEW_SHA, health: 'Progressing' }), 'InProgress'],
    ['syncing', a.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy', operation: a.operation('Running', NEW_SHA, 'syncing') }), 'InProgress'],
    [
      'the sync of the compared revision failed',
      a.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy', operation: a.operation('Failed', NEW_SHA, 'one or more objects failed to apply') }),
      'Failed',
    ],
    [
      'a failed sync of an older revision, a newer one compared',
      a.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy', operation: a.operation('Failed', OLD_SHA, 'one or more objects failed to apply') }),
      'InProgress',
    ],
  ])('%s: %s', (_state, status, expected) => {
    expect(judge(APPLICATION, a.object(status))).toMatchObject({ status: expected, rule: 'builtin:argocd-application' });
  });
});
