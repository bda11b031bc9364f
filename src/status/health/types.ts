/** The vocabulary of health rules (Flux `healthCheckExprs`), shared by parsing, resolution and evaluation. */
import type { StatusResult } from '../types.js';
import type { CelProgram } from './cel.js';

/** The three expressions of a rule, in Flux's field names (the order they run in: inProgress, failed, current). */
export const EXPRESSION_FIELDS = ['inProgress', 'failed', 'current'] as const;
export type ExpressionField = (typeof EXPRESSION_FIELDS)[number];

export interface HealthRule {
  /** How the rule is reported: `health-checks[<i>]` (user) or `builtin:<name>`. */
  id: string;
  apiVersion: string;
  /** The API group the rule applies to; for built-ins only, `*.example.io` matches every group ending so. */
  group: string;
  /** Absent: every kind in the group. */
  kind?: string;
  current: CelProgram;
  inProgress?: CelProgram;
  failed?: CelProgram;
  /** Where the rule was written (a file of `health-checks` or rules/builtin.yaml). */
  file?: string;
  line?: number;
}

/**
 * An input problem: bad YAML, a bad expression, a duplicate rule. The lead maps it onto the settings
 * module's input-problem type; `input` is always the input's name (`health-checks`).
 */
export interface HealthRuleProblem {
  input: string;
  message: string;
  file?: string;
  line?: number;
}

/** What evaluating a rule on an object gives: `StatusResult` plus which rule judged it. */
export interface HealthResult extends StatusResult {
  rule: string;
  /**
   * Set when an expression could not be evaluated (a field it reads is missing, a non-bool result):
   * the object stays InProgress and the engine should warn once per target and rule with this text.
   */
  evaluationWarning?: string;
  /**
   * Set when the rule can never judge this object (an expression over its cost budget: the same object
   * spends it again every time): the wait must not sit it out until the deadline, but end at once with this
   * problem of the rule, named.
   */
  ruleProblem?: HealthRuleProblem;
}

export interface ResolvedRules {
  /** The rule that judges objects of this apiVersion/kind, or undefined (kstatus judges them). */
  ruleFor(apiVersion: string, kind: string): HealthRule | undefined;
}
