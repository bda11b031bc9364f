/**
 * Flux's CEL status evaluator (fluxcd/pkg runtime/cel status_evaluator.go, RFC-0009), for one object and
 * the rule that matches it:
 * 1. an integer `status.observedGeneration` that differs from an integer `metadata.generation` is
 *    InProgress, before any expression runs (a non-integer one, as some CRDs have, skips the gate, as Flux
 *    does since 2026-04);
 * 2. then `inProgress`, `failed`, `current`, in that order: the first that is true decides;
 * 3. none true is InProgress.
 * Where Flux returns an evaluation error (and kstatus then waits as Unknown until the timeout), the
 * object stays InProgress with a message naming the missing field, and `evaluationWarning` asks the
 * engine to warn once. Deletion outranks every rule, as in kstatus. Pure; never throws.
 */
import { isInt64, isPlainObject } from '../go-format.js';
import { current, failed, inProgress } from '../results.js';
import type { StatusResult } from '../types.js';
import { celInput, type CelEvalError, type CelProgram } from './cel.js';
import { HEALTH_CHECKS_INPUT } from './parse.js';
import { EXPRESSION_FIELDS, type ExpressionField, type HealthResult, type HealthRule, type HealthRuleProblem } from './types.js';

/** The controller has not written a status yet: expected for a new object, so no warning. */
export const WAITING_FOR_CONTROLLER = 'waiting for its controller to report status';

export function evaluateHealth(rule: HealthRule, obj: Record<string, unknown>): HealthResult {
  const judged = (result: StatusResult, evaluationWarning?: string): HealthResult => ({
    ...result,
    rule: rule.id,
    ...(evaluationWarning === undefined ? {} : { evaluationWarning }),
  });
  const metadata = isPlainObject(obj.metadata) ? obj.metadata : {};
  if (typeof metadata.deletionTimestamp === 'string' && metadata.deletionTimestamp !== '') {
    return judged({ status: 'Terminating', message: 'Resource scheduled for deletion', conditions: [] });
  }
  const status = isPlainObject(obj.status) ? obj.status : undefined;
  const generation = metadata.generation;
  const observed = status?.observedGeneration;
  // As Flux: only when both are integers (a string observedGeneration, as Argo Rollouts has, skips it).
  if (isInt64(observed) && isInt64(generation) && observed !== generation) {
    const kind = typeof obj.kind === 'string' ? obj.kind : 'Resource';
    return judged(inProgress('LatestGenerationNotObserved', `${kind} generation is ${generation}, but latest observed generation is ${observed}`));
  }

  const input = celInput(obj);
  for (const field of EXPRESSION_FIELDS) {
    const program = rule[field];
    if (!program) continue;
    const result = program.evaluate(input);
    if (result === true) return judged(verdict(field, rule, obj));
    if (result === false) continue;
    if (result.overBudget)
      return {
        ...judged(inProgress('HealthCheckError', `cannot evaluate the ${field} expression of ${rule.id}: ${result.error}`)),
        ruleProblem: overBudgetProblem(field, rule, obj, result),
      };
    return judged(...evaluationError(field, rule, obj, result));
  }
  return judged(inProgress('HealthCheckPending', ownMessage(obj) ?? `no health expression of ${rule.id} is true yet (current: ${rule.current.text})`));
}

function verdict(field: ExpressionField, rule: HealthRule, obj: Record<string, unknown>): StatusResult {
  const program = rule[field];
  const matched = `${rule.id}: ${field} expression is true (${program?.text ?? ''})`;
  switch (field) {
    case 'current':
      return current('Resource is current');
    case 'failed':
      return failed('HealthCheckFailed', causeMessage(program!, obj) ?? ownMessage(obj) ?? matched);
    case 'inProgress':
      return inProgress('HealthCheckInProgress', ownMessage(obj) ?? progressMessage(obj) ?? matched);
  }
}

/** A rule whose expression spends its cost budget on this object can never judge it: the rule's problem, named. */
function overBudgetProblem(field: ExpressionField, rule: HealthRule, obj: Record<string, unknown>, error: CelEvalError): HealthRuleProblem {
  const metadata = isPlainObject(obj.metadata) ? obj.metadata : {};
  const kind = typeof obj.kind === 'string' ? obj.kind : 'object';
  const name = [metadata.namespace, metadata.name].filter((part) => typeof part === 'string' && part !== '').join('/');
  const where = rule.file ? ` (${rule.file}${rule.line ? `:${rule.line}` : ''})` : '';
  return {
    input: HEALTH_CHECKS_INPUT,
    message:
      `Health rule ${rule.id}${where} cannot judge ${kind} ${name}: ${error.error} (its ${field} expression: ${rule[field]?.text ?? ''}). ` +
      'Read the one field or condition that decides, like current: status.conditions.exists(c, c.type == "Ready" && c.status == "True")',
    ...(rule.file === undefined ? {} : { file: rule.file }),
    ...(rule.line === undefined ? {} : { line: rule.line }),
  };
}

function evaluationError(field: ExpressionField, rule: HealthRule, obj: Record<string, unknown>, error: CelEvalError): [StatusResult, string?] {
  const status = obj.status;
  const noStatus = status === undefined || status === null || (isPlainObject(status) && Object.keys(status).length === 0);
  // Before its controller has written a status, an expression that reads the status cannot be judged:
  // wait quietly (a typo still shows once a status arrives). An expression over other fields warns.
  if (noStatus && /\bstatus\b/.test(rule[field]?.text ?? '')) {
    return [inProgress('NoStatus', WAITING_FOR_CONTROLLER)];
  }
  const what = error.missingField === undefined ? error.error : `it references the missing field ${error.missingField}`;
  const message = `cannot evaluate the ${field} expression of ${rule.id}: ${what}`;
  return [inProgress('HealthCheckError', message), `${message} (expression: ${rule[field]?.text ?? ''}); the object is treated as in progress`];
}

/**
 * The message of the condition that made `expression` true: the first condition with a message without
 * which the expression is no longer true. A Certificate whose issuance failed has Ready=False "Issuing
 * certificate as Secret does not exist" and Issuing=False with the ACME error; its rule fails on the
 * Issuing condition, so that is the message that explains it. Undefined when no single condition decides
 * (a phase did), and the object's own account is used.
 */
function causeMessage(expression: CelProgram, obj: Record<string, unknown>): string | undefined {
  const status = isPlainObject(obj.status) ? obj.status : undefined;
  if (!status || !Array.isArray(status.conditions)) return undefined;
  const all = status.conditions;
  for (const [i, condition] of all.entries()) {
    if (!isPlainObject(condition) || typeof condition.message !== 'string' || condition.message === '') continue;
    const without = celInput({ ...obj, status: { ...status, conditions: all.filter((_, j) => j !== i) } });
    if (expression.evaluate(without) !== true) return condition.message;
  }
  return undefined;
}

/** Condition types whose True means trouble (kstatus's Stalled, Strimzi's NotReady, KEDA's Fallback, ...). */
const NEGATIVE_TYPES = new Set(['Stalled', 'NotReady', 'Degraded', 'Failed', 'Error', 'Fallback']);

/** A reason that names an error (ReconciliationFailed, ReconcileError, InvalidProviderConfig, ...), not a state. */
const ERROR_REASON = /fail|error|invalid/i;

/**
 * The object's own account of itself, which beats any generic text: `status.phaseReason` (CloudNativePG
 * keeps the error of its phase there, beside a fixed "Cluster Is Not Ready"), else the message of a Ready
 * condition that is not True, else `status.message`, else a condition that says what went wrong: a False one
 * whose reason names an error (Prometheus's `Reconciled=False ReconciliationFailed` beside a plain
 * `Available=False`), then a True one of a negative type (NotReady, Stalled, Fallback, ...), else the first
 * False condition with a message (at the top level, then per parent as Gateway API routes have them);
 * prefixed with `phase <phase>` when there is one, or the phase alone.
 */
export function ownMessage(obj: Record<string, unknown>): string | undefined {
  const status = isPlainObject(obj.status) ? obj.status : undefined;
  if (!status) return undefined;
  const conditions = conditionsOf(status.conditions);
  const parents = Array.isArray(status.parents) ? status.parents.flatMap((p) => (isPlainObject(p) ? conditionsOf(p.conditions) : [])) : [];
  const withMessage = [...conditions, ...parents].filter((c) => c.message !== '');
  const message =
    (typeof status.phaseReason === 'string' && status.phaseReason !== '' ? status.phaseReason : undefined) ??
    withMessage.find((c) => c.type === 'Ready' && c.status !== 'True')?.message ??
    (typeof status.message === 'string' && status.message !== '' ? status.message : undefined) ??
    withMessage.find((c) => c.status === 'False' && ERROR_REASON.test(c.reason))?.message ??
    withMessage.find((c) => c.status === 'True' && NEGATIVE_TYPES.has(c.type))?.message ??
    withMessage.find((c) => c.status === 'False')?.message;
  const phase = typeof status.phase === 'string' && status.phase !== '' ? `phase ${status.phase}` : undefined;
  if (message === undefined) return phase;
  return phase ? `${phase}: ${message}` : message;
}

/**
 * For an object in progress whose own account is all good news (a Certificate re-issuing still has its old
 * Ready=True): the message of a True condition other than Ready, which says what is going on
 * (Issuing=True "Renewing certificate as renewal was scheduled").
 */
function progressMessage(obj: Record<string, unknown>): string | undefined {
  const status = isPlainObject(obj.status) ? obj.status : undefined;
  if (!status) return undefined;
  return conditionsOf(status.conditions).find((c) => c.status === 'True' && c.type !== 'Ready' && c.message !== '')?.message;
}

interface LooseCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

function conditionsOf(value: unknown): LooseCondition[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).map((c) => ({
    type: typeof c.type === 'string' ? c.type : '',
    status: typeof c.status === 'string' ? c.status : '',
    reason: typeof c.reason === 'string' ? c.reason : '',
    message: typeof c.message === 'string' ? c.message : '',
  }));
}
