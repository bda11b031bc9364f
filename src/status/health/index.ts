/**
 * Health rules for custom resources (Flux `healthCheckExprs`), the built-in library, the suspended-Flux
 * warning and the status-grace decision. Pure: `loadHealthChecks` reads the files the `health-checks` input
 * names through the reader it is given (src/workspace-files.ts).
 */
export type { HealthRule, HealthRuleProblem, HealthResult, ResolvedRules, ExpressionField } from './types.js';
export { loadHealthChecks, type RuleFiles } from './load.js';
export { HEALTH_CHECKS_INPUT, HEALTH_CHECKS_EXAMPLE } from './parse.js';
export { resolveRules, type ResolveOptions } from './resolve.js';
export { evaluateHealth, WAITING_FOR_CONTROLLER } from './evaluate.js';
export { builtinRules } from './builtin.js';
export { suspendWarning } from './suspend.js';
export { statusGrace, hasNoStatus, declaresStatusSubresource, type StatusGraceOptions, type StatusGraceDecision } from './grace.js';
export { healthRulesFromSettings, type HealthSettings } from './rules-input.js';
