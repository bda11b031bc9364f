/**
 * Pure: one live object against the `wait-for` goal. Status comes from the type's GitOps rule when it has
 * one that speaks (gitops/: Flux and Argo CD against the `revision` input), else the type's health rule when
 * it has one, else from kstatus and the CI rules (`targetStatus`); for condition/jsonpath goals a met goal reads
 * `Current` and an unmet one is never `Current`, so that the public `status` field always says whether the
 * target is where the user wants it. An unmet condition or jsonpath goal is never `Failed` either: like
 * kubectl wait, it waits for it until the deadline.
 */
import type { WaitFor, WantedRevision } from '../settings.js';
import { computeStatus } from './compute.js';
import { parseConditions } from './conditions.js';
import type { GitOpsRule } from './gitops/index.js';
import { evaluateHealth } from './health/evaluate.js';
import type { HealthRule, HealthRuleProblem } from './health/types.js';
import type { Progress } from './progressive/progress.js';
import { shownJsonPathValue } from './jsonpath/secret-data.js';
import { targetStatus } from './target-status.js';
import type { Condition, Status, StatusResult } from './types.js';
import { matchesCondition, matchesJsonPath } from './wait-for.js';

export interface Evaluation {
  status: Status;
  message: string;
  conditions: Condition[];
  /** At the desired status (for `deleted`: never while the object exists). */
  done: boolean;
  /** What judged it: `kstatus`, `builtin:<name>`, `health-checks[<i>]` or `gitops:<name>` (Flux and Argo CD kinds). */
  rule: string;
  /** A rule's expression could not be evaluated: the engine warns once per target and rule. */
  evaluationWarning?: string;
  /** Where a progressive rollout stands (an Argo Rollout, a Flagger Canary): step, weight, analysis. */
  progress?: Progress;
  /** The rule can never judge the object (health/types.ts `HealthResult.ruleProblem`): the engine ends with it. */
  ruleProblem?: HealthRuleProblem;
}

/** A rule written as a function rather than CEL, for what CEL cannot know (a Flagger Canary's first sighting). */
export interface FunctionRule {
  /** How it is reported in the `rule` field of the `resources` output. */
  id: string;
  status(obj: Record<string, unknown>): StatusResult;
}

export interface EvaluateOptions {
  now: Date;
  jobCompletion: boolean;
  /** The health rule for this object's type; kstatus when absent. */
  rule?: HealthRule;
  /** The GitOps rule for this object's type (before the health rule, which it may leave the object to). */
  gitOps?: GitOpsRule;
  /** The `revision` input, for the GitOps rule. */
  revision?: WantedRevision;
  /** A built-in rule written as a function, for a type with no health rule (a Flagger Canary). */
  functionRule?: FunctionRule;
}

export const KSTATUS_RULE = 'kstatus';

export function evaluateGoal(object: unknown, waitFor: WaitFor, options: EvaluateOptions): Evaluation {
  try {
    const evaluation = goalResult(object, waitFor, options);
    return { ...evaluation, conditions: ownConditionsFirst(object, evaluation.conditions) };
  } catch (error) {
    // The status library promises not to throw; if it ever does, one object must not stop the wait.
    return {
      status: 'Unknown',
      message: `cannot compute the status: ${error instanceof Error ? error.message : String(error)}`,
      conditions: [],
      done: false,
      rule: options.gitOps?.id ?? options.rule?.id ?? options.functionRule?.id ?? KSTATUS_RULE,
    };
  }
}

/** The object's status by its GitOps rule when that speaks, else by its health rule when it has one, else by
 *  kstatus (and the CI rules). */
function judge(object: unknown, options: EvaluateOptions): StatusResult & Pick<Evaluation, 'rule' | 'evaluationWarning' | 'ruleProblem'> {
  const { rule, gitOps } = options;
  if (gitOps && typeof object === 'object' && object !== null) {
    const result = gitOps.status(object as Record<string, unknown>, { now: options.now, ...(options.revision ? { revision: options.revision } : {}) });
    if (result) return { ...result, rule: gitOps.id };
  }
  if (rule && typeof object === 'object' && object !== null) {
    return evaluateHealth(rule, object as Record<string, unknown>);
  }
  const { functionRule } = options;
  if (functionRule && typeof object === 'object' && object !== null) {
    return { ...functionRule.status(object as Record<string, unknown>), rule: functionRule.id };
  }
  return { ...targetStatus(object, options), rule: KSTATUS_RULE };
}

function goalResult(object: unknown, waitFor: WaitFor, options: EvaluateOptions): Evaluation {
  switch (waitFor.kind) {
    case 'ready': {
      const result = judge(object, options);
      return { ...result, done: result.status === 'Current' };
    }
    case 'deleted': {
      // Only whether it still exists matters: no rule judges a deletion.
      const result = computeStatus(object, { now: options.now });
      const message = result.status === 'Terminating' ? result.message : 'still exists';
      return { ...result, message, done: false, rule: KSTATUS_RULE };
    }
    case 'condition': {
      const result = judge(object, options);
      const { rule, conditions } = result;
      if (matchesCondition(object, waitFor.type, waitFor.value)) {
        return { status: 'Current', message: `condition ${waitFor.type}=${waitFor.value}`, conditions, done: true, rule };
      }
      // As `kubectl wait --for=condition=...`: the user named the condition, so only it decides. A Failed
      // verdict of kstatus or a health rule (a Certificate whose issuance failed and is retried) does not end
      // the wait; it keeps waiting until the condition holds or the deadline passes, and says both.
      return stillWaiting(result, conditionMessage(object, waitFor.type, waitFor.value));
    }
    case 'jsonpath': {
      const result = judge(object, options);
      const { rule, conditions } = result;
      const match = matchesJsonPath(object, waitFor.expression, waitFor.value);
      // The expected value is a Secret's data once it matches: shown only when the expression cannot read that.
      const want = waitFor.value === undefined ? undefined : shownJsonPathValue(waitFor.expression, waitFor.value);
      const shown = want === undefined ? waitFor.expression : `${waitFor.expression}=${want}`;
      if (match.matched) return { status: 'Current', message: `jsonpath ${shown}`, conditions, done: true, rule };
      // A Secret's values are never printed, whatever the expression reads.
      const secret = (object as { kind?: unknown } | null)?.kind === 'Secret';
      const shownMatch = secret && match.actual !== undefined ? { ...match, actual: undefined, differs: true } : match;
      return stillWaiting(result, jsonPathMessage(waitFor.expression, want, shownMatch));
    }
  }
}

/** The object's own `.status.conditions`, then the ones kstatus synthesized (Reconciling, Stalled) that the
 *  object does not carry itself, marked so: a reader must not think the controller wrote them. */
function ownConditionsFirst(object: unknown, computed: Condition[]): Condition[] {
  let own: Condition[];
  try {
    own = parseConditions(object as Parameters<typeof parseConditions>[0]);
  } catch {
    own = []; // malformed conditions: the status already says so
  }
  const added = computed.filter((c) => !own.some((o) => o.type === c.type)).map((c) => ({ ...c, synthesized: true }));
  return [...own, ...added];
}

/**
 * Whether a Failed verdict may end the wait before the deadline (`fail-fast`). Only for `ready`, whose
 * verdict is kubewait's own; a condition or jsonpath goal is the user's own question, and like
 * `kubectl wait` it is asked until the deadline, whatever the object's rules or its pods say meanwhile.
 */
export function failureEndsWait(waitFor: WaitFor): boolean {
  return waitFor.kind === 'ready';
}

/**
 * An unmet condition or jsonpath goal: never Current and, as `kubectl wait --for=...`, never Failed either
 * (a Certificate whose issuance failed is retried); the message says what the rule judges meanwhile.
 * Terminating and Unknown keep their meaning.
 */
function stillWaiting(result: StatusResult & Pick<Evaluation, 'rule' | 'evaluationWarning'>, message: string): Evaluation {
  const { rule, conditions, evaluationWarning } = result;
  const warning = evaluationWarning ? { evaluationWarning } : {};
  if (result.status === 'Failed')
    return { status: 'InProgress', message: `${message}; ${rule} judges it Failed: ${result.message}`, conditions, done: false, rule, ...warning };
  const status: Status = result.status === 'Current' || result.status === 'NotFound' ? 'InProgress' : result.status;
  return { status, message, conditions, done: false, rule, ...warning };
}

function conditionMessage(object: unknown, type: string, want: string): string {
  const conditions = (object as { status?: { conditions?: unknown } })?.status?.conditions;
  const found = Array.isArray(conditions)
    ? (conditions as Array<Record<string, unknown>>).find((c) => typeof c?.type === 'string' && c.type.toLowerCase() === type.toLowerCase())
    : undefined;
  if (!found) return `waiting for condition ${type}=${want}: the object has no ${type} condition yet`;
  const reason =
    typeof found.reason === 'string' && found.reason
      ? ` (${found.reason}${typeof found.message === 'string' && found.message ? `: ${found.message}` : ''})`
      : '';
  return `waiting for condition ${type}=${want}: it is ${String(found.status)}${reason}`;
}

/** A value longer than this is not shown (a whole object, a certificate): the message says it differs. */
const MAX_SHOWN_VALUE = 100;

function jsonPathMessage(expression: string, want: string | undefined, match: { actual?: string; error?: string; differs?: boolean }): string {
  if (match.error) return `jsonpath ${expression}: ${match.error.length > 300 ? `${match.error.slice(0, 299)}…` : match.error}`;
  if (want === undefined) return `waiting for ${expression} to exist`;
  if (match.differs || (match.actual !== undefined && match.actual.length > MAX_SHOWN_VALUE)) return `waiting for ${expression}=${want}: the value differs`;
  if (match.actual === undefined) return `waiting for ${expression}=${want}: it does not exist yet`;
  return `waiting for ${expression}=${want}: it is ${JSON.stringify(match.actual)}`;
}
