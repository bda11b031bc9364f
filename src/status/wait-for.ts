/** `kubectl wait --for=condition=...` and `--for=jsonpath=...` as pure predicates (kubectl pkg/cmd/wait). */
import { isInt64, isPlainObject, goValue } from './go-format.js';
import { findResults } from './jsonpath/evaluate.js';
import { parseTemplate } from './jsonpath/parser.js';

/**
 * kubectl's condition check: the first condition whose type matches (case-insensitively) and whose status is a
 * string decides; it only counts once it describes the latest generation (its own observedGeneration, else
 * status.observedGeneration, must not be older than metadata.generation).
 */
export function matchesCondition(obj: unknown, type: string, value: string): boolean {
  if (!isPlainObject(obj)) return false;
  const status = isPlainObject(obj.status) ? obj.status : {};
  if (!Array.isArray(status.conditions)) return false;
  for (const condition of status.conditions) {
    if (!isPlainObject(condition)) continue;
    if (typeof condition.type !== 'string' || !equalFold(condition.type, type)) continue;
    if (typeof condition.status !== 'string') continue;
    const generation = isPlainObject(obj.metadata) ? obj.metadata.generation : undefined;
    if (isInt64(generation)) {
      const observed = isInt64(condition.observedGeneration) ? condition.observedGeneration : status.observedGeneration;
      if (isInt64(observed) && observed < generation) return false;
    }
    return equalFold(condition.status, value);
  }
  return false;
}

/** Go's strings.EqualFold: equal under simple (per-character) Unicode case folding. */
function equalFold(a: string, b: string): boolean {
  const left = [...a];
  const right = [...b];
  if (left.length !== right.length) return false;
  return left.every((char, i) => {
    const other = right[i]!;
    if (char === other) return true;
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    return (lower.length === 1 && lower === other.toLowerCase()) || (upper.length === 1 && upper === other.toUpperCase());
  });
}

export interface JsonPathMatch {
  matched: boolean;
  /** The value found, as kubectl prints it for comparison. */
  actual?: string;
  /** Why the expression cannot be evaluated (bad syntax, several values, a nested object compared to a value). */
  error?: string;
}

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/s;

/** kubectl's RelaxedJSONPathExpression: `{.a.b}`, `{a.b}`, `.a.b` and `a.b` all mean `{.a.b}`. */
export function relaxedJsonPath(expression: string): { template?: string; error?: string } {
  if (expression === '') return { error: 'jsonpath expression cannot be empty' };
  const match = RELAXED.exec(expression);
  if (!match) {
    return {
      error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    };
  }
  return { template: `{.${match[1] ?? match[2]}}` };
}

/**
 * kubectl wait's jsonpath check. Without `value` the path must yield exactly one value (of any kind); with
 * `value` that value must be a scalar whose printed form equals `value` (both trimmed; surrounding quotes on
 * `value` are dropped, as kubectl does when it splits `EXPR=VALUE`).
 */
export function matchesJsonPath(obj: unknown, expression: string, value?: string): JsonPathMatch {
  const relaxed = relaxedJsonPath(expression);
  if (relaxed.error !== undefined) return { matched: false, error: relaxed.error };
  try {
    const results = findResults(parseTemplate(relaxed.template!), obj);
    if (results.length === 0 || results[0]!.length === 0) return { matched: false };
    if (results.length > 1) return { matched: false, error: 'given jsonpath expression matches more than one list' };
    if (results[0]!.length > 1) return { matched: false, error: 'given jsonpath expression matches more than one value' };
    const found = results[0]![0];
    const nested = typeof found === 'object' && found !== null;
    const actual = nested ? JSON.stringify(found) : goValue(found);
    if (value === undefined) return { matched: true, actual };
    if (nested) return { matched: false, actual, error: 'jsonpath leads to a nested object or list which is not supported' };
    const expected = value.replace(/^['"]+|['"]+$/g, '');
    return { matched: actual.trim() === expected.trim(), actual };
  } catch (error) {
    return { matched: false, error: error instanceof Error ? error.message : String(error) };
  }
}
