/**
 * The one module that knows which CEL library runs the health rules (bench/cel.ts measured the choice:
 * `@marcbachmann/cel-js` is the only npm implementation that parses the optional syntax Flux enables,
 * `status.?conditions.orValue([])`, and it is the smallest). Everything else sees only
 * `compileExpression` and `CelProgram`, so the library can be swapped without touching a rule.
 *
 * The environment mirrors fluxcd/pkg runtime/cel: expressions are parsed, not type-checked against
 * declared variables (not every CRD has the same top-level fields), optional types are on, aggregate
 * literals are homogeneous, numbers compare across types. Values are converted as Kubernetes'
 * unstructured JSON decoder does: integers become int64 (bigint here), other numbers double.
 */
import { Environment } from '@marcbachmann/cel-js';

/** Parse limits: far above any real health rule, low enough that a pasted blob fails fast. */
const LIMITS = { maxAstNodes: 10_000, maxDepth: 100, maxListElements: 1_000, maxMapEntries: 1_000, maxCallArguments: 32 };

const environment = new Environment({
  unlistedVariablesAreDyn: true,
  enableOptionalTypes: true,
  homogeneousAggregateLiterals: true,
  limits: LIMITS,
});

export type CelValueResult = { ok: true; value: unknown } | { ok: false; error: string; missingField?: string };

/** Why an evaluation produced no boolean. `missingField` is set when a field or variable is absent. */
export interface CelEvalError {
  error: string;
  missingField?: string;
}

/** An object's top-level fields converted to CEL values once (`celInput`), then shared by its rule's expressions. */
export type CelInput = Readonly<Record<string, unknown>> & { readonly __celInput: true };

export interface CelProgram {
  readonly text: string;
  /** The expression's boolean result over an object's top-level fields; a non-boolean result is an error. */
  evaluate(fields: CelInput): boolean | CelEvalError;
  /** The raw result (any CEL value), for the conformance tests. */
  value(fields: CelInput): CelValueResult;
}

/** The variables of an expression: the object's top-level fields (`metadata`, `spec`, `status`, ...). */
export const celInput = (fields: Record<string, unknown>): CelInput => toCel(fields) as CelInput;

export type CompileResult =
  | { ok: true; program: CelProgram }
  /** `position` is the 0-based offset into the expression where parsing failed. */
  | { ok: false; message: string; position: number };

interface CelErrorShape {
  name: string;
  summary?: string;
  message: string;
  range?: { start: number; end: number };
  node?: { start?: number; end?: number; range?: { start: number; end: number } };
}

const isCelError = (error: unknown): error is CelErrorShape => error instanceof Error && ['ParseError', 'EvaluationError', 'TypeError'].includes(error.name);

/** The library's one-line reason, without its ASCII-art excerpt of the source. */
function summaryOf(error: unknown): string {
  if (isCelError(error)) return error.summary ?? error.message.split('\n')[0] ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export function compileExpression(text: string): CompileResult {
  try {
    const evaluate = environment.parse(text);
    return { ok: true, program: program(text, evaluate as (ctx: Record<string, unknown>) => unknown) };
  } catch (error) {
    const position = isCelError(error) ? (error.range?.start ?? 0) : 0;
    return { ok: false, message: summaryOf(error), position };
  }
}

function program(text: string, run: (ctx: Record<string, unknown>) => unknown): CelProgram {
  const value = (fields: CelInput): CelValueResult => {
    try {
      return { ok: true, value: run(fields) };
    } catch (error) {
      const missing = missingFieldOf(text, error);
      return { ok: false, error: summaryOf(error), ...(missing === undefined ? {} : { missingField: missing }) };
    }
  };
  return {
    text,
    value,
    evaluate(fields) {
      const result = value(fields);
      if (!result.ok) return result.missingField === undefined ? { error: result.error } : { error: result.error, missingField: result.missingField };
      if (typeof result.value !== 'boolean') return { error: `expression returned ${celTypeName(result.value)}, not bool` };
      return result.value;
    },
  };
}

/** The source text of the access that failed (`status.conditions`), when the error is a missing key or variable. */
function missingFieldOf(text: string, error: unknown): string | undefined {
  if (!isCelError(error)) return undefined;
  const reason = error.summary ?? '';
  if (!/^(No such key|Unknown variable)/i.test(reason)) return undefined;
  const node = error.node;
  const start = node?.range?.start ?? node?.start;
  const end = node?.range?.end ?? node?.end;
  if (start === undefined || end === undefined) return undefined;
  return text.slice(start, end);
}

function celTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'object') return value.constructor === Object || value instanceof Map ? 'map' : value.constructor.name.toLowerCase();
  return typeof value;
}

/**
 * JSON as Kubernetes decodes it into unstructured objects: an integral number is int64, any other
 * number float64. Without this `status.replicas + 1` would be a double and `string(status.replicas)`
 * would differ from Flux.
 */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toCel(item);
    return out;
  }
  return value;
}
