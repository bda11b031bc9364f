/**
 * What the engine keeps of a verdict, made small: thousands of targets each keep their latest evaluation
 * (status, message, conditions) for as long as the wait runs, and most of its strings are the same from
 * one object to the next (`Available`, `MinimumReplicasAvailable`, `Deployment has minimum availability.`)
 * while every object parsed from the API server brings its own copies.
 * - An evaluation equal to the one the object already has is not kept again: the one kept stays, and the
 *   new one is garbage while it is still young (an event that changes nothing the report reads costs
 *   nothing that lasts).
 * - Otherwise its short strings are exchanged for one shared copy each (src/string-table.ts), in place, and
 *   each of its conditions for one shared condition equal to it (`Available` of every ready Deployment is
 *   the same): the values stay the same, only the copies go. Nothing changes a kept condition.
 */
import type { Evaluation } from '../status/goal.js';
import { sameProgress } from '../status/progressive/index.js';
import type { Condition } from '../status/types.js';
import { sharedStrings, type StringTable } from '../string-table.js';

/** A condition's message longer than this names its object: not worth sharing. */
const MOST_SHARED_MESSAGE_CHARS = 200;
/** Bound of the shared conditions, whatever the cluster sends (< 1 MB). */
const MOST_SHARED_CONDITIONS = 4096;

/** One shared condition for each set of equal ones, up to a bound. */
export class ConditionTable {
  private readonly conditions = new Map<string, Condition>();

  constructor(private readonly most = MOST_SHARED_CONDITIONS) {}

  /** `condition`, or the equal one seen first. Only plain conditions (the fields of `Condition`) are shared. */
  share(condition: Condition): Condition {
    const fields = condition.synthesized === undefined ? 4 : 5;
    if (condition.message.length > MOST_SHARED_MESSAGE_CHARS || Object.keys(condition).length !== fields) return condition;
    const key = [condition.type, condition.status, condition.reason, condition.message, condition.synthesized ?? ''].join('\u0000');
    const shared = this.conditions.get(key);
    if (shared !== undefined) return shared;
    if (this.conditions.size < this.most) this.conditions.set(key, condition);
    return condition;
  }

  get size(): number {
    return this.conditions.size;
  }
}

const sharedConditions = new ConditionTable();

/**
 * `next` as it is to be kept: `previous` itself when they are equal (same status, message, done, rule, opt-out,
 * progress and conditions), else `next` with its strings shared.
 */
export function keptEvaluation<E extends Evaluation & { optedOut?: true }>(
  next: E,
  previous: E | undefined,
  tables: { strings: StringTable; conditions: ConditionTable } = { strings: sharedStrings, conditions: sharedConditions },
): E {
  if (previous && sameEvaluation(next, previous)) return previous;
  const { strings, conditions } = tables;
  next.message = strings.intern(next.message);
  next.rule = strings.intern(next.rule);
  next.conditions = next.conditions.map((condition) => {
    condition.type = strings.intern(condition.type);
    condition.status = strings.intern(condition.status);
    condition.reason = strings.intern(condition.reason);
    condition.message = strings.intern(condition.message);
    return conditions.share(condition);
  });
  return next;
}

function sameEvaluation(a: Evaluation & { optedOut?: true }, b: Evaluation & { optedOut?: true }): boolean {
  return (
    a.status === b.status &&
    a.message === b.message &&
    a.done === b.done &&
    a.rule === b.rule &&
    a.optedOut === b.optedOut &&
    a.evaluationWarning === b.evaluationWarning &&
    sameProgress(a.progress, b.progress) &&
    sameConditions(a.conditions, b.conditions)
  );
}

function sameConditions(a: Condition[], b: Condition[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((c, i) => {
    const d = b[i]!;
    return c.type === d.type && c.status === d.status && c.reason === d.reason && c.message === d.message && c.synthesized === d.synthesized;
  });
}
