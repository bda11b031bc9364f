/** The pure status library: kstatus readiness plus the CI rules layered on top. */
export { computeStatus, type ComputeOptions } from './compute.js';
export { targetStatus, type TargetStatusOptions } from './target-status.js';
export type * from './types.js';
export { matchesCondition, matchesJsonPath, type JsonPathMatch } from './wait-for.js';
export { diagnosePods, describeProblem, type DiagnoseOptions } from './diagnose.js';
export { augment, type AugmentResult } from './augment.js';
