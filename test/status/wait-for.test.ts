/** matchesCondition and matchesJsonPath: kubectl wait semantics (kubectl pkg/cmd/wait condition.go, json.go). */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { matchesCondition, matchesJsonPath } from '../../src/status/index.js';
import { kubectlWaitPodYaml } from './upstream/kubectl-wait-pod.js';

type Obj = Record<string, unknown>;
const withConditions = (conditions: unknown, metadata: Obj = {}, status: Obj = {}) => ({
  apiVersion: 'group/version',
  kind: 'TheKind',
  metadata: { name: 'name-foo', ...metadata },
  status: { ...status, conditions },
});

describe('matchesCondition', () => {
  it.each<[string, unknown, string, string, boolean]>([
    ['type and value match', withConditions([{ type: 'Ready', status: 'True' }]), 'Ready', 'True', true],
    ['type is case-insensitive', withConditions([{ type: 'Ready', status: 'True' }]), 'ready', 'True', true],
    ['value is case-insensitive (kubectl default "true")', withConditions([{ type: 'Ready', status: 'True' }]), 'Ready', 'true', true],
    ['value differs', withConditions([{ type: 'Ready', status: 'False' }]), 'Ready', 'True', false],
    ['waiting for False', withConditions([{ type: 'Ready', status: 'False' }]), 'Ready', 'false', true],
    ['condition absent', withConditions([{ type: 'Available', status: 'True' }]), 'Ready', 'True', false],
    ['no conditions', { kind: 'X', status: {} }, 'Ready', 'True', false],
    ['not an object', null, 'Ready', 'True', false],
    ['conditions not a list', withConditions('Ready'), 'Ready', 'True', false],
    [
      'the first matching type decides',
      withConditions([
        { type: 'Ready', status: 'False' },
        { type: 'Ready', status: 'True' },
      ]),
      'Ready',
      'True',
      false,
    ],
    [
      'entries that are not objects, or lack a string type or status, are skipped',
      withConditions(['Ready', { type: 1 }, { type: 'Ready' }, { type: 'Ready', status: 1 }, { type: 'Ready', status: 'True' }]),
      'Ready',
      'True',
      true,
    ],
    [
      'stale condition observedGeneration does not count (kubectl wait_test)',
      withConditions([{ type: 'the-condition', status: 'status-value', observedGeneration: 1 }], { generation: 2 }),
      'the-condition',
      'status-value',
      false,
    ],
    [
      'current condition observedGeneration counts',
      withConditions([{ type: 'the-condition', status: 'status-value', observedGeneration: 2 }], { generation: 2 }),
      'the-condition',
      'status-value',
      true,
    ],
    [
      'stale status.observedGeneration does not count (kubectl wait_test)',
      withConditions([{ type: 'the-condition', status: 'status-value' }], { generation: 2 }, { observedGeneration: 1 }),
      'the-condition',
      'status-value',
      false,
    ],
    [
      'current status.observedGeneration counts',
      withConditions([{ type: 'the-condition', status: 'status-value' }], { generation: 2 }, { observedGeneration: 2 }),
      'the-condition',
      'status-value',
      true,
    ],
    [
      "the condition's own observedGeneration wins over the status one",
      withConditions([{ type: 'Ready', status: 'True', observedGeneration: 2 }], { generation: 2 }, { observedGeneration: 1 }),
      'Ready',
      'True',
      true,
    ],
    [
      'no metadata.generation: no generation check',
      withConditions([{ type: 'Ready', status: 'True', observedGeneration: 1 }], {}, { observedGeneration: 0 }),
      'Ready',
      'True',
      true,
    ],
    [
      'a string observedGeneration is ignored',
      withConditions([{ type: 'Ready', status: 'True', observedGeneration: '1' }], { generation: 2 }),
      'Ready',
      'True',
      true,
    ],
    ['Unicode simple case folding (Kelvin sign)', withConditions([{ type: 'Ok', status: 'True' }]), 'O\u212A', 'TRUE', true],
  ])('%s', (_name, obj, type, value, expected) => {
    expect(matchesCondition(obj, type, value)).toBe(expected);
  });
});

describe('matchesJsonPath: kubectl wait_test.go JSONPath cases', () => {
  const pod = parse(kubectlWaitPodYaml) as unknown;
  it.each<[string, string, string | undefined, { matched: boolean; error?: string }]>([
    ['JSONPath entry not exist', '{.foo.bar}', 'baz', { matched: false }],
    ['compare boolean JSONPath entry', '{.status.containerStatuses[0].ready}', 'true', { matched: true }],
    ['compare boolean JSONPath entry wrong value', '{.status.containerStatuses[0].ready}', 'false', { matched: false }],
    ['compare integer JSONPath entry', '{.spec.containers[0].ports[0].containerPort}', '80', { matched: true }],
    ['compare integer JSONPath entry wrong value', '{.spec.containers[0].ports[0].containerPort}', '81', { matched: false }],
    ['compare string JSONPath entry', '{.spec.nodeName}', 'knode0', { matched: true }],
    ['matches literal value of JSONPath entry without value condition', '{.spec.nodeName}', undefined, { matched: true }],
    ['matches complex types map[string]interface{} without value condition', '{.spec}', undefined, { matched: true }],
    ['compare string JSONPath entry wrong value', '{.spec.nodeName}', 'kmaster', { matched: false }],
    ['matches more than one value', '{.status.conditions[*]}', 'foo', { matched: false, error: 'given jsonpath expression matches more than one value' }],
    [
      'matches more than one value without value condition',
      '{.status.conditions[*]}',
      undefined,
      { matched: false, error: 'given jsonpath expression matches more than one value' },
    ],
    [
      'unsupported type []interface{}',
      '{.status.conditions}',
      'True',
      { matched: false, error: 'jsonpath leads to a nested object or list which is not supported' },
    ],
    [
      'unsupported type map[string]interface{}',
      '{.spec}',
      'foo',
      { matched: false, error: 'jsonpath leads to a nested object or list which is not supported' },
    ],
  ])('%s', (_name, expression, value, expected) => {
    expect(matchesJsonPath(pod, expression, value)).toMatchObject(expected);
  });
});

describe('matchesJsonPath: syntax and semantics', () => {
  const obj = {
    metadata: { name: 'web', generation: 2, labels: { 'app.kubernetes.io/name': 'web' }, annotations: { note: null } },
    status: {
      phase: 'Running',
      replicas: 3,
      ratio: 0.5,
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Available', status: 'False' },
      ],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 0 },
        { name: 'b', ready: false, restartCount: 4 },
      ],
    },
  };
  it.each<[string, string, string | undefined, { matched: boolean; actual?: string; error?: string }]>([
    ['braces and leading dot', '{.status.phase}', 'Running', { matched: true, actual: 'Running' }],
    ['braces without dot', '{status.phase}', 'Running', { matched: true }],
    ['leading dot only', '.status.phase', 'Running', { matched: true }],
    ['bare path', 'status.phase', 'Running', { matched: true }],
    ['compare is case-sensitive', '{.status.phase}', 'running', { matched: false, actual: 'Running' }],
    ['surrounding quotes on the value are dropped', '{.status.phase}', '"Running"', { matched: true }],
    ['surrounding spaces are trimmed', '{.status.phase}', ' Running ', { matched: true }],
    ['quotes inside spaces stay (kubectl trims quotes first)', '{.status.phase}', ' "Running" ', { matched: false }],
    ['number printed by Go', '{.status.replicas}', '3', { matched: true, actual: '3' }],
    ['float printed by Go', '{.status.ratio}', '0.5', { matched: true }],
    ['null prints as <nil>', '{.metadata.annotations.note}', undefined, { matched: true, actual: '<nil>' }],
    ['filter', '{.status.conditions[?(@.type=="Ready")].status}', 'True', { matched: true }],
    ['filter with single quotes and !=', "{.status.conditions[?(@.type!='Ready')].type}", 'Available', { matched: true }],
    ['filter on a boolean', '{.status.containerStatuses[?(@.ready==false)].name}', 'b', { matched: true }],
    ['filter with a number', '{.status.containerStatuses[?(@.restartCount>3)].name}', 'b', { matched: true }],
    [
      'existence filter',
      '{.status.conditions[?(@.status)].type}',
      undefined,
      { matched: false, error: 'given jsonpath expression matches more than one value' },
    ],
    ['filter matching nothing', '{.status.conditions[?(@.type=="Nope")].status}', 'True', { matched: false }],
    [
      'filter comparing incompatible types',
      '{.status.containerStatuses[?(@.ready>1)].name}',
      'b',
      { matched: false, error: 'incompatible types for comparison' },
    ],
    ['index', '{.status.conditions[1].type}', 'Available', { matched: true }],
    ['negative index', '{.status.conditions[-1].type}', 'Available', { matched: true }],
    ['slice', '{.status.conditions[0:1].type}', 'Ready', { matched: true }],
    ['index out of range', '{.status.conditions[5].type}', undefined, { matched: false, error: 'array index out of bounds: index 5, length 2' }],
    ['escaped dots in a key', '{.metadata.labels.app\\.kubernetes\\.io/name}', 'web', { matched: true }],
    ['union', "{.metadata['name','generation']}", undefined, { matched: false, error: 'given jsonpath expression matches more than one value' }],
    ['recursive descent', '{..phase}', 'Running', { matched: true }],
    ['wildcard', '{.status.conditions[*].type}', undefined, { matched: false, error: 'given jsonpath expression matches more than one value' }],
    ['missing key', '{.status.missing}', undefined, { matched: false }],
    ['missing key below a scalar', '{.status.phase.deeper}', undefined, { matched: false }],
    ['indexing a scalar', '{.status.replicas[0]}', undefined, { matched: false, error: 'int64 is not array or slice' }],
    ['filtering a map', '{.status[?(@.x)]}', undefined, { matched: false }],
    ['empty expression', '', undefined, { matched: false, error: 'jsonpath expression cannot be empty' }],
    [
      'unbalanced braces',
      '{.status.phase',
      undefined,
      { matched: false, error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'" },
    ],
    ['unterminated filter', '{.status.conditions[?(@.type=="Ready"]}', undefined, { matched: false, error: 'unterminated filter' }],
    ['unterminated array', '{.status.conditions[0}', undefined, { matched: false, error: 'unterminated array' }],
    ['invalid index', '{.status.conditions[a]}', undefined, { matched: false, error: 'invalid array index a' }],
    ['bad character', '{.status.phase#}', undefined, { matched: false }],
    ['unknown identifier', '{.status phase}', undefined, { matched: false, error: 'unrecognized identifier phase' }],
  ])('%s', (_name, expression, value, expected) => {
    expect(matchesJsonPath(obj, expression, value)).toMatchObject(expected);
  });

  it('a filter on a map is an error naming the type, not printing the map as kubectl does', () => {
    // kubectl prints the whole map here (`map[conditions:[...] ...] is not array or slice and cannot be
    // filtered`); on a Secret that would be its data, so only the type is named.
    expect(matchesJsonPath(obj, '{.status[?(@.x)]}').error).toBe('map[string]interface {} is not array or slice and cannot be filtered');
  });

  it('never throws on odd input', () => {
    for (const input of [null, 'text', 3, [], { status: null }]) {
      expect(() => matchesJsonPath(input, '{.status.phase}', 'Running')).not.toThrow();
      expect(matchesJsonPath(input, '{.status.phase}', 'Running').matched).toBe(false);
    }
  });
});
