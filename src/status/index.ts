/** The pure status library: kstatus readiness plus the CI rules layered on top. */
export type * from './types.js';
export { computeStatus, type ComputeOptions } from './compute.js';
export { augment, type AugmentResult } from './augment.js';
export { targetStatus, type TargetStatusOptions } from './target-status.js';
export { diagnosePods, describeProblem, DEFAULT_IMAGE_PULL_GRACE_MS, type DiagnoseOptions } from './diagnose.js';
export { matchesCondition, matchesJsonPath, type JsonPathMatch } from './wait-for.js';
export { SCHEDULE_WINDOW_MS } from './kinds/pod.js';
