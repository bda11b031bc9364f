/**
 * Pure: one live object against the `wait-for` goal. Status comes from the status library; for
 * condition/jsonpath goals a met goal reads `Current` and an unmet one is never `Current`, so that the
 * public `status` field always says whether the target is where the user wants it.
 */
import { computeStatus, matchesCondition, matchesJsonPath, targetStatus } from '../status/index.js';
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
    return evaluateGoal(object, waitFor, options);
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
      // A Secret's values are never printed, whatever the expression reads.
      const secret = (object as { kind?: unknown } | null)?.kind === 'Secret';
      const shownMatch = secret && match.actual !== undefined ? { ...match, actual: undefined, differs: true } : match;
      return { ...unmet(result.status), message: jsonPathMessage(waitFor.expression, waitFor.value, shownMatch), conditions: result.conditions, done: false };
    }
  }
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

/** A value longer than this is not shown (a whole object, a certificate): the message says it differs. */
const MAX_SHOWN_VALUE = 100;

function jsonPathMessage(expression: string, want: string | undefined, match: { actual?: string; error?: string; differs?: boolean }): string {
  if (match.error) return `jsonpath ${expression}: ${match.error.length > 300 ? `${match.error.slice(0, 299)}…` : match.error}`;
  if (want === undefined) return `waiting for ${expression} to exist`;
  if (match.differs || (match.actual !== undefined && match.actual.length > MAX_SHOWN_VALUE)) return `waiting for ${expression}=${want}: the value differs`;
  if (match.actual === undefined) return `waiting for ${expression}=${want}: it does not exist yet`;
  return `waiting for ${expression}=${want}: it is ${JSON.stringify(match.actual)}`;
}
