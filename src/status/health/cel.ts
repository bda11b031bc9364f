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
 *
 * Two things differ from the library's defaults, because a rule runs on the event loop that also has to
 * end the step at its deadline (a rule that never returns would leave it with no outputs and no summary):
 * - `matches()` has RE2 semantics (linear time, as the CEL spec, Kubernetes and Flux have it) through
 *   `re2js`, where the library would use JavaScript's backtracking RegExp (`'^(a+)+$'` on forty `a` and a
 *   `!` runs for minutes);
 * - each evaluation has a cost budget, as Kubernetes gives each CEL expression (`COST_LIMIT`); an
 *   expression over it is an evaluation error, so three nested `all()` over a long list end at once.
 */
import { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';

/** Parse limits: far above any real health rule, low enough that a pasted blob fails fast. */
const LIMITS = { maxAstNodes: 10_000, maxDepth: 100, maxListElements: 1_000, maxMapEntries: 1_000, maxCallArguments: 32 };

/**
 * The cost budget of one evaluation, in Kubernetes' units and at its per-expression limit (apiextensions
 * `PerCallLimit`, 1,000,000): one unit per evaluated node (an operator, a field access, one iteration of a
 * macro's step), plus one per ten characters or elements of every string or list a node produces, the
 * traversal cost Kubernetes charges for them. A real health rule spends a small fraction; the budget is
 * spent in tens of milliseconds.
 */
export const COST_LIMIT = 1_000_000;

/** Kubernetes' traversal cost factor: a string or list costs a tenth of a unit per character or element. */
const TRAVERSAL_COST_FACTOR = 0.1;

const overBudgetMessage = (limit: number) =>
  `the expression exceeded its cost budget of ${limit} units (as Kubernetes limits a CEL expression): it iterates over too much, nest fewer macros`;

/**
 * Thrown by every node once the budget is spent: one instance, because the rest of each loop throws it once
 * per element left, and capturing a stack trace each time would cost more than the loop did.
 */
const overBudget = Object.assign(new Error('over the cost budget'), { name: 'OverBudget' });

/** The evaluation in progress: what it may spend and has spent; undefined outside `value()` (evaluation is synchronous). */
let budget: { limit: number; spent: number } | undefined;

function charge(units: number): void {
  if (budget === undefined) return;
  budget.spent += units;
  if (budget.spent > budget.limit) throw overBudget;
}

function sizeCost(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value) || value instanceof Uint8Array) return Math.floor(value.length * TRAVERSAL_COST_FACTOR);
  return 0;
}

/**
 * `matches()` through RE2. The library's own `string.matches` cannot be replaced (a second overload of the
 * same signature is refused), so `compileExpression` renames each `.matches(` call in the parsed tree to this
 * function before it is first checked; error texts say `matches` again (`summaryOf`).
 */
const RE2_MATCHES = 'kubewait_re2_matches';

/** Compiled patterns, bounded: a rule has a handful, but a pattern may come from the object itself. */
const compiledPatterns = new Map<string, RE2JS>();
const MAX_COMPILED_PATTERNS = 256;

function re2(pattern: string): RE2JS {
  let compiled = compiledPatterns.get(pattern);
  if (compiled) return compiled;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    // Lookarounds and backreferences are not RE2: say why, not just that it failed.
    throw new Error(`Invalid regular expression: ${pattern} (RE2 syntax: ${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (compiledPatterns.size >= MAX_COMPILED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

interface LibraryEvaluator {
  run?: unknown;
}
let evaluatorSeen: LibraryEvaluator | undefined;

let environment: Environment | undefined;

/**
 * The one environment, set up on the first expression compiled: most waits (Deployments, Services, Jobs)
 * never compile one, and setting it up (the RE2 function, the metered evaluator) costs a few milliseconds of
 * the command's start-up (bench/RESULTS.md).
 */
function celEnvironment(): Environment {
  if (environment) return environment;
  const created = new Environment({
    unlistedVariablesAreDyn: true,
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: true,
    limits: LIMITS,
  });
  created.registerFunction(`string.${RE2_MATCHES}(string): bool`, function (this: LibraryEvaluator, text: string, pattern: string) {
    // The evaluator is what this module meters (meterEvaluation); a handler is the one place it is handed out.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    evaluatorSeen ??= this;
    // As CEL's matches(): true when the pattern matches any substring (RE2 PartialMatch).
    return re2(pattern).test(text);
  });
  meterEvaluation(created);
  environment = created;
  return created;
}

/**
 * The library has no cost option, but every node is evaluated through its evaluator's `run`, macro steps
 * included, and a function's handler is called with the evaluator as `this`: one call of `matches` hands us
 * the evaluator, and its own `run` charges each node. Once over budget every further node throws, so neither
 * a macro (which collects a step's error and goes on) nor `||` (which absorbs an error) can turn it into a
 * value, and the rest of a loop ends in as many cheap throws as it has elements left.
 */
function meterEvaluation(fresh: Environment): void {
  fresh.evaluate(`''.${RE2_MATCHES}('')`, {});
  const evaluator = evaluatorSeen;
  if (!evaluator || typeof evaluator.run !== 'function') throw new Error('@marcbachmann/cel-js changed: its evaluator has no run() to meter');
  const run = evaluator.run as (this: unknown, ast: unknown, ctx: unknown) => unknown;
  evaluator.run = function metered(this: unknown, ast: unknown, ctx: unknown): unknown {
    charge(1);
    const result = run.call(this, ast, ctx);
    const size = sizeCost(result);
    if (size > 0) charge(size);
    return result;
  };
}

interface ParsedNode {
  op: string;
  args: unknown;
}
const isParsedNode = (value: unknown): value is ParsedNode =>
  typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;

/** Every `x.matches(p)` of a freshly parsed expression calls RE2 instead (the tree is not checked yet). */
function useRe2(node: unknown, seen = new Set<unknown>()): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) useRe2(item, seen);
    return;
  }
  if (!isParsedNode(node)) return;
  const args = node.args;
  if (node.op === 'rcall' && Array.isArray(args) && args[0] === 'matches' && Array.isArray(args[2]) && args[2].length === 1) args[0] = RE2_MATCHES;
  useRe2(args, seen);
}

export type CelValueResult = { ok: true; value: unknown } | { ok: false; error: string; missingField?: string; overBudget?: true };

/** Why an evaluation produced no boolean. `missingField` is set when a field or variable is absent;
 *  `overBudget` when it spent its cost budget (the same object will spend it again). */
export interface CelEvalError {
  error: string;
  missingField?: string;
  overBudget?: true;
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
  const summary = isCelError(error) ? (error.summary ?? error.message.split('\n')[0] ?? error.message) : error instanceof Error ? error.message : String(error);
  return summary.replaceAll(RE2_MATCHES, 'matches');
}

export interface CompileOptions {
  /** The cost budget of each evaluation; `COST_LIMIT` unless a test wants to reach it sooner. */
  costLimit?: number;
}

export function compileExpression(text: string, options: CompileOptions = {}): CompileResult {
  // Outside the try: a library that cannot be metered is kubewait's bug, not the expression's.
  const cel = celEnvironment();
  try {
    const evaluate = cel.parse(text);
    useRe2(evaluate.ast);
    return { ok: true, program: program(text, evaluate as (ctx: Record<string, unknown>) => unknown, options.costLimit ?? COST_LIMIT) };
  } catch (error) {
    const position = isCelError(error) ? (error.range?.start ?? 0) : 0;
    return { ok: false, message: summaryOf(error), position };
  }
}

function program(text: string, run: (ctx: Record<string, unknown>) => unknown, costLimit: number): CelProgram {
  const value = (fields: CelInput): CelValueResult => {
    const spending = { limit: costLimit, spent: 0 };
    budget = spending;
    try {
      const result = run(fields);
      // Over budget is over budget, whatever a macro or `||` made of the error on the way out.
      if (spending.spent > costLimit) return { ok: false, error: overBudgetMessage(costLimit), overBudget: true };
      return { ok: true, value: result };
    } catch (error) {
      if (spending.spent > costLimit) return { ok: false, error: overBudgetMessage(costLimit), overBudget: true };
      const missing = missingFieldOf(text, error);
      return { ok: false, error: summaryOf(error), ...(missing === undefined ? {} : { missingField: missing }) };
    } finally {
      budget = undefined;
    }
  };
  return {
    text,
    value,
    evaluate(fields) {
      const result = value(fields);
      if (!result.ok) {
        if (result.overBudget) return { error: result.error, overBudget: true };
        return result.missingField === undefined ? { error: result.error } : { error: result.error, missingField: result.missingField };
      }
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
