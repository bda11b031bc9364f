/**
 * The engine's options and what it returns. The result's vocabulary (targets as reported, outcomes, the
 * live observer) is the leaf src/result.ts, which the report reads without importing the engine.
 */
import type { EngineObserver, RunResult } from '../result.js';
import type { ResolvedRules } from '../status/health/types.js';
import type { Settings } from '../settings.js';
import type { TargetSpec } from '../targets/types.js';
import type { Time } from '../time.js';

export type { Mode, WaitFor } from '../settings.js';

/** The part of the run's settings the engine acts on. */
export type EngineSettings = Pick<Settings, 'waitFor' | 'timeoutMs' | 'pollIntervalMs' | 'mode' | 'failFast' | 'jobCompletion'> &
  /** Absent: 0 (plain kstatus, no stability window), `paused: wait`, and no revision to wait for; a type not
   *  served yet and a selector matching nothing yet are then waited for until the deadline. */
  Partial<Pick<Settings, 'statusGraceMs' | 'stableForMs' | 'failureGraceMs' | 'paused' | 'revision'>>;

/** The health rules the engine asks per type (user rule > built-in > kstatus); absent: kstatus only. */
export type HealthRules = Pick<ResolvedRules, 'ruleFor'>;

export interface EngineOptions extends EngineSettings {
  targets: TargetSpec[];
  healthRules?: HealthRules;
  /** Namespace for namespaced targets that name none. */
  defaultNamespace: string;
  /** Aborted on SIGTERM/SIGINT (a cancelled job), or by the fleet with its reason in words: the engine stops
   *  and still returns a full result. */
  signal?: AbortSignal;
  /** Live notifications for the log. */
  observer?: EngineObserver;
  /** Added by the engine: how long an image pull may fail before it counts as unrecoverable
   *  (default: the status library's, 15 s). Tests shorten it. */
  imagePullGraceMs?: number;
  /** Added by the engine: interval of `observer.heartbeat` (default 30 s). */
  heartbeatMs?: number;
  /** The clock and timers of every decision (deadline, intervals, grace windows, stable-for): the run's
   *  `Time` (src/time.ts), which tests make virtual. Default: real time. */
  time?: Time;
}

/**
 * What the engine returns: only what it owns (the outcome, every target's status and history, its warnings).
 * The Helm release and the goal it sets are the release wing's (src/release/); the explanations, the
 * explain step's (engine/explain-result.ts); the pipeline assembles the `RunResult` the report reads.
 */
export type EngineResult = Omit<RunResult, 'release' | 'waitFor'>;
