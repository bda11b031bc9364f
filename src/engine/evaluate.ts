/**
 * Pure: one live object against the `wait-for` goal. Status comes from the status library; for
 * condition/jsonpath goals a met goal reads `Current` and an unmet one is never `Current`, so that the
 * public `status` field always says whether the target is where the user wants it.
 */
import { computeStatus, matchesCondition, matchesJsonPath, targetStatus } from '../status/index.js';
import { parseConditions } from '../status/conditions.js';
import type { Condition, Status } from '../status/types.js';
import type { WaitFor } from './types.js';

export interface Evaluation {
  status: Status;
  message: string;
  conditions: Condition[];
  /** At the desired status (for `deleted`: never while the object exists). */
  done: boolean;
}

export interface EvaluateOptions {
  now: Date;
  jobCompletion: boolean;
}

export function evaluate(object: unknown, waitFor: WaitFor, options: EvaluateOptions): Evaluation {
  try {
    const evaluation = evaluateGoal(object, waitFor, options);
    return { ...evaluation, conditions: ownConditionsFirst(object, evaluation.conditions) };
  } catch (error) {
    // The status library promises not to throw; if it ever does, one object must not stop the wait.
    return { status: 'Unknown', message: `cannot compute the status: ${error instanceof Error ? error.message : String(error)}`, conditions: [], done: false };
  }
}

function evaluateGoal(object: unknown, waitFor: WaitFor, options: EvaluateOptions): Evaluation {
  switch (waitFor.kind) {
    case 'ready': {
      const result = targetStatus(object, options);
      return { ...result, done: result.status === 'Current' };
    }
    case 'deleted': {
      const result = computeStatus(object, { now: options.now });
      const message = result.status === 'Terminating' ? result.message : 'still exists';
      return { ...result, message, done: false };
    }
    case 'condition': {
      const result = targetStatus(object, options);
      if (matchesCondition(object, waitFor.type, waitFor.value)) {
        return { status: 'Current', message: `condition ${waitFor.type}=${waitFor.value}`, conditions: result.conditions, done: true };
      }
      return { ...unmet(result.status), message: conditionMessage(object, waitFor.type, waitFor.value), conditions: result.conditions, done: false };
    }
    case 'jsonpath': {
      const result = targetStatus(object, options);
      const match = matchesJsonPath(object, waitFor.expression, waitFor.value);
      const shown = waitFor.value === undefined ? waitFor.expression : `${waitFor.expression}=${waitFor.value}`;
      if (match.matched) return { status: 'Current', message: `jsonpath ${shown}`, conditions: result.conditions, done: true };
      return { ...unmet(result.status), message: jsonPathMessage(waitFor.expression, waitFor.value, match), conditions: result.conditions, done: false };
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

/** A goal not met is not Current; Failed, Terminating and Unknown keep their meaning. */
function unmet(status: Status): { status: Status } {
  return { status: status === 'Current' || status === 'NotFound' ? 'InProgress' : status };
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

function jsonPathMessage(expression: string, want: string | undefined, match: { actual?: string; error?: string }): string {
  if (match.error) return `jsonpath ${expression}: ${match.error}`;
  if (want === undefined) return `waiting for ${expression} to exist`;
  if (match.actual === undefined) return `waiting for ${expression}=${want}: it does not exist yet`;
  return `waiting for ${expression}=${want}: it is ${JSON.stringify(match.actual)}`;
}
