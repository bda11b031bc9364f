/**
 * The evaluator against Flux's own cases (fluxcd/pkg runtime/cel status_evaluator_test.go, ported:
 * same expressions, same objects) and the expressions of Flux's CEL health-check cheatsheet
 * (fluxcd/website content/en/flux/cheatsheets/cel-healthchecks.md). Where Flux returns an evaluation
 * error, kubewait keeps the object InProgress: with a warning naming the field, or, when the object has
 * no status yet, "waiting for its controller to report status" without one.
 */
import { describe, expect, test } from '@jest/globals';
import { evaluateHealth, WAITING_FOR_CONTROLLER } from '../../../src/status/health/evaluate.js';
import { parseRuleText } from '../../../src/status/health/parse.js';
import type { HealthRule } from '../../../src/status/health/types.js';

type Exprs = { current?: string; inProgress?: string; failed?: string };

function rule(exprs: Exprs, apiVersion = 'example.com/v1', kind?: string): HealthRule {
  const fields = Object.entries({ apiVersion, kind, ...exprs }).filter(([, v]) => v !== undefined);
  const yaml = `- ${fields.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n  ')}\n`;
  const parsed = parseRuleText(yaml, { firstIndex: 3 });
  const [first] = parsed.rules;
  if (!first) throw new Error(parsed.problems.map((p) => p.message).join('\n'));
  return first;
}

const DATA_EXPRS = { current: 'data.current', inProgress: 'data.inProgress', failed: 'data.failed' };
const READY_EXPRS = {
  inProgress: 'has(status.observedGeneration) && metadata.generation != status.observedGeneration',
  failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
  current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
};
const READY_EXPRS_NO_IN_PROGRESS = { failed: READY_EXPRS.failed, current: READY_EXPRS.current };

describe('Flux status_evaluator_test.go: rules that parse or not', () => {
  test.each([
    ['all expressions are present', DATA_EXPRS, undefined],
    ['InProgress and Failed are optional', { current: 'data.current' }, undefined],
    ['Current is required', {}, /current \(for example\.com\) is required/],
    ['errors if Current is invalid', { current: 'data.' }, /current \(for example\.com\) is not valid CEL/],
    ['errors if InProgress is invalid', { current: 'data.current', inProgress: 'data.' }, /inProgress \(for example\.com\) is not valid CEL/],
    ['errors if Failed is invalid', { current: 'data.current', failed: 'data.' }, /failed \(for example\.com\) is not valid CEL/],
  ])('%s', (_name, exprs: Exprs, error) => {
    const fields = Object.entries({ apiVersion: 'example.com/v1', ...exprs });
    const parsed = parseRuleText(`- ${fields.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n  ')}\n`, { firstIndex: 0 });
    if (error) {
      expect(parsed.rules).toEqual([]);
      expect(parsed.problems[0]?.message).toMatch(error);
    } else {
      expect(parsed.problems).toEqual([]);
      expect(parsed.rules).toHaveLength(1);
    }
  });
});

describe('Flux status_evaluator_test.go: evaluation', () => {
  const data = (current: boolean, inProgress: boolean, failed: boolean) => ({ data: { current, inProgress, failed } });
  test.each([
    [
      'observed generation exists and is different',
      { current: 'true' },
      { metadata: { generation: 2 }, status: { observedGeneration: 1 } },
      'InProgress',
      undefined,
    ],
    [
      'if Current returns an error: InProgress, warning names data.currentt',
      { ...DATA_EXPRS, current: 'data.currentt' },
      data(true, false, false),
      'InProgress',
      /current expression of health-checks\[3\]: it references the missing field data\.currentt/,
    ],
    [
      'if InProgress returns an error: InProgress, warning names data.inProgresss',
      { ...DATA_EXPRS, inProgress: 'data.inProgresss' },
      data(true, false, false),
      'InProgress',
      /inProgress expression of health-checks\[3\]: it references the missing field data\.inProgresss/,
    ],
    [
      'if Failed returns an error: InProgress, warning names data.failedd',
      { ...DATA_EXPRS, failed: 'data.failedd' },
      data(true, false, false),
      'InProgress',
      /failed expression of health-checks\[3\]: it references the missing field data\.failedd/,
    ],
    ['if all expressions evaluate to false then the object is in progress', DATA_EXPRS, data(false, false, false), 'InProgress', undefined],
    ['if all expressions evaluate to true then the object is in progress', DATA_EXPRS, data(true, true, true), 'InProgress', undefined],
    ['if both Current and Failed evaluate to true, then the object failed', DATA_EXPRS, data(true, false, true), 'Failed', undefined],
    ['if only Current evaluates to true, then the object is current', DATA_EXPRS, data(true, false, false), 'Current', undefined],
    ['object without status with inProgress expression: waiting for its controller', READY_EXPRS, {}, 'InProgress', undefined],
    ['object without status without inProgress expression: waiting for its controller', READY_EXPRS_NO_IN_PROGRESS, {}, 'InProgress', undefined],
    ['object with status without status.conditions with inProgress expression: waiting', READY_EXPRS, { status: {} }, 'InProgress', undefined],
    [
      'object with status without status.conditions without inProgress expression: waiting',
      READY_EXPRS_NO_IN_PROGRESS,
      { status: {} },
      'InProgress',
      undefined,
    ],
    // Vacuous truth, as in Flux: filter(...).all(...) on an empty list is true, and failed runs first.
    ['object with status with empty status.conditions with inProgress expression', READY_EXPRS, { status: { conditions: [] } }, 'Failed', undefined],
    [
      'object with status with empty status.conditions without inProgress expression',
      READY_EXPRS_NO_IN_PROGRESS,
      { status: { conditions: [] } },
      'Failed',
      undefined,
    ],
    [
      'object with status.observedGeneration with inProgress expression',
      READY_EXPRS,
      { metadata: { generation: 2 }, status: { observedGeneration: 1 } },
      'InProgress',
      undefined,
    ],
    [
      'object with status.observedGeneration without inProgress expression',
      READY_EXPRS_NO_IN_PROGRESS,
      { metadata: { generation: 2 }, status: { observedGeneration: 1 } },
      'InProgress',
      undefined,
    ],
  ])('%s', (_name, exprs: Exprs, obj, status, warning) => {
    const result = evaluateHealth(rule(exprs), obj);
    expect(result.status).toBe(status);
    expect(result.rule).toBe('health-checks[3]');
    if (warning) expect(result.evaluationWarning).toMatch(warning);
    else expect(result.evaluationWarning).toBeUndefined();
  });

  test('an object without status is waiting for its controller, not an evaluation problem', () => {
    const result = evaluateHealth(rule(READY_EXPRS), { metadata: { generation: 1 } });
    expect(result).toMatchObject({ status: 'InProgress', message: WAITING_FOR_CONTROLLER });
  });
});

describe('kubewait additions to the Flux order', () => {
  const ready = rule(
    {
      failed: "status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')",
      current: "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')",
    },
    'example.com/v1',
    'Widget',
  );
  const widget = (status: unknown, metadata: Record<string, unknown> = { name: 'w', generation: 2 }) => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata,
    status,
  });

  test.each([
    [
      'a deletion outranks every rule',
      widget({ conditions: [{ type: 'Ready', status: 'True' }] }, { name: 'w', deletionTimestamp: '2026-01-01T00:00:00Z' }),
      'Terminating',
      'Resource scheduled for deletion',
    ],
    [
      'the generation gate says which generations',
      widget({ observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True' }] }),
      'InProgress',
      'Widget generation is 2, but latest observed generation is 1',
    ],
    [
      'a string observedGeneration skips the gate (as Flux since 2026-04)',
      widget({ observedGeneration: '1', conditions: [{ type: 'Ready', status: 'True' }] }),
      'Current',
      'Resource is current',
    ],
    [
      'no metadata.generation skips the gate',
      widget({ observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True' }] }, { name: 'w' }),
      'Current',
      'Resource is current',
    ],
    [
      "failed carries the object's own Ready message",
      widget({ conditions: [{ type: 'Ready', status: 'False', reason: 'Denied', message: 'issuer "letsencrypt" not found' }] }),
      'Failed',
      'issuer "letsencrypt" not found',
    ],
    [
      'none true: the Ready message when there is one',
      widget({ conditions: [{ type: 'Ready', status: 'Unknown', reason: 'Pending', message: 'waiting for DNS' }] }),
      'InProgress',
      'waiting for DNS',
    ],
    [
      'none true without a message says which rule waits',
      widget({ conditions: [] }),
      'InProgress',
      "no health expression of health-checks[3] is true yet (current: status.conditions.exists(c, c.type == 'Ready' && c.status == 'True'))",
    ],
  ])('%s', (_name, obj, status, message) => {
    expect(evaluateHealth(ready, obj)).toMatchObject({ status, message, rule: 'health-checks[3]' });
  });

  test('a failed verdict without a condition message names the expression', () => {
    const phase = rule({ failed: "status.state == 'Broken'", current: "status.state == 'OK'" });
    expect(evaluateHealth(phase, { status: { state: 'Broken' } })).toMatchObject({
      status: 'Failed',
      message: "health-checks[3]: failed expression is true (status.state == 'Broken')",
    });
  });

  test("a phase and a message are the object's own account", () => {
    const phase = rule({ failed: "status.phase == 'Degraded'", current: "status.phase == 'Healthy'" });
    expect(evaluateHealth(phase, { status: { phase: 'Degraded', message: 'RolloutAborted: metric "errors" failed' } }).message).toBe(
      'phase Degraded: RolloutAborted: metric "errors" failed',
    );
  });

  test('a non-boolean result keeps the object InProgress with a warning', () => {
    const result = evaluateHealth(rule({ current: 'status.phase' }), { status: { phase: 'Ready' } });
    expect(result).toMatchObject({
      status: 'InProgress',
      message: 'cannot evaluate the current expression of health-checks[3]: expression returned string, not bool',
    });
    expect(result.evaluationWarning).toMatch(/expression: status\.phase\); the object is treated as in progress/);
  });

  // Each of these would block the event loop for minutes (JavaScript's RegExp) or hours (8e9 steps).
  const longStatus = { message: `${'a'.repeat(40)}!`, items: Array.from({ length: 2000 }, (_, i) => ({ name: `item-${i}`, ready: true })) };

  test('a backtracking pattern is RE2: it ends, false, and the object is InProgress with its own message', () => {
    const result = evaluateHealth(rule({ current: "status.message.matches('^(a+)+$')" }), { status: longStatus });
    expect(result).toMatchObject({ status: 'InProgress', rule: 'health-checks[3]', message: longStatus.message });
    expect(result.evaluationWarning).toBeUndefined();
  });

  test('an expression over the cost budget is a problem of its rule, named, not a warning to wait on', () => {
    // Spent fast (a 200,000-character string costs 20,000 units each time it is read): cel.test.ts has the slow shapes.
    const current = 'status.items.all(a, status.text.size() > 0)';
    const object = { kind: 'Widget', metadata: { name: 'w', namespace: 'shop' }, status: { ...longStatus, text: 'x'.repeat(200_000) } };
    const result = evaluateHealth({ ...rule({ current }), file: 'rules.yaml', line: 4 }, object);
    expect(result).toMatchObject({ status: 'InProgress', rule: 'health-checks[3]' });
    expect(result.message).toMatch(/^cannot evaluate the current expression of health-checks\[3\]: the expression exceeded its cost budget of 1000000 units/);
    expect(result.evaluationWarning).toBeUndefined();
    expect(result.ruleProblem).toEqual({
      input: 'health-checks',
      message: expect.stringMatching(
        /^Health rule health-checks\[3\] \(rules\.yaml:4\) cannot judge Widget shop\/w: the expression exceeded its cost budget of 1000000 units .*\(its current expression: status\.items\.all\(a, status\.text\.size\(\) > 0\)\)\. Read the one field/,
      ),
      file: 'rules.yaml',
      line: 4,
    });
  });

  test('results carry kstatus-style conditions', () => {
    expect(evaluateHealth(ready, widget({ conditions: [{ type: 'Ready', status: 'False', message: 'bad' }] })).conditions).toEqual([
      { type: 'Stalled', status: 'True', reason: 'HealthCheckFailed', message: 'bad' },
    ]);
    expect(evaluateHealth(ready, widget({ conditions: [{ type: 'Ready', status: 'True' }] })).conditions).toEqual([]);
  });
});

describe("Flux's CEL health-check cheatsheet", () => {
  const ready = (type: string, status: string) => ({ status: { conditions: [{ type, status, reason: 'R', message: `${type} is ${status}` }] } });
  test.each([
    // Verbatim from the cheatsheet.
    [
      'Cluster',
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Cluster',
        failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
      },
      'Ready',
    ],
    [
      'SealedSecret',
      {
        apiVersion: 'bitnami.com/v1alpha1',
        kind: 'SealedSecret',
        failed: "status.conditions.filter(e, e.type == 'Synced').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Synced').all(e, e.status == 'True')",
      },
      'Synced',
    ],
    // The library's other entries follow the same filter/all pattern on Ready.
    [
      'ClusterIssuer',
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'ClusterIssuer',
        failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
      },
      'Ready',
    ],
    [
      'ClusterSecretStore',
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ClusterSecretStore',
        failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
      },
      'Ready',
    ],
    [
      'ScaledObject',
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
      },
      'Ready',
    ],
    [
      'Provider (Crossplane)',
      {
        apiVersion: 'pkg.crossplane.io/v1',
        kind: 'Provider',
        failed: "status.conditions.filter(e, e.type == 'Healthy').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Healthy').all(e, e.status == 'True')",
      },
      'Healthy',
    ],
    [
      'fluxcd.controlplane.io (group-wide)',
      {
        apiVersion: 'fluxcd.controlplane.io/v1',
        failed: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
      },
      'Ready',
    ],
  ])('%s', (_name, entry, type) => {
    const { apiVersion, kind, ...exprs } = entry as { apiVersion: string; kind?: string } & Exprs;
    const r = rule(exprs, apiVersion, kind);
    expect(evaluateHealth(r, ready(type, 'True')).status).toBe('Current');
    expect(evaluateHealth(r, ready(type, 'False'))).toMatchObject({ status: 'Failed', message: `${type} is False` });
    expect(evaluateHealth(r, ready(type, 'Unknown')).status).toBe('InProgress');
    expect(evaluateHealth(r, {}).message).toBe(WAITING_FOR_CONTROLLER);
  });
});
