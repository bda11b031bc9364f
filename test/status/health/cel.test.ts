/** The CEL adapter: compile errors with positions, boolean results, and Kubernetes JSON as Flux sees it. */
import { describe, expect, test } from '@jest/globals';
import { celInput, compileExpression, COST_LIMIT, type CelProgram } from '../../../src/status/health/cel.js';

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

/** 40 `a` and a `!`: JavaScript's backtracking RegExp runs `^(a+)+$` on it for minutes; RE2 in microseconds. */
const EVIL_MESSAGE = `${'a'.repeat(40)}!`;
/** A list long enough that three nested macros over it are 8e9 steps. */
const LONG_LIST = Array.from({ length: 2000 }, (_, i) => ({ name: `item-${i}`, ready: true }));

describe('matches() is RE2, as CEL specifies it', () => {
  const input = celInput({ status: { message: EVIL_MESSAGE, conditions: [{ type: 'Ready', message: EVIL_MESSAGE }], pattern: '^a+!$' } });

  test.each([
    // A catastrophic-backtracking pattern for JavaScript, linear here: false at once, wherever it is called.
    ["status.message.matches('^(a+)+$')", false],
    ["status.conditions.exists(c, c.message.matches('^(a+)+$'))", false],
    ["cel.bind(m, status.message, m.matches('^(a|aa)+$'))", false],
    ["!status.message.matches('^(a+)+$') && status.message.matches('^(a+)+!$')", true],
    // A partial match unless anchored, as RE2's PartialMatch (and JavaScript's test) does.
    ["status.message.matches('a!')", true],
    ["status.message.matches('^a!')", false],
    // RE2 syntax JavaScript lacks: inline flags, POSIX classes, \z, Python-style named groups.
    ["'Ready'.matches('(?i)^ready$')", true],
    ["'abc'.matches('^[[:alpha:]]+\\\\z')", true],
    ["'abc'.matches('(?P<first>a)bc')", true],
    // A pattern from the object itself.
    ['status.message.matches(status.pattern)', true],
  ])('%s is %s', (text, expected) => {
    expect(compiled(text).evaluate(input)).toBe(expected);
  });

  test.each([
    // Lookarounds and backreferences are JavaScript, not RE2: an evaluation error that says so.
    ["status.message.matches('(?<=a)!')", /^Invalid regular expression: \(\?<=a\)! \(RE2 syntax: .+\)$/],
    ["status.message.matches('(a)\\\\1')", /^Invalid regular expression: \(a\)\\1 \(RE2 syntax: .+\)$/],
    ["status.message.matches('(a')", /^Invalid regular expression: \(a \(RE2 syntax: .*missing closing \).*\)$/],
    // Error texts name `matches`, never the function it is evaluated through.
    ['status.message.matches(1)', /^found no matching overload for 'string\.matches\(int\)'$/],
  ])('%s is an evaluation error: %s', (text, error) => {
    const result = compiled(text).evaluate(input);
    expect(typeof result === 'object' && result.error).toMatch(error);
  });
});

describe('each evaluation has a cost budget, as Kubernetes gives a CEL expression', () => {
  const overBudget = (limit: number) => ({
    error: `the expression exceeded its cost budget of ${limit} units (as Kubernetes limits a CEL expression): it iterates over too much, nest fewer macros`,
    overBudget: true,
  });

  test('three nested all() over 2,000 elements (8e9 steps) is over the real budget, and ends', () => {
    const input = celInput({ status: { items: LONG_LIST } });
    expect(compiled('status.items.all(a, status.items.all(b, status.items.all(c, a.ready && b.ready && c.ready)))').evaluate(input)).toEqual(
      overBudget(COST_LIMIT),
    );
  });

  // The same budget, reached sooner: a small limit keeps these fast (jest runs the library far slower than node).
  const LIMIT = 10_000;
  const small = (text: string): CelProgram => {
    const result = compileExpression(text, { costLimit: LIMIT });
    if (!result.ok) throw new Error(`${text}: ${result.message}`);
    return result.program;
  };
  const items = LONG_LIST.slice(0, 200);
  const input = celInput({ status: { items, message: 'x'.repeat(10_000), conditions: [{ type: 'Ready', status: 'True' }] } });

  test.each([
    ['two nested exists()', 'status.items.exists(a, status.items.exists(b, !b.ready))'],
    // `||` absorbs an error in CEL, and a macro collects a step's error and goes on: over budget stays over.
    ['an expensive term in || with true', 'status.items.all(a, status.items.all(b, b.ready)) || true'],
    ['an expensive step in exists() that is true later', "status.items.exists(a, status.items.all(b, b.ready) && a.name == 'item-199')"],
    ['a list of lists built, then iterated', 'status.items.map(a, status.items).all(l, l.all(b, b.ready))'],
    // Few steps, each over a long string: a string costs a tenth of a unit per character, as in Kubernetes.
    ['a long string read in every step', 'status.items.all(a, status.message.size() > 0)'],
  ])('%s is over budget', (_name, text) => {
    expect(small(text).evaluate(input)).toEqual(overBudget(LIMIT));
  });

  test.each([
    ['one pass over the elements', 'status.items.all(a, a.ready)', true],
    ['a map and a filter over them', "status.items.map(a, a.name).filter(n, n.endsWith('9')).size() == 20", true],
    ['a condition check', "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')", true],
    ['a pattern over every element', "status.items.exists(a, a.name.matches('^item-(1+)+$'))", true],
  ])('%s is within it', (_name, text, expected) => {
    expect(small(text).evaluate(input)).toBe(expected);
  });

  test('the budget is per evaluation: an expression right after one over budget has all of it', () => {
    small('status.items.all(a, status.items.all(b, b.ready))').evaluate(input);
    expect(small('status.items.all(a, a.ready)').evaluate(input)).toBe(true);
    expect(compiled('status.items.all(a, a.ready)').evaluate(input)).toBe(true);
  });
});
