import type { BasicCondition } from '../conditions.js';
import type { KubeObject } from '../fields.js';
import type { StatusResult } from '../types.js';

/** What a per-kind rule sees: the object, its (already strictly parsed) conditions, and the time. */
export interface RuleInput {
  obj: KubeObject;
  conditions: BasicCondition[];
  now: Date;
}

/** A per-kind rule (kstatus GetConditionsFn). Throws ComputeError where kstatus returns an error. */
export type KindRule = (input: RuleInput) => StatusResult;
