/**
 * What the engine keeps of a verdict, made small: thousands of targets each keep their latest evaluation
 * (status, message, conditions) for as long as the wait runs, and most of its strings are the same from
 * one object to the next (`Available`, `MinimumReplicasAvailable`, `Deployment has minimum availability.`)
 * while every object parsed from the API server brings its own copies.
 * - An evaluation equal to the one the object already has is not kept again: the one kept stays, and the
 *   new one is garbage while it is still young (an event that changes nothing the report reads costs
 *   nothing that lasts).
 * - Otherwise its short strings are exchanged for one shared copy each (`StringTable`), in place: the
 *   values stay the same, only the copies go.
 */
import type { Evaluation } from '../status/goal.js';
import type { Condition } from '../status/types.js';

/** Strings longer than this are rarely repeated (they name the object): not worth a table entry. */
const MOST_INTERNED_CHARS = 200;
/** Bound of the table: whatever the cluster sends, it holds at most this many strings (< 1 MB). */
const MOST_INTERNED = 4096;

/** One shared copy of each short string seen, up to a bound (then strings pass through unshared). */
export class StringTable {
  private readonly strings = new Map<string, string>();

  constructor(
    private readonly most = MOST_INTERNED,
    private readonly longest = MOST_INTERNED_CHARS,
  ) {}

  intern(text: string): string {
    const shared = this.strings.get(text);
    if (shared !== undefined) return shared;
    if (text.length <= this.longest && this.strings.size < this.most) this.strings.set(text, text);
    return text;
  }

  get size(): number {
    return this.strings.size;
  }
}

/** One table for the process: the strings are the cluster's vocabulary, the same for every wait. */
const shared = new StringTable();

/**
 * `next` as it is to be kept: `previous` itself when they are equal (same status, message, done, rule, opt-out
 * and conditions), else `next` with its strings shared.
 */
export function keptEvaluation<E extends Evaluation & { optedOut?: true }>(next: E, previous: E | undefined, strings: StringTable = shared): E {
  if (previous && sameEvaluation(next, previous)) return previous;
  next.message = strings.intern(next.message);
  next.rule = strings.intern(next.rule);
  for (const condition of next.conditions) {
    condition.type = strings.intern(condition.type);
    condition.status = strings.intern(condition.status);
    condition.reason = strings.intern(condition.reason);
    condition.message = strings.intern(condition.message);
  }
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
