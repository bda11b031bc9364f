/**
 * What judging reads of a live object (src/status/judged-fields.ts), through the judge that asks for it: the
 * view drops what no rule reads, keeps what every rule reads, and keeps everything but `managedFields` when a
 * rule may read any field; the verdict on the view is the verdict on the object.
 */
import { describe, expect, it } from '@jest/globals';
import type { WaitFor } from '../../src/settings.js';
import { parseRuleText } from '../../src/status/health/parse.js';
import { Judge, type JudgedType } from '../../src/status/judge.js';
import { judgedView, LAST_APPLIED_ANNOTATION, MAX_KEPT_ANNOTATION_CHARS } from '../../src/status/judged-fields.js';

const DEPLOYMENTS: JudgedType = { group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true };
const CRONJOBS: JudgedType = { group: 'batch', version: 'v1', kind: 'CronJob', namespaced: true };
const WIDGETS: JudgedType = { group: 'example.com', version: 'v1', kind: 'Widget', namespaced: true };
const now = new Date('2026-11-30T08:00:00Z');
const READY: WaitFor = { kind: 'ready' };

/** A Deployment as a real API server serves it after `kubectl apply`: managedFields, the last applied
 *  manifest, a pod template. */
function applied(ready: boolean) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'u1',
      resourceVersion: '7',
      generation: 2,
      labels: { app: 'web' },
      ownerReferences: [{ kind: 'Thing', name: 'owner', controller: true }],
      annotations: {
        'deployment.kubernetes.io/revision': '2',
        'kubewait.io/wait': 'false',
        [LAST_APPLIED_ANNOTATION]: '{"apiVersion":"apps/v1","kind":"Deployment"}',
        'example.com/notes': 'n'.repeat(MAX_KEPT_ANNOTATION_CHARS + 1),
      },
      managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', fieldsV1: { 'f:spec': {} } }],
    },
    spec: {
      replicas: 2,
      paused: false,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:2' }] } },
    },
    status: {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      ...(ready ? { readyReplicas: 2, availableReplicas: 2 } : { unavailableReplicas: 2 }),
      conditions: [{ type: 'Available', status: ready ? 'True' : 'False', reason: 'R', message: 'm' }],
    },
  };
}

describe('judgedView', () => {
  it('drops managedFields, the last applied manifest, long annotations and the pod template, and keeps the rest', () => {
    const object = applied(true);
    const view = judgedView(object, { kind: 'Deployment', anyField: false }) as ReturnType<typeof applied>;
    const { managedFields: _m, annotations: _a, ...metadata } = object.metadata;
    expect(view.metadata).toEqual({ ...metadata, annotations: { 'deployment.kubernetes.io/revision': '2', 'kubewait.io/wait': 'false' } });
    const { template: _t, ...spec } = object.spec;
    expect(view.spec).toEqual(spec);
    expect(view.status).toBe(object.status);
    // The object itself is untouched.
    expect(object.metadata.managedFields).toHaveLength(1);
    expect(object.spec.template).toBeDefined();
  });

  it("drops a CronJob's Job template", () => {
    const cronJob = { metadata: { name: 'c' }, spec: { schedule: '* * * * *', suspend: false, jobTemplate: { spec: {} } } };
    expect(judgedView(cronJob, { kind: 'CronJob', anyField: false })).toEqual({ metadata: { name: 'c' }, spec: { schedule: '* * * * *', suspend: false } });
  });

  it('keeps everything but managedFields when a rule may read any field', () => {
    const object = applied(true);
    const view = judgedView(object, { kind: 'Deployment', anyField: true }) as ReturnType<typeof applied>;
    const { managedFields: _m, ...metadata } = object.metadata;
    expect(view).toEqual({ ...object, metadata });
  });

  it('leaves what is not an object with metadata as it is', () => {
    for (const odd of [null, 'text', 3, [], { kind: 'NoMetadata' }, { metadata: 'x' }])
      expect(judgedView(odd, { kind: 'Deployment', anyField: false })).toBe(odd);
  });
});

describe("the judge's view", () => {
  const judge = (type: JudgedType, waitFor: WaitFor, rule?: string) => {
    const parsed = rule ? parseRuleText(rule, { firstIndex: 0 }).rules[0] : undefined;
    return new Judge(type, 'shop', {
      waitFor,
      jobCompletion: false,
      statusGraceMs: 0,
      ...(parsed && { healthRules: { ruleFor: () => parsed } }),
    });
  };

  it.each([true, false])('judges a Deployment on the view as on the whole object (ready: %s)', (ready) => {
    const j = judge(DEPLOYMENTS, READY);
    const object = applied(ready);
    const sighting = { now, firstSeenMs: now.getTime() };
    expect(j.judge(j.view(object) as Record<string, unknown>, sighting)).toEqual(j.judge(object, sighting));
  });

  it('keeps the pod template for a jsonpath wait, which may read it', () => {
    const j = judge(DEPLOYMENTS, { kind: 'jsonpath', expression: '{.spec.template.spec.containers[0].image}', value: 'web:2' });
    const verdict = j.judge(j.view(applied(false)) as Record<string, unknown>, { now, firstSeenMs: now.getTime() });
    expect(verdict.evaluation.done).toBe(true);
  });

  it('keeps every field of a custom resource a CEL rule judges, but not its managedFields', () => {
    const j = judge(WIDGETS, READY, '- apiVersion: example.com/v1\n  kind: Widget\n  current: spec.size == 3\n');
    const widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', managedFields: [{}], annotations: { big: 'b'.repeat(5000) } },
      spec: { size: 3 },
    };
    expect(j.view(widget)).toEqual({ ...widget, metadata: { name: 'w', annotations: widget.metadata.annotations } });
    expect(j.judge(j.view(widget) as Record<string, unknown>, { now, firstSeenMs: now.getTime() }).evaluation.done).toBe(true);
  });

  it('drops the Job template of a CronJob judged by kstatus', () => {
    const j = judge(CRONJOBS, READY);
    expect(j.view({ metadata: { name: 'c' }, spec: { jobTemplate: {} } })).toEqual({ metadata: { name: 'c' }, spec: {} });
  });
});
