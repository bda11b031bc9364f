/**
 * The judge: one object of one type, the time, its first sighting and its CRD facts in; the verdict (what
 * its targets report), when to judge it again, its pods and its warnings out. Table tests over the real
 * status library and real CEL rules.
 */
import { describe, expect, it } from '@jest/globals';
import type { WaitFor } from '../../src/settings.js';
import { parseRuleText } from '../../src/status/health/parse.js';
import type { HealthRule } from '../../src/status/health/types.js';
import { SCHEDULE_WINDOW_MS } from '../../src/status/index.js';
import { Judge, type JudgedType, type JudgeOptions, type Sighting, type Verdict } from '../../src/status/judge.js';

const NOW = Date.parse('2026-11-30T08:00:00Z');
const now = new Date(NOW);
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

const DEPLOYMENTS: JudgedType = { group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true };
const JOBS: JudgedType = { group: 'batch', version: 'v1', kind: 'Job', namespaced: true };
const PODS: JudgedType = { group: '', version: 'v1', kind: 'Pod', namespaced: true };
const WIDGETS: JudgedType = { group: 'example.com', version: 'v1', kind: 'Widget', namespaced: true };
const KUSTOMIZATIONS: JudgedType = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', kind: 'Kustomization', namespaced: true };

function userRule(text: string): HealthRule {
  const parsed = parseRuleText(text, { firstIndex: 0 });
  const [rule] = parsed.rules;
  if (!rule) throw new Error(parsed.problems.map((p) => p.message).join('\n'));
  return rule;
}
/** The user's rules for Widgets: Running is Current, Broken is Failed. */
const WIDGET_RULE = userRule("- apiVersion: example.com/v1\n  kind: Widget\n  current: status.phase == 'Running'\n  failed: status.phase == 'Broken'\n");
const SIZE_RULE = userRule('- apiVersion: example.com/v1\n  kind: Widget\n  current: spec.size == 3\n');
const rules = (rule: HealthRule) => ({
  ruleFor: (apiVersion: string, kind: string) => (apiVersion === rule.apiVersion && kind === rule.kind ? rule : undefined),
});

function deployment(ready: boolean, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', generation: 1, ...metadata },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } },
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: ready ? 1 : 0,
      availableReplicas: ready ? 1 : 0,
      conditions: [{ type: 'Available', status: ready ? 'True' : 'False', reason: 'MinimumReplicasAvailable' }],
    },
  };
}
const job = (conditions: unknown[]) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'migrate', namespace: 'shop', generation: 1, creationTimestamp: ago(60) },
  spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } } },
  status: { startTime: ago(59), active: conditions.length ? 0 : 1, conditions },
});
const pod = (status: Record<string, unknown>, createdSecondsAgo = 5) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'solo', namespace: 'shop', creationTimestamp: ago(createdSecondsAgo) },
  spec: { restartPolicy: 'Always', containers: [{ name: 'app', image: 'nginx' }] },
  status,
});
const unschedulable = {
  phase: 'Pending',
  conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available' }],
};
const pullingBadImage = {
  phase: 'Pending',
  conditions: [{ type: 'PodScheduled', status: 'True' }],
  containerStatuses: [{ name: 'app', ready: false, state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:nope"' } } }],
};
const widget = (status?: unknown, spec: unknown = {}, createdSecondsAgo = 0) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'shop', generation: 1, creationTimestamp: ago(createdSecondsAgo) },
  spec,
  ...(status === undefined ? {} : { status }),
});
const kustomization = (suspend: boolean) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'apps', namespace: 'shop', generation: 2 },
  spec: { suspend },
  status: {
    observedGeneration: 2,
    conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:abc' }],
  },
});

const READY: WaitFor = { kind: 'ready' };
const BASE: JudgeOptions = { waitFor: READY, jobCompletion: true, statusGraceMs: 0 };
const GRACE: JudgeOptions = { ...BASE, statusGraceMs: 30_000 };
const WAITING = 'waiting for its controller to report status (status-grace 30s)';
const GRACE_EXPIRED =
  'shop/Widget/w has no status after status-grace 30s, so it is judged by kstatus alone (Current). If its controller reports readiness some other way, add a rule for it to the health-checks input (Flux healthCheckExprs format).';
const SUSPENDED = 'Kustomization shop/apps is suspended (spec.suspend: true): Flux does not reconcile it, so its readiness may be stale';
const SIZE_MISSING =
  'Widget shop/w: cannot evaluate the current expression of health-checks[0]: it references the missing field spec.size (expression: spec.size == 3); the object is treated as in progress';

/** The parts of a verdict a row states; the rest must be what nothing happening looks like. */
type Expected = {
  status: string;
  done: boolean;
  rule?: string;
  message?: string | RegExp;
  reported?: { status?: string; done: boolean; message: string; optedOut?: true };
  recheckAtMs?: number;
  needsStatusSubresource?: boolean;
  diagnose?: boolean;
  pods?: unknown;
  warnings?: Array<{ message: string; once?: string }>;
};

function check(verdict: Verdict, expected: Expected): void {
  const { evaluation } = verdict;
  expect({ status: evaluation.status, done: evaluation.done, rule: evaluation.rule }).toEqual({
    status: expected.status,
    done: expected.done,
    rule: expected.rule ?? 'kstatus',
  });
  if (typeof expected.message === 'string') expect(evaluation.message).toBe(expected.message);
  else if (expected.message) expect(evaluation.message).toMatch(expected.message);
  if (expected.reported) expect(verdict.reported).toMatchObject(expected.reported);
  else expect(verdict.reported).toBe(evaluation);
  expect(verdict.recheckAtMs).toBe(expected.recheckAtMs);
  expect(verdict.needsStatusSubresource).toBe(expected.needsStatusSubresource ?? false);
  expect(verdict.diagnose).toBe(expected.diagnose ?? false);
  expect(verdict.pods).toEqual(expected.pods);
  expect(verdict.warnings).toEqual(expected.warnings ?? []);
  expect('evaluationWarning' in evaluation).toBe(false); // it is a warning of the verdict, given once
}

const webPods = { selector: { matchLabels: { app: 'web' } } };
const jobPods = { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } } };

describe('Judge', () => {
  it.each<[string, JudgedType, JudgeOptions, Record<string, unknown>, Partial<Sighting>, Expected]>([
    // kstatus and the CI rules
    ['kstatus: an available Deployment is Current', DEPLOYMENTS, BASE, deployment(true), {}, { status: 'Current', done: true, pods: webPods }],
    [
      'kstatus: an unavailable Deployment is pending, and its pods are diagnosed',
      DEPLOYMENTS,
      BASE,
      deployment(false),
      {},
      { status: 'InProgress', done: false, diagnose: true, pods: webPods },
    ],
    ['job completion: a running Job is InProgress', JOBS, BASE, job([]), {}, { status: 'InProgress', done: false, diagnose: true, pods: jobPods }],
    [
      'job completion: a complete Job is Current',
      JOBS,
      BASE,
      job([{ type: 'Complete', status: 'True' }]),
      {},
      { status: 'Current', done: true, pods: jobPods },
    ],
    [
      'job completion: a failed Job is Failed',
      JOBS,
      BASE,
      job([{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }]),
      {},
      { status: 'Failed', done: false, diagnose: true, pods: jobPods },
    ],
    [
      'jsonpath goal: a failed Job keeps waiting for the value, as kubectl wait does, and says what kstatus judges',
      JOBS,
      { ...BASE, waitFor: { kind: 'jsonpath', expression: '{.status.succeeded}', value: '1' } },
      job([{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }]),
      {},
      { status: 'InProgress', done: false, diagnose: true, pods: jobPods, message: /^waiting for \{\.status\.succeeded\}=1: .*; kstatus judges it Failed: / },
    ],
    [
      'job-completion false: plain kstatus calls a started Job Current',
      JOBS,
      { ...BASE, jobCompletion: false },
      job([]),
      {},
      { status: 'Current', done: true, pods: jobPods },
    ],

    // health rules (CEL)
    [
      'a CEL rule: its current expression true is Current',
      WIDGETS,
      { ...BASE, healthRules: rules(WIDGET_RULE) },
      widget({ phase: 'Running' }),
      {},
      { status: 'Current', done: true, rule: 'health-checks[0]' },
    ],
    [
      'a CEL rule: its failed expression true is Failed',
      WIDGETS,
      { ...BASE, healthRules: rules(WIDGET_RULE) },
      widget({ phase: 'Broken' }),
      {},
      { status: 'Failed', done: false, rule: 'health-checks[0]' },
    ],
    [
      'a CEL rule: none true is InProgress',
      WIDGETS,
      { ...BASE, healthRules: rules(WIDGET_RULE) },
      widget({ phase: 'Starting' }),
      {},
      { status: 'InProgress', done: false, rule: 'health-checks[0]' },
    ],
    [
      'a CEL rule that cannot be evaluated: InProgress, and one warning per target and rule',
      WIDGETS,
      { ...BASE, healthRules: rules(SIZE_RULE) },
      widget({ phase: 'Running' }),
      {},
      {
        status: 'InProgress',
        done: false,
        rule: 'health-checks[0]',
        message: /^cannot evaluate the current expression of health-checks\[0\]/,
        warnings: [{ message: SIZE_MISSING, once: 'w|health-checks[0]' }],
      },
    ],
    [
      "a rule outranks status-grace: a Widget without status is the rule's to judge",
      WIDGETS,
      { ...GRACE, healthRules: rules(WIDGET_RULE) },
      widget(),
      { statusSubresource: true },
      { status: 'InProgress', done: false, rule: 'health-checks[0]', message: /^waiting for its controller/ },
    ],

    // the suspended-Flux warning
    [
      'a suspended Flux object: judged by kstatus, with a warning',
      KUSTOMIZATIONS,
      BASE,
      kustomization(true),
      {},
      { status: 'Current', done: true, warnings: [{ message: SUSPENDED }] },
    ],
    ['a Flux object that is not suspended: no warning', KUSTOMIZATIONS, BASE, kustomization(false), {}, { status: 'Current', done: true }],
    [
      'a suspended Flux object waited for to be deleted: no warning (its readiness does not matter)',
      KUSTOMIZATIONS,
      { ...BASE, waitFor: { kind: 'deleted' } },
      kustomization(true),
      {},
      { status: 'Current', done: false, message: 'still exists' },
    ],

    // status-grace
    [
      'status-grace: a status subresource, no status yet, within the grace: waits, judged again when it ends',
      WIDGETS,
      GRACE,
      widget(undefined, {}, 10),
      { statusSubresource: true, firstSeenMs: NOW - 5_000 },
      { status: 'InProgress', done: false, message: WAITING, recheckAtMs: NOW - 5_000 + 30_000 + 1 },
    ],
    [
      'status-grace: the grace counts from creation when that is later than the first sighting',
      WIDGETS,
      GRACE,
      widget({}, {}, 2),
      { statusSubresource: true, firstSeenMs: NOW - 5_000 },
      { status: 'InProgress', done: false, message: WAITING, recheckAtMs: NOW - 2_000 + 30_000 + 1 },
    ],
    [
      'status-grace: past the grace, kstatus (Current) with a warning',
      WIDGETS,
      GRACE,
      widget(undefined, {}, 40),
      { statusSubresource: true, firstSeenMs: NOW - 30_000 },
      { status: 'Current', done: true, warnings: [{ message: GRACE_EXPIRED }] },
    ],
    ['status-grace: no status subresource, kstatus at once', WIDGETS, GRACE, widget(), { statusSubresource: false }, { status: 'Current', done: true }],
    [
      'status-grace: CRD facts unknown, within the grace: waits, assuming a status subresource, and asks for the facts',
      WIDGETS,
      GRACE,
      widget(),
      {},
      { status: 'InProgress', done: false, message: WAITING, needsStatusSubresource: true },
    ],
    [
      'status-grace: CRD facts unknown, past the grace: kstatus with the warning, and asks for the facts',
      WIDGETS,
      GRACE,
      widget(undefined, {}, 40),
      { firstSeenMs: NOW - 30_000 },
      { status: 'Current', done: true, needsStatusSubresource: true, warnings: [{ message: GRACE_EXPIRED }] },
    ],
    [
      "status-grace: an object with a status is kstatus's (no CRD facts needed)",
      WIDGETS,
      GRACE,
      widget({ observedGeneration: 1 }),
      {},
      { status: 'Current', done: true },
    ],
    ['status-grace 0s: plain kstatus (no CRD facts needed)', WIDGETS, BASE, widget(), {}, { status: 'Current', done: true }],
    [
      'status-grace: not for a condition goal',
      WIDGETS,
      { ...GRACE, waitFor: { kind: 'condition', type: 'Ready', value: 'True' } },
      widget(),
      {},
      { status: 'InProgress', done: false, message: 'waiting for condition Ready=True: the object has no Ready condition yet' },
    ],

    // the kubewait.io/wait: "false" opt-out
    [
      'opt-out: its own status, reported done; its pods are not diagnosed',
      DEPLOYMENTS,
      BASE,
      deployment(false, { annotations: { 'kubewait.io/wait': 'false' } }),
      {},
      {
        status: 'InProgress',
        done: false,
        pods: webPods,
        reported: {
          status: 'InProgress',
          done: true,
          message: expect.stringMatching(/^not waited for \(kubewait\.io\/wait: false\): /) as unknown as string,
          optedOut: true,
        },
      },
    ],
    [
      'opt-out: a ready object says so too',
      DEPLOYMENTS,
      BASE,
      deployment(true, { annotations: { 'kubewait.io/wait': 'false' } }),
      {},
      {
        status: 'Current',
        done: true,
        pods: webPods,
        reported: { status: 'Current', done: true, message: 'not waited for (kubewait.io/wait: false): Deployment is available. Replicas: 1', optedOut: true },
      },
    ],
    [
      'opt-out: only the exact string "false"',
      DEPLOYMENTS,
      BASE,
      deployment(false, { annotations: { 'kubewait.io/wait': 'False' } }),
      {},
      { status: 'InProgress', done: false, diagnose: true, pods: webPods },
    ],

    // time
    [
      "an unschedulable Pod: judged again when kstatus's 15 s window ends",
      PODS,
      BASE,
      pod(unschedulable, 5),
      {},
      { status: 'InProgress', done: false, diagnose: true, pods: { podName: 'solo' }, recheckAtMs: NOW - 5_000 + SCHEDULE_WINDOW_MS + 100 },
    ],
    [
      'an unschedulable Pod past the window: Failed, nothing left to wait for',
      PODS,
      BASE,
      pod(unschedulable, 20),
      {},
      { status: 'Failed', done: false, diagnose: true, pods: { podName: 'solo' } },
    ],
    [
      'an image pull back-off: no re-check of its own; its pods are diagnosed, and the diagnosis applies the image-pull grace',
      PODS,
      BASE,
      pod(pullingBadImage, 5),
      {},
      { status: 'InProgress', done: false, diagnose: true, pods: { podName: 'solo' } },
    ],
  ])('%s', (_title, type, options, object, sighting, expected) => {
    const verdict = new Judge(type, 'shop', options).judge(object, { now, firstSeenMs: NOW, ...sighting });
    check(verdict, expected);
  });

  it('gives the evaluation warning one key per target and rule, whatever field is missing next time', () => {
    const rule = userRule('- apiVersion: example.com/v1\n  kind: Widget\n  current: spec.size == status.size\n');
    const judge = new Judge(WIDGETS, 'shop', { ...BASE, healthRules: rules(rule) });
    const first = judge.judge(widget({ phase: 'Running' }), { now, firstSeenMs: NOW });
    const second = judge.judge(widget({ phase: 'Running' }, { size: 3 }), { now, firstSeenMs: NOW });
    expect(first.warnings.map((w) => w.message)).toEqual([expect.stringContaining('missing field spec.size')]);
    expect(second.warnings.map((w) => w.message)).toEqual([expect.stringContaining('missing field status.size')]);
    expect(second.warnings.map((w) => w.once)).toEqual(first.warnings.map((w) => w.once));
  });

  it('names a cluster-scoped object without a namespace in its warnings', () => {
    const judge = new Judge({ ...WIDGETS, namespaced: false }, '', { ...BASE, healthRules: rules(SIZE_RULE) });
    const { metadata, ...rest } = widget({ phase: 'Running' });
    const verdict = judge.judge({ ...rest, metadata: { ...metadata, namespace: undefined } }, { now, firstSeenMs: NOW });
    expect(verdict.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^Widget w: cannot evaluate/)]);
  });

  it('is pure: the same inputs give the same verdict, and the object is left as it was', () => {
    const judge = new Judge(WIDGETS, 'shop', GRACE);
    const object = widget();
    const before = JSON.parse(JSON.stringify(object)) as unknown;
    const sighting = { now, firstSeenMs: NOW, statusSubresource: true };
    expect(judge.judge(object, sighting)).toEqual(judge.judge(object, sighting));
    expect(object).toEqual(before);
  });
});
