/** The CEL adapter: compile errors with positions, boolean results, and Kubernetes JSON as Flux sees it. */
import { describe, expect, test } from '@jest/globals';
import { celInput, compileExpression, type CelProgram } from '../../../src/status/health/cel.js';

function compiled(text: string): CelProgram {
  const result = compileExpression(text);
  if (!result.ok) throw new Error(`${text}: ${result.message}`);
  return result.program;
}

const certificate = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: 'web', generation: 2, labels: { app: 'web' } },
  spec: { replicas: 3, ratio: 0.5, dnsNames: ['a.example.com', 'b.example.com'] },
  status: {
    observedGeneration: 2,
    notAfter: '2027-02-28T07:12:44Z',
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date', observedGeneration: 2 },
      { type: 'Issuing', status: 'False', reason: 'Issued', message: 'done' },
    ],
  },
};

describe('compileExpression', () => {
  test.each([
    ['status.phase == ', 16, /EOF/],
    ['status.conditions.exists(c, c.type == "Ready" &&& c.status)', 48, /Unexpected character: &/],
    ["status.phase == 'Ready", 16, /string|Unterminated|Unexpected/i],
    ['status.', 7, /.+/],
  ])('%s is a parse error at offset %d', (text, position, message) => {
    const result = compileExpression(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.position).toBe(position);
    expect(result.message).toMatch(message);
    expect(result.message).not.toContain('\n'); // the one-line reason, not the library's source excerpt
  });

  test('an expression over a huge literal exceeds the parse limits', () => {
    const result = compileExpression(`[${Array.from({ length: 2000 }, (_, i) => i).join(', ')}].size() > 0`);
    expect(result.ok).toBe(false);
  });
});

describe('evaluate', () => {
  const input = celInput(certificate);

  test.each([
    ["status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')", true],
    ["status.conditions.filter(c, c.type == 'Issuing').all(c, c.status == 'True')", false],
    // The optional syntax Flux enables (OptionalTypes), as real rules write it.
    ["status.?conditions.orValue([]).exists(c, c.type == 'Ready')", true],
    ["status.?missing.orValue([]).exists(c, c.type == 'Ready')", false],
    ["status.?conditions[?0].?type.orValue('') == 'Ready'", true],
    ["metadata.?annotations[?'x'].orValue('none') == 'none'", true],
    ["metadata.?labels[?'app'].orValue('') == 'web'", true],
    ['optional.of(1).hasValue() && !optional.none().hasValue()', true],
    // JSON integers are int64 as in Kubernetes' unstructured objects; other numbers double.
    ['status.observedGeneration == metadata.generation', true],
    ['spec.replicas + 1 == 4', true],
    ["string(spec.replicas) == '3'", true],
    ['type(spec.replicas) == int && type(spec.ratio) == double', true],
    ['spec.ratio < 1', true], // cross-type numeric comparison (Flux: CrossTypeNumericComparisons)
    ['status.conditions[0].observedGeneration == metadata.generation', true],
    // String functions and timestamps real rules use.
    ["status.conditions[0].message.startsWith('Certificate') && kind.lowerAscii() == 'certificate'", true],
    ["spec.dnsNames.exists(n, n.endsWith('.example.com')) && 'a.example.com' in spec.dnsNames", true],
    ["timestamp(status.notAfter) > timestamp('2026-01-01T00:00:00Z')", true],
    ['has(status.conditions) && !has(status.phase)', true],
    ["size(status.conditions) == 2 && status.conditions.map(c, c.type) == ['Ready', 'Issuing']", true],
    ['status.conditions.exists_one(c, c.status == "True")', true],
  ])('%s is %s', (text, expected) => {
    expect(compiled(text).evaluate(input)).toBe(expected);
  });

  test.each([
    ['kind', 'expression returned string, not bool'],
    ['spec.replicas', 'expression returned int, not bool'],
    ['status.conditions', 'expression returned list, not bool'],
  ])('%s is an error: a non-boolean result', (text, error) => {
    expect(compiled(text).evaluate(input)).toEqual({ error });
  });

  test.each([
    ["status.phases.exists(p, p == 'x')", { status: { phase: 'Ready' } }, 'status.phases'],
    ["status.conditions.exists(c, c.type == 'Ready')", { status: {} }, 'status.conditions'],
    ["status.conditions.exists(c, c.type == 'Ready')", {}, 'status'],
    ['spec.template.spec.replicas > 0', { spec: { template: {} } }, 'spec.template.spec'],
  ])('%s on %j names the missing field %s', (text, object, field) => {
    const result = compiled(text).evaluate(celInput(object));
    expect(result).toMatchObject({ missingField: field });
    expect(typeof result === 'object' && result.error).toMatch(/No such key|Unknown variable/);
  });

  test('a type error is an error without a missing field', () => {
    const result = compiled("spec.replicas + 'x' == 1").evaluate(input);
    expect(typeof result).toBe('object');
    expect(result).not.toHaveProperty('missingField');
  });
});
